"""Compile each kernel's stepping entry points: one game played move by move.

A kernel is called from Python one move at a time by a search bot's rollouts
from a position and by the tests that walk the kernel beside the Python
engine. Each of those entry points (current_player, legal, apply, a bot's
choice, playing out) is compiled on its own, with everything it calls inlined:
together they cost as much compiling as the whole-game loop. `sim.warm` calls
`step_game(name)` so none of them compiles in front of a user, or twice in two
test workers.

One walk for every game, through the one kernel interface (games/kernel_api.py):
moves are the first legal one; each compiled bot's choice is asked for and not
played, so one walk reaches every entry point with the argument types its
callers use; a copy of the deal is played out, and a world the search bot
would deal from it (`determinize`, with its key as bots/search.py makes it)
played out and scored, as a search's play-out is.
"""

from __future__ import annotations

import numpy as np

from balancer import games, knobs
from balancer.bot import bot_params_with_defaults
from balancer.bots import registry as bot_registry
from balancer.sim import compiled


def step_game(name: str) -> bool:
    """Walk one game of `name` through its kernel's stepping entry points; False if none."""
    kernel = compiled.kernel_of(name)
    if kernel is None:
        return False
    spec = games.get(name)
    players = spec.max_players
    builtin = bot_registry.builtin(name)
    position = kernel.new_position(knobs.defaults(spec.knobs), players)
    kernel.deal(position, 0, 0)
    start = position.copy()
    every_bot = []
    for bot in sorted(kernel.compiled_bots):
        params = dict(bot_params_with_defaults(builtin[bot], {}))
        every_bot.append(kernel.encode_bots([(bot, params)] * players))
    while kernel.current_player(position) >= 0:
        n = kernel.legal(position)
        if n > 1:
            for bots in every_bot:
                kernel.choose(position, bots, n)
        kernel.apply(position, int(position.moves[0]))
    kernel.record(position)
    world = start.copy()
    kernel.determinize(start, 0, np.array([[1, 0]], np.uint64), world)
    kernel.play_out(world, every_bot[0])
    kernel.scores(world)
    kernel.play_out(start, every_bot[0])
    return True
