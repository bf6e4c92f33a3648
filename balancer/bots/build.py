"""A variant's bot slots as bots: each name resolved to its BotSpec, with its parameters.

One place for what every way of playing needs first: the run's seats
(sim/runner.py), the compiled chunk loop (sim/compiled.py) and the stepped
kernel (sim/kernel_step.py) all start from `slot_bots`; reading a variant
file (config/variant.py) checks its names with `resolve_bot`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from balancer.bot import BotSpec, bot_params_with_defaults
from balancer.bots import registry as bot_registry
from balancer.errors import nearest
from balancer.games.api import GameSpec


def resolve_bot(spec: GameSpec, name: str, fail: Any) -> BotSpec:
    """The BotSpec for a built-in or plugin bot name; `fail(message)` builds the error."""
    if bot_registry.is_plugin(name):
        try:
            return bot_registry.plugin_spec(name)  # checked for form; nothing imported
        except ValueError as exc:
            raise fail(str(exc)) from None
    known = bot_registry.builtin(spec.name)
    if name not in known:
        raise fail(f"unknown bot {name!r} for {spec.name}{nearest(name, list(known))}")
    return known[name]


def slot_bots(spec: GameSpec, seats: Sequence[Any]) -> list[tuple[str, BotSpec, dict[str, Any]]]:
    """Per bot slot (a variant's SeatSpec: `bot`, `params`): its name, its BotSpec and its
    parameters with every default filled in. A name that can't be resolved is a
    ValueError naming the slot."""
    plan = []
    for slot, seat in enumerate(seats):

        def fail(message: str, slot: int = slot) -> Exception:
            return ValueError(f"bot slot {slot}: {message}")

        bot = resolve_bot(spec, seat.bot, fail)
        plan.append((seat.bot, bot, dict(bot_params_with_defaults(bot, seat.params))))
    return plan
