"""`balancer docs [TOPIC] [SECTION]`: the designer's pages, read from the installed package.

The pages are docs/*.md of the clone, shipped as package data (balancer/docs
links there, as balancer/variants is what variants/ links to), so every pointer
a command prints, `docs/rules.md §4` say, can be read wherever balancer is
installed: `balancer docs rules 4`.
"""

from __future__ import annotations

import re
from pathlib import Path

import click

from balancer.cli.base import command
from balancer.errors import UserError

# Other names a designer reaches for; a page's own name (its file's stem) always works.
ALIASES = {
    "figures": "figures-and-outputs",
    "outputs": "figures-and-outputs",
    "stats": "statistics",
    "new": "new-game",
    "game-file": "new-game",
}
# A hand-written game's rules are a numbered section of rules.md.
GAME_SECTIONS = {
    "fish-dash-cash": "1",
    "fish-dash-cash-roles": "1",  # the same game as a game file
    "kimekimera": "2",
    "da-qi-zi": "3",
}


def docs_dir() -> Path:
    """balancer/docs: package data in a wheel, a link to the clone's docs/ in a checkout."""
    return Path(__file__).resolve().parent.parent / "docs"


def pages() -> dict[str, Path]:
    """Every page by its name: `rules`, `new-game`, `games/mega-racer` (and `mega-racer`)."""
    root = docs_dir()
    found: dict[str, Path] = {}
    for path in sorted(root.rglob("*.md")):
        name = path.relative_to(root).with_suffix("").as_posix()
        found[name] = path
        found.setdefault(path.stem, path)
    return found


def title(path: Path) -> str:
    """A page's first heading, without its '#'."""
    with path.open(encoding="utf-8") as text:
        for line in text:
            if line.startswith("#"):
                return line.lstrip("#").strip()
    return path.stem


def find_page(topic: str) -> tuple[Path, str | None]:
    """The page a topic names, and the rules.md section a game's name stands for.

    A topic is a page's name, a pointer as commands print it (`docs/rules.md`),
    an alias (`figures`), or a game's name (fdc: its section of rules.md;
    mega-racer: its own page)."""
    known = pages()
    name = re.sub(r"^(?:\./)?(?:docs/)?", "", topic.strip())
    name = name.removesuffix(".md")
    name = ALIASES.get(name, name)
    if name in known:
        return known[name], None
    from balancer import games

    game = games.canonical(name)
    if game is None:  # a shipped game file's short name (mr) is known once it is loaded
        for shipped in games.offered():
            games.canonical(shipped)
        game = games.registered(name)
    if game in GAME_SECTIONS:
        return known["rules"], GAME_SECTIONS[game]
    if game is not None and f"games/{game}" in known:
        return known[f"games/{game}"], None
    offered = ", ".join(sorted(n for n in known if "/" not in n))
    raise UserError(f"no page {topic!r} (pages: {offered}; or a game's name)", key="TOPIC")


def section_of(text: str, section: str, where: str) -> str:
    """The part of a page under the heading numbered `section` (`4`, `§4`) or titled
    with it, down to the next heading of the same level."""
    wanted = section.strip().lstrip("§").strip()
    lines = text.split("\n")
    for start, line in enumerate(lines):
        heading = re.match(r"(#+)\s+(.*)", line)
        if heading is None:
            continue
        level, words = len(heading.group(1)), heading.group(2)
        if words.startswith(f"{wanted}.") or words.lower() == wanted.lower():
            end = next(
                (
                    i
                    for i in range(start + 1, len(lines))
                    if (m := re.match(r"(#+)\s", lines[i])) and len(m.group(1)) <= level
                ),
                len(lines),
            )
            return "\n".join(lines[start:end]).rstrip() + "\n"
    raise UserError(f"no section {section!r} in {where}", key="SECTION")


@command("docs")
@click.argument("topic", required=False)
@click.argument("section", required=False)
def docs_command(topic: str | None, section: str | None) -> None:
    """Print a page of balancer's documentation, as installed; without TOPIC, list them.

    TOPIC is a page (rules, new-game, figures, statistics, ...), a pointer as
    a command prints it (docs/rules.md), or a game (fdc: its rules; mega-racer:
    its page). SECTION narrows it to one numbered section: `docs/rules.md §4`
    is `balancer docs rules 4`.
    """
    if topic is None:
        listed = {path: name for name, path in reversed(pages().items())}
        width = max(map(len, listed.values()))
        for path, name in sorted(listed.items(), key=lambda item: item[1]):
            click.echo(f"{name:<{width}}  {title(path)}")
        return
    path, game_section = find_page(topic)
    text = path.read_text(encoding="utf-8")
    wanted = section or game_section
    if wanted is not None:
        text = section_of(text, wanted, f"docs/{path.relative_to(docs_dir()).as_posix()}")
    click.echo(text, nl=False)
