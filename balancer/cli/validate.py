"""`balancer validate VARIANT...`: check variant files without playing."""

from __future__ import annotations

import click

from balancer.cli.base import command
from balancer.errors import UserError


@command()
@click.argument("variants", nargs=-1, required=True, type=click.Path(dir_okay=False))
@click.option(
    "--import",
    "import_plugins",
    is_flag=True,
    help="Also import each plugin bot's module to check it exists (this runs its code).",
)
def validate(variants: tuple[str, ...], import_plugins: bool) -> None:
    """Check variant files without playing: every key, value and bot.

    A plugin bot's name is checked for form only, without importing it,
    unless --import is given.
    """
    import balancer
    from balancer.bots import registry
    from balancer.report.escape import terminal

    for path in variants:
        variant = balancer.load_variant(path)
        if import_plugins:
            for slot, seat in enumerate(variant.seats):
                if registry.is_plugin(seat.bot):
                    try:
                        registry.load_plugin(seat.bot)
                    except ValueError as exc:
                        raise UserError(str(exc), file=path, key=f"seats[{slot}].bot") from None
        click.echo(
            terminal(
                f"{path}: ok ({variant.game}, {variant.players} players, {variant.games} games)"
            )
        )
