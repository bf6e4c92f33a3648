"""Role games: a game on the trick engine described by a YAML game file.

gamefile.py reads a file and its `extends:` chain with the line of every key;
vocabulary.py names the primitives, targets and terms a file may use
(each effect primitive is a module of primitives/, each target kind one of
targets/, everything about it there);
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

import copy
import dataclasses
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from balancer.errors import UserError
from balancer.games.definition import GameDefinition
from balancer.games.roles import gamefile
from balancer.games.roles.model import RoleGame
from balancer.games.roles.validate import check

# Game files registered in this process: resolved path -> (content digest, game name).


def check_file(path: str | Path) -> tuple[RoleGame | None, list[UserError]]:
    """The validated game of a file, or None and every problem in it (or its chain)."""
    try:
        source = gamefile.read(path)
    except UserError as exc:
        return None, [exc]
    game, problems = check(source)
    if game is not None:
        game = dataclasses.replace(game, description=source.data)
    return game, problems


def game_of_description(content: Mapping[str, Any], path: str) -> RoleGame:
    """The game a report kept of its game file (the file's content, its chain merged),
    validated again: the file itself may since have changed or gone."""
    source = gamefile.Source(data=copy.deepcopy(dict(content)), path=path)
    game, problems = check(source)
    if problems:
        raise problems[0]
    assert game is not None
    return dataclasses.replace(game, description=source.data)


class GameFileProblems(UserError):
    """A game file's first problem, said as any UserError is, carrying `every` problem of
    the file: `validate VARIANT` lists them all, as `validate GAMEFILE` does."""

    def __init__(self, problems: list[UserError]) -> None:
        first = problems[0]
        super().__init__(first.message)
        self.file, self.line, self.key = first.file, first.line, first.key
        self.every = tuple(problems)


def load_file(path: str | Path) -> RoleGame:
    """The validated game of a file; its problems raised as one GameFileProblems."""
    game, problems = check_file(path)
    if problems:
        raise GameFileProblems(problems)
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
    from balancer.yamlsafe import load_yaml

    try:
        data = load_yaml(path).data
    except UserError:
        return False  # unreadable: the variant check says why
    return isinstance(data, dict) and "game" not in data and any(k in data for k in _GAME_FILE_KEYS)


def looks_like_file(name: str) -> bool:
    """Whether a variant's `game:` names a game file rather than a registered game."""
    return name.endswith((".yaml", ".yml")) or "/" in name or "\\" in name
