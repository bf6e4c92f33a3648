"""The one registry of games: each game is a GameDefinition (games/definition.py), registered once.

The shipped games are registered here, each by one line that names the
function loading its definition: their packages are imported on first use,
so a command that needs one game never pays for the others. Any other game
(a game file, a test's own game) is registered with `register(definition)`.
Every part of a game (spec, bots, kernel, words, commands) is asked of its
definition; nothing is found by module name.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from balancer.games.api import GameSpec
from balancer.games.definition import GameDefinition


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


_enter(_Entry("fish-dash-cash", "fdc", _fdc))
_enter(_Entry("kimekimera", "kk", _kimekimera, commands=("kk-odds",)))
_enter(_Entry("da-qi-zi", "dqz", _daqizi))


def names() -> list[str]:
    return list(_ENTRIES)


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
    from balancer.games.roles import gamefile, register_file

    path = gamefile.shipped_path(name)
    return None if path is None else register_file(path)


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
