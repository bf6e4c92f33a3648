"""Compile the game kernels ahead of use, so a designer's run doesn't wait for numba.

`make` calls this after installing: `python -m balancer.sim.warm` compiles
every game's kernels (`make test`, `make warm`: two test workers must not
compile the same kernel twice), `python -m balancer.sim.warm --for VARIANT`
only what a run of VARIANT plays (`make run`: a fresh clone's first run
waits for one game's whole-game loop, not for all three games' kernels).
numba caches compiled code on disk beside the source, so a process that plays
games later loads it instead of compiling; what is not compiled here compiles
on its first use (`balancer run` compiles it before its games, and says so only
if numba does compile: sim/first_compile.py).

Each piece prints a line when it is ready: compiling a fresh clone's kernels
takes minutes, and a silent terminal looks hung.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Sequence

import numpy as np

from balancer import games, jit, knobs
from balancer.bot import bot_params_with_defaults
from balancer.bots import registry as bot_registry
from balancer.rng import Stream
from balancer.sim import compiled

# The longest first: a pool that starts them first ends soonest.
PIECES = ("games", "stepped", "steps")
PIECE_NAMES = {
    "games": "whole-game loop",
    "stepped": "stepped loop (plugin seats)",
    "steps": "stepping entry points (search bots)",
}


def jobs_for(game_names: Sequence[str], pieces: Sequence[str] = PIECES) -> list[tuple[str, str]]:
    """(game, piece) for every game given that has a kernel, the pieces in PIECES order."""
    return [
        (name, piece)
        for piece in pieces
        for name in game_names
        if compiled.kernel_of(name) is not None
    ]


# Every game file plays on one compiled interpreter (games/roles/kernel/): a whole-game
# loop of one shipped file compiles it for all (their rules are tables, not code).
ROLE_GAME = "mega-racer"


def every_job() -> list[tuple[str, str]]:
    """Every piece of every game's kernel, and the role games' whole-game loop and
    stepping entry points (a search on a game file steps the interpreter)."""
    from balancer.games.roles.compiled import RoleKernel

    # Game files registered in this process play on the same interpreter: ROLE_GAME's
    # loop stands for them all.
    names = [n for n in games.names() if not isinstance(compiled.kernel_of(n), RoleKernel)]
    assert PIECES[0] == "games"
    return [
        *jobs_for(names, PIECES[:1]),
        *jobs_for([ROLE_GAME], PIECES[:1]),
        *jobs_for(names, PIECES[1:]),
        # No `stepped` piece: plugins play role games on the Python engine.
        *jobs_for([ROLE_GAME], ["steps"]),
    ]


def jobs_for_variant(text: str) -> list[tuple[str, str]]:
    """What a run of the variant (a file, or a shipped variant's name) plays compiled:
    its game's whole-game loop when every seat's bot is compiled, else nothing."""
    from balancer.config.shipped import find
    from balancer.config.variant import load

    variant = load(find(text) or text)
    return jobs_for([variant.game], ["games"]) if compiled.can_compile(variant) else []


def warm(
    jobs: Sequence[tuple[str, str]] | None = None,
    processes: int | None = None,
    report: Callable[[str], None] | None = None,
) -> list[str]:
    """Compile (or load from the cache) the kernel pieces `jobs` (default: every one)
    and the run's counting passes; returns what was warmed.

    The pieces compile in processes of their own, `processes` at a time
    (default: every core): compiling is most of a fresh clone's setup, and no
    piece waits for another. The counting passes compile in this process
    meanwhile. `report` is told a line as each piece is ready.
    """
    import concurrent.futures
    import multiprocessing
    import os

    jobs = every_job() if jobs is None else list(jobs)
    tell = report or (lambda line: None)
    started = time.monotonic()
    done: list[str] = []

    def ready(what: str, count: int) -> None:
        tell(f"  [{count}/{len(jobs) + 1}] {what} ({time.monotonic() - started:.0f} s)")

    workers = max(1, min(len(jobs), processes or os.cpu_count() or 1))
    # One job still goes to a process of its own unless asked not to: the counting
    # passes compile here meanwhile, on the other core.
    if processes == 1 or not jobs:
        for count, job in enumerate(jobs, 1):
            done += warm_piece(job)
            ready(describe(job), count)
        done += warm_counting()
        ready("counting passes", len(jobs) + 1)
        return done
    # spawn, not fork: a child forked from a process that has started numba's
    # compiler can inherit its locks held.
    context = multiprocessing.get_context("spawn")
    with concurrent.futures.ProcessPoolExecutor(workers, mp_context=context) as pool:
        futures = {pool.submit(warm_piece, job): job for job in jobs}
        done += warm_counting()
        count = 1
        ready("counting passes", count)
        for future in concurrent.futures.as_completed(futures):
            done += future.result()
            count += 1
            ready(describe(futures[future]), count)
    return done


def describe(job: tuple[str, str]) -> str:
    """`fdc whole-game loop`: a piece as a progress line names it."""
    name, piece = job
    return f"{games.get(name).short} {PIECE_NAMES[piece]}"


def warm_counting() -> list[str]:
    """The compiled passes every run uses beside its game's kernel."""
    done = []
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


def listed(names: Sequence[str]) -> str:
    """`dqz, fdc and kk`."""
    return " and ".join([", ".join(names[:-1]), names[-1]] if len(names) > 2 else names)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m balancer.sim.warm", description="Compile the game kernels ahead of use."
    )
    parser.add_argument(
        "--for",
        dest="variant",
        metavar="VARIANT",
        help="only what a run of VARIANT plays (a file or a shipped variant's name)",
    )
    args = parser.parse_args(argv)
    if not jit.ENABLED:
        print("balancer: numba is off (BALANCER_JIT=0 or not installed): nothing to compile")
        return
    jobs = every_job() if args.variant is None else jobs_for_variant(args.variant)
    shorts = sorted({games.get(name).short for name, _ in jobs})
    what = f"the {listed(shorts)} kernels" if shorts else "the counting passes"
    print(
        f"balancer: compiling {what} with numba (cached on disk: minutes the first "
        "time, seconds after)",
        flush=True,
    )
    started = time.monotonic()

    def report(line: str) -> None:
        print(line, flush=True)

    warm(jobs, report=report)
    took = time.monotonic() - started
    print(f"balancer: compiled kernels ready ({took:.0f} s)", flush=True)
    if args.variant is not None:
        rest = sorted({games.get(name).short for name, _ in every_job()} - set(shorts))
        if rest:
            print(
                f"balancer: the rest (the {listed(rest)} kernels, the pieces plugin "
                "and search bots use) compiles on first use; `make warm` compiles it all now",
                flush=True,
            )


if __name__ == "__main__":
    main(sys.argv[1:])
