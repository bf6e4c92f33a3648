"""A game file once validated: plain, frozen data the engine reads (no YAML, no lines).

Names are kept as names (zones, counters, ...) and mapped to indices once per
game by the engine; an amount or a whole-number parameter that names a knob
is read from the run's rules when the op acts, so one validated file serves
every knob value a sweep tries.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

# An amount: ("int", n) | ("number",) | ("knob", name) | ("minus_knob", name) | ("count", zone)
# | ("times_number", sign, k) (sign * number * k, k an ("int", n) or a knob's amount)
# | ("counter", counter) (the owner's value) | ("value", zone) (the sum of the numbers of
# the owner's cards there)
Amount = tuple[Any, ...]
# A target: ("self",) ... ("top", counter)
Target = tuple[str, ...]
# A deck as a file or the rules write it (deck.py): the one line, or a list of groups.
DeckSpec = Mapping[str, Any] | Sequence[Mapping[str, Any]]


@dataclass(frozen=True)
class Condition:
    """A step's `if:` (conditions.py): one seat's counter, flag or zone count, the seat
    `of` names for the owner; a counter or count within [at_least, at_most] (None: no
    bound that way), a flag set."""

    kind: str  # "counter" | "flag" | "zone"
    name: str
    of: Target
    at_least: Amount | None = None
    at_most: Amount | None = None


@dataclass(frozen=True)
class Op:
    """One primitive with its parameters checked (amounts and targets parsed), and the
    condition it acts under (None: always)."""

    kind: str  # a key of vocabulary.PRIMITIVES
    params: Mapping[str, Any]
    when: Condition | None = None


@dataclass(frozen=True)
class Choose:
    """The owner picks one of `options` (each a primitive: choose never nests)."""

    options: tuple[Op, ...]


# The most options a choose offers: the compiled kernel keeps a bit per option.
MAX_OPTIONS = 62

Step = Op | Choose


@dataclass(frozen=True)
class Role:
    name: str
    resolve: tuple[Step, ...]
    on_cancelled: tuple[Step, ...] = ()


@dataclass(frozen=True)
class Counter:
    name: str
    start: int = 0
    low: int = -(10**9)
    high: int = 10**9


@dataclass(frozen=True)
class Term:
    """A score term: a zone's cards (per card, per number), a counter (times), a rank
    by a counter (`rank` set, below), or a place behind a global counter (`place`
    set: the seat's place in the order the seats' `counter` reached `reaches`, handed
    out by the global; place p of `places` scores places + 1 - p, a place beyond them
    `beyond`, no place 0)."""

    zone: str | None = None
    counter: str | None = None
    per_card: Amount = ("int", 1)
    per_number: Amount = ("int", 0)
    times: Amount = ("int", 1)
    place: str | None = None  # the global counter that hands out places
    reaches: Amount = ("int", 0)
    places: Amount = ("int", 0)
    beyond: Amount = ("int", 0)
    event: str | None = None  # counts each arrival
    beyond_event: str | None = None  # counts each arrival beyond the places
    # A rank term (rank.py): the seats ranked by counter `rank` (the most first, or the
    # fewest with `lowest`), place p scoring points[p - 1], 0 past them; ties share
    # the best place they tie for.
    rank: str | None = None
    points: tuple[Amount, ...] = ()
    lowest: bool = False
    # `{goals: true}` (goals.py): each seat adds the terms of the secret goals it holds.
    goals: bool = False


@dataclass(frozen=True)
class GoalDeck:
    """The secret goals (goals.py): a deck of its own, goal g named names[g] and scored
    by terms[g]; each seat is dealt `deal` of them at setup, face down."""

    deal: int
    names: tuple[str, ...]
    terms: tuple[tuple[Term, ...], ...]


@dataclass(frozen=True)
class EventDef:
    name: str
    meaning: str
    ja: tuple[str, str] | None = None  # (name, meaning) in Japanese
    source: str = "ops"  # "ops" | "from" | "at_end" | "lead_changes"
    engine: str | None = None  # with source "from": a vocabulary.ENGINE_EVENTS name
    terms: tuple[Term, ...] = ()  # with at_end (one) and lead_changes


@dataclass(frozen=True)
class KnobDef:
    name: str
    default: int
    low: int
    high: int
    meaning: str
    section: str = "rules"


@dataclass(frozen=True)
class EndDef:
    kind: str  # "counter" | "global" | "tricks"
    name: str | None
    reaches: Amount


@dataclass(frozen=True)
class RoleGame:
    name: str
    short: str
    path: str  # the file it was read from
    names: Mapping[str, str]  # language -> title
    min_players: int
    max_players: int
    deck: DeckSpec  # the one line or the card groups (deck.py): the deck knob's default
    trick: Mapping[str, Any]  # the trick procedure's knobs' defaults (hand_size among them)
    zones: Mapping[str, str]  # name -> "up" | "down"
    counters: tuple[Counter, ...]
    flags: Mapping[str, str]  # name -> "trick" | "game" (how long a set flag lasts)
    globals: tuple[Counter, ...]
    knobs: tuple[KnobDef, ...]
    roles: Mapping[str, Role]
    hooks: Mapping[str, tuple[Step, ...]]
    score: tuple[Term, ...]
    end: tuple[EndDef, ...]
    higher_is_better: bool
    events: tuple[EventDef, ...] = field(default=())
    goals: GoalDeck | None = None  # None: no secret goals (and nothing more drawn)
    # What validating the file said without refusing it (an inherited event dropped).
    notes: tuple[str, ...] = field(default=(), compare=False)
    # The file as read, its `extends:` chain merged (gamefile.Source.data): what a report
    # keeps of the game it played, so it says which game that was after the file changes,
    # and `diff` can say what changed between two game files.
    description: Mapping[str, Any] = field(default_factory=dict)
