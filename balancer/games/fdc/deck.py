"""Fish! Dash! Cash!'s deck: the `deck` knob (colours x roles x numbers x copies), its
cards, their names and their money (RULES.md §1)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from balancer import knobs

ROLE_NAMES = ("fish", "dash", "cash")


DEFAULT_DECK = {"colours": ["red", "blue"], "roles": ["fish", "dash", "cash"], "numbers": [0, 9]}


MAX_DECK_CARDS = 10_000


MAX_CARD_NUMBER = knobs.INT_LIMIT  # money stays exact as a float, summed over a deck


def _check_deck(value: Any) -> dict:
    if not isinstance(value, Mapping):
        raise ValueError(f"expected a mapping with colours, roles, numbers, copies; got {value!r}")
    unknown = set(value) - set(DEFAULT_DECK)
    if unknown:
        raise ValueError(f"unknown deck key {sorted(map(str, unknown))[0]!r}")
    deck = {**DEFAULT_DECK, **value}
    colours, roles, numbers, copies = (
        deck["colours"],
        deck["roles"],
        deck["numbers"],
        deck["copies"],
    )
    if (
        not isinstance(colours, list)
        or not colours
        or not all(isinstance(c, str) and c for c in colours)
    ):
        raise ValueError("deck.colours must be a non-empty list of names")
    if len(set(colours)) != len(colours):
        raise ValueError("deck.colours has a name twice")
    if not isinstance(roles, list) or not roles or not all(r in ROLE_NAMES for r in roles):
        raise ValueError("deck.roles must be a non-empty list of fish, dash, cash")
    if len(set(roles)) != len(roles):
        raise ValueError("deck.roles has a role twice")
    if (
        not isinstance(numbers, list)
        or len(numbers) != 2
        or not all(knobs.is_whole_number(n) for n in numbers)
        or numbers[0] > numbers[1]
        or numbers[0] < 0
        or numbers[1] > MAX_CARD_NUMBER
    ):
        raise ValueError(
            "deck.numbers must be [low, high], whole numbers with "
            f"0 <= low <= high <= {MAX_CARD_NUMBER}"
        )
    if not knobs.is_whole_number(copies) or copies < 1:
        raise ValueError("deck.copies must be a whole number, at least 1")
    size = len(colours) * len(roles) * (numbers[1] - numbers[0] + 1) * copies
    if size > MAX_DECK_CARDS:
        raise ValueError(f"the deck would hold {knobs.shown(size)} cards; at most {MAX_DECK_CARDS}")
    return {
        "colours": list(colours),
        "roles": list(roles),
        "numbers": list(numbers),
        "copies": copies,
    }


@dataclass(frozen=True)
class Deck:
    """Look-up tables for one deck: a card's colour, role and number, and its money."""

    size: int
    colour: tuple[int, ...]
    role: tuple[int, ...]
    number: tuple[int, ...]
    colour_names: tuple[str, ...]
    copies: int

    def distinct(self, cards: list[int]) -> list[int]:
        """One card per kind: copies of a card are one move, not several (RULES.md §4)."""
        if self.copies == 1:
            return list(cards)
        seen: set[int] = set()
        out = []
        for card in cards:
            kind = card // self.copies
            if kind not in seen:
                seen.add(kind)
                out.append(card)
        return out

    def describe(self, card: int) -> str:
        colour = self.colour_names[self.colour[card]]
        return f"{colour} {ROLE_NAMES[self.role[card]]} {self.number[card]}"


@lru_cache(maxsize=64)
def _deck(
    colours: tuple[str, ...], roles: tuple[str, ...], low: int, high: int, copies: int
) -> Deck:
    colour, role, number = [], [], []
    for c in range(len(colours)):
        for r in roles:
            for n in range(low, high + 1):
                for _ in range(copies):
                    colour.append(c)
                    role.append(ROLE_NAMES.index(r))
                    number.append(n)
    return Deck(len(colour), tuple(colour), tuple(role), tuple(number), colours, copies)


def _tables(rules: Mapping[str, Any]) -> tuple[Deck, tuple[int, ...]]:
    """The deck and money tables of `rules`: each made once per distinct deck and
    cash value (both cached by value), so a game's setup never rebuilds them."""
    return deck_for(rules), money_values(rules)


def deck_for(rules: Mapping[str, Any]) -> Deck:
    d = rules["deck"]
    return _deck(
        tuple(d["colours"]), tuple(d["roles"]), d["numbers"][0], d["numbers"][1], d["copies"]
    )


def describe(card: int, rules: Mapping[str, Any] | None = None) -> str:
    """A card as a person reads it, e.g. 'red fish 7' (default deck unless rules say otherwise)."""
    return deck_for(rules or {"deck": DEFAULT_DECK}).describe(card)


def parse(text: str, rules: Mapping[str, Any] | None = None) -> int:
    """The card written as `describe` writes it ('red fish 7'); the first copy."""
    deck = deck_for(rules or {"deck": DEFAULT_DECK})
    colour, role, number = text.split()
    for card in range(deck.size):
        if (
            deck.colour_names[deck.colour[card]] == colour
            and ROLE_NAMES[deck.role[card]] == role
            and deck.number[card] == int(number)
        ):
            return card
    raise ValueError(f"no card {text!r} in this deck")


def money_values(rules: Mapping[str, Any]) -> tuple[int, ...]:
    """Money per card when cashed, by `cash_value`."""
    return _money(deck_for(rules), rules["cash_value"])


@lru_cache(maxsize=64)
def _money(deck: Deck, mode: str) -> tuple[int, ...]:
    if mode == "count":
        return (1,) * deck.size
    bonus = 1 if mode == "face_plus_one" else 0
    return tuple(n + bonus for n in deck.number)
