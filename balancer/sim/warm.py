"""Compile every game's kernel once, so a designer's first run doesn't wait for numba.

`make run` and `make test` call this after installing (`python -m
balancer.sim.warm`). numba caches compiled code on disk beside the source,
so a process that plays games later loads it instead of compiling. Each
game with a kernel plays one game with every compiled bot in every seat.
"""

from __future__ import annotations

import time

import numpy as np

from balancer import games, jit, knobs
from balancer.bots import registry as bot_registry
from balancer.config.variant import bot_params_with_defaults
from balancer.rng import Stream
from balancer.sim import compiled


def warm() -> list[str]:
    """Compile (or load from the cache) every kernel and compiled bot; returns what was warmed."""
    done = []
    for name in games.names():
        kernel = compiled.kernel_of(name)
        if kernel is None:
            continue
        spec = games.get(name)
        rules = knobs.defaults(spec.knobs)
        builtin = bot_registry.builtin(name)
        for bot in sorted(kernel.COMPILED_BOTS):
            params = dict(bot_params_with_defaults(builtin[bot], {}))
            players = spec.max_players
            kernel.play_chunk(rules, players, 0, 0, 1, [(bot, params)] * players, False)
            done.append(f"{spec.short} {bot}")
        if hasattr(kernel, "StepGame"):
            # A run with a plugin steps the kernel (sim/kernel_step.py): its own entry point.
            players = spec.max_players
            kernel.StepGame(rules, players, [None] * players).deal(0, 0, range(players))
            done.append(f"{spec.short} stepped")
    # The step path (plugin seats, replay) runs long shuffles with the kernel's own.
    Stream(0, 0, 0).shuffle(list(range(64)))
    done.append("step-path shuffle")
    # Every run of a game that records the cards held sums card impact as games arrive.
    from balancer.stats.card_tally import CardTally

    CardTally(2, 1).add(np.zeros((1, 2)), np.zeros((1, 2), dtype=np.uint64))
    done.append("card impact")
    return done


def main() -> None:
    if not jit.ENABLED:
        print("balancer: numba is off (BALANCER_JIT=0 or not installed): nothing to compile")
        return
    started = time.process_time()
    warmed = warm()
    took = time.process_time() - started
    print(f"balancer: compiled kernels ready ({', '.join(warmed) or 'none'}; {took:.1f} s CPU)")


if __name__ == "__main__":
    main()
