"""Compile what a run will need before its games, saying so only when numba compiles.

A kernel compiles on its first use and numba caches it on disk, so it compiles
once per install (`make warm` compiles every piece ahead): for a game file, once
for every game file, since they all play on one interpreter (games/roles/kernel/).
A run that would load a kernel not in the cache compiles it here first, in this
process, where the user's terminal is: its workers then load it.

Whether anything compiles is what numba itself says (its "numba:compile" event,
sent on a cache miss only, as the compiling starts), not a guess: a run whose
code all comes from the cache says nothing about compiling, and one that
compiles says what, and ticks while it works (compiling can take minutes on a
loaded machine, and a silent terminal looks hung).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from balancer import jit

TICK_SECONDS = 15.0
# Bots that step a kernel from Python (their play-outs): a seat holding one makes a
# run use the kernel's stepping entry points (sim/warm_steps.py), compiled or not.
STEPPING_BOTS = frozenset({"search"})


@contextmanager
def announced(
    what: str, tell: Callable[[str], None], tick: float = TICK_SECONDS, lang: str | None = None
) -> Iterator[None]:
    """Run the block; when numba starts compiling in it, tell that `what` compiles (once
    per install), then the seconds so far every `tick` seconds, and at the end how long
    it took. Nothing is told when everything comes from the cache."""
    if not jit.ENABLED:
        yield
        return
    from numba.core import event

    from balancer import i18n

    started = time.monotonic()
    stop = threading.Event()
    ticker: list[threading.Thread] = []

    def seconds() -> str:
        return f"{time.monotonic() - started:.0f}"

    def ticking() -> None:
        while not stop.wait(tick):
            tell("  " + i18n.text("progress.compiling_tick", lang, seconds=seconds()))

    class FirstCompile(event.Listener):
        def on_start(self, _event: Any) -> None:
            if ticker:  # a nested compilation (a callee) of the one announced
                return
            tell("balancer: " + i18n.text("progress.compiling", lang, what=what))
            ticker.append(threading.Thread(target=ticking, daemon=True))
            ticker[0].start()

        def on_end(self, _event: Any) -> None:
            pass

    try:
        with event.install_listener("numba:compile", FirstCompile()):
            yield
    finally:
        stop.set()
        if ticker:
            ticker[0].join()
            tell("  " + i18n.text("progress.compiled", lang, seconds=seconds()))


def what_compiles(game: str, piece: str, lang: str | None = None) -> str:
    """The piece of `game`'s kernel a run compiles, as the notice names it."""
    from balancer import games, i18n
    from balancer.games.roles.compiled import RoleKernel
    from balancer.sim import compiled

    if isinstance(compiled.kernel_of(game), RoleKernel):
        return i18n.text(f"progress.what_roles_{piece}", lang)
    return i18n.text(f"progress.what_{piece}", lang, game=games.get(game).short)


def prepare(
    variant: Any, backend: str, check: bool, tell: Callable[[str], None] | None = None
) -> None:
    """Compile, in this process and before any game, the pieces of the variant's kernel
    its run will call that are not in numba's cache: the whole-game loop when every seat
    is compiled, the stepping entry points when a seat searches. `tell`: the notice's
    lines (None: quiet). Remote workers (dask) compile their own."""
    from balancer.sim import compiled

    loop = not check and compiled.can_compile(variant)
    bots = [seat.bot for seat in variant.seats]
    prepare_game(variant.game, bots, loop, backend, tell, variant.lang)


def prepare_game(
    game: str,
    bots: Sequence[str],
    loop: bool,
    backend: str = "local",
    tell: Callable[[str], None] | None = None,
    lang: str | None = None,
) -> None:
    """`prepare` for games of `game` between `bots`: the whole-game loop if `loop` (some
    games play every seat compiled), the stepping entry points if a bot searches."""
    from balancer.sim import compiled, warm

    if backend != "local" or not jit.ENABLED or compiled.kernel_of(game) is None:
        return
    pieces = []
    if loop and compiled.needs_compiling(game):
        pieces.append("games")
    if any(bot in STEPPING_BOTS for bot in bots):
        pieces.append("steps")  # loading what is cached costs a second; compiling, minutes
    for piece in pieces:
        with announced(what_compiles(game, piece, lang), tell or (lambda line: None), lang=lang):
            warm.warm_piece((game, piece))
