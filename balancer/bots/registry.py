"""The bot registry: built-in bots per game, and plugin bots named `package.module:Factory`.

Each game's bots live in `<game package>.bots` as a `BOTS` mapping of
name -> BotSpec. A plugin is any importable callable; it is called with the
seat's `params` as keyword arguments and must return an object with
`act(view, legal, rng)`.
"""

from __future__ import annotations

import importlib

from balancer.bots.api import BotSpec


def builtin(game: str) -> dict[str, BotSpec]:
    """The built-in bots of a game (by full name)."""
    from balancer import games

    return dict(importlib.import_module(f"{games.package(game)}.bots").BOTS)


def is_plugin(name: str) -> bool:
    return ":" in name


def load_plugin(name: str) -> BotSpec:
    """Import `package.module:Factory`; raises ValueError with a short reason."""
    module_name, _, attr = name.partition(":")
    if not module_name or not attr:
        raise ValueError(f"a plugin bot is written package.module:Factory, got {name!r}")
    try:
        module = importlib.import_module(module_name)
    except Exception as exc:  # any import failure is the user's plugin's
        raise ValueError(f"can't import plugin module {module_name!r}: {exc}") from None
    factory = getattr(module, attr, None)
    if not callable(factory):
        raise ValueError(f"plugin module {module_name!r} has no callable {attr!r}")
    return BotSpec(name, f"plugin {name}", factory)
