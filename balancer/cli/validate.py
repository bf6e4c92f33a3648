"""`balancer validate VARIANT...`: check variant files (and game files) without playing.

Every mistake of every file is reported, one line each on stderr (or all in
`--json` on stdout), and the exit code is 2 when there is any.
"""

from __future__ import annotations

import json
from typing import Any

import click

from balancer.cli.base import EXIT_USER_ERROR, command
from balancer.cli.options import VARIANT_PATH, format_option
from balancer.errors import UserError


@command()
@click.argument("variants", nargs=-1, required=True, type=VARIANT_PATH)
@click.option(
    "--import",
    "import_plugins",
    is_flag=True,
    help="Also import each plugin bot's module to check it exists (this runs its code).",
)
@format_option("Print the results as text, or JSON for tools.")
def validate(variants: tuple[str, ...], import_plugins: bool, fmt: str) -> None:
    """Check variant files without playing: every key, value and bot, every mistake.

    A plugin bot's name is checked for form only, without importing it,
    unless --import is given.
    """
    as_json = fmt == "json"
    from balancer.bots import registry
    from balancer.config import variant
    from balancer.config.dead_rules import dead_rules
    from balancer.escape import terminal
    from balancer.games.roles import check_file, is_game_file

    results = []
    failed = False
    for path in variants:
        if is_game_file(path):
            game, problems = check_file(path)
            problems = _in_file_order(problems)
            failed = failed or bool(problems)
            results.append(_game_result(path, game, problems))
            if not as_json and game is not None:
                click.echo(
                    terminal(
                        f"{path}: ok (game file: {game.name}, "
                        f"{game.min_players}-{game.max_players} players)"
                    )
                )
            for note in game.notes if game is not None and not as_json else ():
                click.echo(terminal(f"balancer: note: {note}"), err=True)
            for problem in problems if not as_json else ():
                click.echo(terminal(f"balancer: error: {problem.message}"), err=True)
            continue
        found, problems = variant.check(path)
        # The game file a variant names: every mistake in it, not only the first.
        problems = [e for p in problems for e in getattr(p, "every", (p,))]
        if found is not None:
            from balancer.analysis.expect import target_problems

            problems += target_problems(found)  # expect: targets, as `balancer check` reads them
            if problems:
                found = None
        if found is not None and import_plugins:
            for slot, seat in enumerate(found.seats):
                if registry.is_plugin(seat.bot):
                    try:
                        registry.load_plugin(seat.bot)
                    except ValueError as exc:
                        key = f"seats[{slot}].bot"
                        problems.append(UserError(str(exc), file=path, key=key))
            if problems:
                found = None
        problems = _in_file_order(problems)
        failed = failed or bool(problems)
        result: dict[str, Any] = {"file": path, "ok": not problems}
        # Playable, so no error: a knob that leaves a rule nothing to do is said, exit 0.
        dead = dead_rules(found) if found is not None else []
        if found is not None:
            result.update(game=found.game, players=found.players, games=found.games)
            result["warnings"] = dead
        result["errors"] = [
            {"file": e.file, "line": e.line, "key": e.key, "message": e.message} for e in problems
        ]
        results.append(result)
        if as_json:
            continue
        if found is not None:
            click.echo(
                terminal(f"{path}: ok ({found.game}, {found.players} players, {found.games} games)")
            )
        for why in dead:
            click.echo(terminal(f"balancer: warning: {path}: {why}"), err=True)
        # What validating its game file said without refusing it (an inherited event dropped).
        from balancer.games import portable

        for note in getattr(portable(found.game), "notes", ()) if found is not None else ():
            click.echo(terminal(f"balancer: note: {note}"), err=True)
        for problem in problems:
            click.echo(terminal(f"balancer: error: {problem.message}"), err=True)
    if as_json:
        click.echo(json.dumps(results, indent=2, ensure_ascii=False))
    if failed:
        raise click.exceptions.Exit(EXIT_USER_ERROR)


def _in_file_order(problems: list[UserError]) -> list[UserError]:
    """Each file's mistakes by line, files in the order they were first met."""
    first: dict[str | None, int] = {}
    for problem in problems:
        first.setdefault(problem.file, len(first))
    return sorted(problems, key=lambda e: (first[e.file], e.line or 0))


def _game_result(path: str, game: Any, problems: list[UserError]) -> dict[str, Any]:
    result: dict[str, Any] = {"file": path, "ok": not problems}
    if game is not None:
        result.update(game=game.name, game_file=True)
    result["errors"] = [
        {"file": e.file, "line": e.line, "key": e.key, "message": e.message} for e in problems
    ]
    return result
