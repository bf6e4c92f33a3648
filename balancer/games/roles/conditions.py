"""A step's condition, `if:` inside a primitive's mapping: read, checked, held, told.

    add: {counter: position, by: 2, if: {counter: position, at_most: 3}}

The forms (docs/new-game.md, "Conditions"): `{counter: C, at_least: K}` and/or
`at_most: K`; `{flag: F}` (set); `{zone: Z, count_at_least: K}` and/or
`count_at_most: K` (how many cards are there). K is a whole number or a knob
(`-knob` too). Each reads one seat: the owner's, or the one `of:` names for the
owner (`self`, `next`, `prev`, `trick_leader`, `{top: C}`, `{bottom: C}`: the
target kinds' own seats); a kind the owner picks a rival for, or one naming many
seats, reads no one seat and is refused.

A step whose condition is false does nothing and counts no event; a `choose`
option whose condition is false drops out as one without a legal way (engine.py
`_step`, and kernel/acts.py `_met` compiled). The kernel's op row holds it in its
R_IF words (kernel/layout.py; kernel/tables.py `_condition_row` writes them). This
module imports nothing heavy (`balancer validate` reads it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from balancer.errors import shown
from balancer.games.definition import LogEntry
from balancer.games.roles import vocabulary as voc
from balancer.games.roles.gamefile import KeyPath
from balancer.games.roles.model import Condition
from balancer.games.roles.primitives.base import Words, say
from balancer.games.roles.targets import DEFAULT_TARGET, TARGET_KINDS

if TYPE_CHECKING:
    from balancer.games.roles.engine import Cards, State
    from balancer.games.roles.reader import Reader

KEY = "if"
# Each form's name key, and its bound keys (at_least's first): what a file writes.
FORMS: dict[str, tuple[str, ...]] = {
    "counter": ("at_least", "at_most"),
    "flag": (),
    "zone": ("count_at_least", "count_at_most"),
}


def read(reader: Reader, keypath: KeyPath, value: Any) -> Condition | None:
    """The condition written at `keypath`, or None with its problem recorded."""
    if not isinstance(value, dict):
        reader.fail(keypath, f"expected a condition {_forms()}, got {shown(value)}")
        return None
    kinds = [kind for kind in FORMS if kind in value]
    if len(kinds) != 1:
        said = "more than one of" if kinds else "one of"
        reader.fail(keypath, f"a condition names {said} counter, flag, zone: {_forms()}")
        return None
    (kind,) = kinds
    bounds = FORMS[kind]
    reader.known_keys(keypath, value, (kind, *bounds, "of"))
    if any(key not in (kind, *bounds, "of") for key in value):
        return None
    declared = {"counter": voc.COUNTER, "flag": voc.FLAG, "zone": voc.ZONE}[kind]
    name = reader.use(declared, (*keypath, kind), value[kind])
    if bounds and not any(key in value for key in bounds):
        reader.fail(keypath, f"a {kind} condition needs {bounds[0]!r} or {bounds[1]!r}, or both")
        return None
    # A bound is a whole number or a knob (as an INT parameter); None when not written.
    read_bounds = [
        reader.amount((*keypath, key), value[key], numbers=False) if key in value else None
        for key in bounds
    ]
    broken = any(key in value and b is None for key, b in zip(bounds, read_bounds, strict=True))
    of = _seat_of(reader, (*keypath, "of"), value.get("of", DEFAULT_TARGET))
    if name is None or of is None or broken:
        return None
    low, high = read_bounds if read_bounds else (None, None)
    return Condition(kind, name, of, low, high)


def _forms() -> str:
    return "{counter: C, at_least: K}, {flag: F} or {zone: Z, count_at_least: K}"


def _seat_of(reader: Reader, keypath: KeyPath, value: Any) -> tuple[str, ...] | None:
    target = reader.target(keypath, value)
    if target is None:
        return None
    if not _one_seat(target[0]):
        one = ", ".join(name for name in TARGET_KINDS if _one_seat(name))
        reader.fail(keypath, f"a condition reads one seat, and {target[0]!r} is not one ({one})")
        return None
    return target


def _one_seat(word: str) -> bool:
    """Whether a target kind names one seat the owner does not pick."""
    kind = TARGET_KINDS[word]
    return not (kind.chosen or kind.every_rival or kind.every_seat)


def seat(state: State, condition: Condition, owner: int) -> int:
    """The seat the condition reads for `owner`'s step (its `of`)."""
    argument = condition.of[1] if len(condition.of) > 1 else None
    return TARGET_KINDS[condition.of[0]].seats(state, owner, -1, argument)[0]


def met(state: State, condition: Condition, owner: int) -> bool:
    """Whether `condition` holds now for `owner`'s step (engine.py)."""
    on = seat(state, condition, owner)
    if condition.kind == "flag":
        return state.flags[condition.name][on]
    if condition.kind == "counter":
        value = state.counters[condition.name][on]
    else:
        value = len(state.zones[condition.name][on])
    low, high = condition.at_least, condition.at_most
    return (low is None or value >= state.amount(low)) and (
        high is None or value <= state.amount(high)
    )


# The condition as the trace keeps it (`said`), and its lines (`tell`), per language.
Said = tuple[str, str, int, int | None, int | None]  # kind, name, seat, at least, at most
WORDS: Words = {
    "en": {
        "unmet": "  seat {owner}'s {kind} does nothing: {words} is not so",
        "whose": "seat {seat}'s {name}",
        "flag": "{whose} set",
        "counter": "{whose} {bounds}",
        "zone": "{whose} holding {bounds} cards",
        "at_least": "at least {value}",
        "at_most": "at most {value}",
        "and": " and ",
    },
    "ja": {
        "unmet": "  席 {owner} の {kind} は何もしない（条件「{words}」を満たさない）",
        "whose": "席 {seat} の {name}",
        "flag": "{whose} が付いている",
        "counter": "{whose} が {bounds}",
        "zone": "{whose} の枚数が {bounds}",
        "at_least": "{value} 以上",
        "at_most": "{value} 以下",
        "and": "かつ ",
    },
}


def said(condition: Condition, owner: int, state: State) -> Said:
    """The condition as it read when it stopped a step: its kind and name, the seat it
    read and its bounds with knobs filled in (the trace keeps it; `tell` words it)."""
    low, high = condition.at_least, condition.at_most
    return (
        condition.kind,
        condition.name,
        seat(state, condition, owner),
        None if low is None else state.amount(low),
        None if high is None else state.amount(high),
    )


def words(condition: Said, lang: str) -> str:
    """A condition in words, on the seat it read: `seat 2's position at most 3`,
    `seat 0's bag holding at least 2 cards`, `seat 1's shield set`."""
    kind, name, on, low, high = condition
    say_it = say(WORDS, lang)
    whose = say_it["whose"].format(seat=on, name=name)
    bounds = say_it["and"].join(
        say_it[key].format(value=value)
        for key, value in (("at_least", low), ("at_most", high))
        if value is not None
    )
    return say_it[kind].format(whose=whose, bounds=bounds)


def tell(event: tuple[Any, ...], cards: Cards, lang: str) -> list[LogEntry]:
    """("unmet", seat, primitive, said): a step (or an option) its condition stopped."""
    _, owner, kind, condition = event
    line = say(WORDS, lang)["unmet"]
    return [line.format(owner=owner, kind=kind, words=words(condition, lang))]
