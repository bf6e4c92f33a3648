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

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from balancer import games
from balancer.bots import registry as bot_registry
from balancer.bots.build import slot_bots
from balancer.config.variant import Variant
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


def needs_compiling(game: str) -> bool:
    """Whether the game's whole-game loop would compile on its next call: neither
    this process nor numba's cache has its code (a fresh clone, or an edited kernel).

    The loop is the compiled functions of the module defining the kernel's
    `play_chunk` (the one call a chunk makes): one missing is a compilation. Not
    those compiled only into their callers (`inline="always"`): a run never calls
    them on their own, and they have code of their own only once a search bot has
    stepped the kernel, so counting them announced a compilation on every first run.
    """
    import sys

    from balancer import jit

    kernel = kernel_of(game)
    if kernel is None or not jit.ENABLED:
        return False
    entry = getattr(kernel, "module", kernel).play_chunk
    module = sys.modules[entry.__module__]
    loop = [
        value
        for value in vars(module).values()
        if hasattr(value, "py_func")
        and value.py_func.__module__ == module.__name__
        and value.targetoptions.get("inline") != "always"
    ]
    return not all(jit.has_code(function) for function in loop)


def slot_plan(variant: Variant) -> list[tuple[str, dict]]:
    """Per bot slot: (bot name, its parameters with every default filled in)."""
    return [(name, params) for name, _, params in slot_bots(variant.spec, variant.seats)]


def play(variant: Variant, start: int, stop: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Games start..stop-1 on the compiled path: (scores, length, events) arrays."""
    out = play_columns(variant, start, stop)
    return out.scores, out.length, out.events


def play_columns(
    variant: Variant,
    start: int,
    stop: int,
    kernel: Kernel | None = None,
    slots: Sequence[tuple[str, Mapping[str, Any]]] | None = None,
) -> ChunkColumns:
    """Games start..stop-1 on the compiled path, as the kernel returns them.

    A run passes its plan's kernel and resolved bots (sim/plan.py); a caller
    outside a run leaves them to be found here."""
    kernel = kernel or kernel_of(variant.game)
    assert kernel is not None, "play() is only called when can_compile(variant)"
    out: ChunkColumns = kernel.play_chunk(
        variant.rules,
        variant.players,
        variant.seed,
        start,
        stop,
        slot_plan(variant) if slots is None else slots,
        variant.seat_rotation,
        variant.margin,
    )
    return out
