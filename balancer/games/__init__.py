"""The one registry of games: a game is its package plus one line in `_GAMES`.

A game package exposes `SPEC` (a GameSpec) from its `__init__` and its built-in
bots as `BOTS` in `<package>.bots`. Packages are imported on first use, so a
command that needs one game never pays for the others.
"""

from __future__ import annotations

import importlib

from balancer.games.api import GameSpec

# full name -> (short name, package)
_GAMES = {
    "fish-dash-cash": ("fdc", "balancer.games.fdc"),
    "kimekimera": ("kk", "balancer.games.kimekimera"),
    "da-qi-zi": ("dqz", "balancer.games.daqizi"),
}
_SHORT = {short: full for full, (short, _) in _GAMES.items()}


def names() -> list[str]:
    return list(_GAMES)


def canonical(name: str) -> str | None:
    """The full name for a full or short name, or None if unknown."""
    if name in _GAMES:
        return name
    return _SHORT.get(name)


def package(name: str) -> str:
    """The package that holds a game (by full or short name)."""
    full = canonical(name)
    if full is None:
        raise KeyError(name)
    return _GAMES[full][1]


def get(name: str) -> GameSpec:
    spec: GameSpec = importlib.import_module(package(name)).SPEC
    return spec
