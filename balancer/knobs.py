"""Rule knobs: the open points of RULES.md, each with a type, a default and a meaning.

A game module declares its knobs; `variant.py` validates YAML values against
them and `balancer knobs GAME` prints them. A knob's `check` turns a raw YAML
value into the engine's value or raises `ValueError` with a short reason.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from balancer import errors

SECTIONS = ("rules", "scoring")  # the variant file's knob sections
BOT_PARAMS = "params"  # the section a bot's own parameters use


class KnobValueError(ValueError):
    """A mistake inside a knob's (mapping) value: `path` is the keys under the knob
    that lead to it, so the error names the line and key where it was written."""

    def __init__(self, message: str, path: Sequence[Any] = ()) -> None:
        super().__init__(message)
        self.path = tuple(path)


@dataclass(frozen=True)
class Knob:
    name: str
    section: str  # "rules" or "scoring" (where it sits in a variant file), or "params"
    default: Any
    meaning: str
    check: Callable[[Any], Any]
    kind: str  # shown by `balancer knobs`
    # False: a resolved variant (report.json, report.html) lists the knob only
    # when it is set away from its default, so a knob added to a game later
    # leaves every report made at its default as it was.
    listed_at_default: bool = True

    def __post_init__(self) -> None:
        if self.section not in (*SECTIONS, BOT_PARAMS):
            raise ValueError(f"knob {self.name}: unknown section {self.section}")


def is_whole_number(value: Any) -> bool:
    """An int and not a bool (YAML's true is an int to Python)."""
    return isinstance(value, int) and not isinstance(value, bool)


def boolean(name: str, section: str, default: bool, meaning: str) -> Knob:
    def check(value: Any) -> bool:
        if not isinstance(value, bool):
            raise ValueError(f"expected true or false, got {shown(value)}")
        return value

    return Knob(name, section, default, meaning, check, "true|false")


# An integer knob with no bound of its own given is held to this range either
# way: values stay exact as floats (2**53) even summed over a whole game, and
# no YAML number too large for a float reaches the engine.
INT_LIMIT = 10**9


def integer(
    name: str,
    section: str,
    default: int | None,
    meaning: str,
    *,
    low: int | None = None,
    high: int | None = None,
    none_allowed: bool = False,
) -> Knob:
    low = -INT_LIMIT if low is None else low
    high = INT_LIMIT if high is None else high
    span = f"{low}..{high}"

    def check(value: Any) -> int | None:
        if none_allowed and (value is None or value == "none"):
            return None
        if not is_whole_number(value):
            raise ValueError(f"expected a whole number, got {shown(value)}")
        if value < low:
            raise ValueError(f"must be at least {low} (the range is {span}), got {shown(value)}")
        if value > high:
            raise ValueError(f"must be at most {high} (the range is {span}), got {shown(value)}")
        return value

    kind = f"integer {span}" + (" or none" if none_allowed else "")
    return Knob(name, section, default, meaning, check, kind)


def shown(value: Any) -> str:
    """A value for a message (errors.shown): a number of dozens of digits said by its
    length, YAML's null as null."""
    return errors.shown(value)


def choice(name: str, section: str, default: str, meaning: str, options: Sequence[str]) -> Knob:
    def check(value: Any) -> str:
        if value not in options:
            raise ValueError(f"expected one of {', '.join(options)}, got {shown(value)}")
        return value

    return Knob(name, section, default, meaning, check, "|".join(options))


def custom(
    name: str,
    section: str,
    default: Any,
    meaning: str,
    check: Callable[[Any], Any],
    kind: str,
    *,
    listed_at_default: bool = True,
) -> Knob:
    return Knob(name, section, default, meaning, check, kind, listed_at_default)


class FrozenDict(dict):
    """A dict that refuses changes: a run's rules, shared by every game and every
    bot's view, so no bot (or plugin) can rewrite the rules mid-run."""

    def _read_only(self, *args: Any, **kwargs: Any) -> None:
        raise TypeError("the rules are read-only")

    __setitem__ = __delitem__ = __ior__ = _read_only  # type: ignore[assignment]
    clear = pop = popitem = setdefault = update = _read_only  # type: ignore[assignment]

    def __reduce__(self) -> tuple[Any, ...]:
        return (FrozenDict, (dict(self),))

    # Read-only, so hashable by value: a table made from the rules can be cached
    # by the rules themselves (never by id(), which a freed mapping's successor reuses).
    def __hash__(self) -> int:  # type: ignore[override]
        return hash(frozenset(self.items()))


def freeze(value: Any) -> Any:
    """Rules as read-only data: mappings become FrozenDicts, lists tuples."""
    if isinstance(value, Mapping):
        return FrozenDict({key: freeze(item) for key, item in value.items()})
    if isinstance(value, list | tuple):
        return tuple(freeze(item) for item in value)
    return value


def defaults(knobs: Sequence[Knob]) -> dict[str, Any]:
    return {k.name: k.default for k in knobs}


def resolved_sections(
    knobs: Sequence[Knob], values: Mapping[str, Any], *, every: bool = False
) -> dict[str, dict]:
    """Split flat knob values back into the `rules` / `scoring` sections of a variant;
    a knob not listed at its default (a printed deck) is left out there unless `every`."""
    out: dict[str, dict] = {section: {} for section in SECTIONS}
    for knob in knobs:
        value = values[knob.name]
        if not every and not knob.listed_at_default and freeze(value) == freeze(knob.default):
            continue
        out[knob.section][knob.name] = value
    return out
