"""Turn a run into a report folder: report.json, games.parquet, CSV tables, summary.md.

The folder is written beside its final place and swapped in only when every
file is complete, so a failed or interrupted run leaves the previous report
as it was. The CSV tables are a pure function of games.parquet and
report.json, so `balancer csv` regenerates them byte for byte.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from balancer import __version__
from balancer.errors import UserError
from balancer.report.model import GAMES_PARQUET, REPORT_JSON
from balancer.sim.runner import RunResult
from balancer.stats import describe as stats

CSV_TABLES = ("seats.csv", "scores.csv", "events.csv", "games.csv")


def games_frame(result: RunResult) -> pl.DataFrame:
    return pl.DataFrame(result.columns())


def build_report(result: RunResult, frame: pl.DataFrame) -> dict[str, Any]:
    """Every figure of report.json, computed from the per-game table."""
    variant = result.variant
    spec = variant.spec
    players = variant.players
    wins = frame.select([f"win_{s}" for s in range(players)]).to_numpy()
    scores = frame.select([f"score_{s}" for s in range(players)]).to_numpy()
    seats = []
    for seat in range(players):
        labels = frame[f"bot_{seat}"].unique(maintain_order=True).to_list()
        share = float(wins[:, seat].mean())
        low, high = stats.wilson(float(wins[:, seat].sum()), len(frame))
        seats.append(
            {
                "seat": seat,
                "bot": labels[0] if len(labels) == 1 else "rotating",
                "win_share": share,
                "win_ci95": [low, high],
                "score": stats.distribution(scores[:, seat]),
            }
        )
    chi2, p_value = stats.seat_advantage(wins)
    report: dict[str, Any] = {
        "game": spec.name,
        "players": players,
        "games": len(frame),
        "seed": variant.seed,
        "variant": variant.resolved(),
        "seats": seats,
        "seat_advantage": {"chi2": chi2, "p_value": p_value},
        "length": stats.length_summary(frame["length"].to_numpy()),
        "events": {name: stats.event_rates(frame[f"ev_{name}"].to_numpy()) for name in spec.events},
        "margin": stats.distribution(stats.winning_margin(scores, spec.higher_is_better)),
        "value_events": list(spec.value_events),
        "higher_is_better": spec.higher_is_better,
        "length_unit": spec.length_unit,
        "balancer_version": __version__,
        "rules_version": spec.rules_version,
    }
    if len({s.label for s in variant.seats}) > 1:
        report["bots"] = stats.bot_figures(frame, players)
        report["head_to_head"] = stats.head_to_head(frame, players, spec.higher_is_better)
    return report


# -- CSV tables: functions of (report, frame) only --------------------------


def seats_table(report: dict[str, Any]) -> pl.DataFrame:
    rows = []
    for seat in report["seats"]:
        score = seat["score"]
        rows.append(
            {
                "seat": seat["seat"],
                "bot": seat["bot"],
                "win_share": seat["win_share"],
                "win_ci95_low": seat["win_ci95"][0],
                "win_ci95_high": seat["win_ci95"][1],
                **{
                    f"score_{k}": score[k]
                    for k in ("mean", "sd", "min", "q1", "median", "q3", "max")
                },
            }
        )
    return pl.DataFrame(rows)


def scores_table(report: dict[str, Any], frame: pl.DataFrame) -> pl.DataFrame:
    """How many games ended with each score, per seat: a histogram to chart."""
    players = report["players"]
    values = np.concatenate([frame[f"score_{s}"].to_numpy() for s in range(players)])
    table = pl.DataFrame({"score": np.unique(values)})
    for seat in range(players):
        counts = (
            frame.group_by(f"score_{seat}")
            .len()
            .rename({f"score_{seat}": "score", "len": f"seat_{seat}"})
        )
        table = table.join(counts, on="score", how="left")
    return table.fill_null(0).sort("score")


def events_table(report: dict[str, Any]) -> pl.DataFrame:
    return pl.DataFrame(
        [
            {"event": name, "per_game": e["per_game"], "share_of_games": e["share_of_games"]}
            for name, e in report["events"].items()
        ],
        schema={"event": pl.String, "per_game": pl.Float64, "share_of_games": pl.Float64},
    )


def write_csv_tables(
    report: dict[str, Any], frame: pl.DataFrame, folder: Path, *, excel: bool = False
) -> list[Path]:
    tables = {
        "seats.csv": seats_table(report),
        "scores.csv": scores_table(report, frame),
        "events.csv": events_table(report),
        "games.csv": frame,
    }
    written = []
    for name, table in tables.items():
        target = folder / name
        # Each table lands whole or not at all, even when rewritten in place.
        partial = folder / f".{name}.tmp-{os.getpid()}"
        try:
            table.write_csv(partial, include_bom=excel)
            os.replace(partial, target)
        finally:
            partial.unlink(missing_ok=True)
        written.append(target)
    return written


# -- summary.md and the terminal's headline table ---------------------------


def _pct(x: float) -> str:
    return f"{100 * x:5.1f}%"


def headline(report: dict[str, Any]) -> str:
    """The table printed after a run: seats, win shares with intervals, scores."""
    better = "higher" if report["higher_is_better"] else "lower"
    lines = [
        f"{report['variant']['name']}: {report['game']}, {report['players']} players, "
        f"{report['games']} games, seed {report['seed']}",
        "",
        f"{'seat':>4}  {'bot':<24} {'win share':>9}  {'95% interval':<17} "
        f"{'score mean':>10} {'sd':>6}",
    ]
    for seat in report["seats"]:
        low, high = seat["win_ci95"]
        lines.append(
            f"{seat['seat']:>4}  {seat['bot'][:24]:<24} {_pct(seat['win_share']):>9}  "
            f"[{_pct(low)}, {_pct(high)}] {seat['score']['mean']:>10.2f} "
            f"{seat['score']['sd']:>6.2f}"
        )
    adv = report["seat_advantage"]
    lines += [
        "",
        f"score: {better} is better; seat advantage: chi2 {adv['chi2']:.2f}, "
        f"p = {adv['p_value']:.3g}",
        f"length: {report['length']['mean']:.2f} {report['length_unit']} "
        f"(min {report['length']['min']:g}, max {report['length']['max']:g})",
    ]
    if "bots" in report:
        lines.append("")
        lines.append(f"{'bot':<28} {'win share':>9}  {'95% interval':<17} {'seat-games':>10}")
        for label, bot in report["bots"].items():
            low, high = bot["win_ci95"]
            lines.append(
                f"{label[:28]:<28} {_pct(bot['win_share']):>9}  [{_pct(low)}, {_pct(high)}] "
                f"{bot['seat_games']:>10}"
            )
        lines.append("")
        lines.append("head to head: how often the row's bot finishes ahead of the column's")
        for a, row in report.get("head_to_head", {}).items():
            cells = ", ".join(
                f"{b} {_pct(h['ahead_share']).strip()} [{_pct(h['ci95'][0]).strip()}, "
                f"{_pct(h['ci95'][1]).strip()}]"
                for b, h in row.items()
            )
            lines.append(f"  {a}: {cells}")
    return "\n".join(lines)


def summary_markdown(report: dict[str, Any]) -> str:
    lines = [f"# {report['variant']['name']}", "", "```", headline(report), "```", ""]
    lines += ["## Events per game", "", "| event | per game | share of games |", "|---|---:|---:|"]
    for name, e in report["events"].items():
        lines.append(f"| {name} | {e['per_game']:.3f} | {_pct(e['share_of_games']).strip()} |")
    lines += ["", "## Score per seat", ""]
    lines += ["| seat | mean | sd | min | q1 | median | q3 | max |", "|---|" + "---:|" * 7]
    for seat in report["seats"]:
        s = seat["score"]
        cells = " | ".join(
            f"{s[k]:.2f}" for k in ("mean", "sd", "min", "q1", "median", "q3", "max")
        )
        lines.append(f"| {seat['seat']} | {cells} |")
    margin = report["margin"]
    lines += [
        "",
        f"Winning margin (best minus second best): mean {margin['mean']:.2f}, "
        f"median {margin['median']:.2f}.",
        "",
        f"balancer {report['balancer_version']}, {report['game']} rules version "
        f"{report['rules_version']}.",
        "",
    ]
    return "\n".join(lines)


# -- writing the folder, all or nothing -------------------------------------


def check_target(folder: Path, marker: str) -> None:
    """Refuse to replace anything but our own output, before any work is done.

    `folder` may be missing, an empty folder, or a folder holding `marker`
    (report.json for a report, sweep.csv for a sweep): anything else is the
    user's and is never replaced.
    """
    given = str(folder)
    if not given.strip():
        raise UserError("the output folder is an empty name", key="--out")
    path = Path(folder)
    if path.is_symlink():
        raise UserError("is a link; name the folder itself", file=given)
    resolved = path.resolve()
    if Path.cwd().resolve().is_relative_to(resolved):
        raise UserError("is the current folder or holds it; name a folder below it", file=given)
    if not path.exists():
        return
    if not path.is_dir():
        raise UserError(
            "exists and is not a folder; balancer only replaces its own output", file=given
        )
    if not (path / marker).is_file() and any(path.iterdir()):
        raise UserError(
            f"exists and holds no {marker}: it is not balancer's output, so it is left alone",
            file=given,
        )


def write_folder(folder: Path, fill: Callable[[Path], None], marker: str = REPORT_JSON) -> None:
    """Write a folder atomically: `fill(tmp)` writes the files, then tmp replaces `folder`.

    A failure or interrupt at any point leaves `folder` exactly as it was and
    removes the temporary folder. Only balancer's own output (see
    `check_target`) is ever replaced.
    """
    check_target(folder, marker)
    folder = Path(folder)
    parent = folder.resolve().parent
    name = folder.resolve().name
    try:
        parent.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(prefix=f".{name}.tmp-", dir=parent))
        # mkdtemp makes the folder private (0700); a report is as readable as any file.
        umask = os.umask(0)
        os.umask(umask)
        tmp.chmod(0o777 & ~umask)
    except OSError as exc:
        raise UserError(f"can't write here: {exc.strerror}", file=str(parent)) from None
    target = parent / name
    old = parent / f".{name}.old-{os.getpid()}"
    try:
        try:
            fill(tmp)
            if target.exists():
                os.rename(target, old)
                try:
                    os.rename(tmp, target)
                except BaseException:
                    os.rename(old, target)
                    raise
                shutil.rmtree(old, ignore_errors=True)
            else:
                os.rename(tmp, target)
        except OSError as exc:
            raise UserError(f"can't write: {exc.strerror}", file=str(folder)) from None
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def write_report(result: RunResult, folder: Path, html: Callable | None = None) -> dict[str, Any]:
    """Compute the figures and write the whole report folder; returns report.json's data."""
    frame = games_frame(result)
    report = build_report(result, frame)

    def fill(tmp: Path) -> None:
        text = json.dumps(report, indent=2, ensure_ascii=False, allow_nan=False)
        (tmp / REPORT_JSON).write_text(text + "\n")
        frame.write_parquet(tmp / GAMES_PARQUET)
        write_csv_tables(report, frame, tmp)
        (tmp / "summary.md").write_text(summary_markdown(report))
        if html is not None:
            html(report, frame, tmp)

    write_folder(folder, fill)
    return report
