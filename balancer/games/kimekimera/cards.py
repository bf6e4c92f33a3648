"""Kimekimera's cards by name: written as a designer reads them (r5, rainbow, grey) and
read back, for any deck (kk-odds, replay, tests)."""

from __future__ import annotations

from collections.abc import Iterable

from balancer.games.kimekimera import deck as kk_deck
from balancer.games.kimekimera.deck import Deck

DEFAULT_DECK = kk_deck.DEFAULT


def describe(card: int, deck: Deck = DEFAULT_DECK) -> str:
    """A card as a person writes it: 'r5', 'b12', 'rainbow', 'grey'."""
    return deck.describe(card)


def describe_pair(a: int, b: int, deck: Deck = DEFAULT_DECK) -> str:
    return f"{deck.describe(a)}+{deck.describe(b)}"


def parse_card(text: str, deck: Deck = DEFAULT_DECK) -> int:
    """The card that `describe` writes as `text` (the first copy of any card with copies).

    Raises ValueError with a short reason for anything else.
    """
    return deck.parse(text)


def parse_cards(texts: Iterable[str], deck: Deck = DEFAULT_DECK) -> list[int]:
    """Distinct cards for the names given, in order: the k-th 'rainbow' is the k-th copy.

    Raises ValueError when a name is bad or used more often than the deck has it.
    """
    out: list[int] = []
    for text in texts:
        card = first = deck.parse(text)
        copies = deck.copies_of(first)
        while card in out and card < first + copies - 1:
            card += 1
        if card in out:
            raise ValueError(
                f"{deck.describe(first)} is named more than {copies} time{'s' * (copies > 1)}: "
                f"the deck has {copies}"
            )
        out.append(card)
    return out
