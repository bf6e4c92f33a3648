"""The three hand-written games' names and short names: a module that imports nothing,
so a game file's validator can refuse their names without importing the registry (which
imports the role games, which import the validator)."""

from __future__ import annotations

SHORT_NAMES = {"fish-dash-cash": "fdc", "kimekimera": "kk", "da-qi-zi": "dqz"}


def owner(name: str) -> str | None:
    """The hand-written game whose full or short name `name` is, or None."""
    for full, short in SHORT_NAMES.items():
        if name in (full, short):
            return full
    return None
