"""The typed Report: report.json's figures and the games table, read, written and checked here.

A `Report` is built from a run (`Report.from_run`) or read back from a folder
(`Report.open`, `load_report`); every renderer (terminal, summary.md, CSV,
HTML) and every analysis (diff, sweep) reads its attributes, never the JSON.

`diff`, `csv` and `replay` read reports that may be old, truncated or edited by
hand: any damage is one UserError naming the file and the key path, and a
report written under other rules (or another balancer) is said so rather
than trusted.

The figure classes map one to one onto report.json's objects: a class's
fields, in order, are its keys (`to_json` writes them in that order; `Interval`
is a `[low, high]` pair). A field typed `X | None` with default None is a
figure the file may lack: it is left out of the file when None and read when
present. So a new figure (an interval on a mean, a note) is one line on its
class, read, written and checked like the rest, and reports without it still
open and still write the same bytes.
"""

from __future__ import annotations

import json
import math
import types
import typing
from collections.abc import Iterator, Mapping
from dataclasses import MISSING, dataclass, field, fields, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Self, TypeVar

import polars as pl

from balancer import __version__, games
from balancer.config.files import FILE, FOLDER, kind_of
from balancer.errors import UserError
from balancer.report.checks import MAX_VALUE, check_document, check_games, check_nesting
from balancer.report.folder import REPORT_JSON, restore_interrupted
from balancer.sim import table
from balancer.stats.card_tally import CardImpact
from balancer.stats.streamed import GameCounts

if TYPE_CHECKING:
    from balancer.sim.runner import RunResult

GAMES_PARQUET = "games.parquet"
MAX_SEED = 2**63 - 1  # as a variant's seed

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
                if kind is not Interval:  # an Interval says what it should be, even when missing
                    raise UserError("missing", file=path, key=key)
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


# --- the report ----------------------------------------------------------------

# Keys every report has, with their JSON kind, in the order a missing one is named.
_REQUIRED_KEYS = {
    "game": str,
    "players": int,
    "games": int,
    "seed": int,
    "variant": dict,
    "seats": list,
    "events": dict,
    "higher_is_better": bool,
    "rules_version": int,
    "balancer_version": str,
}
# Report attributes that are not report.json's keys, and those named otherwise there.
_NOT_IN_JSON = ("games", "counts", "cards", "folder")  # cards: in cards.csv
_JSON_KEY = {"n_games": "games"}


class GamesSource(typing.Protocol):
    """A games.parquet on disk that a Report reads only when asked (sim/sink.py's GamesFile)."""

    def read(self) -> pl.DataFrame: ...

    def place(self, target: Path) -> None: ...


class _GamesTable:
    """`Report.games`: the games table, a frame given whole or read from a file on first use.

    A run's Report is built from counts (stats.streamed) and keeps its games
    on disk, so a run of 10,000,000 games never holds them; whoever reads
    `report.games` (diff's paired tests, a library user) pays for it then.
    """

    def __set_name__(self, owner: type, name: str) -> None:
        self.given = f"_{name}_given"
        self.read = f"_{name}_read"

    @typing.overload
    def __get__(self, report: None, owner: type | None = None) -> None: ...

    @typing.overload
    def __get__(self, report: Report, owner: type | None = None) -> pl.DataFrame: ...

    def __get__(self, report: Report | None, owner: type | None = None) -> pl.DataFrame | None:
        if report is None:
            return None  # the field's default: no games (an empty frame)
        given = report.__dict__[self.given]
        if isinstance(given, pl.DataFrame):
            return given
        if self.read not in report.__dict__:
            report.__dict__[self.read] = given.read()
        frame: pl.DataFrame = report.__dict__[self.read]
        return frame

    def __set__(self, report: Report, value: pl.DataFrame | GamesSource | None) -> None:
        if value is None or isinstance(value, _GamesTable):  # the default: no games
            value = pl.DataFrame()
        report.__dict__[self.given] = value
        report.__dict__.pop(self.read, None)


