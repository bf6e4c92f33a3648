"""`balancer show VARIANT`: the variant after `extends`, every knob spelled out, as YAML."""

from __future__ import annotations

import click

from balancer.cli.base import command
from balancer.cli.options import VARIANT_PATH


def resolved_text(path: str) -> str:
    """The merged variant as a file `balancer` reads back to the same variant."""
    from balancer import knobs
    from balancer.cli import yamltext
    from balancer.config import variant

    found = variant.load(path)
    seats = [{"bot": s.bot, "params": dict(s.params)} if s.params else s.bot for s in found.seats]
    lines = [
        f"# {found.name}: {path} with extends merged and every knob spelled out",
        f"name: {yamltext.value(found.name)}",
        # A game file by its path, as the report keeps it: the text reads back anywhere.
        f"game: {yamltext.value(found.resolved()['game'])}",
        f"players: {found.players}",
        f"games: {found.games}",
        f"seed: {found.seed}",
    ]
    if all(seat == seats[0] for seat in seats):
        lines.append(f"bots: {yamltext.value(seats[0])}")
    else:
        lines.append(f"seats: {yamltext.value(seats)}")
    lines.append(f"seat_rotation: {yamltext.value(found.seat_rotation)}")
    if found.lang is not None:
        lines.append(f"lang: {found.lang}")
    by_name = {k.name: k for k in found.spec.knobs}
    # Every knob, the printed deck's too (a report leaves that one out at its default).
    for section, values in knobs.resolved_sections(
        found.spec.knobs, found.rules, every=True
    ).items():
        lines.append(f"{section}:")
        for name, value in values.items():
            lines.append(f"  {name}: {yamltext.knob_value(by_name[name], value)}")
    return "\n".join(lines) + "\n"


@command("show")
@click.argument("variant", type=VARIANT_PATH)
def show_command(variant: str) -> None:
    """Print VARIANT as it is played: extends merged, every knob resolved (YAML)."""
    click.echo(resolved_text(variant), nl=False)
