"""Kimekimera's scoring: a chimera's round score against the theme (RULES.md §2), and
the same rule as look-up tables, the fast path the engine, the bots and the odds use."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from balancer.games.kimekimera import deck as kk_deck
from balancer.games.kimekimera.deck import Deck

DEFAULT_DECK = kk_deck.DEFAULT
FIRST_RAINBOW = DEFAULT_DECK.first_rainbow
FIRST_GREY = DEFAULT_DECK.first_grey


def error_and_matches(
    t0: int, t1: int, a: int, b: int, grey_blocks: bool, deck: Deck = DEFAULT_DECK
) -> tuple[int, int]:
    """(error, colour matches) of chimera a+b against theme t0+t1."""
    colour_bits, number = deck.colour_bits, deck.number
    ca = colour_bits[a]
    cb = colour_bits[b]
    if a >= deck.first_grey or b >= deck.first_grey:
        if grey_blocks:
            return 0, 0
        error = 0
    else:
        error = abs(number[t0] + number[t1] - number[a] - number[b])
    x = colour_bits[t0]
    y = colour_bits[t1]
    # The largest one-to-one matching of 2 cards to 2 cards: both pairs on one
    # of the two diagonals gives 2, any shared colour at all gives 1.
    if (x & ca and y & cb) or (x & cb and y & ca):
        return error, 2
    if (x | y) & (ca | cb):
        return error, 1
    return error, 0


def round_score(
    t0: int,
    t1: int,
    a: int,
    b: int,
    bonus: Sequence[int],
    grey_blocks: bool,
    floor: bool,
    deck: Deck = DEFAULT_DECK,
) -> int:
    """One player's round score; `bonus` is (0, points for 1 match, points for 2)."""
    error, matches = error_and_matches(t0, t1, a, b, grey_blocks, deck)
    score = error - bonus[matches]
    if floor and score < 0:
        return 0
    return score


# The fast path: the same rule as tables. A card's colour class is 0..3 (its
# colour), 4 (rainbow) or 5 (grey); matches depend on the classes alone, so
# they are looked up by (theme classes, chimera classes), and a pair of cards
# (index a * size + b, the deck's size) has its sum (-1 when it holds grey)
# and classes at hand (deck.py builds them per deck; these are the printed deck's).
CLASS: tuple[int, ...] = DEFAULT_DECK.colour_class
_CLASS_CARD = (0, 12, 24, 36, FIRST_RAINBOW, FIRST_GREY)  # one printed card of each class
PAIR_SUM: tuple[int, ...] = DEFAULT_DECK.pair_sum
PAIR_CLASS: tuple[int, ...] = DEFAULT_DECK.pair_class
# MATCHES[grey_blocks][theme classes * 36 + chimera classes]
MATCHES: dict[bool, tuple[int, ...]] = {
    blocks: tuple(
        error_and_matches(
            _CLASS_CARD[ta], _CLASS_CARD[tb], _CLASS_CARD[ca], _CLASS_CARD[cb], blocks
        )[1]
        for ta in range(6)
        for tb in range(6)
        for ca in range(6)
        for cb in range(6)
    )
    for blocks in (False, True)
}


Rows = tuple[tuple[int, ...], tuple[int, ...]]


@lru_cache(maxsize=32)
def _error_row(total: int, deck: Deck) -> tuple[int, ...]:
    return tuple(0 if s < 0 else abs(total - s) for s in deck.pair_sum)


@lru_cache(maxsize=1024)
def _bonus_row(
    key: int, bonus: tuple[int, int, int], grey_blocks: bool, deck: Deck
) -> tuple[int, ...]:
    matches = MATCHES[grey_blocks]
    return tuple(-bonus[matches[key + c]] for c in deck.pair_class)


def theme_rows(
    t0: int, t1: int, bonus: tuple[int, int, int], grey_blocks: bool, deck: Deck = DEFAULT_DECK
) -> Rows:
    """For one theme and scoring: (error, -bonus) of every pair, indexed a * size + b.

    A pair's round score is the sum of its two entries (before any floor).
    Rows are built on first use and shared, so a bot pays two look-ups a move.
    """
    classes, number = deck.colour_class, deck.number
    key = (classes[t0] * 6 + classes[t1]) * 36
    return _error_row(number[t0] + number[t1], deck), _bonus_row(key, bonus, grey_blocks, deck)


def pair_score(rows: Rows, a: int, b: int, floor: bool, deck: Deck = DEFAULT_DECK) -> int:
    """`round_score` of chimera a+b through `theme_rows` (made for the same deck)."""
    k = a * deck.size + b
    score = rows[0][k] + rows[1][k]
    return 0 if floor and score < 0 else score


def lottery(rows: Rows, cards: Sequence[int], floor: bool, deck: Deck = DEFAULT_DECK) -> list[int]:
    """The 6 round scores breeding (mine0, mine1, free0, free1) can give, in PAIRS order."""
    error, bonus = rows
    m0, m1, f0, f1 = cards
    size = deck.size
    r0 = m0 * size
    r1 = m1 * size
    r2 = f0 * size
    out = [error[k] + bonus[k] for k in (r0 + m1, r0 + f0, r0 + f1, r1 + f0, r1 + f1, r2 + f1)]
    if floor:
        return [x if x > 0 else 0 for x in out]
    return out