@dataclass(frozen=True)
class SavedGames:
    """The games.parquet of a report balancer just saved: read as it is when asked."""

    path: Path

    def read(self) -> pl.DataFrame:
        return pl.read_parquet(self.path)

    def place(self, target: Path) -> None:
        import shutil

        shutil.copyfile(self.path, target)


def games_given(report: Report) -> pl.DataFrame | GamesSource:
    """What the report's games were given as (a frame, or a file not yet read)."""
    given: pl.DataFrame | GamesSource = report.__dict__["_games_given"]
    return given


def game_columns(report: Report, names: typing.Sequence[str]) -> pl.DataFrame:
    """Just these columns of the games table (those it has), without reading the rest.

    A headline figure that needs two per-game columns of a 10,000,000-game
    run reads those two from games.parquet, never the whole table.
    """
    given = games_given(report)
    if isinstance(given, pl.DataFrame) or "_games_read" in report.__dict__:
        frame = report.games
        return frame.select([n for n in names if n in frame.columns])
    path = getattr(given, "path", None)
    if path is None:
        frame = report.games
        return frame.select([n for n in names if n in frame.columns])
    lazy = pl.scan_parquet(path)
    present_names = [n for n in names if n in lazy.collect_schema().names()]
    return lazy.select(present_names).collect()


