"""report.json's figures: one class per JSON object, and how each is read, checked and written.

A class's fields, in order, are its object's keys (`to_json` writes them in
that order; `Interval` is a `[low, high]` pair). A field typed `X | None`
with default None is a figure the file may lack: it is left out of the file
when None and read when present (model.py says why). The Report that holds
them, and reads and saves a folder, is model.py's; the renderers use these
classes and `present` without it.
"""

from __future__ import annotations

import math
import types
import typing
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, fields
from typing import Any, Self, TypeVar

from balancer.errors import UserError
from balancer.errors import shown as _short  # a value quoted in a message, cut
from balancer.report.checks import MAX_VALUE

# --- figures -------------------------------------------------------------------


def _share(value: float, where: str, path: str) -> None:
    if not 0 <= value <= 1:
        raise UserError(f"should be between 0 and 1, not {_short(value)}", file=path, key=where)


# field(metadata=SHARE): also checked to lie in [0, 1] when read.
SHARE = {"check": _share}
# field(metadata=NULLABLE) on an `X | None` field: written as null when None (the key is
# part of the contract, its absence of a value meaningful), and null read back as None.
NULLABLE = {"nullable": True}


@dataclass(frozen=True)
class Interval:
    """A 95% interval, `[low, high]` in report.json."""

    low: float
    high: float

    def __iter__(self) -> Iterator[float]:
        return iter((self.low, self.high))

    def to_json(self) -> list[float]:
        return [self.low, self.high]

    @classmethod
    def from_json(cls, value: Any, where: str, path: str) -> Interval:
        if not (isinstance(value, list) and len(value) == 2 and all(map(_is_number, value))):
            raise UserError(
                f"should be two numbers [low, high], not {_short(value)}", file=path, key=where
            )
        return cls(value[0], value[1])


class Figures:
    """A JSON object of figures: its dataclass fields, in order, are its keys."""

    def to_json(self) -> dict[str, Any]:
        out = {}
        for f in fields(self):  # type: ignore[arg-type]
            value = getattr(self, f.name)
            if value is not None or f.metadata.get("nullable"):
                out[f.name] = _to_json(value)
        return out

    @classmethod
    def from_json(cls, value: Any, where: str, path: str) -> Self:
        """Check `value` (at key path `where` of the file `path`) and build the figures."""
        if not isinstance(value, dict):
            raise UserError(f"should be a mapping, not {_short(value)}", file=path, key=where)
        hints = _hints(cls)
        found: dict[str, Any] = {}
        for f in fields(cls):  # type: ignore[arg-type]
            key = f"{where}.{f.name}"
            kind, optional = _optional(hints[f.name])
            if optional and f.name in value and value[f.name] is None:
                found[f.name] = None  # a null the file wrote on purpose (NULLABLE)
                continue
            if f.name not in value:
                if optional:
                    continue
                # Missing, not null: an Interval says what it should be too.
                should = ": should be two numbers [low, high]" if kind is Interval else ""
                raise UserError(f"missing{should}", file=path, key=key)
            found[f.name] = _parse(kind, value.get(f.name), key, path)
            if check := f.metadata.get("check"):
                check(found[f.name], key, path)
        return cls(**found)


@dataclass(frozen=True, kw_only=True)
class Distribution(Figures):
    """Mean, sample sd, min, quartiles and max (stats.describe.distribution)."""

    mean: float
    sd: float
    min: float
    q1: float
    median: float
    q3: float
    max: float
    ci95: Interval | None = None  # of the mean (the winning margin's; games are the units)


@dataclass(frozen=True, kw_only=True)
class LengthFigures(Figures):
    """Game length in the game's unit (stats.describe.length_summary)."""

    mean: float
    sd: float
    min: float
    max: float
    ci95: Interval | None = None  # of the mean


@dataclass(frozen=True, kw_only=True)
class SeatFigures(Figures):
    seat: int
    bot: str  # the seat's bot label, or "rotating" when bots rotate through the seats
    win_share: float = field(metadata=SHARE)
    win_ci95: Interval  # clustered by game: split ties count as the fractions they are
    score_mean_ci95: Interval | None = None
    score: Distribution


@dataclass(frozen=True, kw_only=True)
class SeatAdvantage(Figures):
    """A test that the seats' win shares are equal (stats.seat_advantage).

    `p_value` (and `statistic`) are null when no test is meaningful: seats
    holding different bots without rotation confound seat with bot, and
    `note` says so. A report from before this test holds `chi2` and
    `p_value` only (a chi-square): read, and written back as it was.
    """

    chi2: float | None = None  # reports from before the test below; never written now
    test: str | None = None
    statistic: float | None = field(default=None, metadata=NULLABLE)
    df: tuple[int, ...] | None = field(default=None, metadata=NULLABLE)
    p_value: float | None = field(default=None, metadata=NULLABLE)
    note: str | None = field(default=None, metadata=NULLABLE)

    def to_json(self) -> dict[str, Any]:
        out = super().to_json()
        if self.test is None:  # an old report's figure: its own keys, no nulls it never had
            out = {k: v for k, v in out.items() if v is not None}
        return out


