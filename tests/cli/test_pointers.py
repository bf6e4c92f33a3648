"""Every page a command points to can be read where balancer is installed (issue 37).

A pointer is `docs/PAGE.md`, perhaps with `§N`: `balancer docs PAGE N` prints it
from the package (tests/cli/test_installed.py shows the pages are in it). What a
command can print is gathered from the code: every string that is not a
docstring, every command's --help, and the shipped variants and game files
(`balancer variants` prints their opening comments, `init --from` copies them).
The project's own RULES.md is not installed, so nothing printed may name it.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import click
import pytest
import yaml

from balancer.cli import cli, main
from balancer.cli.docs import docs_dir, find_page, section_of
from balancer.errors import UserError
from tests.helpers import ROOT

POINTER = re.compile(r"docs/[\w/.-]+?\.md(?:\s*§\s*\d+)?|RULES\.md")


def printable_strings(path: Path) -> Iterator[str]:
    """The string constants of a module that are not docstrings (which only --help shows,
    and only a command's: those are read from the commands themselves)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            first = node.body[0] if node.body else None
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                docstrings.add(id(first.value))
    for node in ast.walk(tree):
        text = node.value if isinstance(node, ast.Constant) else None
        if isinstance(text, str) and id(node) not in docstrings:
            yield text


def printed_texts() -> dict[str, str]:
    """Everything a command may print, by where it comes from."""
    texts = {}
    for path in sorted((ROOT / "balancer").rglob("*.py")):
        texts[str(path.relative_to(ROOT))] = "\n".join(printable_strings(path))
    ctx = click.Context(cli, info_name="balancer")
    for name in cli.list_commands(ctx):
        command = cli.get_command(ctx, name)
        assert command is not None
        texts[f"balancer {name} --help"] = command.get_help(click.Context(command, ctx, name))
    for folder in ("balancer/variants", "balancer/games/roles/shipped"):
        for path in sorted((ROOT / folder).glob("*.yaml")):
            texts[str(path.relative_to(ROOT))] = path.read_text(encoding="utf-8")
    return texts


def unresolved(pointer: str) -> str | None:
    """Why `balancer docs` can't print what the pointer names, or None when it can."""
    if pointer.startswith("RULES.md"):
        return "RULES.md is not installed"
    page, _, section = pointer.partition("§")
    try:
        path, _ = find_page(page.strip())
        if section:
            section_of(path.read_text(encoding="utf-8"), section, page)
    except UserError as exc:
        return exc.message
    return None


def test_the_pointer_check_sees_a_page_or_section_that_is_not_there() -> None:
    # The control: a pointer that names nothing is caught, one that names a page is not.
    assert unresolved("docs/rules.md §4") is None
    assert unresolved("docs/games/mega-racer.md") is None
    assert unresolved("docs/rules.md §9") is not None
    assert unresolved("docs/new-games.md") is not None
    assert unresolved("RULES.md") is not None
    found = POINTER.findall("random (docs/rules.md §4), see RULES.md and docs/bots.md.")
    assert found == ["docs/rules.md §4", "RULES.md", "docs/bots.md"]


def test_every_pointer_a_command_prints_resolves() -> None:
    broken = [
        f"{where}: {pointer}: {why}"
        for where, text in printed_texts().items()
        for pointer in POINTER.findall(text)
        if (why := unresolved(pointer)) is not None
    ]
    assert broken == []


def test_every_page_pointer_in_the_pages_resolves() -> None:
    # `balancer docs` prints the pages: theirs must resolve too. RULES.md may be named as
    # the source the rules were written from, but never as a section to read.
    broken = []
    for path in sorted(docs_dir().rglob("*.md")):
        text = path.read_text(encoding="utf-8")
        for pointer in POINTER.findall(text) + re.findall(r"RULES\.md\s*§\s*\d+", text):
            if pointer != "RULES.md" and (why := unresolved(pointer)) is not None:
                broken.append(f"{path.name}: {pointer}: {why}")
    assert broken == []


@pytest.mark.parametrize(
    "shipped", ["mega-racer", "zodiac-race", "fish-dash-cash-roles", "fish-market"]
)
def test_init_from_writes_the_designers_own_game(
    shipped: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from balancer import games

    monkeypatch.chdir(tmp_path)
    mine = f"my-{shipped}"  # one name per case: every case registers its game in this process
    assert main(["init", "--from", shipped, f"{mine}.yaml"]) == 0
    text = (tmp_path / f"{mine}.yaml").read_text(encoding="utf-8")
    data = yaml.safe_load(text)
    # The control: the shipped file has a title and a short name of its own to give way.
    original = yaml.safe_load((ROOT / f"balancer/games/roles/shipped/{shipped}.yaml").read_text())
    assert original["names"]["ja"] != mine and original["short"] != mine
    assert (data["name"], data["short"], data["names"]) == (mine, mine, {"ja": mine})
    assert [p for p in POINTER.findall(text) if unresolved(p) is not None] == []
    # Beside the game it was copied from, in one process: no name of the two is shared.
    assert games.canonical(shipped) == shipped
    assert games.register_file(tmp_path / f"{mine}.yaml") == mine
    assert games.canonical(mine) == mine
