"""The registry of games, by full name and short name."""

from __future__ import annotations

import importlib

from balancer.engine import GameSpec

# name -> module defining SPEC; modules are imported on first use.
_MODULES = {
    "fish-dash-cash": "balancer.games.fdc",
    "kimekimera": "balancer.games.kimekimera",
    "da-qi-zi": "balancer.games.daqizi",
}
_SHORT = {"fdc": "fish-dash-cash", "kk": "kimekimera", "dqz": "da-qi-zi"}


def names() -> list[str]:
    return list(_MODULES)


def canonical(name: str) -> str | None:
    """The full name for a full or short name, or None if unknown."""
    if name in _MODULES:
        return name
    return _SHORT.get(name)


def get(name: str) -> GameSpec:
    full = canonical(name)
    if full is None:
        raise KeyError(name)
    return importlib.import_module(_MODULES[full]).SPEC
