"""The compiled path: a chunk of games played in one call to the game's kernel.

A game's definition may name a kernel (games/kernel_api.py's Kernel) with
`compiled_bots` (the bot names it plays) and
`play_chunk(rules, players, seed, start, stop, slots, rotate)` returning
`games.kernel_api.ChunkColumns`. A run whose every seat holds a compiled bot
plays here; any other run (a plugin bot, `--check`) is played step by step
(sim/play.py). Both play the same games (the kernels are tested game for game
against the step-by-step engines), so which path ran changes nothing but the speed.

Kernels are imported only when a run needs them: commands that play no game
never pay for numba.
"""

from __future__ import annotations

import numpy as np

from balancer import games
from balancer.bots import registry as bot_registry
from balancer.config.variant import Variant, bot_params_with_defaults, resolve_bot
from balancer.games.kernel_api import ChunkColumns, Kernel


def kernel_of(game: str) -> Kernel | None:
    """The game's compiled kernel module, or None if the game has none."""
    return games.definition(game).kernel()


def can_compile(variant: Variant) -> bool:
    """Whether every seat of the variant holds a bot the game's kernel plays."""
    if any(bot_registry.is_plugin(s.bot) for s in variant.seats):
        return False
    kernel = kernel_of(variant.game)
    if kernel is None:
        return False
    return all(s.bot in kernel.compiled_bots for s in variant.seats)


def slot_plan(variant: Variant) -> list[tuple[str, dict]]:
    """Per bot slot: (bot name, its parameters with every default filled in)."""
    plan = []
    for slot, seat in enumerate(variant.seats):

        def fail(message: str, slot: int = slot) -> Exception:
            return ValueError(f"bot slot {slot}: {message}")

        spec = resolve_bot(variant.spec, seat.bot, fail)
        plan.append((seat.bot, dict(bot_params_with_defaults(spec, seat.params))))
    return plan


def play(variant: Variant, start: int, stop: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Games start..stop-1 on the compiled path: (scores, length, events) arrays."""
    out = play_columns(variant, start, stop)
    return out.scores, out.length, out.events


def play_columns(variant: Variant, start: int, stop: int) -> ChunkColumns:
    """Games start..stop-1 on the compiled path, as the kernel returns them."""
    kernel = kernel_of(variant.game)
    assert kernel is not None, "play() is only called when can_compile(variant)"
    out: ChunkColumns = kernel.play_chunk(
        variant.rules,
        variant.players,
        variant.seed,
        start,
        stop,
        slot_plan(variant),
        variant.seat_rotation,
    )
    return out
