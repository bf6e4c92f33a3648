"""Rule knobs: the open points of RULES.md, each with a type, a default and a meaning.

A game module declares its knobs; `variant.py` validates YAML values against
them and `balancer knobs GAME` prints them. A knob's `check` turns a raw YAML
value into the engine's value or raises `ValueError` with a short reason.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

SECTIONS = ("rules", "scoring")  # the variant file's knob sections
BOT_PARAMS = "params"  # the section a bot's own parameters use


@dataclass(frozen=True)
class Knob:
    name: str
    section: str  # "rules" or "scoring" (where it sits in a variant file), or "params"
    default: Any
    meaning: str
    check: Callable[[Any], Any]
    kind: str  # shown by `balancer knobs`

    def __post_init__(self) -> None:
        if self.section not in (*SECTIONS, BOT_PARAMS):
            raise ValueError(f"knob {self.name}: unknown section {self.section}")


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def boolean(name: str, section: str, default: bool, meaning: str) -> Knob:
    def check(value: Any) -> bool:
        if not isinstance(value, bool):
            raise ValueError(f"expected true or false, got {value!r}")
        return value

    return Knob(name, section, default, meaning, check, "true|false")


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
    def check(value: Any) -> int | None:
        if none_allowed and (value is None or value == "none"):
            return None
        if not _is_int(value):
            raise ValueError(f"expected a whole number, got {value!r}")
        if low is not None and value < low:
            raise ValueError(f"must be at least {low}, got {value}")
        if high is not None and value > high:
            raise ValueError(f"must be at most {high}, got {value}")
        return value

    span = f"{'' if low is None else low}..{'' if high is None else high}"
    kind = f"integer {span}" + (" or none" if none_allowed else "")
    return Knob(name, section, default, meaning, check, kind)


def choice(name: str, section: str, default: str, meaning: str, options: Sequence[str]) -> Knob:
    def check(value: Any) -> str:
        if value not in options:
            raise ValueError(f"expected one of {', '.join(options)}, got {value!r}")
        return value

    return Knob(name, section, default, meaning, check, "|".join(options))


def custom(
    name: str, section: str, default: Any, meaning: str, check: Callable[[Any], Any], kind: str
) -> Knob:
    return Knob(name, section, default, meaning, check, kind)


def defaults(knobs: Sequence[Knob]) -> dict[str, Any]:
    return {k.name: k.default for k in knobs}


def resolved_sections(knobs: Sequence[Knob], values: Mapping[str, Any]) -> dict[str, dict]:
    """Split flat knob values back into the `rules` / `scoring` sections of a variant."""
    out: dict[str, dict] = {section: {} for section in SECTIONS}
    for knob in knobs:
        out[knob.section][knob.name] = values[knob.name]
    return out
