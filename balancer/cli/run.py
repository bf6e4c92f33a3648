"""`balancer run VARIANT...`: play each variant and write its report folder."""

from __future__ import annotations

import contextlib
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from balancer import i18n
from balancer.cli.base import command, note_game_file
from balancer.cli.completion import complete_knob
from balancer.cli.options import VARIANT_PATH, check_placement, format_option, simulation_options
from balancer.cli.simulate import simulate
from balancer.errors import UserError

# run --trace's most games: they are played again at the engine's speed (sim/trace.py)
# and held in memory until the report is saved.
MOST_TRACED = 100_000

if TYPE_CHECKING:
    from balancer.report.model import Report


@command()
@click.argument("variants", nargs=-1, required=True, type=VARIANT_PATH)
@simulation_options
@click.option(
    "--out",
    "-o",
    type=click.Path(file_okay=False),
    help="Report folder (default reports/<name>/); only with one variant.",
)
@format_option(
    "Print a table, or (json) a list on stdout with one summary per variant (its folder "
    "and headline figures) and nothing else there."
)
@click.option(
    "--until",
    metavar="win_ci<=W",
    default=None,
    help="Stop early, once every seat's and bot's win share has a 95% confidence sequence "
    "at most W wide (valid however often it is checked); --games is then the most played.",
)
@click.option(
    "--set",
    "settings",
    shell_complete=complete_knob,
    multiple=True,
    metavar="rules.KNOB=VALUE",
    help="Play with a knob changed, for this run only (repeatable); recorded in the report.",
)
@click.option(
    "--players",
    type=click.IntRange(1, 64),
    help="Play with this many players, for this run only (the variant's bots, or --bots).",
)
@click.option(
    "--bots",
    metavar="BOT[,BOT...]",
    help="One bot for every seat, or one per seat, for this run only.",
)
@click.option(
    "--trace",
    type=click.IntRange(0, MOST_TRACED),
    default=0,
    metavar="N",
    help="Keep each seat's score after each step of the first N games (trace.parquet in the "
    "report folder), played again on the Python engine; 0: none.",
)
def run(
    variants: tuple[str, ...],
    games: int | None,
    seed: int | None,
    workers: int,
    backend: str,
    scheduler: str | None,
    out: str | None,
    until: str | None,
    quiet: bool,
    check: bool,
    move_time_limit: float,
    trust_plugins: bool,
    fmt: str,
    settings: tuple[str, ...],
    players: int | None,
    bots: str | None,
    trace: int,
) -> None:
    """Simulate VARIANTS and write a report folder for each.

    --set, --players and --bots change the variants for this run only: checked
    as a variant file is, recorded in report.json (`command_line`) and shown by
    diff; the default folder then names the changes (reports/NAME-CHANGES/), so
    the variant's own report is not replaced.
    """
    as_json = fmt == "json"
    if out is not None and len(variants) > 1:
        raise UserError("--out takes one variant; give each its own run", key="--out")
    check_placement(backend, scheduler)
    import balancer
    from balancer.report.text import headline
    from balancer.stats.sequential import parse_until

    if until is not None:
        parse_until(until)  # a bad rule is one line before any game is played
    from balancer.config import one_off

    loaded = [
        one_off.apply(balancer.load_variant(path, games=games, seed=seed), settings, players, bots)
        for path in variants
    ]
    from balancer.config.dead_rules import dead_rules
    from balancer.escape import terminal

    for game in dict.fromkeys(variant.game for variant, _ in loaded):
        note_game_file(game)
    for variant, _ in loaded:
        for why in dead_rules(variant):  # playable, so played; but said before the games
            click.echo(terminal(f"balancer: warning: {variant.path}: {why}"), err=True)
    summaries = []
    for variant, changes in loaded:
        default = Path("reports") / (variant.name + one_off.folder_suffix(changes))
        folder = Path(out) if out is not None else default
        # With --json stdout holds the JSON alone: what a trusted plugin prints goes to stderr.
        with contextlib.redirect_stdout(sys.stderr) if as_json else contextlib.nullcontext():
            report = simulate(
                variant,
                folder,
                workers,
                quiet,
                check,
                move_time_limit,
                backend=backend,
                scheduler=scheduler,
                trust_plugins=trust_plugins,
                until=until,
                command_line=changes,
                # A fault's replay command then sets the knobs the run set (not --players
                # or --bots, which replay has no flags for).
                knobs=one_off.knobs_set(variant, changes),
                trace=trace,
            )
        from balancer.analysis.overview import refresh_for

        refresh_for(folder)  # reports/index.html lists the run
        if as_json:
            summaries.append(json_summary(report, folder))
            continue
        click.echo(headline(report))
        written = i18n.text("run.written", i18n.report_lang(report.variant))
        click.echo(f"\n{written}: {folder}/")
    if as_json:
        import json

        click.echo(json.dumps(summaries, indent=2, ensure_ascii=False, allow_nan=False))


# report.json's headline figures; the per-game table and the variant are in the folder.
SUMMARY_KEYS = (
    "game",
    "players",
    "games",
    "seed",
    "seats",
    "seat_advantage",
    "margin",
    "length",
    "length_unit",
    "events",
    "bots",
    "higher_is_better",
)


def json_summary(report: Report, folder: Path) -> dict[str, Any]:
    """What `run --json` prints for one variant: its name, folder and headline figures."""
    document = report.to_json()
    summary: dict[str, Any] = {"name": report.variant.get("name"), "folder": str(folder)}
    summary.update({key: document[key] for key in SUMMARY_KEYS if key in document})
    return summary
