"""The variants shipped with balancer: where they are, one by name, and each game's base.

Every shipped game has a base variant, `<short>-base.yaml` (fdc-base.yaml:
the game as printed), that the other shipped variants extend; its seed and
game count are the ones the shipped reports were made with, so a new variant
that keeps them diffs paired against any of them.
"""

from __future__ import annotations

from pathlib import Path


def shipped_dir() -> Path:
    """balancer/variants/: package data, in a clone, an editable or a regular install alike
    (the clone's top-level variants/ links to it)."""
    return Path(__file__).resolve().parent.parent / "variants"


def find(text: str) -> Path | None:
    """The shipped variant a command line names (`fdc-5p` or `fdc-5p.yaml`), or None.

    Only a bare name is looked up, and only when no such file is in the way:
    `./fdc-5p.yaml` or `variants/x.yaml` always mean that path.
    """
    if not text or "/" in text or "\\" in text:
        return None
    try:
        if Path(text).exists():
            return None
    except OSError:  # a name too long for a file (no shipped name is): the path decides
        return None
    return named(text)


def named(text: str) -> Path | None:
    """The shipped variant called `text` (`fdc-base` or `fdc-base.yaml`), wherever the
    caller stands, or None: what `extends:` falls back to when no file of that
    name sits beside the child."""
    if not text or "/" in text or "\\" in text or text.startswith("."):
        return None
    name = text if text.endswith((".yaml", ".yml")) else f"{text}.yaml"
    path = shipped_dir() / name
    try:
        return path if path.is_file() else None
    except OSError:  # a name too long for a file: no shipped variant has it
        return None


def base_file(short: str) -> Path | None:
    """The shipped base variant of the game named `short` (fdc, kk, dqz), if there is one."""
    path = shipped_dir() / f"{short}-base.yaml"
    return path if path.is_file() else None


def base_seed_and_games(short: str) -> tuple[int, int] | None:
    """The seed and game count of the game's shipped base, or None without a readable one."""
    path = base_file(short)
    if path is None:
        return None
    from balancer.yamlsafe import load_yaml

    data = load_yaml(path).data
    if not isinstance(data, dict):
        return None
    seed, games = data.get("seed"), data.get("games")
    if not isinstance(seed, int) or not isinstance(games, int) or isinstance(seed, bool):
        return None
    return seed, games
