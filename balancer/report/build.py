"""Every figure of a report, from a run: report.json's data, the CSV tables, summary.md.

The CSV tables are a pure function of games.parquet and report.json, so
`balancer csv` regenerates them byte for byte.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from balancer import __version__
from balancer.sim import table
from balancer.sim.runner import RunResult
from balancer.stats import describe as stats

CSV_TABLES = ("seats.csv", "scores.csv", "events.csv", "games.csv")


def games_frame(result: RunResult) -> pl.DataFrame:
    return table.frame(result.columns(), result.variant.players, result.variant.spec.events)


def build_report(result: RunResult, frame: pl.DataFrame) -> dict[str, Any]:
    """Every figure of report.json, computed from the per-game table."""
    variant = result.variant
    spec = variant.spec
    players = variant.players
    wins = frame.select([table.win(s) for s in range(players)]).to_numpy()
    scores = frame.select([table.score(s) for s in range(players)]).to_numpy()
    seats = []
    for seat in range(players):
        labels = frame[table.bot(seat)].unique(maintain_order=True).to_list()
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
        "events": {
            name: stats.event_rates(frame[table.event(name)].to_numpy()) for name in spec.events
        },
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
                    table.score(k): score[k]
                    for k in ("mean", "sd", "min", "q1", "median", "q3", "max")
                },
            }
        )
    return pl.DataFrame(rows)


def scores_table(report: dict[str, Any], frame: pl.DataFrame) -> pl.DataFrame:
    """How many games ended with each score, per seat: a histogram to chart."""
    players = report["players"]
    values = np.concatenate([frame[table.score(s)].to_numpy() for s in range(players)])
    histogram = pl.DataFrame({"score": np.unique(values)})
    for seat in range(players):
        counts = (
            frame.group_by(table.score(seat))
            .len()
            .rename({table.score(seat): "score", "len": f"seat_{seat}"})
        )
        histogram = histogram.join(counts, on="score", how="left")
    return histogram.fill_null(0).sort("score")


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
    for name, contents in tables.items():
        target = folder / name
        # Each table lands whole or not at all, even when rewritten in place.
        partial = folder / f".{name}.tmp-{os.getpid()}"
        try:
            contents.write_csv(partial, include_bom=excel)
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
