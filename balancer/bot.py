"""What a bot is: a function of its seat's view, never of the state."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from balancer.knobs import Knob
from balancer.rng import Stream


class Bot(Protocol):
    """A bot is a function of a view: it never sees the state.

    A bot whose choice ignores the view may say so with `uses_view = False`,
    and is then handed None instead, which spares building a view per move.
    """

    # `view` is the game's View, `legal` its actions: Any, since each game
    # narrows them and a protocol parameter can't be narrowed.
    def act(self, view: Any, legal: Any, rng: Stream) -> Any: ...


@dataclass(frozen=True)
class BotSpec:
    name: str
    meaning: str
    factory: Callable[..., Any]  # called with the bot's params (and nothing else): a Bot
    params: tuple[Knob, ...] = ()


def bot_params_with_defaults(bot: BotSpec, params: Mapping[str, Any]) -> dict[str, Any]:
    """A built-in bot's parameters, defaults filled in (a plugin's are passed as given)."""
    return {**{p.name: p.default for p in bot.params}, **params}


class RandomBot:
    """RULES.md §4: uniformly among the distinct legal moves, as the game lists them."""

    uses_view = False

    def act(self, view: Any, legal: Sequence[Hashable], rng: Stream) -> Hashable:
        return legal[rng.randrange(len(legal))]


RANDOM = BotSpec("random", "uniformly among the distinct legal moves (docs/rules.md §4)", RandomBot)


class PluginFailure(Exception):
    """A plugin bot failed, as seen from outside its process: `reason` says how, in one line."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason
