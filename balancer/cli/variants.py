"""`balancer variants [DIR]`: the shipped variants (or DIR's), one line each.

A variant's line is its file's leading comment: the variant schema has no
description key, and every shipped file opens with one saying what it is.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from balancer.cli.base import command
from balancer.cli.options import format_option
from balancer.config.shipped import shipped_dir
from balancer.errors import UserError


def shown_path(folder: Path) -> str:
    """FOLDER as the user would type it from the working directory."""
    resolved = folder.resolve()
    try:
        return str(resolved.relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(resolved)


def description(path: Path) -> str:
    """The file's leading comment block, as one line."""
    words: list[str] = []
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
        stripped = line.strip()
        if not stripped.startswith("#"):
            break
        words.extend(stripped.lstrip("#").split())
    return " ".join(words)


@command("variants")
@click.argument("directory", required=False, type=click.Path(file_okay=False))
@format_option("Print a table, or JSON for tools.")
def variants_command(directory: str | None, fmt: str) -> None:
    """List the shipped variants (or those in DIRECTORY), with a line each."""
    as_json = fmt == "json"
    from balancer import games
    from balancer.config import variant

    folder = Path(directory) if directory else shipped_dir()
    if not folder.is_dir():
        raise UserError("no such directory", file=str(folder))
    rows: list[dict[str, Any]] = []
    for path in sorted(folder.glob("*.yaml")):
        found, problems = variant.check(path)
        row = {
            "name": found.name if found else path.stem,
            "file": str(path),
            "game": found.game if found else None,
            "players": found.players if found else None,
            "description": description(path),
        }
        if problems:
            row["error"] = problems[0].message
        rows.append(row)
    if as_json:
        click.echo(json.dumps(rows, indent=2, ensure_ascii=False))
        return
    if not rows:
        click.echo(f"{folder}: no variant files (*.yaml)")
        return
    # The hint names what `show` accepts from here: a shipped variant by its bare name
    # (found from any folder), another folder's by its path.
    if directory is None:
        hint = "balancer show NAME"
    else:
        hint = f"balancer show {shown_path(folder)}/NAME.yaml"
    click.echo(f"{len(rows)} variants in {folder} ({hint} prints one merged):")
    width = max(len(row["name"]) for row in rows)
    for row in rows:
        if row["game"]:
            short = games.get(str(row["game"])).short
            where = f"{short} {row['players']}p"
        else:
            where = "invalid"
        text = row["description"] or row.get("error", "")
        click.echo(f"  {row['name']:<{width}}  {where:<7}  {text}")
