"""Stepping: the game played on to the next decision made outside the kernel (plugin
seats, sim/kernel_step.py; positions via `StepGame.load`).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from balancer import rng
from balancer.games.api import GameRecord
from balancer.games.daqizi.combos import DISCARD_OF_PACKED, MOVE_PACKED
from balancer.games.daqizi.engine import EVENTS, PLAYERS, State, View, _new_view
from balancer.games.daqizi.kernel.chunk import bot_arrays, from_python, note_deal
from balancer.games.daqizi.kernel.heuristic import choose
from balancer.games.daqizi.kernel.layout import (
    BOT_OUTSIDE,
    DISCARD_BASE,
    E_DEALS,
    FD_BEAT,
    FD_CARDS,
    FD_PACKED,
    FD_SEAT,
    FD_UP,
    FD_WIDTH,
    MAX_LEGAL,
    N_CARDS,
    N_PARAMS,
    PLAN_KIND,
    PLAN_PARAMS,
    PLAN_SIZE,
    R_MAX_DEALS,
    S_BEST,
    S_BEST_SEAT,
    S_CAPTURED,
    S_CHIPS,
    S_DEAL,
    S_DEALER,
    S_DOWN,
    S_EVENTS,
    S_FD,
    S_FD_N,
    S_HANDS,
    S_LAST_TRICK,
    S_LEADER,
    S_LED,
    S_MULT,
    S_OVER,
    S_PUBLIC,
    S_SIZES,
    S_STREAK,
    S_TO_ACT,
    S_UP,
    STATE_SIZE,
    K,
    encode_rules,
)
from balancer.games.daqizi.kernel.resolution import apply, legal, new_game
from balancer.games.kernel_api import StepBuffer
from balancer.games.progress import CHOICES, DECISION_WORDS, TURNS
from balancer.games.step_kernels import block as _block
from balancer.games.step_kernels import draw_ahead, stream_block
from balancer.jit import njit

# =============================================================================
# Stepping: the game played on to the next decision made outside the kernel
# =============================================================================
#
# A plugin bot (sim/kernel_step.py) needs the compiled game played up to each
# decision it makes itself, and no further. A *step plan* says, per physical
# seat, which compiled bot plays it (a BOT_* kind) or that its decisions are
# made outside (BOT_OUTSIDE); `advance_to_outside` plays every forced move and
# every compiled seat's move until an outside seat has a choice or the game
# ends, exactly as `_play_to_end` plays them. These functions are plain @njit and
# call the engine's own (legal, choose, apply), so `step` is compiled from the
# engine's already-compiled functions.
#
# A view shows what the state array does not keep: the deal's face-up plays
# (View.history; the trick's are its last S_UP) and, for the record, the
# opening hands' held kinds. The stepped game keeps them in blocks of its own,
# beside the state (`_apply_kept`, `_held`), so the compiled whole-game path
# (`_play_to_end`, `apply`) does nothing more than before.


# The deal's face-up plays: their number at H_COUNT, then play i (0-based) at
# H_PLAYS + i as move * 8 + seat. A deal has 32 cards, so at most 32 of them.
H_COUNT, H_PLAYS = 0, 1
HIST_SIZE = H_PLAYS + N_CARDS
N_RANKS = K // 2  # kind k: rank k // 2, suit k % 2 (combos.py); held bits: ranks, then suits


@njit
def _apply_kept(
    state: np.ndarray,
    tables: np.ndarray,
    streams: np.ndarray,
    action: int,
    hist: np.ndarray,
    progress: np.ndarray,
) -> None:
    """`apply`, keeping the deal's face-up plays in `hist` (emptied when a deal starts)
    and each deal's chips in `progress` (chunk.py's `note_deal`)."""
    if action < DISCARD_BASE:
        n = hist[H_COUNT]
        hist[H_PLAYS + n] = action * 8 + state[S_TO_ACT]
        hist[H_COUNT] = n + 1
    deal = state[S_DEAL]
    deals = state[S_EVENTS + E_DEALS]
    apply(state, tables, streams, action)
    note_deal(state, deals, progress)
    if state[S_DEAL] != deal:
        hist[H_COUNT] = 0


@njit
def advance_to_outside(
    state: np.ndarray,
    tables: np.ndarray,
    streams: np.ndarray,
    plan: np.ndarray,
    params: np.ndarray,
    moves: np.ndarray,
    hist: np.ndarray,
    progress: np.ndarray,
    decisions: np.ndarray,
) -> int:
    """Play on from the current position to the next outside decision: forced
    moves without asking (and without a draw), compiled seats by `choose` with
    their own bot streams; the deal's face-up plays kept in `hist`, each deal's chips in
    `progress`, each turn counted in `decisions` (games/progress.py's TURNS, CHOICES).

    Returns n >= 2 with the outside seat's legal moves in moves[:n] (engine.py's
    order; `current_player` is the seat), or 0 when the game is over.
    """
    while state[S_OVER] == 0:
        n = legal(state, tables, moves)
        decisions[TURNS] += 1
        if n == 1:
            action = moves[0]  # forced: no bot is asked, no bot draw
        else:
            decisions[CHOICES] += 1
            seat = state[S_TO_ACT]
            kind = plan[PLAN_KIND + seat]
            if kind == BOT_OUTSIDE:
                return n
            at = plan[PLAN_PARAMS + seat]
            action = choose(state, tables, streams, moves, n, kind, params[at : at + N_PARAMS])
        _apply_kept(state, tables, streams, action, hist, progress)
    return 0


# One int64 buffer holds every array of a stepped game (games/kernel_api.py's
# StepBuffer), so the call Python makes at each outside decision passes one
# array. Its header is (start, stop) of each block; the uint64 streams and
# ahead and the float64 params are the buffer's bytes seen as those types.
B_STATE, B_TABLES, B_MOVES, B_PLAN, B_STREAMS, B_PARAMS, B_AHEAD, B_HIST, B_HELD = range(0, 18, 2)
B_PROGRESS = 18  # each deal's chips, a row of seats a deal (GameRecord.progress)
B_DECISIONS = 20  # the game's turns and choices (GameRecord.decisions)
B_HEADER = 22
AHEAD = 32
"""Numbers of an outside seat's bot stream drawn ahead at the deal, for its plugin's
rng (sim/kernel_step.py): a Python draw costs a microsecond of big-integer arithmetic,
a compiled one nanoseconds. A uniform plugin draws about one number a decision; a
default game asks a seat about 20 times; more are drawn by the plugin's rng itself."""