@dataclass(frozen=True, kw_only=True)
class Report:
    """One run's report: report.json's figures and the games table (one row per game).

    Built from a run (`from_run`), or read from a folder and checked
    (`open`); `save` writes the whole folder, all or nothing. The figures
    after `events` up to `bots` are None only in a report read from a file
    that lacks them (hand-made, or from before balancer recorded them).
    """

    game: str
    players: int
    n_games: int  # "games" in report.json
    seed: int
    variant: Mapping[str, Any]  # the resolved variant, as the user's YAML has it
    seats: tuple[SeatFigures, ...]
    seat_advantage: SeatAdvantage | None = None
    length: LengthFigures | None = None
    events: Mapping[str, EventFigures]  # by event name, in the game's order
    margin: Distribution | None = None
    value_events: tuple[str, ...] | None = None  # events that are a value per game, not a count
    higher_is_better: bool
    length_unit: str | None = None
    balancer_version: str
    rules_version: int
    rng_version: int | None = None  # rng.RNG_VERSION of the draws that played the games
    bots: Mapping[str, BotFigures] | None = None  # by label, when the seats' bots differ
    head_to_head: Mapping[str, Mapping[str, HeadToHead]] | None = None
    until: str | None = None  # the early-stopping rule of `run --until` ("win_ci<=0.02")
    stopped_at: int | None = None  # games played when that rule stopped the run early
    sweep_point: SweepPoint | None = None  # the point of a sweep this report is, if it is one
    # What `run --set/--players/--bots` changed over the variant file, as written there.
    command_line: tuple[str, ...] | None = None
    games: _GamesTable = field(default=_GamesTable(), compare=False, repr=False)
    # The counts of the games (stats.streamed), when the report comes from a run; else
    # computed from `games` by whoever needs them (game_counts below).
    counts: GameCounts | None = field(default=None, compare=False, repr=False)
    # Card impact's rows (stats/card_tally.py), largest effect first, when the run's game
    # records the cards each seat held: written as cards.csv and charted in report.html.
    cards: tuple[CardImpact, ...] | None = field(default=None, compare=False, repr=False)
    folder: Path | None = None

    @classmethod
    def from_run(
        cls, result: RunResult, *, until: str | None = None, stopped_at: int | None = None
    ) -> Report:
        """The report of a finished run; `until` names the rule a run stopped by,
        `stopped_at` the games it had played when that rule stopped it (None: it didn't)."""
        from balancer.report.build import build_report

        report = build_report(result)
        if until is None:
            return report
        return replace(report, until=until.replace(" ", ""), stopped_at=stopped_at)

    @classmethod
    def open(cls, folder: str | Path) -> Report:
        """Read and check a report folder; any damage is a UserError naming the file."""
        return load_report(folder)

    def save(self, folder: str | Path, *, html: bool = True) -> Report:
        """Write report.json, games.parquet, the CSV tables (DESIGN.md: seats, scores, events),
        summary.md and report.html.

        Only into a missing or empty folder or one holding balancer's own
        report; the previous report stays whole if anything fails.
        """
        from balancer.report.folder import write_folder
        from balancer.report.tables import write_csv_tables
        from balancer.report.text import summary_markdown

        def fill(tmp: Path) -> None:
            (tmp / REPORT_JSON).write_text(self.json_text())
            games = games_given(self)
            try:
                if isinstance(games, pl.DataFrame):
                    games.write_parquet(tmp / GAMES_PARQUET)
                else:
                    games.place(tmp / GAMES_PARQUET)  # the run's file as it is: never read here
            except Exception as exc:  # a full disk, or polars' own words for one
                from balancer.sim.sink import write_error

                raise write_error(exc, Path(folder) / GAMES_PARQUET) from None
            write_csv_tables(self, tmp, games=False)  # games.csv: `balancer csv` writes it
            if self.cards is not None:
                from balancer.analysis.cards import CSV_NAME, write_csv

                write_csv(self.cards, tmp / CSV_NAME)
            (tmp / "summary.md").write_text(summary_markdown(self))
            if html:
                from balancer.report.html import write_html

                write_html(self, tmp)

        write_folder(Path(folder), fill)
        games = games_given(self)
        if not isinstance(games, pl.DataFrame):  # a file the run wrote: now the folder's
            games = SavedGames(Path(folder) / GAMES_PARQUET)
        return replace(self, folder=Path(folder), games=games)

    def to_json(self) -> dict[str, Any]:
        """The report.json document: every figure, in the file's key order."""
        document: dict[str, Any] = {}
        for f in fields(self):
            if f.name in _NOT_IN_JSON:
                continue  # never read the games for the figures
            value = getattr(self, f.name)
            if value is not None:
                document[_JSON_KEY.get(f.name, f.name)] = _to_json(value)
        return document

    def json_text(self) -> str:
        """report.json's text, as `save` writes it."""
        return json.dumps(self.to_json(), indent=2, ensure_ascii=False, allow_nan=False) + "\n"

    @classmethod
    def from_json(
        cls,
        document: Any,
        path: str | Path,
        *,
        games: pl.DataFrame | None = None,
        folder: Path | None = None,
    ) -> Report:
        """Check a report.json document (read from `path`) and build the Report.

        Any damage is one UserError naming `path` and the key. `games` is not
        checked against the figures here (`load_report` does that).
        """
        where = str(path)
        if not isinstance(document, dict):
            raise UserError("not a report: expected a JSON object", file=where)
        missing = [key for key in _REQUIRED_KEYS if key not in document]
        if missing:
            raise UserError(f"not a complete report: missing {', '.join(missing)}", file=where)
        for key, kind in _REQUIRED_KEYS.items():
            value = document[key]
            # bool is an int to Python; a count of True players is still wrong.
            wrong = not isinstance(value, kind) or (kind is int and isinstance(value, bool))
            if wrong:
                raise UserError(
                    f"should be {kind.__name__}, not {_short(value)}", file=where, key=key
                )
        if document["players"] < 1 or document["games"] < 1:
            raise UserError("a report needs at least one player and one game", file=where)
        if not 0 <= document["seed"] <= MAX_SEED:
            raise UserError(
                f"should be from 0 to {MAX_SEED}, not {_short(document['seed'])}",
                file=where,
                key="seed",
            )
        if len(document["seats"]) != document["players"]:
            raise UserError(
                f"{len(document['seats'])} seats for {document['players']} players", file=where
            )
        hints = _hints(cls)
        found: dict[str, Any] = {}
        for f in fields(cls):
            key = _JSON_KEY.get(f.name, f.name)
            if f.name in _NOT_IN_JSON or (key not in document and f.default is not MISSING):
                continue
            kind, _ = _optional(hints[f.name])
            found[f.name] = _parse(kind, document[key], key, where)
        return cls(**found, games=pl.DataFrame() if games is None else games, folder=folder)


