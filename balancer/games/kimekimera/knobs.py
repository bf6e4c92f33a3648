"""Kimekimera's knobs and events: what a variant may set (RULES.md §2 and its open
points, the deck included) and what a report counts; the engine (engine.py) plays by them."""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from balancer import knobs
from balancer.games.kimekimera import deck as kk_deck
from balancer.games.kimekimera.deck import Deck

DEFAULT_DECK = kk_deck.DEFAULT


EVENTS = ("colour_bonus_1", "colour_bonus_2", "exact_hits", "robots_made", "reshuffles")


def deck_for(rules: Mapping[str, Any]) -> Deck:
    """The deck `rules` play with (the printed one when they don't say).

    A variant's value is checked already; one a caller writes by hand (a test,
    a what-if) may leave keys out, so it is checked (and completed) here too.
    """
    value = rules.get("deck")
    if value is None or value is kk_deck.DEFAULT_DECK:
        return DEFAULT_DECK
    return _deck_from(knobs.freeze(value))


@lru_cache(maxsize=64)
def _deck_from(value: Mapping[str, Any]) -> Deck:
    return kk_deck.deck_of(kk_deck.check_deck(value))


def _check_colour_bonus(value: Any) -> dict[int, int]:
    if not isinstance(value, Mapping):
        raise ValueError(f"expected a mapping {{1: points, 2: points}}, got {value!r}")
    out: dict[int, int] = {}
    for key, points in value.items():
        # Keys come back as strings from JSON (report.json), so "1" is 1 too.
        matches = key if knobs.is_whole_number(key) else None
        if isinstance(key, str) and key.strip() in ("1", "2"):
            matches = int(key)
        if matches not in (1, 2):
            raise ValueError(f"keys are the numbers of matches, 1 and 2; got {key!r}")
        if matches in out:
            raise ValueError(f"key {matches} is given twice")
        if not knobs.is_whole_number(points) or abs(points) > knobs.INT_LIMIT:
            got = knobs.shown(points) if knobs.is_whole_number(points) else repr(points)
            raise ValueError(
                f"points for {matches} match(es) must be a whole number within "
                f"±{knobs.INT_LIMIT}, got {got}"
            )
        out[matches] = points
    for matches in (1, 2):
        if matches not in out:
            raise ValueError(f"missing key {matches} (points for {matches} match(es))")
    return {1: out[1], 2: out[2]}


KNOBS = (
    knobs.custom(
        "deck",
        "rules",
        kk_deck.DEFAULT_DECK,
        "the deck: colours (1..4) × numbers [low, high] × copies, plus rainbow cards"
        " (every colour, number rainbow_number) and grey robot cards",
        kk_deck.check_deck,
        "mapping {colours, numbers: [low, high], copies, rainbow, rainbow_number, grey}",
        listed_at_default=False,
    ),
    knobs.integer(
        "free_chimeras", "rules", 4, "free chimeras (2 cards each) face up", low=1, high=23
    ),
    knobs.integer("rounds", "rules", 5, "rounds played", low=1, high=1000),
    knobs.boolean(
        "rotate_first_player", "rules", True, "the first seat moves on by one each round"
    ),
    knobs.boolean(
        "breeding_optional", "rules", False, "a player may keep their chimera instead of breeding"
    ),
    knobs.choice(
        "leftover",
        "rules",
        "discard",
        "the 2 cards a breeding doesn't take: discarded (slot refilled), or the slot's new chimera",
        ("discard", "free"),
    ),
    knobs.choice(
        "robot_replacement",
        "rules",
        "at_next_breeding",
        "a robot (a my chimera holding grey) is replaced on its owner's next turn instead of"
        " breeding, or right after each round's scoring (then its owner breeds next turn)",
        ("at_next_breeding", "after_scoring"),
    ),
    knobs.boolean(
        "reshuffle_discards",
        "rules",
        True,
        "a draw from an empty deck shuffles the discard into a new deck (else it gets nothing)",
    ),
    knobs.custom(
        "colour_bonus",
        "scoring",
        {1: 3, 2: 7},
        "points subtracted for 1 and for 2 colour matches with the theme",
        _check_colour_bonus,
        "mapping {1: int, 2: int}",
    ),
    knobs.boolean(
        "grey_blocks_colour_bonus",
        "scoring",
        True,
        "a chimera holding grey gets no colour bonus (else its other card may match)",
    ),
    knobs.boolean("floor_at_zero", "scoring", False, "a round score below 0 counts as 0"),
)


def unplayable(rules: Mapping[str, Any], players: int) -> str | None:
    if not 1 <= players <= 4:
        return f"Kimekimera is for 1 to 4 players, not {players}"
    free = rules["free_chimeras"]
    deck = deck_for(rules)
    spare = kk_deck.spare_for_theme(deck)
    dealt = 2 * players + 2 * free
    if dealt + spare > deck.size:
        most = (deck.size - spare - 2 * players) // 2
        if most < 1:
            return (
                f"the {deck.size} cards can't deal {players} my chimeras and even 1 free "
                f"chimera and still surely turn up a theme ({spare} cards must stay in the "
                f"deck with {deck.grey} grey cards, whose themes are redrawn)"
            )
        return (
            f"the {deck.size} cards can't deal {players} my chimeras and {free} free chimeras "
            f"and still surely turn up a theme (grey themes are redrawn); with {players} "
            f"players at most {most} free chimeras"
        )
    return None


def _complete(rules: Mapping[str, Any]) -> Mapping[str, Any]:
    """The rules with every knob (defaults for those not given), read-only.

    A run hands every game the same read-only rules (a variant's, a FrozenDict):
    those are completed once, cached by value; a caller's own dict may change
    between games, so it is completed each time."""
    if type(rules) is knobs.FrozenDict:
        return _completed(rules)
    return knobs.freeze({**knobs.defaults(KNOBS), **rules})


@lru_cache(maxsize=64)
def _completed(rules: knobs.FrozenDict) -> Mapping[str, Any]:
    return knobs.freeze({**knobs.defaults(KNOBS), **rules})
