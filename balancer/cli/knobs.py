"""`balancer knobs GAME`: every knob of a game, its default and meaning, and its bots.

The text is YAML: the `rules:` and `scoring:` blocks can be pasted into a
variant file as they are, and everything else is a comment.
"""

from __future__ import annotations

import json

import click

from balancer.cli.base import command, note_game_file
from balancer.cli.completion import complete_game
from balancer.cli.options import format_option
from balancer.errors import UserError


@command("knobs")
@click.argument("game", shell_complete=complete_game)
@format_option("Print a table, or JSON for tools.")
def knobs_command(game: str, fmt: str) -> None:
    """List every knob of GAME with its default and meaning (YAML a variant can paste)."""
    as_json = fmt == "json"
    from balancer import games
    from balancer.cli import yamltext
    from balancer.games import register_file
    from balancer.games.roles import looks_like_file

    if looks_like_file(game):  # a game file, by its path: its own knobs and events
        game = register_file(game)
        note_game_file(game)
    if games.canonical(game) is None:
        raise UserError(f"unknown game {game!r} (known: {', '.join(games.offered())})")
    spec = games.get(game)
    if as_json:
        rows = [
            {
                "name": k.name,
                "section": k.section,
                "default": k.default,
                "kind": k.kind,
                "meaning": k.meaning,
            }
            for k in spec.knobs
        ]
        click.echo(json.dumps(rows, indent=2, ensure_ascii=False))
        return
    click.echo(f"# {spec.name} ({spec.short}), {spec.min_players}-{spec.max_players} players")
    for section in ("rules", "scoring"):
        click.echo(f"\n{section}:")
        for k in spec.knobs:
            if k.section == section:
                shown = yamltext.knob_value(k, k.default)
                click.echo(f"  {k.name}: {shown}    {yamltext.comment(f'{k.kind}: {k.meaning}')}")
    from balancer.bots import registry as bots

    click.echo("\n# bots (bots: NAME, or seats: [NAME, ...]):")
    for name, bot in bots.builtin(spec.name).items():
        click.echo(f"#   {name}: {' '.join(bot.meaning.split())}")
        for p in bot.params:
            shown = yamltext.value(p.default)
            click.echo(f"#       {p.name}: {shown}    # {p.kind}: {' '.join(p.meaning.split())}")