def load_report(folder: str | Path) -> Report:
    """Read and check a report folder; any damage is a UserError naming the file."""
    folder = Path(folder)
    restore_interrupted(folder)  # a run killed mid-swap set the report aside
    kind = kind_of(folder)
    if kind is None:
        raise UserError("no such report folder", file=str(folder))
    if kind != FOLDER:
        raise UserError(
            f"is {kind}, not a report folder (expected a folder holding report.json)",
            file=str(folder),
        )
    path = folder / REPORT_JSON
    document = _read_json(path)
    check_nesting(document, str(path))
    report = Report.from_json(document, path, folder=folder)
    check_document(report, str(path))
    games_path = folder / GAMES_PARQUET
    report = replace(report, games=_load_games(games_path, report))
    check_games(report, report.games, str(games_path))
    if "game" in report.variant:
        # The game, players and knobs its games were played under must make a variant
        # that can be played, as `replay` checks them: a hand_size of 10**9 over games
        # dealt 5 is a forgery. Its bots are checked against the games table above
        # (a forged label is still shown, escaped), so any bot stands in for them here.
        from balancer.config.variant import from_resolved

        stand_in = {key: value for key, value in report.variant.items() if key != "bots"}
        stand_in["seats"] = ["random"] * report.players
        from_resolved(stand_in, str(path))
    return report


def version_notes(report: Report, where: str) -> list[str]:
    """Lines saying how this report's versions differ from this balancer's, if they do."""
    notes = []
    if games.canonical(report.game) is None:
        raise UserError(f"unknown game {report.game!r}", file=where, key="game")
    current = games.get(report.game).rules_version
    if report.rules_version != current:
        notes.append(
            f"{where}: written under {report.game} rules version {report.rules_version}; "
            f"this balancer plays version {current}, so a replay may differ"
        )
    if report.balancer_version != __version__:
        notes.append(
            f"{where}: written by balancer {report.balancer_version}; this is {__version__}"
        )
    return notes


def value_counts(report: Report) -> GameCounts:
    """The report's per-game values counted (scores per seat, length, events): for charts.

    A run's report has them already; a report read from a folder counts its
    games table. Only the value counts are meant: the bots' figures are in
    report.json.
    """
    if report.counts is not None:
        return report.counts
    if "_value_counts" in report.__dict__:  # counted once per report read
        cached: GameCounts = report.__dict__["_value_counts"]
        return cached
    frame = report.games
    players = report.players
    names = list(report.events)
    report.__dict__["_value_counts"] = GameCounts.from_arrays(
        frame.select([table.score(s) for s in range(players)]).to_numpy().astype(float),
        frame[table.LENGTH].to_numpy().astype(float),
        frame.select([table.event(e) for e in names]).to_numpy().astype(float),
        event_names=names,
        labels=[""] * players,
        value_events=report.value_events or (),
        higher_is_better=report.higher_is_better,
    )
    return value_counts(report)


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


