"""Role games: a game on the trick engine described by a YAML game file.

gamefile.py reads a file and its `extends:` chain with the line of every key;
vocabulary.py names the primitives, targets and terms a file may use;
validate.py checks it all (every mistake at once, file:line: key: message)
into model.py's frozen `RoleGame`; engine.py plays it (the Fish! Dash! Cash!
trick procedure, roles interpreted); definition.py makes it a game the
registry (games/__init__.py) holds. docs/new-game.md is the designer's guide.

A variant plays a shipped game file by its name (`game: fish-dash-cash-roles`,
games/roles/shipped/<name>.yaml) or a designer's file by path (`game:
./my-race.yaml`, relative to the variant). A shipped one is registered the
first time its name is asked of the registry (games/__init__.py), a designer's
when a variant names it: not before, so the games every command lists (and
every test runs over) stay the three hand-written ones until role games pass
the whole conformance suite.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from balancer.errors import UserError
from balancer.games.definition import GameDefinition
from balancer.games.roles import gamefile
from balancer.games.roles.model import RoleGame
from balancer.games.roles.validate import check

# Game files registered in this process: resolved path -> (content digest, game name).
_REGISTERED: dict[Path, tuple[str, str]] = {}


def check_file(path: str | Path) -> tuple[RoleGame | None, list[UserError]]:
    """The validated game of a file, or None and every problem in it (or its chain)."""
    try:
        source = gamefile.read(path)
    except UserError as exc:
        return None, [exc]
    return check(source)


def load_file(path: str | Path) -> RoleGame:
    """The validated game of a file; its first problem raised as a UserError."""
    game, problems = check_file(path)
    if problems:
        raise problems[0]
    assert game is not None
    return game


def definition_of(path: str | Path) -> GameDefinition:
    from balancer.games.roles.definition import build

    return build(load_file(path))


# Keys only a game file has at its top: a variant (which may set a knob at its top
# level) has none of them.
_GAME_FILE_KEYS = ("roles", "zones", "score", "short")


def is_game_file(path: str | Path) -> bool:
    """Whether `path` holds a game file rather than a variant (what `validate` checks)."""
    from balancer.config.yamlsafe import load_yaml

    try:
        data = load_yaml(path).data
    except UserError:
        return False  # unreadable: the variant check says why
    return isinstance(data, dict) and "game" not in data and any(k in data for k in _GAME_FILE_KEYS)


def looks_like_file(name: str) -> bool:
    """Whether a variant's `game:` names a game file rather than a registered game."""
    return name.endswith((".yaml", ".yml")) or "/" in name or "\\" in name


def registered_file(name: str) -> str | None:
    """The absolute path of the designer's game file registered as `name`, or None
    (for a hand-written game and for a shipped file, known by name everywhere)."""
    for path, (_, game) in _REGISTERED.items():
        if game == name and not path.is_relative_to(gamefile.SHIPPED.resolve()):
            return str(path)
    return None


def game_named(value: str) -> str | None:
    """The registered game a report's variant names: a game's name, or a game file's
    path (registered from there if it still reads as a valid game file); else None."""
    from balancer import games

    if not looks_like_file(value):
        return games.canonical(value)
    try:
        return register_file(value)
    except UserError:
        return None


def register_file(path: str | Path) -> str:
    """Register the game of a file (once per path and content); its full name.

    A UserError for a bad file, or for a name another game already has."""
    from balancer import games

    resolved = Path(path).resolve()
    try:
        digest = hashlib.sha256(resolved.read_bytes()).hexdigest()
    except OSError:
        digest = ""
    known = _REGISTERED.get(resolved)
    if known is not None and known[0] == digest and games.registered(known[1]) is not None:
        return known[1]
    game_definition = definition_of(path)
    if known is not None and games.registered(known[1]) is not None:
        games.unregister(known[1])  # the file changed since: its new version replaces it
    for taken in (game_definition.name, game_definition.short):
        if games.registered(taken) is not None:
            raise UserError(
                f"the game file names its game {taken!r}, which another game already has",
                file=str(path),
                key="name" if taken == game_definition.name else "short",
            )
    games.register(game_definition)
    _REGISTERED[resolved] = (digest, game_definition.name)
    return game_definition.name