STEP_ON, STEP_APPLY, STEP_DEAL = 0, 1, 2  # step()'s modes


@njit
def step(buf: np.ndarray, mode: int, action: int, seed: int, game: int) -> int:
    """Python's entry to `advance_to_outside` over a step buffer (`StepGame` makes it).

    `mode` STEP_DEAL first deals game `game` of `seed` (its streams from their
    start, the outside seats' first AHEAD numbers drawn ahead, the opening
    hands' held kinds kept); STEP_APPLY first plays `action` for the outside
    seat to act; STEP_ON only plays on. Returns n * 8 + seat at an outside
    decision (n >= 2 moves in the moves block, seat to act), or 0 when the
    game is over.
    """
    state, tables, plan = _block(buf, B_STATE), _block(buf, B_TABLES), _block(buf, B_PLAN)
    streams = stream_block(buf, B_STREAMS)
    hist = _block(buf, B_HIST)
    progress = _block(buf, B_PROGRESS).reshape((tables[R_MAX_DEALS], PLAYERS))
    decisions = _block(buf, B_DECISIONS)
    if mode == STEP_DEAL:
        rng.init_streams(streams, seed, game)
        new_game(state, tables, streams)
        decisions[:] = 0
        hist[H_COUNT] = 0
        _held(state, _block(buf, B_HELD))
        kinds = plan[PLAN_KIND : PLAN_KIND + PLAYERS]
        draw_ahead(streams, kinds, BOT_OUTSIDE, _block(buf, B_AHEAD).view(np.uint64), AHEAD)
    elif mode == STEP_APPLY:
        _apply_kept(state, tables, streams, action, hist, progress)
    params = _block(buf, B_PARAMS).view(np.float64)
    moves = _block(buf, B_MOVES)
    n = advance_to_outside(state, tables, streams, plan, params, moves, hist, progress, decisions)
    if n == 0:
        return 0
    return n * 8 + state[S_TO_ACT]


