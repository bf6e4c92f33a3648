"""`balancer validate VARIANT...`: check variant files (and game files) without playing.

Every mistake of every file is reported, one line each on stderr (or all in
`--json` on stdout), and the exit code is 2 when there is any.
"""

from __future__ import annotations

import json
from typing import Any

import click

from balancer.cli.base import EXIT_USER_ERROR, command
from balancer.errors import UserError


@command()
@click.argument("variants", nargs=-1, required=True, type=click.Path(dir_okay=False))
@click.option(
    "--import",
    "import_plugins",
    is_flag=True,
    help="Also import each plugin bot's module to check it exists (this runs its code).",
)
@click.option("--json", "as_json", is_flag=True, help="Print the results as JSON for tools.")
def validate(variants: tuple[str, ...], import_plugins: bool, as_json: bool) -> None:
    """Check variant files without playing: every key, value and bot, every mistake.

    A plugin bot's name is checked for form only, without importing it,
    unless --import is given.
    """
    from balancer.bots import registry
    from balancer.config import variant
    from balancer.games.roles import check_file, is_game_file
    from balancer.report.escape import terminal

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
            for problem in problems if not as_json else ():
                click.echo(terminal(f"balancer: error: {problem.message}"), err=True)
            continue
        found, problems = variant.check(path)
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
        if found is not None:
            result.update(game=found.game, players=found.players, games=found.games)
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
