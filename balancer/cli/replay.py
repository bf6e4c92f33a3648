"""`balancer replay VARIANT|REPORT --game I`: a play-by-play of one game."""

from __future__ import annotations

from pathlib import Path

import click

from balancer.cli.base import command
from balancer.cli.options import MAX_SEED
from balancer.errors import UserError


@command()
@click.argument("source", metavar="VARIANT|REPORT", type=click.Path(path_type=Path))
@click.option("--game", "-g", "index", type=click.IntRange(0), required=True, help="Game index.")
@click.option("--seed", "-s", type=click.IntRange(0, MAX_SEED), help="The run's seed.")
@click.option("--seat", type=click.IntRange(0), help="Show only what this seat could see.")
def replay(source: Path, index: int, seed: int | None, seat: int | None) -> None:
    """Print a play-by-play of game I, exactly as the run played it.

    SOURCE is a variant file (with --seed if the run overrode it) or a report
    folder, whose report.json holds the variant and seed as run.
    """
    from balancer.config import variant
    from balancer.report import model as reportio
    from balancer.sim import replay as replay_mod

    if source.is_dir():
        data = reportio.load_report(source)
        where = str(source / reportio.REPORT_JSON)
        for note in reportio.version_notes(data, where):
            click.echo(f"balancer: note: {note}", err=True)
        loaded = variant.from_resolved(data.variant, where)
        if index >= data.n_games:
            raise UserError(f"the run played games 0..{data.n_games - 1}", key="--game")
    else:
        loaded = variant.load(source)
    loaded = loaded.with_overrides(seed=seed)
    if seat is not None and seat >= loaded.players:
        raise UserError(f"seat {seat} does not exist with {loaded.players} players", key="--seat")
    try:
        click.echo(replay_mod.replay_text(loaded, index, seat))
    except replay_mod.ReplayFault as stopped:
        click.echo(stopped.played)
        raise UserError(f"the game stopped: {stopped.fault}") from None
