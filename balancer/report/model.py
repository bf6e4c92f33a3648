"""Reading a report folder back: report.json and games.parquet, checked.

`diff`, `csv` and `replay` read reports that may be old, truncated or edited by
hand: any damage is one UserError naming the file, and a report written
under other rules (or another balancer) is said so rather than trusted.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import polars as pl

from balancer import __version__, games
from balancer.errors import UserError
from balancer.report.folder import REPORT_JSON
from balancer.sim import table

if TYPE_CHECKING:
    from balancer.sim.runner import RunResult

GAMES_PARQUET = "games.parquet"
MAX_SEED = 2**63 - 1  # as a variant's seed
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


@dataclass(frozen=True)
class Report:
    """One run's report: report.json's figures and the games table (one row per game).

    Built from a run (`from_run`), or read from a folder and checked
    (`open`); `save` writes the whole folder, all or nothing.
    """

    folder: Path | None
    report: dict[str, Any]
    games: pl.DataFrame

    @classmethod
    def from_run(cls, result: RunResult) -> Report:
        from balancer.report.build import build_report, games_frame

        frame = games_frame(result)
        return cls(folder=None, report=build_report(result, frame), games=frame)

    @classmethod
    def open(cls, folder: str | Path) -> Report:
        """Read and check a report folder; any damage is a UserError naming the file."""
        return load_report(folder)

    def save(self, folder: str | Path, *, html: bool = True) -> Report:
        """Write report.json, games.parquet, the CSV tables, summary.md and report.html.

        Only into a missing or empty folder or one holding balancer's own
        report; the previous report stays whole if anything fails.
        """
        from balancer.report.build import summary_markdown, write_csv_tables
        from balancer.report.folder import write_folder

        report, frame = self.report, self.games

        def fill(tmp: Path) -> None:
            text = json.dumps(report, indent=2, ensure_ascii=False, allow_nan=False)
            (tmp / REPORT_JSON).write_text(text + "\n")
            frame.write_parquet(tmp / GAMES_PARQUET)
            write_csv_tables(report, frame, tmp)
            (tmp / "summary.md").write_text(summary_markdown(report))
            if html:
                from balancer.report.html import write_html

                write_html(report, frame, tmp)

        write_folder(Path(folder), fill)
        return Report(folder=Path(folder), report=report, games=frame)

    @property
    def players(self) -> int:
        return int(self.report["players"])

    @property
    def n_games(self) -> int:
        return int(self.report["games"])

    @property
    def events(self) -> list[str]:
        return list(self.report["events"])


def load_report(folder: str | Path) -> Report:
    """Read and check a report folder; any damage is a UserError naming the file."""
    folder = Path(folder)
    if not folder.exists():
        raise UserError("no such report folder", file=str(folder))
    if not folder.is_dir():
        raise UserError(
            "not a report folder (expected a folder holding report.json)", file=str(folder)
        )
    report = _load_report_json(folder / REPORT_JSON)
    games = _load_games(folder / GAMES_PARQUET, report)
    return Report(folder=folder, report=report, games=games)


def _load_report_json(path: Path) -> dict[str, Any]:
    if not path.is_file():
        what = "not a file" if path.exists() else "missing: the report folder has no report.json"
        raise UserError(what, file=str(path))
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise UserError(f"unreadable: {exc}", file=str(path)) from None
    try:
        report = json.loads(text)
    except json.JSONDecodeError as exc:
        hint = " (truncated?)" if exc.pos >= len(text.rstrip()) else ""
        raise UserError(
            f"not valid JSON{hint}: {exc.msg}", file=str(path), line=exc.lineno
        ) from None
    except ValueError:  # JSON's own errors are caught above: an int past Python's digit limit
        raise UserError("not a report: a number with too many digits", file=str(path)) from None
    except RecursionError:
        raise UserError("not a report: nested too deeply", file=str(path)) from None
    if not isinstance(report, dict):
        raise UserError("not a report: expected a JSON object", file=str(path))
    missing = [key for key in _REQUIRED_KEYS if key not in report]
    if missing:
        raise UserError(f"not a complete report: missing {', '.join(missing)}", file=str(path))
    for key, kind in _REQUIRED_KEYS.items():
        value = report[key]
        # bool is an int to Python; a count of True players is still wrong.
        wrong = not isinstance(value, kind) or (kind is int and isinstance(value, bool))
        if wrong:
            raise UserError(
                f"should be {kind.__name__}, not {_short(value)}", file=str(path), key=key
            )
    if report["players"] < 1 or report["games"] < 1:
        raise UserError("a report needs at least one player and one game", file=str(path))
    if not 0 <= report["seed"] <= MAX_SEED:
        raise UserError(
            f"should be from 0 to {MAX_SEED}, not {_short(report['seed'])}",
            file=str(path),
            key="seed",
        )
    if len(report["seats"]) != report["players"]:
        raise UserError(
            f"{len(report['seats'])} seats for {report['players']} players", file=str(path)
        )
    for index, seat in enumerate(report["seats"]):
        _check_seat(seat, f"seats[{index}]", path)
    for name, rates in report["events"].items():
        _check_fields(rates, f"events.{name}", ("per_game", "share_of_games"), path)
    return report


_SCORE_FIGURES = ("mean", "sd", "min", "q1", "median", "q3", "max")


def _is_number(value: Any) -> bool:
    """A finite int or float that a float can hold (JSON's NaN and Infinity are no figures)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return False
    try:
        return math.isfinite(value)
    except OverflowError:  # an int past any float
        return False


def _short(value: Any) -> str:
    """A value for a one-line message: its repr, cut short."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _check_seat(seat: Any, where: str, path: Path) -> None:
    """One `seats` entry, as the csv tables and the headline read it."""
    if not isinstance(seat, dict):
        raise UserError(f"should be a mapping, not {_short(seat)}", file=str(path), key=where)
    for key, kind in (("seat", int), ("bot", str)):
        if key not in seat:
            raise UserError("missing", file=str(path), key=f"{where}.{key}")
        value = seat[key]
        if not isinstance(value, kind) or isinstance(value, bool):
            raise UserError(
                f"should be {kind.__name__}, not {_short(value)}",
                file=str(path),
                key=f"{where}.{key}",
            )
    _check_fields(seat, where, ("win_share",), path)
    if not 0 <= seat["win_share"] <= 1:
        raise UserError(
            f"should be between 0 and 1, not {_short(seat['win_share'])}",
            file=str(path),
            key=f"{where}.win_share",
        )
    interval = seat.get("win_ci95")
    if not (isinstance(interval, list) and len(interval) == 2 and all(map(_is_number, interval))):
        raise UserError(
            f"should be two numbers [low, high], not {_short(interval)}",
            file=str(path),
            key=f"{where}.win_ci95",
        )
    if "score" not in seat:
        raise UserError("missing", file=str(path), key=f"{where}.score")
    _check_fields(seat["score"], f"{where}.score", _SCORE_FIGURES, path)


def _check_fields(value: Any, where: str, fields: tuple[str, ...], path: Path) -> None:
    """`value` is a mapping holding a finite number under each of `fields`."""
    if not isinstance(value, dict):
        raise UserError(f"should be a mapping, not {_short(value)}", file=str(path), key=where)
    for field in fields:
        if field not in value:
            raise UserError("missing", file=str(path), key=f"{where}.{field}")
        if not _is_number(value[field]):
            raise UserError(
                f"should be a number, not {_short(value[field])}",
                file=str(path),
                key=f"{where}.{field}",
            )


def _load_games(path: Path, report: dict[str, Any]) -> pl.DataFrame:
    if not path.is_file():
        what = "not a file" if path.exists() else "missing: the report folder has no games.parquet"
        raise UserError(what, file=str(path))
    try:
        games = pl.read_parquet(path)
    except (pl.exceptions.PolarsError, OSError, ValueError, pl.exceptions.PanicException) as exc:
        # The reader panics rather than raising on some damage: still the file's fault.
        first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise UserError(f"unreadable (truncated or damaged?): {first}", file=str(path)) from None

    players, n_games = report["players"], report["games"]
    seat_columns = {c for c in games.columns if c.split("_")[0] in ("score", "win", "bot")}
    expected_seats = {f"{kind}_{s}" for kind in ("score", "win", "bot") for s in range(players)}
    numeric = ["game", "length", *(f"{k}_{s}" for k in ("score", "win") for s in range(players))]
    numeric += [table.event(name) for name in report["events"]]

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
    if events != set(report["events"]):
        raise mismatch(
            f"events {sorted(report['events'])} in report.json, {sorted(events)} in the file"
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
    for s in range(players):
        if games.schema[table.bot(s)] != pl.String or games[table.bot(s)].null_count():
            raise mismatch(f"column bot_{s} should hold bot labels")
    games = games.sort("game")
    if not games["game"].cast(pl.Int64).equals(pl.Series("game", range(n_games), pl.Int64)):
        raise mismatch(f"column game should number the games 0..{n_games - 1}")
    return games


def version_notes(report: dict[str, Any], where: str) -> list[str]:
    """Lines saying how this report's versions differ from this balancer's, if they do."""
    notes = []
    if games.canonical(report["game"]) is None:
        raise UserError(f"unknown game {report['game']!r}", file=where, key="game")
    current = games.get(report["game"]).rules_version
    if report["rules_version"] != current:
        notes.append(
            f"{where}: written under {report['game']} rules version {report['rules_version']}; "
            f"this balancer plays version {current}, so a replay may differ"
        )
    if report["balancer_version"] != __version__:
        notes.append(
            f"{where}: written by balancer {report['balancer_version']}; this is {__version__}"
        )
    return notes