@dataclass(frozen=True, kw_only=True)
class EventFigures(Figures):
    per_game: float
    per_game_ci95: Interval | None = None
    share_of_games: float = field(metadata=SHARE)
    share_of_games_ci95: Interval | None = None  # absent for a value event


@dataclass(frozen=True, kw_only=True)
class BotFigures(Figures):
    """A bot label's win share over the seat-games it played."""

    win_share: float = field(metadata=SHARE)
    win_ci95: Interval
    seat_games: int


@dataclass(frozen=True, kw_only=True)
class SweepPoint(Figures):
    """Which point of which sweep a report is: `sweep_point` in report.json, a sweep's only.

    The report sits in the sweep's folder, one level down, so `../index.html`
    is the sweep's page.
    """

    sweep: str  # the swept variant's name
    point: str  # the knob values, as `hand_size=3 neko_ni_koban=false`
    index: int  # 1-based
    points: int  # how many the sweep has


@dataclass(frozen=True, kw_only=True)
class HeadToHead(Figures):
    """How often one bot's seat finished ahead of another's, over games seating both."""

    ahead_share: float = field(metadata=SHARE)
    ci95: Interval
    games: int
    pairs: int


_T = TypeVar("_T")


def present(value: _T | None, name: str) -> _T:
    """A figure a renderer needs, which a report read from an old or hand-made file may lack."""
    if value is None:
        raise ValueError(f"this report has no {name} (written before balancer recorded it?)")
    return value


# --- JSON in and out -----------------------------------------------------------


def _to_json(value: Any) -> Any:
    if isinstance(value, Interval | Figures):
        return value.to_json()
    if isinstance(value, tuple):
        return [_to_json(v) for v in value]
    if isinstance(value, Mapping):
        return {k: _to_json(v) for k, v in value.items()}
    return value


_HINTS: dict[type, dict[str, Any]] = {}


def _hints(cls: type) -> dict[str, Any]:
    if cls not in _HINTS:
        _HINTS[cls] = typing.get_type_hints(cls)
    return _HINTS[cls]


def _optional(kind: Any) -> tuple[Any, bool]:
    """`X | None` -> (X, True); `X` -> (X, False)."""
    if isinstance(kind, types.UnionType) or typing.get_origin(kind) is typing.Union:
        inner = [k for k in typing.get_args(kind) if k is not type(None)]
        if len(inner) == 1:
            return inner[0], True
    return kind, False


def _parse(kind: Any, value: Any, where: str, path: str) -> Any:
    """`value` checked to be of `kind` (a field's type), as the Report holds it."""
    origin, args = typing.get_origin(kind), typing.get_args(kind)
    if kind is Any:
        return value
    if kind is float:
        if not _is_number(value):
            raise UserError(f"should be a number, not {_short(value)}", file=path, key=where)
        return value
    if kind in (int, str, bool):
        # bool is an int to Python; a count of True games is still wrong.
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            raise UserError(f"should be {kind.__name__}, not {_short(value)}", file=path, key=where)
        return value
    if isinstance(kind, type) and issubclass(kind, Interval | Figures):
        return kind.from_json(value, where, path)
    if origin is tuple:
        if not isinstance(value, list):
            raise UserError(f"should be a list, not {_short(value)}", file=path, key=where)
        return tuple(_parse(args[0], v, f"{where}[{i}]", path) for i, v in enumerate(value))
    if origin is Mapping:
        if not isinstance(value, dict):
            raise UserError(f"should be a mapping, not {_short(value)}", file=path, key=where)
        if args[1] is Any:
            return value
        return {k: _parse(args[1], v, f"{where}.{k}", path) for k, v in value.items()}
    raise TypeError(f"no reader for {kind!r}")  # a field of a type this module can't read


def _is_number(value: Any) -> bool:
    """A finite int or float no figure exceeds (JSON's NaN and Infinity are no figures).

    1e308 is finite, but no figure of these games comes near it and the
    arithmetic of a diff on it overflows: past MAX_VALUE it is damage.
    """
    if isinstance(value, bool) or not isinstance(value, int | float):
        return False
    try:
        return math.isfinite(value) and abs(value) <= MAX_VALUE
    except OverflowError:  # an int past any float
        return False
