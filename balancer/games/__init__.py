"""The one registry of games: each game is a GameDefinition (games/definition.py), registered once.

The shipped games are registered here, each by one line that names the
function loading its definition: their packages are imported on first use,
so a command that needs one game never pays for the others. Any other game
(a game file, a test's own game) is registered with `register(definition)`.
Every part of a game (spec, bots, kernel, words, commands) is asked of its
definition; nothing is found by module name.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from balancer.errors import UserError
from balancer.games.api import GameSpec
from balancer.games.definition import GameDefinition
from balancer.games.hand_written import SHORT_NAMES


def _fdc() -> GameDefinition:
    from balancer.games.fdc import DEFINITION

    return DEFINITION


def _kimekimera() -> GameDefinition:
    from balancer.games.kimekimera import DEFINITION

    return DEFINITION


def _daqizi() -> GameDefinition:
    from balancer.games.daqizi import DEFINITION

    return DEFINITION


@dataclass(frozen=True)
class _Entry:
    name: str
    short: str
    load: Callable[[], GameDefinition]
    # The commands the game contributes, known before it loads: `balancer --help` lists them.
    commands: tuple[str, ...] = ()


_ENTRIES: dict[str, _Entry] = {}
_SHORT: dict[str, str] = {}
_LOADED: dict[str, GameDefinition] = {}


def _enter(entry: _Entry) -> None:
    for taken in (entry.name, entry.short):
        if taken in _ENTRIES or taken in _SHORT:
            raise ValueError(f"a game named {taken!r} is already registered")
    _ENTRIES[entry.name] = entry
    _SHORT[entry.short] = entry.name


def register(definition: GameDefinition) -> None:
    """Register a game; its name and short name must be new."""
    _enter(
        _Entry(definition.name, definition.short, lambda: definition, tuple(definition.commands))
    )
    _LOADED[definition.name] = definition


def unregister(name: str) -> None:
    """Take a registered game out again (by full or short name): a test's own game."""
    full = canonical(name)
    if full is None:
        raise KeyError(name)
    entry = _ENTRIES.pop(full)
    del _SHORT[entry.short]
    _LOADED.pop(full, None)
    _FILE_GAMES.pop(full, None)
    for path in [p for p, (_, game) in _REGISTERED.items() if game == full]:
        del _REGISTERED[path]  # else another file of that name later would find this path


_enter(_Entry("fish-dash-cash", SHORT_NAMES["fish-dash-cash"], _fdc))
_enter(_Entry("kimekimera", SHORT_NAMES["kimekimera"], _kimekimera, commands=("kk-odds",)))
_enter(_Entry("da-qi-zi", SHORT_NAMES["da-qi-zi"], _daqizi))
HAND_WRITTEN = tuple(SHORT_NAMES)


def names() -> list[str]:
    return list(_ENTRIES)


def offered() -> list[str]:
    """The games a message offers by name: the hand-written ones, then the shipped game
    files. The same in every process, whichever game files it has read (a designer's
    own file is named by its path, never offered)."""
    return [*HAND_WRITTEN, *_roles_gamefile().shipped_names()]


def registered(name: str) -> str | None:
    """The full name for a registered full or short name (nothing loaded), or None."""
    if name in _ENTRIES:
        return name
    return _SHORT.get(name)


def canonical(name: str) -> str | None:
    """The full name for a full or short name, or None if unknown.

    A shipped game file (games/roles/shipped/<name>.yaml) is registered the first
    time its name is asked for; `names()` lists it only from then on."""
    return registered(name) or _shipped_game_file(name)


def _shipped_game_file(name: str) -> str | None:
    path = _roles_gamefile().shipped_path(name)
    return None if path is None else register_file(path)


def _roles_gamefile() -> Any:
    # Loaded on first use: the role games' package is imported only when a game file
    # is asked for, and it never imports this registry (no circle).
    from balancer.games.roles import gamefile

    return gamefile


# Game files registered so far: resolved path -> (its content's sha256, its game's name).
_REGISTERED: dict[Path, tuple[str, str]] = {}
# A registered game file's validated game (games/roles/model.py's RoleGame), by game name:
# what another process needs to know the game without the file (`portable`).
_FILE_GAMES: dict[str, Any] = {}


def registered_file(name: str) -> str | None:
    """The absolute path of the designer's game file registered as `name`, or None
    (for a hand-written game and for a shipped file, known by name everywhere)."""
    for path, (_, game) in _REGISTERED.items():
        if game == name and not path.is_relative_to(_roles_gamefile().SHIPPED.resolve()):
            return str(path)
    return None


