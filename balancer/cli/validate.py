"""`balancer validate VARIANT...`: check variant files without playing.

Every mistake of every file is reported, one line each on stderr (or all in
`--json` on stdout), and the exit code is 2 when there is any.
"""

from __future__ import annotations

import json

import click

from balancer.cli.base import EXIT_USER_ERROR, command


@command()
@click.argument("variants", nargs=-1, required=True, type=click.Path(dir_okay=False))
@click.option("--json", "as_json", is_flag=True, help="Print the results as JSON for tools.")
def validate(variants: tuple[str, ...], as_json: bool) -> None:
    """Check variant files without playing: every key, value and bot, every mistake."""
    from balancer.config import variant

    results = []
    failed = False
    for path in variants:
        found, problems = variant.check(path)
        problems = _in_file_order(problems)
        failed = failed or bool(problems)
        result: dict = {"file": path, "ok": not problems}
        if found is not None:
            result.update(game=found.game, players=found.players, games=found.games)
        result["errors"] = [
            {"file": e.file, "line": e.line, "key": e.key, "message": e.message} for e in problems
        ]
        results.append(result)
        if as_json:
            continue
        if found is not None:
            click.echo(f"{path}: ok ({found.game}, {found.players} players, {found.games} games)")
        for problem in problems:
            click.echo(f"balancer: error: {problem.message}", err=True)
    if as_json:
        click.echo(json.dumps(results, indent=2, ensure_ascii=False))
    if failed:
        raise click.exceptions.Exit(EXIT_USER_ERROR)


def _in_file_order(problems: list) -> list:
    """Each file's mistakes by line, files in the order they were first met."""
    first = {}
    for problem in problems:
        first.setdefault(problem.file, len(first))
    return sorted(problems, key=lambda e: (first[e.file], e.line or 0))
