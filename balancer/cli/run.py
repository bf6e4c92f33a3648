"""`balancer run VARIANT...`: play each variant and write its report folder."""

from __future__ import annotations

from pathlib import Path

import click

from balancer.cli.base import command
from balancer.cli.options import check_placement, simulation_options
from balancer.cli.simulate import simulate
from balancer.errors import UserError


@command()
@click.argument("variants", nargs=-1, required=True, type=click.Path(dir_okay=False))
@simulation_options
@click.option(
    "--out",
    "-o",
    type=click.Path(file_okay=False),
    help="Report folder (default reports/<name>/); only with one variant.",
)
@click.option(
    "--until",
    metavar="win_ci<=W",
    default=None,
    help="Stop early, once every seat's and bot's win share has a 95% confidence sequence "
    "at most W wide (valid however often it is checked); --games is then the most played.",
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
) -> None:
    """Simulate VARIANTS and write a report folder for each."""
    if out is not None and len(variants) > 1:
        raise UserError("--out takes one variant; give each its own run", key="--out")
    check_placement(backend, scheduler)
    import balancer
    from balancer.report.text import headline
    from balancer.stats.sequential import parse_until

    if until is not None:
        parse_until(until)  # a bad rule is one line before any game is played
    loaded = [balancer.load_variant(path, games=games, seed=seed) for path in variants]
    for variant in loaded:
        folder = Path(out) if out is not None else Path("reports") / variant.name
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
        )

        click.echo(headline(report))
        click.echo(f"\nreport: {folder}/")
