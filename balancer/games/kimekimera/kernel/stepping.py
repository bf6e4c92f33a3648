"""Stepping: the game played on to the next decision made outside the kernel (plugin
seats, sim/kernel_step.py; positions via `StepGame.load`).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from balancer.games.api import GameRecord
from balancer.games.kernel_api import StepBuffer
from balancer.games.kimekimera import engine as kk
from balancer.games.kimekimera.kernel.bots import bot_action
from balancer.games.kimekimera.kernel.convert import encode_slots, from_state
from balancer.games.kimekimera.kernel.layout import (
    BOT_OUTSIDE,
    MAX_FREE,
    N_PARAMS,
    PLAN_KIND,
    PLAN_PARAMS,
    PLAN_SIZE,
    S_DECK_N,
    S_DISCARD,
    S_DISCARD_N,
    S_EVENTS,
    S_FIRST,
    S_FREE,
    S_HELD,
    S_MINE,
    S_PROGRESS,
    S_ROUND,
    S_SEAT,
    S_THEME,
    S_TOTALS,
    S_TURN,
    STATE_SIZE,
    T_PLAYERS,
    encode_rules,
)
from balancer.games.kimekimera.kernel.resolution import apply, legal, new_game
from balancer.games.progress import CHOICES, DECISION_WORDS, TURNS
from balancer.games.step_kernels import block as _block
from balancer.games.step_kernels import draw_ahead, stream_block
from balancer.jit import njit
from balancer.rng_kernels import init_streams

# =============================================================================
# Stepping: the game played on to the next decision made outside the kernel
# =============================================================================
#
# A plugin bot (sim/kernel_step.py) needs the compiled game played up to each
# decision it makes itself, and no further. A *step plan* says, per physical
# seat, which compiled bot plays it (a BOT_IDS value) or that its decisions
# are made outside (BOT_OUTSIDE); `advance_to_outside` plays every forced
# move and every compiled seat's move until an outside seat has a choice or
# the game ends, exactly as `play_games` plays them. These functions are plain
# @njit and call the engine's own (legal, apply, bot_action) rather than
# inlining them: `step` is then compiled from the engine's already-compiled
# functions and costs little compile time.


@njit
def advance_to_outside(
    state: np.ndarray,
    tables: np.ndarray,
    streams: np.ndarray,
    plan: np.ndarray,
    params: np.ndarray,
    moves: np.ndarray,
    scratch: np.ndarray,
    decisions: np.ndarray,
) -> int:
    """Play on from the current position to the next outside decision: forced
    moves without asking (and without a draw), compiled seats by `bot_action`
    with their own bot streams; each turn counted in `decisions` (TURNS, and
    CHOICES when it offers more than one move: games/progress.py).

    Returns n >= 2 with the outside seat's legal moves in moves[:n] (the
    engine's order; `current_player` is the seat), or 0 when the game is over.
    """
    while state[S_SEAT] >= 0:
        n = legal(state, tables, moves)
        decisions[TURNS] += 1
        if n == 1:
            action = moves[0]  # forced: no bot is asked, no bot draw
        else:
            decisions[CHOICES] += 1
            seat = state[S_SEAT]
            kind = plan[PLAN_KIND + seat]
            if kind == BOT_OUTSIDE:
                return n
            at = plan[PLAN_PARAMS + seat]
            row = params[at : at + N_PARAMS]
            action = bot_action(kind, row, state, tables, streams, moves, n, scratch)
        apply(state, tables, streams, action)
    return 0


# One int64 buffer holds every array of a stepped game, so the call Python
# makes at each outside decision passes one array (numba checks and counts
# references of each array argument it is handed). Its header is (start, stop)
# of each block; the uint64 streams and ahead and the float64 params are the
# buffer's bytes seen as those types.
B_STATE, B_TABLES, B_MOVES, B_SCRATCH, B_PLAN, B_STREAMS, B_PARAMS, B_AHEAD = range(0, 16, 2)
B_DECISIONS = 16  # the game's turns and choices (GameRecord.decisions)
B_HEADER = 18
AHEAD = 16
"""Numbers of an outside seat's bot stream drawn ahead at the deal, for its plugin's
rng (sim/kernel_step.py): a Python draw costs a microsecond of big-integer arithmetic,
a compiled one nanoseconds. A uniform plugin draws about one number a decision, and a
seat decides once a round: the 5 rounds of a default game three times over; more are
drawn by the plugin's rng itself."""

