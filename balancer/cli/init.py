"""`balancer init GAME [FILE]`: a new variant with every knob at its default, explained."""

from __future__ import annotations

import click

from balancer.cli.base import command
from balancer.cli.completion import complete_game, complete_shipped_game_file
from balancer.errors import UserError

DEFAULT_PLAYERS = 4  # a table most games of the three seat; clipped to the game's range
# For a game with no shipped base variant (a plugin game): its own seed and count.
FALLBACK_SEED, FALLBACK_GAMES = 1, 1000


def variant_text(game: str) -> str:
    """A variant file for GAME: every knob at its default, its meaning as a comment."""
    from balancer import games
    from balancer.bots import registry as bots
    from balancer.cli import yamltext

    spec = games.get(game)
    builtin = list(bots.builtin(spec.name))
    bot = next((name for name in builtin if name != "random"), "random")
    players = min(max(DEFAULT_PLAYERS, spec.min_players), spec.max_players)
    if spec.min_players == spec.max_players:
        seats_range = f"exactly {spec.min_players}"
    else:
        seats_range = f"{spec.min_players} to {spec.max_players}"
    from balancer.config.shipped import base_seed_and_games

    # The shipped base's seed and game count: a diff against any shipped variant is paired.
    seed, count = base_seed_and_games(spec.short) or (FALLBACK_SEED, FALLBACK_GAMES)
    lines = [
        f"# A {spec.name} variant: every knob at its default (`balancer docs {spec.short}`"
        " prints its rules), its meaning above.",
        "# Change what you want to try, then `balancer validate` and `balancer run` this file.",
        f"# `balancer knobs {spec.short}` lists the knobs and bots, `balancer events {spec.short}`"
        " the events a report counts.",
        f"game: {spec.name}",
        f"players: {players}    # {seats_range}",
        f"games: {count}    # as the shipped {spec.short}-* variants: diffs with them are paired",
        f"seed: {seed}    # the same seed plays the same games",
        f"bots: {bot}    # every seat; or seats: [one per seat]; bots: {', '.join(builtin)}",
        "seat_rotation: false    # true: rotate the seating game by game",
    ]
    for section in ("rules", "scoring"):
        lines.append(f"{section}:")
        for knob in spec.knobs:
            if knob.section == section:
                lines.append("  " + yamltext.comment(f"{knob.kind}: {knob.meaning}"))
                lines.append(f"  {knob.name}: {yamltext.knob_value(knob, knob.default)}")
    return "\n".join(lines) + "\n"


def game_file_text(source: str, path: str) -> str:
    """A new game file at `path`, a copy of the shipped game file `source` (its
    comments with it), made the designer's own: its name, short name and title in
    every language are the new file's, so no report of it is titled after the
    shipped game."""
    import re
    from pathlib import Path

    from balancer.games.roles import gamefile

    shipped = gamefile.shipped_file_of(source)
    if shipped is None:
        known = ", ".join(gamefile.shipped_names())
        raise UserError(f"no shipped game file {source!r} (shipped: {known})", key="--from")
    stem = re.sub(r"[^A-Za-z0-9_-]", "-", Path(path).stem if path != "-" else "my-game")
    text = shipped.read_text(encoding="utf-8")
    text = re.sub(r"(?m)^name: .*$", f"name: {stem}", text, count=1)
    # The name serves as its own short name: an abbreviation could be another game's (mr).
    text = re.sub(
        r"(?m)^short: .*$",
        f"short: {stem}    # a shorter name commands accept; keep it unlike any other game's",
        text,
        count=1,
    )
    # Every title of the shipped game (names: {ja: MEGA RACER}) gives way to the new name.
    text = re.sub(
        r"(?m)^names:\n(?:[ \t]+.*\n)*",
        f"names:\n  ja: {stem}    # the title of a Japanese report: your game's Japanese name\n",
        text,
        count=1,
    )
    header = (
        f"# {stem}: a new game, copied from the shipped {shipped.stem} (`balancer docs\n"
        f"# new-game` explains every key; `balancer docs {shipped.stem}` the game it\n"
        "# started from; a page named below as docs/NAME is `balancer docs NAME`).\n"
        "# Change a role, then `balancer validate` this file and name it in a variant:\n"
        f"# game: ./{Path(path).name if path != '-' else 'my-game.yaml'}\n"
    )
    return header + text


@command("init")
@click.argument("game", shell_complete=complete_game)
@click.argument("file", required=False, type=click.Path(dir_okay=False))
@click.option(
    "--from",
    "from_game",
    shell_complete=complete_shipped_game_file,
    metavar="SHIPPED",
    help="Write a game file (GAME is then the file to write) copied from a shipped game file.",
)
def init_command(game: str, file: str | None, from_game: str | None) -> None:
    """Write a new variant FILE for GAME (default my-SHORT.yaml; - for stdout).

    Every knob is at its default with its meaning as a comment. An existing
    file is never overwritten. With --from, write a new game file instead:
    `balancer init --from fish-dash-cash my-game.yaml`.
    """
    from balancer import games

    if from_game is not None:
        if file is not None:
            raise UserError("with --from, name only the game file to write", key="FILE")
        path = game
        text = game_file_text(from_game, path)
    else:
        if games.canonical(game) is None:
            raise UserError(f"unknown game {game!r} (known: {', '.join(games.offered())})")
        text = variant_text(game)
        path = file or f"my-{games.get(game).short}.yaml"
    if path == "-":
        click.echo(text, nl=False)
        return
    try:
        # "x": create it, or fail if anything is there, with no gap between the two.
        with open(path, "x", encoding="utf-8") as out:
            out.write(text)
    except FileExistsError:
        message = "already exists; choose another name (init never overwrites)"
        raise UserError(message, file=path) from None
    except OSError as exc:
        raise UserError(f"can't write it: {exc.strerror or exc}", file=path) from None
    if from_game is not None:
        click.echo(
            f"wrote {path}; next: balancer validate {path}, then a variant with game: {path}"
        )
    else:
        click.echo(f"wrote {path}; next: balancer validate {path} && balancer run {path}")
