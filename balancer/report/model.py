"""The typed Report: report.json's figures and the games table, read, written and checked here.

A `Report` is built from a run (build.py's `from_run`) or read back from a
folder (`Report.open`, `load_report`); every renderer (terminal, summary.md,
CSV, HTML) and every analysis (diff, sweep) reads its attributes, never the
JSON. The Report stands above the rest of report/: its figure classes
(figures.py), its games table (games_table.py) and the renderers sit beneath
it and are handed a Report (they name it for the type checker alone), so
`save` calls them without a cycle; build.py, which makes one, sits above.

`diff`, `csv` and `replay` read reports that may be old, truncated or edited by
hand: any damage is one UserError naming the file and the key path, and a
report written under other rules (or another balancer) is said so rather
than trusted.

The figure classes (figures.py) map one to one onto report.json's objects: a class's
fields, in order, are its keys (`to_json` writes them in that order; `Interval`
is a `[low, high]` pair). A field typed `X | None` with default None is a
figure the file may lack: it is left out of the file when None and read when
present. So a new figure (an interval on a mean, a note) is one line on its
class, read, written and checked like the rest, and reports without it still
open and still write the same bytes.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import MISSING, dataclass, field, fields, replace
from pathlib import Path
from typing import Any

import polars as pl

from balancer import games, table
from balancer._version import __version__
from balancer.errors import UserError
from balancer.files import FILE, FOLDER, in_words, kind_of
from balancer.report.checks import (
    MAX_VALUE,
    check_cards_held,
    check_document,
    check_games,
    check_nesting,
    check_played_as_the_variant_says,
)
from balancer.report.figures import (
    BotFigures,
    Distribution,
    EventFigures,
    HeadToHead,
    LengthFigures,
    SeatAdvantage,
    SeatFigures,
    SweepPoint,
    _hints,
    _optional,
    _parse,
    _short,
    _to_json,
)
from balancer.report.folder import REPORT_JSON, output_kind, restore_interrupted
from balancer.report.games_table import SavedGames, _GamesTable, games_given
from balancer.report.how_it_plays import HowItPlaysFigures
from balancer.stats.card_tally import CardImpact
from balancer.stats.streamed import GameCounts

GAMES_PARQUET = "games.parquet"
MAX_SEED = 2**63 - 1  # as a variant's seed

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
    # How the games played (report/how_it_plays.py); None in a report from before it, or
    # of a run whose games kept no record of their steps.
    how_it_plays: HowItPlaysFigures | None = None
    until: str | None = None  # the early-stopping rule of `run --until` ("win_ci<=0.02")
    stopped_at: int | None = None  # games played when that rule stopped the run early
    sweep_point: SweepPoint | None = None  # the point of a sweep this report is, if it is one
    # What `run --set/--players/--bots` changed over the variant file, as written there.
    command_line: tuple[str, ...] | None = None
    # The game file a role game was played from (games.game_file_of): its path and content.
    game_file: Mapping[str, Any] | None = None
    games: _GamesTable = field(default=_GamesTable(), compare=False, repr=False)
    # The counts of the games (stats.streamed), when the report comes from a run; else
    # computed from `games` by whoever needs them (game_counts below).
    counts: GameCounts | None = field(default=None, compare=False, repr=False)
    # Card impact's rows (stats/card_tally.py), largest effect first, when the run's game
    # records the cards each seat held: written as cards.csv and charted in report.html.
    cards: tuple[CardImpact, ...] | None = field(default=None, compare=False, repr=False)
    folder: Path | None = None

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
        from balancer.report.cards import ROLES_CSV_NAME, roles_of_report, write_roles_csv
        from balancer.report.folder import write_folder
        from balancer.report.tables import write_csv_tables
        from balancer.report.text import summary_markdown

        # Read from the run's games file before it is moved into the folder.
        roles = roles_of_report(self) if self.cards is not None else None

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
                from balancer.report.cards import CSV_NAME, write_csv

                write_csv(self.cards, tmp / CSV_NAME)
            if roles is not None:
                write_roles_csv(roles, tmp / ROLES_CSV_NAME)
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
            f"is {in_words(kind)}, not a report folder (expected a folder holding report.json)",
            file=str(folder),
        )
    path = folder / REPORT_JSON
    if kind_of(path) is None:
        _refuse_other_output(folder)
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
        if report.game_file is not None:
            # Its game as read when the report was checked: the kept copy of a game file
            # since changed or gone (report/checks.py), known by name from then on.
            stand_in["game"] = report.game
        played = from_resolved(stand_in, str(path))
        # And its deck must be the one the hands in the games were dealt from.
        kinds_of = played.spec.card_kinds
        kinds = len(kinds_of(played.rules)) if kinds_of is not None else None
        check_cards_held(report.games, report.players, kinds, str(games_path))
        check_played_as_the_variant_says(report, played, str(path), str(games_path))
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


def _refuse_other_output(folder: Path) -> None:
    """A folder without report.json that is balancer's output of another kind is said to
    be that (a sweep's reports are in its points' folders), not a report missing a file."""
    other = output_kind(folder)
    if other is None or other.endswith(f"({REPORT_JSON})"):
        return
    hint = ""
    if other.endswith("(sweep.csv)"):
        try:
            points = sorted(p.name for p in folder.iterdir() if (p / REPORT_JSON).is_file())
        except OSError:
            points = []
        if points:
            hint = f"; each point's report is a folder in it, such as {folder / points[0]}"
    raise UserError(f"is {other}, not a report folder{hint}", file=str(folder))


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