STEP_ON, STEP_APPLY, STEP_DEAL = 0, 1, 2  # step()'s modes


@njit
def step(buf: np.ndarray, mode: int, action: int, seed: int, game: int) -> int:
    """Python's entry to `advance_to_outside` over a step buffer (`StepGame` makes it).

    `mode` STEP_DEAL first deals game `game` of `seed` (its streams from their
    start, the outside seats' first AHEAD numbers drawn ahead); STEP_APPLY first
    plays `action` for the outside seat to act; STEP_ON only plays on. Returns
    n * 8 + seat at an outside decision (n >= 2 moves in the moves block, seat
    to act), or 0 when the game is over.
    """
    state, tables, plan = _block(buf, B_STATE), _block(buf, B_TABLES), _block(buf, B_PLAN)
    streams = stream_block(buf, B_STREAMS)
    decisions = _block(buf, B_DECISIONS)
    if mode == STEP_DEAL:
        init_streams(streams, seed, game)
        new_game(state, tables, streams)
        decisions[:] = 0
        kinds = plan[PLAN_KIND : PLAN_KIND + tables[T_PLAYERS]]
        draw_ahead(streams, kinds, BOT_OUTSIDE, _block(buf, B_AHEAD).view(np.uint64), AHEAD)
    elif mode == STEP_APPLY:
        apply(state, tables, streams, action)
    params = _block(buf, B_PARAMS).view(np.float64)
    moves, scratch = _block(buf, B_MOVES), _block(buf, B_SCRATCH)
    n = advance_to_outside(state, tables, streams, plan, params, moves, scratch, decisions)
    if n == 0:
        return 0
    return n * 8 + state[S_SEAT]


