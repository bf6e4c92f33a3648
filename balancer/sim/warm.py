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


def warm(processes: int | None = None) -> list[str]:
    """Compile (or load from the cache) every kernel and compiled bot; returns what was warmed.

    The pieces (PIECES: each game's whole-game loop, its stepped loop for
    plugin runs, its stepping entry points) compile in processes of their
    own, `processes` at a time (default: every core): compiling is most of a
    fresh clone's setup, and no piece waits for another.
    """
    import concurrent.futures
    import multiprocessing
    import os

    names = [name for name in games.names() if compiled.kernel_of(name) is not None]
    jobs = [(name, piece) for name in names for piece in PIECES]
    workers = max(1, min(len(jobs), processes or os.cpu_count() or 1))
    if workers == 1:
        done = [line for job in jobs for line in warm_piece(job)]
    else:
        # spawn, not fork: a child forked from a process that has started numba's
        # compiler can inherit its locks held.
        context = multiprocessing.get_context("spawn")
        with concurrent.futures.ProcessPoolExecutor(workers, mp_context=context) as pool:
            done = [line for lines in pool.map(warm_piece, jobs) for line in lines]
    # The step path (plugin seats, replay) runs long shuffles with the kernel's own.
    Stream(0, 0, 0).shuffle(list(range(64)))
    done.append("step-path shuffle")
    # Every run of a game that records the cards held sums card impact as games arrive.
    from balancer.stats.card_tally import CardTally

    CardTally(2, 1).add(np.zeros((1, 2)), np.zeros((1, 2), dtype=np.uint64))
    done.append("card impact")
    # ... and counts each chunk in one compiled pass (stats/count_kernels.py).
    from balancer.stats.streamed import GameCounts

    GameCounts(players=2, events=("e",), labels=("a", "b")).count(
        0, np.zeros((1, 2)), np.zeros(1, dtype=np.int64), np.zeros((1, 1))
    )
    done.append("chunk counts")
    return done


# The longest first: a pool that starts them first ends soonest.
PIECES = ("games", "stepped", "steps")


def warm_piece(job: tuple[str, str]) -> list[str]:
    """One piece of one game's kernel: `games`, one game with every compiled bot in
    every seat; `stepped`, a plugin run's stepped kernel (sim/kernel_step.py);
    `steps`, the stepping entry points (sim/warm_steps.py)."""
    name, piece = job
    kernel = compiled.kernel_of(name)
    assert kernel is not None, name
    spec = games.get(name)
    rules = knobs.defaults(spec.knobs)
    players = spec.max_players
    if piece == "games":
        builtin = bot_registry.builtin(name)
        done = []
        for bot in sorted(kernel.compiled_bots):
            params = dict(bot_params_with_defaults(builtin[bot], {}))
            kernel.play_chunk(rules, players, 0, 0, 1, [(bot, params)] * players, False)
            done.append(f"{spec.short} {bot}")
        return done
    if piece == "stepped":
        if kernel.step_game is None:
            return []
        kernel.step_game(rules, players, [None] * players).deal(0, 0, range(players))
        return [f"{spec.short} stepped"]
    from balancer.sim.warm_steps import step_game

    return [f"{spec.short} steps"] if step_game(name) else []


def main() -> None:
    if not jit.ENABLED:
        print("balancer: numba is off (BALANCER_JIT=0 or not installed): nothing to compile")
        return
    started = time.monotonic()
    warmed = warm()
    took = time.monotonic() - started
    print(f"balancer: compiled kernels ready ({', '.join(warmed) or 'none'}; {took:.0f} s)")


if __name__ == "__main__":
    main()