def from_game_file(name: str) -> bool:
    """Whether the registered game `name` was read from a game file (shipped or a
    designer's): two such games play the same trick procedure, so a diff may compare
    them (a designer's two versions of a game)."""
    full = canonical(name)
    return any(game == full for _, game in _REGISTERED.values())


def game_named(value: str) -> str | None:
    """The registered game a report's variant names: a game's name, or a game file's
    path (registered from there if it still reads as a valid game file); else None."""
    from balancer.games.roles import looks_like_file

    if not looks_like_file(value):
        return canonical(value)
    try:
        return register_file(value)
    except UserError:
        return None


def register_file(path: str | Path) -> str:
    """Register the game of a file (once per path and content); its full name.

    A UserError for a bad file, or for a name another game already has."""
    from balancer.files import regular_file_bytes
    from balancer.yamlsafe import MAX_BYTES

    # Looked at before anything opens or resolves it: a FIFO would hang the read, /dev/zero
    # never end, a loop of links make resolve() raise.
    digest = hashlib.sha256(regular_file_bytes(path, MAX_BYTES)).hexdigest()
    resolved = Path(path).resolve()
    known = _REGISTERED.get(resolved)
    if known is not None and known[0] == digest and registered(known[1]) is not None:
        return known[1]
    from balancer.games.roles import load_file
    from balancer.games.roles.definition import build

    role_game = load_file(path)
    game_definition = build(role_game)
    if known is not None and registered(known[1]) is not None:
        unregister(known[1])  # the file changed since: its new version replaces it
    for taken in (game_definition.name, game_definition.short):
        if registered(taken) is not None:
            raise UserError(
                f"the game file names its game {taken!r}, which another game already has",
                file=str(path),
                key="name" if taken == game_definition.name else "short",
            )
    register(game_definition)
    _REGISTERED[resolved] = (digest, game_definition.name)
    _FILE_GAMES[game_definition.name] = role_game
    return game_definition.name


def portable(name: str) -> Any | None:
    """What a process that never read the game file needs to know game `name` (a Dask
    worker, perhaps on another machine): the file's validated game, a small picklable
    value for `adopt`; None for a game every process knows by name (the hand-written
    ones and the shipped game files)."""
    full = canonical(name)
    if full is None or registered_file(full) is None:
        return None
    return _FILE_GAMES.get(full)


def game_file_of(name: str) -> dict[str, Any] | None:
    """The game file game `name` was registered from, as a report keeps it: its path
    and its content (the `extends:` chain merged); None for a hand-written game."""
    full = canonical(name)
    role_game = None if full is None else _FILE_GAMES.get(full)
    if role_game is None:
        return None
    path = next((str(p) for p, (_, game) in _REGISTERED.items() if game == full), role_game.path)
    return {"path": path, "content": role_game.description}


def game_kept_by_report(name: str, game_file: Mapping[str, Any]) -> str | None:
    """Game `name`, which a report played, registered: from its file if that still
    holds a game of that name, else from the content the report kept (game_file_of),
    so a report outlives its file; None if neither gives it (a damaged report)."""
    from balancer.games.roles import game_of_description

    path = str(game_file.get("path", "?"))
    if canonical(name) is not None or game_named(path) == name:
        return name
    try:
        kept = game_of_description(game_file.get("content") or {}, path)
    except UserError:
        return None
    return adopt(kept) if kept.name == name else None


def adopt(role_game: Any) -> str:
    """Register a game `portable` gave (in the process that plays it); its full name.

    A long-lived worker may hold an older version of the same file (the designer
    edited it between two runs on one cluster): the new version replaces it."""
    name = str(role_game.name)
    if _FILE_GAMES.get(name) == role_game:
        return name
    if name in _FILE_GAMES and registered(name) is not None:
        unregister(name)
    from balancer.games.roles.definition import build

    register(build(role_game))
    _FILE_GAMES[name] = role_game
    return name


def definition(name: str) -> GameDefinition:
    """The definition of a game (by full or short name); KeyError if unknown."""
    full = canonical(name)
    if full is None:
        raise KeyError(name)
    loaded = _LOADED.get(full)
    if loaded is None:
        loaded = _LOADED[full] = _ENTRIES[full].load()
    return loaded


def get(name: str) -> GameSpec:
    """A game's spec: its rules engine, knobs and metadata."""
    return definition(name).spec


def contributed_commands() -> dict[str, str]:
    """Command name -> the game (full name) that contributes it."""
    return {command: e.name for e in _ENTRIES.values() for command in e.commands}