def _short(value: Any) -> str:
    """A value for a one-line message: its repr, cut short."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


# report.json holds figures and the resolved variant (whose file is at most
# 1 MiB): a few kilobytes, never this much. A bigger file is not read at all.
MAX_REPORT_BYTES = 16 * 1024 * 1024


def _read_json(path: Path) -> Any:
    kind = kind_of(path)
    if kind != FILE:
        what = "missing: the report folder has no report.json"
        if kind is not None:
            what = f"is {kind}, not a report.json balancer wrote"
        raise UserError(what, file=str(path))
    try:
        with open(path, "rb") as handle:
            # Read one byte past the cap: the size a file states is not trusted alone.
            raw = handle.read(MAX_REPORT_BYTES + 1)
        if len(raw) > MAX_REPORT_BYTES:
            raise UserError(
                f"is larger than any report balancer writes ({MAX_REPORT_BYTES >> 20} MiB "
                "at most), so it is not read",
                file=str(path),
            )
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise UserError(f"not UTF-8 text (byte {exc.start})", file=str(path)) from None
    except OSError as exc:
        raise UserError(f"unreadable: {exc.strerror or exc}", file=str(path)) from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        hint = " (truncated?)" if exc.pos >= len(text.rstrip()) else ""
        raise UserError(
            f"not valid JSON{hint}: {exc.msg}", file=str(path), line=exc.lineno
        ) from None
    except ValueError:  # JSON's own errors are caught above: an int past Python's digit limit
        raise UserError("not a report: a number with too many digits", file=str(path)) from None
    except RecursionError:
        raise UserError("not a report: nested too deeply", file=str(path)) from None


# --- games.parquet -------------------------------------------------------------


def _load_games(path: Path, report: Report) -> pl.DataFrame:
    kind = kind_of(path)
    if kind != FILE:
        what = "missing: the report folder has no games.parquet"
        if kind is not None:
            what = f"is {kind}, not a games table balancer wrote"
        raise UserError(what, file=str(path))
    try:
        games = pl.read_parquet(path)
    except (pl.exceptions.PolarsError, OSError, ValueError, pl.exceptions.PanicException) as exc:
        # The reader panics rather than raising on some damage: still the file's fault.
        first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise UserError(f"unreadable (truncated or damaged?): {first}", file=str(path)) from None

    players, n_games = report.players, report.n_games
    seat_columns = {c for c in games.columns if c.split("_")[0] in ("score", "win", "bot")}
    expected_seats = {f"{kind}_{s}" for kind in ("score", "win", "bot") for s in range(players)}
    numeric = ["game", "length", *(f"{k}_{s}" for k in ("score", "win") for s in range(players))]
    numeric += [table.event(name) for name in report.events]

    def mismatch(message: str) -> UserError:
        return UserError(f"does not match report.json: {message}", file=str(path))

    if missing := sorted(expected_seats - seat_columns):
        raise mismatch(f"{players} players but no column {', '.join(missing)}")
    if extra := sorted(seat_columns - expected_seats):
        raise mismatch(f"{players} players but also column {', '.join(extra)}")
    for column in ("game", "length"):
        if column not in games.columns:
            raise mismatch(f"no column {column}")
    events = {e for c in games.columns if (e := table.event_name(c)) is not None}
    if events != set(report.events):
        raise mismatch(
            f"events {sorted(report.events)} in report.json, {sorted(events)} in the file"
        )
    if games.height != n_games:
        raise mismatch(f"{n_games} games in report.json, {games.height} rows in the file")
    wins = {table.win(s) for s in range(players)}
    for column in numeric:
        if not games.schema[column].is_numeric():
            raise mismatch(f"column {column} is {games.schema[column]}, not numeric")
        values = games[column].cast(pl.Float64)
        if values.null_count() or values.is_nan().any():
            raise mismatch(f"column {column} has missing values")
        if not values.is_finite().all():
            raise UserError(f"column {column} holds an infinite value", file=str(path))
        if column in wins and not values.is_between(0, 1).all():
            raise UserError(f"column {column} holds a win share outside 0..1", file=str(path))
        if column != "game" and not values.abs().le(MAX_VALUE).all():
            # 1e308 is finite, but no game scores it and a diff's arithmetic on it overflows.
            raise UserError(
                f"column {column} holds {values.abs().max()!r}, past any value a game makes",
                file=str(path),
            )
    if not games.schema["game"].is_integer():
        raise mismatch(f"column game is {games.schema['game']}, not whole numbers")
    if not games["game"].is_between(0, n_games - 1).all():
        raise mismatch(f"column game should number the games 0..{n_games - 1}")
    for s in range(players):
        if games.schema[table.bot(s)] != pl.String or games[table.bot(s)].null_count():
            raise mismatch(f"column bot_{s} should hold bot labels")
    games = games.sort("game")
    if not games["game"].cast(pl.Int64).equals(pl.Series("game", range(n_games), pl.Int64)):
        raise mismatch(f"column game should number the games 0..{n_games - 1}")
    return games