@njit
def _held(state: np.ndarray, held: np.ndarray) -> None:
    """held[s]: rules.held_of_counts of the hands as dealt (bit r for rank r held,
    bit N_RANKS + suit for each suit held), as `held_masks` gives it."""
    for seat in range(PLAYERS):
        mask = 0
        for k in range(K):
            if state[S_HANDS + seat * K + k] > 0:
                mask |= (1 << (k >> 1)) | (1 << (N_RANKS + (k & 1)))
        held[seat] = mask


class StepGame(StepBuffer):
    """Games of one rule set stepped from Python, one after another in one buffer.

    The contract sim/kernel_step.py drives (games/kernel_api.py; fdc's and kk's
    kernels have the others): `slots[j]` is bot slot j's compiled bot, (name,
    parameters), or None for a slot whose decisions are made outside (a plugin).
    Each game is dealt with `deal(seed, game, seat_slots)` (seat_slots[s]: the
    slot sitting at physical seat s); `deal` and `play` return the step code of
    `step` (n * 8 + seat at an outside decision, 0 at the end); `legal(code)` is
    that decision's moves as the Python engine lists them (Python ints, its
    order), `view(seat)` the seat's View exactly as `rules.State.view` gives it,
    and `record()` the finished game's GameRecord, held kinds included.
    """

    def _build(self) -> None:
        rules, players, slots = self.rules, self.players, self.slots
        if players != PLAYERS:
            raise ValueError(f"da-qi-zi needs {PLAYERS} players, got {players}")
        # An outside slot's row is never read: any compiled bot stands in for it.
        kinds, params = bot_arrays([slot or ("random", {}) for slot in slots])
        kinds_of = kinds.tolist()
        plan_kinds = [BOT_OUTSIDE if slot is None else kinds_of[j] for j, slot in enumerate(slots)]
        self._plans_for(plan_kinds, N_PARAMS, PLAN_KIND, PLAN_PARAMS, PLAN_SIZE)
        tables = encode_rules(rules)
        blocks = [
            np.zeros(STATE_SIZE, np.int64),
            tables,
            np.zeros(MAX_LEGAL, np.int64),
            np.zeros(PLAN_SIZE, np.int64),
            np.zeros(2 * (PLAYERS + 1), np.int64),  # the streams, (key, counter) a row
            params.ravel().view(np.int64),
            np.zeros(PLAYERS * AHEAD, np.int64),
            np.zeros(HIST_SIZE, np.int64),
            np.zeros(PLAYERS, np.int64),  # the opening hands' held kinds
            np.zeros(int(tables[R_MAX_DEALS]) * PLAYERS, np.int64),
            np.zeros(DECISION_WORDS, np.int64),
        ]
        assert len(blocks) * 2 == B_HEADER
        self._pack(blocks, B_HEADER)
        # Views of the buffer, for reading (and the plan for writing) from Python.
        self.state = self._block(B_STATE)
        self.moves = memoryview(self._block(B_MOVES))  # type: ignore[arg-type]
        self.plan = self._block(B_PLAN)
        self.streams = self._block(B_STREAMS).view(np.uint64).reshape(PLAYERS + 1, 2)
        self.ahead = self._block(B_AHEAD).view(np.uint64)  # AHEAD per seat, after each deal
        self.hist = self._block(B_HIST)
        self.held = self._block(B_HELD)
        self.progress = self._block(B_PROGRESS).reshape(-1, PLAYERS)
        self.decisions = self._block(B_DECISIONS)

    # The entry `deal` and `play` call; a loop that writes `play` out (sim/kernel_step.py)
    # calls step(buf, STEP_APPLY, action, 0, 0) itself.
    step = staticmethod(step)
    STEP_DEAL = STEP_DEAL
    STEP_APPLY = STEP_APPLY
    STEP_ON = STEP_ON

    def load(self, py: State, seat_slots: Sequence[int], seed: int, game: int) -> int:
        """Step from a Python `State`'s position (any: a game mid-way, or laid by hand),
        its chance draws going on from where the State's stream stands, compiled seats
        drawing from game `game` of `seed`'s bot streams from their start; plays on to the
        first outside decision (a search bot's rollouts start here)."""
        self._check_position(len(py.chips), py.rules is self.rules or py.rules == self.rules)
        self.state[:] = from_python(py)
        self.hist[H_COUNT] = len(py.history)
        for i, (seat, move) in enumerate(py.history):
            self.hist[H_PLAYS + i] = move * 8 + seat
        self.held[:] = py.opening_held
        return self._play_on_from(seat_slots, seed, game, py.rng)

    def view(self, seat: int) -> View:
        """`rules.State.view(seat)` of the position, field for field."""
        s: list[int] = self.state.tolist()
        n = int(self.hist[H_COUNT])
        history = tuple(
            [(code & 7, code >> 3) for code in self.hist[H_PLAYS : H_PLAYS + n].tolist()]
        )
        up = s[S_UP]
        hands = S_HANDS + seat * K
        captured = S_CAPTURED
        return _new_view(  # positional: View's fields in order, as State.view
            seat,
            tuple(s[hands : hands + K]),
            tuple(s[S_SIZES : S_SIZES + PLAYERS]),
            tuple([tuple(s[captured + p * K : captured + (p + 1) * K]) for p in range(PLAYERS)]),
            tuple(s[S_CHIPS : S_CHIPS + PLAYERS]),
            s[S_DEALER],
            s[S_DEAL],
            s[S_MULT],
            s[S_STREAK],
            s[S_LEADER],
            history[n - up :] if up else (),
            s[S_DOWN],
            s[S_BEST],
            s[S_BEST_SEAT],
            s[S_LED],
            s[S_LAST_TRICK] != 0,
            history,
            tuple(s[S_PUBLIC : S_PUBLIC + K]),
            self.rules,
            *_recalled(s, history, seat),
        )

    def record(self) -> GameRecord:
        """The finished game's record, as `rules.State.record` gives it (held kinds too)."""
        s: list[int] = self.state.tolist()
        return GameRecord(
            tuple(float(c) for c in s[S_CHIPS : S_CHIPS + PLAYERS]),
            s[S_EVENTS + E_DEALS],
            {name: s[S_EVENTS + e] for e, name in enumerate(EVENTS)},
            tuple(self.held.tolist()),
            self.progress_of(s[S_EVENTS + E_DEALS]),
            decisions=self.decisions_of(),
        )


