"""`balancer validate VARIANT...`: check variant files without playing."""

from __future__ import annotations

import click

from balancer.cli.base import command


@command()
@click.argument("variants", nargs=-1, required=True, type=click.Path(dir_okay=False))
def validate(variants: tuple[str, ...]) -> None:
    """Check variant files without playing: every key, value and bot."""
    import balancer

    for path in variants:
        variant = balancer.load_variant(path)
        click.echo(f"{path}: ok ({variant.game}, {variant.players} players, {variant.games} games)")
