"""The bot registry: built-in bots per game, and plugin bots named `package.module:Factory`.

Each game's bots live in `<game package>.bots` as a `BOTS` mapping of
name -> BotSpec. A plugin is any importable callable; it is called with the
seat's `params` as keyword arguments and must return an object with
`act(view, legal, rng)`.

Naming a plugin imports nothing: `plugin_spec` checks the name is
well-formed and its factory imports the module only when a seat is built
(in the bot's own process unless plugins are trusted). `load_plugin` imports
it here, for `--trust-plugins` and `validate --import`.
"""

from __future__ import annotations

import importlib
import re
from typing import Any

from balancer.bots.api import Bot, BotSpec

_IDENTIFIER = r"[A-Za-z_][A-Za-z0-9_]*"
# ASCII identifiers only: no look-alike or right-to-left characters in a bot's name.
_PLUGIN = re.compile(rf"{_IDENTIFIER}(\.{_IDENTIFIER})*:{_IDENTIFIER}(\.{_IDENTIFIER})*")
MAX_PLUGIN_NAME = 200


def builtin(game: str) -> dict[str, BotSpec]:
    """The built-in bots of a game (by full name)."""
    from balancer import games
    from balancer.bots.search import SEARCH, can_search, search_spec

    bots = dict(games.definition(game).bots())
    # The search bot plays every game that has a kernel and a determinize.
    if SEARCH not in bots and can_search(game):
        bots[SEARCH] = search_spec(games.definition(game).name)
    return bots


def is_plugin(name: str) -> bool:
    return ":" in name


def check_plugin_name(name: str) -> None:
    """Raise ValueError unless `name` is a well-formed `package.module:Factory` (no import)."""
    if len(name) > MAX_PLUGIN_NAME:
        raise ValueError(f"a plugin bot's name is at most {MAX_PLUGIN_NAME} characters")
    if not _PLUGIN.fullmatch(name):
        raise ValueError(
            f"a plugin bot is written package.module:Factory (ASCII names), got {name!r}"
        )


def plugin_spec(name: str) -> BotSpec:
    """The BotSpec of a plugin, checked for form only: nothing is imported until it is built."""
    check_plugin_name(name)

    def factory(**params: Any) -> Bot:
        return load_plugin(name).factory(**params)

    return BotSpec(name, f"plugin {name}", factory)


def load_plugin(name: str) -> BotSpec:
    """Import `package.module:Factory`; raises ValueError with a short reason."""
    check_plugin_name(name)
    module_name, _, attr = name.partition(":")
    try:
        module = importlib.import_module(module_name)
    except Exception as exc:  # any import failure is the user's plugin's
        raise ValueError(f"can't import plugin module {module_name!r}: {exc}") from None
    factory: Any = module
    for part in attr.split("."):
        factory = getattr(factory, part, None)
    if not callable(factory):
        raise ValueError(f"plugin module {module_name!r} has no callable {attr!r}")
    return BotSpec(name, f"plugin {name}", factory)