def _recalled(
    s: list[int], history: tuple[tuple[int, int], ...], seat: int
) -> tuple[tuple[tuple[int, int, int, int], ...], tuple[int, ...]]:
    """The view's perfect-recall fields (`face_down`, `my_discards`) from the kernel's
    notes of the deal's face-down discards (layout.py S_FD) and its history.

    A note keeps the cards its seat had played face up before it (packed), not the
    history's length then (the view's `plays_before`): the deal is walked again,
    trick by trick (a lead is always face up, then each seat acts once round the
    table), and a seat's turn is the next note's discard when the note is that
    seat's and its face-up cards so far are the note's (a play would add to them).
    """
    notes = [s[S_FD + i * FD_WIDTH : S_FD + (i + 1) * FD_WIDTH] for i in range(s[S_FD_N])]
    face_down, mine = [], []
    played = [0] * PLAYERS  # each seat's face-up cards so far (packed)
    h = i = 0
    while i < len(notes):
        leader = history[h][0]
        for k in range(PLAYERS):
            who = (leader + k) % PLAYERS
            note = notes[i] if i < len(notes) else None
            if k and note is not None and note[FD_SEAT] == who and played[who] == note[FD_UP]:
                face_down.append((who, note[FD_CARDS], note[FD_BEAT], h))
                if who == seat:
                    mine.append(DISCARD_OF_PACKED[note[FD_PACKED]])
                i += 1
            elif h < len(history):
                played[who] += MOVE_PACKED[history[h][1]]
                h += 1
    return tuple(face_down), tuple(mine)
