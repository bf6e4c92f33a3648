"""`balancer events GAME`: what each event a report counts for GAME means."""

from __future__ import annotations

import json

import click

from balancer.cli.base import command, note_game_file
from balancer.cli.completion import complete_game
from balancer.cli.options import format_option
from balancer.errors import UserError


def event_meanings(game: str) -> dict[str, str]:
    """GAME's events, in report order, each with its one-line meaning."""
    from balancer import games

    definition = games.definition(game)
    return {name: definition.event_meanings[name] for name in definition.spec.events}


@command("events")
@click.argument("game", shell_complete=complete_game)
@format_option("Print a table, or JSON for tools.")
def events_command(game: str, fmt: str) -> None:
    """List every event a report of GAME counts, and what one count of it is."""
    as_json = fmt == "json"
    from balancer import games
    from balancer.games import register_file
    from balancer.games.roles import looks_like_file

    if looks_like_file(game):  # a game file, by its path: its own knobs and events
        game = register_file(game)
        note_game_file(game)
    if games.canonical(game) is None:
        raise UserError(f"unknown game {game!r} (known: {', '.join(games.offered())})")
    spec = games.get(game)
    meanings = event_meanings(game)
    if as_json:
        rows = [
            {"name": name, "meaning": meaning, "value": name in spec.value_events}
            for name, meaning in meanings.items()
        ]
        click.echo(json.dumps(rows, indent=2, ensure_ascii=False))
        return
    click.echo(
        f"{spec.name} ({spec.short}): events a report counts; per_game is the mean count "
        "per game, share_of_games the share of games with at least one"
    )
    if not meanings:  # a game file may declare none
        click.echo("  (none: the game declares no events)")
        return
    width = max(map(len, meanings))
    for name, meaning in meanings.items():
        click.echo(f"  {name:<{width}}  {meaning}")
