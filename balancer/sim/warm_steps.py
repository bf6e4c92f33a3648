"""Compile each kernel's stepping entry points: one game played move by move.

A kernel is called from Python one move at a time by the step path (plugin
seats stepped on the compiled engine), by a search bot's rollouts from a
position, and by the tests that walk the kernel beside the Python engine.
Each of those entry points (current_player, legal, apply, a bot's choice)
is compiled on its own, with everything it calls inlined: together they cost
as much compiling as the whole-game loop. `sim.warm` calls `step_game(name)`
so none of them compiles in front of a user, or twice in two test workers.

Moves are the first legal one; a bot's choice is asked for and not played,
so one walk reaches every entry point with the argument types its callers use.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from balancer import games, knobs
from balancer.rng import CHANCE, Stream, init_streams
from balancer.sim import compiled


def step_game(name: str) -> bool:
    """Walk one game of `name` through its kernel's stepping entry points; False if none."""
    walk = _WALKS.get(games.get(name).short)
    kernel = compiled.kernel_of(name)
    if walk is None or kernel is None:
        return False
    spec = games.get(name)
    walk(kernel, knobs.defaults(spec.knobs), spec.max_players)
    return True


def _fdc(kernel: Any, rules: dict[str, Any], players: int) -> None:
    from balancer.games.fdc import rules as fdc

    state, tables = kernel.from_state(fdc.new_state(rules, players, Stream(0, 0, CHANCE)))
    streams = kernel.new_streams(players)
    kernel.start_game(state, tables, streams, 0, 0)
    out = kernel.new_legal(state)
    iwork, fwork = kernel.new_work(state)
    rows = {kind: kernel.bot_params(bot, {}) for bot, kind in kernel.BOT_KINDS.items()}
    while kernel.current_player(state) >= 0:
        n = kernel.legal(state, tables, out)
        if n > 1:
            for kind, row in rows.items():
                kernel.choose(state, tables, streams, kind, row, out, n, iwork, fwork)
        kernel.apply(state, tables, streams, int(out[0]))
    kernel.record(state, tables)


def _kk(kernel: Any, rules: dict[str, Any], players: int) -> None:
    tables = kernel.encode_rules(rules, players)
    streams = np.zeros((1 + players, 2), dtype=np.uint64)
    init_streams(streams, 0, 0)
    state = np.zeros(kernel.STATE_SIZE, dtype=np.int64)
    kernel.new_game(state, tables, streams)
    out = np.zeros(kernel.MAX_FREE + 1, dtype=np.int64)
    scratch = np.zeros(16, dtype=np.int64)
    ids, params = kernel.encode_slots([(bot, {}) for bot in sorted(kernel.COMPILED_BOTS)])
    while kernel.current_player(state) >= 0:
        n = kernel.legal(state, tables, out)
        if n > 1:
            for bot, row in zip(ids.tolist(), params, strict=True):
                kernel.bot_action(bot, row, state, tables, streams, out, n, scratch)
        kernel.apply(state, tables, streams, int(out[0]))


def _dqz(kernel: Any, rules: dict[str, Any], players: int) -> None:
    tables = kernel.encode_rules(rules)
    state = kernel.new_state()
    streams = kernel.new_streams()
    init_streams(streams, 0, 0)
    kernel.new_game(state, tables, streams)
    out = np.zeros(kernel.MAX_LEGAL, dtype=np.int64)
    kinds, params = kernel.bot_arrays([(bot, {}) for bot in sorted(kernel.COMPILED_BOTS)])
    start, start_streams = state.copy(), streams.copy()
    for _ in range(40):  # a few tricks by hand, then the rest played out by the kernel
        if kernel.current_player(state) < 0:
            break
        n = kernel.legal(state, tables, out)
        if n > 1:
            for kind, row in zip(kinds.tolist(), params, strict=True):
                kernel.choose(state, tables, streams, out, n, kind, row)
            kernel.heuristic(state, tables, out, n, params[0])
        kernel.apply(state, tables, streams, int(out[0]))
    plan, flat = kernel.encode_bots([("random", {})] * players)
    scores = np.zeros(players)
    kernel.play_out(start, tables, start_streams, plan, flat, kernel.new_scratch(start), scores)


_WALKS: dict[str, Callable[[Any, dict[str, Any], int], None]] = {
    "fdc": _fdc,
    "kk": _kk,
    "dqz": _dqz,
}