class StepGame(StepBuffer):
    """Games of one (rules, players) stepped from Python, one after another in one buffer.

    The contract sim/kernel_step.py drives (games/kernel_api.py; fdc's kernel has
    the other StepGame): `slots[j]` is bot slot j's compiled bot, (name, parameters),
    or None for a slot whose decisions are made outside (a plugin). Each game
    is dealt with `deal(seed, game, seat_slots)` (seat_slots[s]: the slot
    sitting at physical seat s); `deal` and `play` return the step code of
    `step` (n * 8 + seat at an outside decision, 0 at the end); `legal(code)`
    is that decision's moves as the Python engine lists them (Python ints, its
    order), `view(seat)` the seat's View exactly as `rules.State.view` gives
    it, and `record()` the finished game's GameRecord, held kinds included.
    """

    def _build(self) -> None:
        rules, players, slots = self.rules, self.players, self.slots
        # The views' constants, read as rules.State reads them (same objects, same types).
        complete = kk._complete(rules)
        bonus = kk._check_colour_bonus(complete["colour_bonus"])
        self._view_rules = complete
        self._rounds = complete["rounds"]
        self._n_free = complete["free_chimeras"]
        self._bonus = (0, bonus[1], bonus[2])
        self._grey_blocks = complete["grey_blocks_colour_bonus"]
        self._floor = complete["floor_at_zero"]
        # An outside slot's row is never read: any compiled bot stands in for it.
        ids, params = encode_slots([slot or ("random", {}) for slot in slots])
        ids_of = ids.tolist()
        kinds = [BOT_OUTSIDE if slot is None else ids_of[j] for j, slot in enumerate(slots)]
        self._plans_for(kinds, N_PARAMS, PLAN_KIND, PLAN_PARAMS, PLAN_SIZE)
        blocks = [
            # Longer than STATE_SIZE by a row of seats a round: the round's totals are kept
            # there as it ends (S_PROGRESS, resolution.py), as the chunk loop keeps them.
            np.zeros(STATE_SIZE + self._rounds * players, np.int64),
            encode_rules(rules, players),
            np.zeros(MAX_FREE + 1, np.int64),
            np.zeros(16, np.int64),  # bot_action's scratch
            np.zeros(PLAN_SIZE, np.int64),
            np.zeros(2 * (players + 1), np.int64),  # the streams, (key, counter) a row
            params.ravel().view(np.int64),
            np.zeros(players * AHEAD, np.int64),
            np.zeros(DECISION_WORDS, np.int64),
        ]
        assert len(blocks) * 2 == B_HEADER
        self._pack(blocks, B_HEADER)
        # Views of the buffer, for reading (and the plan for writing) from Python.
        self.state = self._block(B_STATE)
        self.progress = self.state[S_PROGRESS:].reshape(self._rounds, players)
        self.decisions = self._block(B_DECISIONS)
        self.moves = memoryview(self._block(B_MOVES))  # type: ignore[arg-type]
        self.plan = self._block(B_PLAN)
        self.streams = self._block(B_STREAMS).view(np.uint64).reshape(players + 1, 2)
        self.ahead = self._block(B_AHEAD).view(np.uint64)  # AHEAD per seat, after each deal

    # The entry `deal` and `play` call; a loop that writes `play` out (sim/kernel_step.py)
    # calls step(buf, STEP_APPLY, action, 0, 0) itself.
    step = staticmethod(step)
    STEP_DEAL = STEP_DEAL
    STEP_APPLY = STEP_APPLY
    STEP_ON = STEP_ON

    def load(self, py: kk.State, seat_slots: Sequence[int], seed: int, game: int) -> int:
        """Step from a Python `State`'s position (any: `State.arranged`, or a game mid-way),
        its chance draws going on from where the State's stream stands, compiled seats
        drawing from game `game` of `seed`'s bot streams from their start; plays on to the
        first outside decision (a search bot's rollouts start here)."""
        self._check_position(
            py.players, py.rules is self._view_rules or py.rules == self._view_rules
        )
        state, _ = from_state(py)
        self.state[:STATE_SIZE] = state
        return self._play_on_from(seat_slots, seed, game, py.rng)

    def view(self, seat: int) -> kk.View:
        """`rules.State.view(seat)` of the position, field for field."""
        s: list[int] = self.state.tolist()
        players = self.players
        return kk._new_view(  # positional: View's fields in order, as State.view
            seat,
            s[S_ROUND] + 1,
            self._rounds,
            (s[S_THEME], s[S_THEME + 1]),
            tuple(s[S_MINE : S_MINE + 2 * players]),
            tuple(s[S_FREE : S_FREE + 2 * self._n_free]),
            tuple(s[S_TOTALS : S_TOTALS + players]),
            s[S_DECK_N],
            s[S_DISCARD_N],
            self._bonus,
            self._grey_blocks,
            self._floor,
            self._view_rules,
            tuple(s[S_DISCARD : S_DISCARD + s[S_DISCARD_N]]),  # in the order it was made
            s[S_FIRST],
            s[S_TURN],
        )

    def record(self) -> GameRecord:
        """The finished game's record, as `rules.State.record` gives it (held kinds too)."""
        s: list[int] = self.state.tolist()
        players = self.players
        return GameRecord(
            tuple(float(t) for t in s[S_TOTALS : S_TOTALS + players]),
            s[S_ROUND],
            {name: float(s[S_EVENTS + e]) for e, name in enumerate(kk.EVENTS)},
            tuple(s[S_HELD : S_HELD + players]),
            self.progress_of(s[S_ROUND]),
            decisions=self.decisions_of(),
        )
