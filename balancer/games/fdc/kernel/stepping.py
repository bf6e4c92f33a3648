"""Stepping: the game played on to the next decision made outside the kernel.

A plugin bot (sim/kernel_step.py), or a search bot's rollouts, needs the
compiled game stepped from any position, handing control back only at the
decisions it makes itself. A *step plan* says, per physical seat, which
compiled bot plays it (BOT_RANDOM, BOT_HEURISTIC) or that its decisions are
made outside (BOT_OUTSIDE); `advance_to_outside` plays every forced move and
every compiled seat's move until an outside seat has a choice or the game
ends, exactly as `_play_games` would have played them.

The state keeps cashed cards only as money and count, and no discard at all
(nothing in the game reads them), but a seat's view recalls both (engine.py
View: `cashed`, `discard`). So a stepped game writes them down as it goes,
move by move (`apply_recorded`): a cashed record and a discard record.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from balancer.games.api import GameRecord, held_words
from balancer.games.fdc import engine as fdc
from balancer.games.fdc.kernel.bots import _choose
from balancer.games.fdc.kernel.chunk import note_trick
from balancer.games.fdc.kernel.layout import (
    BOT_KINDS,
    BOT_OUTSIDE,
    CCOUNT,
    CMONEY,
    DASH_CHOICE,
    DECK,
    E_CANCELLED,
    E_NEKO,
    EFFECT,
    EFFECT_TERRITORY,
    EVENTS,
    HANDS,
    HCAP,
    HLEN,
    LEADER,
    MAXP,
    N_EVENTS,
    N_PARAMS,
    NORDER,
    O_PILE,
    O_TERR,
    OVER,
    PCARD,
    PHASE,
    PILE_LEN,
    PLAN_KIND,
    PLAN_PARAMS,
    PLAN_SIZE,
    PLAY,
    PLAYERS,
    PROT,
    PSEAT,
    QAT,
    QCARD,
    QLEN,
    QSEAT,
    T_CARDS,
    T_DECK,
    TCAP,
    TLEN,
    TRICKS,
    TURN,
    inlined,
    outermost,
)
from balancer.games.fdc.kernel.resolution import apply, current_player, legal, start_game
from balancer.games.fdc.kernel.tables import (
    bot_params,
    from_state,
    make_tables,
    new_legal,
    new_state,
    new_streams,
    new_work,
)
from balancer.games.kernel_api import StepBuffer
from balancer.games.progress import CHOICES, DECISION_WORDS, TURNS
from balancer.games.step_kernels import block, draw_ahead, stream_block
from balancer.games.trick.kernel.procedure import cancelled_pass, held_at_deal


def new_cashed(state: np.ndarray) -> np.ndarray:
    """The cashed-cards record of states shaped like `state` (`note_cashed`): seat s's
    count at s, its cards, in the order cashed, at MAXP + s * D."""
    return np.zeros(MAXP + MAXP * int(state[DECK]), np.int64)


def cashed_of(py: fdc.State) -> np.ndarray:
    """`new_cashed` filled from a Python `State`'s cashed cards (to step from its position)."""
    d = py.deck.size
    cashed = np.zeros(MAXP + MAXP * d, np.int64)
    for s, cards in enumerate(py.cashed):
        cashed[s] = len(cards)
        cashed[MAXP + s * d : MAXP + s * d + len(cards)] = cards
    return cashed


@inlined
def note_cashed(state: np.ndarray, cashed: np.ndarray) -> None:
    """Record the cards just cashed, which the state keeps only as money and count;
    called after every `apply`. A cash empties its owner's territory by setting
    its length to 0, and nothing lands there again before `apply` returns (the
    owner's one card of the trick was the cash, and a steal needs a decision),
    so the cards cashed are still at the territory's start."""
    d = state[DECK]
    o_terr, tcap = state[O_TERR], state[TCAP]
    for s in range(state[PLAYERS]):
        seen = cashed[s]
        now = state[CCOUNT + s]
        if now != seen:
            base = o_terr + s * tcap
            dst = MAXP + s * d + seen
            for j in range(now - seen):
                cashed[dst + j] = state[base + j]
            cashed[s] = now


def new_discard(state: np.ndarray) -> np.ndarray:
    """The discard record of states shaped like `state` (`apply_recorded`): how many
    cards at 0, the cards from 1, in the order they reached the discard."""
    return np.zeros(1 + int(state[DECK]), np.int64)


def discard_of(py: fdc.State) -> np.ndarray:
    """`new_discard` filled from a Python `State`'s discard (to step from its position)."""
    discard = np.zeros(1 + py.deck.size, np.int64)
    discard[0] = len(py.discard)
    discard[1 : 1 + len(py.discard)] = py.discard
    return discard


@inlined
def apply_recorded(
    state: np.ndarray,
    tables: np.ndarray,
    streams: np.ndarray,
    action: int,
    cashed: np.ndarray,
    discard: np.ndarray,
    progress: np.ndarray,
) -> None:
    """`apply`, writing down what the engine's view recalls and how the game goes: each
    trick's scores into `progress` (chunk.py's `note_trick`), the cards cashed
    (`note_cashed`) and the cards discarded, in the order the engine discards them
    (a trick's cancelled cards when its last card is played, then each cash and
    dash as it resolves; a dash that waits for its choice, once it is made).

    One move resolves at most the rest of one trick: the next trick's lead is a
    move of its own. The trick's plays (PCARD) and its survivors in resolution
    order (QCARD) stay in the state after the trick ends (`_end_trick` resets
    only their lengths), so they are read here after `apply`."""
    phase, turn, qat, survivors, tricks = (
        state[PHASE], state[TURN], state[QAT], state[QLEN], state[TRICKS]
    )  # fmt: skip
    completes = phase == PLAY and turn + 1 == state[NORDER]
    cancelled, neko = state[EVENTS + E_CANCELLED], state[EVENTS + E_NEKO]
    apply(state, tables, streams, action)
    note_trick(state, tables, tricks, progress)
    note_cashed(state, cashed)
    if completes:
        plays = turn + 1
        survivors = plays - (state[EVENTS + E_CANCELLED] - cancelled)
        _note_cancelled(state, tables, plays, survivors, state[EVENTS + E_NEKO] != neko, discard)
        qat = 0
    elif phase != DASH_CHOICE:
        return
    # Survivors qat.. resolved now: to the trick's end, or to the next dash that waits.
    stop = survivors if state[TRICKS] != tricks else state[QAT]
    eff = T_CARDS + EFFECT * tables[T_DECK]
    n = discard[0]
    for i in range(qat, stop):
        card = state[QCARD + i]
        if tables[eff + card] != EFFECT_TERRITORY:  # a cash or a dash: discarded once resolved
            discard[1 + n] = card
            n += 1
    discard[0] = n


@inlined
def _note_cancelled(
    state: np.ndarray,
    tables: np.ndarray,
    plays: int,
    survivors: int,
    neko: bool,
    discard: np.ndarray,
) -> None:
    """Append the trick's cancelled cards (its plays not among the survivors) in engine.py
    sort_out's order: with 猫に小判 in play order (the lead, then followers cancelled
    as duplicates); otherwise the off-colour cards in play order, then the lead
    colour's duplicates in play order (the trick's `cancelled_pass`)."""
    n = discard[0]
    for sweep in range(2):
        for i in range(plays):
            if cancelled_pass(state, tables, i, survivors, neko) == sweep:
                discard[1 + n] = state[PCARD + i]
                n += 1
    discard[0] = n


@inlined
def advance_to_outside(
    state: np.ndarray,
    tables: np.ndarray,
    streams: np.ndarray,
    plan: np.ndarray,
    params: np.ndarray,
    moves: np.ndarray,
    iwork: np.ndarray,
    fwork: np.ndarray,
    cashed: np.ndarray,
    discard: np.ndarray,
    progress: np.ndarray,
    decisions: np.ndarray,
) -> int:
    """Play on from the current position to the next outside decision: forced
    moves without asking (and without a draw), compiled seats by `_choose`.

    Returns n >= 2 with the outside seat's legal moves in moves[:n] (the
    engine's order; `current_player` is the seat), or 0 when the game is over.
    `cashed` (`new_cashed`) and `discard` (`new_discard`) are written down as moves
    are made (`apply_recorded`), and each trick's scores into `progress`; each turn is
    counted in `decisions` (games/progress.py's TURNS, CHOICES).
    """
    while state[PHASE] != OVER:
        n = legal(state, tables, moves)
        decisions[TURNS] += 1
        if n == 1:
            action = moves[0]
        else:
            decisions[CHOICES] += 1
            seat = current_player(state)
            kind = plan[PLAN_KIND + seat]
            if kind == BOT_OUTSIDE:
                return n
            action = _choose(
                state, tables, streams, kind, params, plan[PLAN_PARAMS + seat],
                moves, n, iwork, fwork,
            )  # fmt: skip
        apply_recorded(state, tables, streams, action, cashed, discard, progress)
    return 0


# One int64 buffer holds every array of a stepped game, so the call Python
# makes at each outside decision passes one array (numba checks each argument
# it is handed: ten arrays cost about 2 µs a call, one about 0.5). Its header
# is (start, stop) of each block; the uint64 streams and the float64 blocks
# are the buffer's bytes seen as those types.
B_STATE, B_TABLES, B_MOVES, B_IWORK, B_PLAN, B_CASHED = 0, 2, 4, 6, 8, 10
B_STREAMS, B_PARAMS, B_FWORK, B_HELD = 12, 14, 16, 18
B_AHEAD = 20  # the first AHEAD numbers of each outside seat's bot stream, drawn at the deal
B_DISCARD = 22
B_PROGRESS = 24  # each trick's scores, a row of seats a trick (GameRecord.progress)
B_DECISIONS = 26  # the game's turns and choices (GameRecord.decisions)
B_HELD_WORDS = 28  # GameRecord.held's words per seat
B_HEADER = 29
AHEAD = 48
"""Numbers of an outside seat's bot stream drawn ahead at the deal, for its plugin's
rng (sim/kernel_step.py): a Python draw costs a microsecond of big-integer arithmetic,
a compiled one nanoseconds. About a game's worth of a uniform plugin's draws at five
players; more are drawn by the plugin's rng itself."""

STEP_ON, STEP_APPLY, STEP_DEAL = 0, 1, 2  # step()'s modes


@outermost
def step(buf: np.ndarray, mode: int, action: int, seed: int, game: int) -> int:
    """Python's entry to `advance_to_outside` over a step buffer (`StepGame` makes it).

    `mode` STEP_DEAL first deals game `game` of `seed` (streams, cashed and discard
    records and the held-kinds words reset); STEP_APPLY first plays `action` for the
    outside seat to act; STEP_ON only plays on. Returns n * 8 + seat at an
    outside decision (n >= 2 moves in the moves block, seat to act), or 0
    when the game is over.
    """
    state, tables, moves = block(buf, B_STATE), block(buf, B_TABLES), block(buf, B_MOVES)
    iwork, plan, cashed = block(buf, B_IWORK), block(buf, B_PLAN), block(buf, B_CASHED)
    discard = block(buf, B_DISCARD)
    rows = block(buf, B_PROGRESS)
    progress = rows.reshape((rows.shape[0] // state[PLAYERS], state[PLAYERS]))
    decisions = block(buf, B_DECISIONS)
    streams = stream_block(buf, B_STREAMS)
    params = block(buf, B_PARAMS).view(np.float64)
    fwork = block(buf, B_FWORK).view(np.float64)
    if mode == STEP_DEAL:
        start_game(state, tables, streams, seed, game)
        held = block(buf, B_HELD).view(np.uint64)
        _deal_records(state, tables, cashed, discard, held, buf[B_HELD_WORDS])
        decisions[:] = 0
        kinds = plan[PLAN_KIND : PLAN_KIND + state[PLAYERS]]
        draw_ahead(streams, kinds, BOT_OUTSIDE, block(buf, B_AHEAD).view(np.uint64), AHEAD)
    elif mode == STEP_APPLY:
        apply_recorded(state, tables, streams, action, cashed, discard, progress)
    n = advance_to_outside(
        state, tables, streams, plan, params, moves, iwork, fwork, cashed, discard, progress,
        decisions,
    )  # fmt: skip
    if n == 0:
        return 0
    return n * 8 + current_player(state)


@inlined
def _deal_records(
    state: np.ndarray,
    tables: np.ndarray,
    cashed: np.ndarray,
    discard: np.ndarray,
    held: np.ndarray,
    words: int,
) -> None:
    """After a deal: nothing cashed nor discarded yet, and the held kinds of the hands dealt."""
    for i in range(cashed.shape[0]):
        cashed[i] = 0
    discard[0] = 0
    held_at_deal(state, tables, held, words)


class StepGame(StepBuffer):
    """Games of one (rules, players) stepped from Python, one after another in one buffer.

    `slots[j]` is bot slot j's compiled bot, (name, parameters), or None for a
    slot whose decisions are made outside (a plugin). Each game is dealt with
    `deal(seed, game, seat_slots)` (seat_slots[s]: the slot sitting at physical
    seat s); `deal` and `play` return the step code of `step` (n * 8 + seat
    at an outside decision, 0 at the end); `legal(code)` is that decision's
    moves as the Python engine lists them (Python ints, its order), `view(seat)`
    the seat's View exactly as `rules.State.view` gives it, and `record()` the
    finished game's GameRecord, held kinds included.
    """

    def _build(self) -> None:
        rules, players, slots = self.rules, self.players, self.slots
        self._deck, self._money = fdc._tables(rules)  # the engine's own objects, for views
        self._uncashed = rules["uncashed_value"]
        self._fish = frozenset(c for c in range(self._deck.size) if self._deck.role[c] == fdc.FISH)
        tables = make_tables(rules, players)
        state = new_state(tables)
        iwork, fwork = new_work(state)
        params = np.zeros(players * N_PARAMS, np.float64)
        for j, slot in enumerate(slots):
            if slot is not None:
                params[j * N_PARAMS : (j + 1) * N_PARAMS] = bot_params(slot[0], slot[1])
        words = held_words(self._deck.size // self._deck.copies)
        kinds = [BOT_OUTSIDE if slot is None else BOT_KINDS[slot[0]] for slot in slots]
        self._plans_for(kinds, N_PARAMS, PLAN_KIND, PLAN_PARAMS, PLAN_SIZE)
        blocks = [
            state,
            tables,
            new_legal(state),
            iwork,
            np.zeros(PLAN_SIZE, np.int64),
            new_cashed(state),
            new_streams(players).view(np.int64).ravel(),
            params.view(np.int64),
            fwork.view(np.int64),
            np.zeros(players * words, np.int64),
            np.zeros(players * AHEAD, np.int64),
            new_discard(state),
            # A game has at most a trick per card (chunk.py's progress, the same size).
            np.zeros(self._deck.size * players, np.int64),
            np.zeros(DECISION_WORDS, np.int64),
        ]
        assert len(blocks) * 2 == B_HELD_WORDS  # block i's (start, stop) at 2i, 2i + 1
        self._pack(blocks, B_HEADER)
        self.buf[B_HELD_WORDS] = words
        block = self._block

        # Views of the buffer, for reading (and the plan for writing) from Python.
        self.state = block(B_STATE)
        self.tables = block(B_TABLES)
        # Sliced and listed at every decision: a memoryview is the quickest to.
        self.moves = memoryview(block(B_MOVES))  # type: ignore[arg-type]
        self.plan = block(B_PLAN)
        self.cashed = block(B_CASHED)
        self.discard = block(B_DISCARD)
        self.progress = block(B_PROGRESS).reshape(-1, players)
        self.decisions = block(B_DECISIONS)
        self.held = block(B_HELD).view(np.uint64)
        self.streams = block(B_STREAMS).view(np.uint64).reshape(players + 1, 2)
        self.ahead = block(B_AHEAD).view(np.uint64)  # AHEAD per seat, after each deal

    # The entry `deal` and `play` call; a loop that writes `play` out (sim/kernel_step.py)
    # calls step(buf, STEP_APPLY, action, 0, 0) itself.
    step = staticmethod(step)
    STEP_DEAL = STEP_DEAL
    STEP_APPLY = STEP_APPLY
    STEP_ON = STEP_ON

    def load(self, py: fdc.State, seat_slots: Sequence[int], seed: int, game: int) -> int:
        """Step from a Python `State`'s position (any, e.g. `State.arranged` or a game
        mid-way), compiled seats drawing from game `game` of `seed`'s bot streams from
        their start; plays on to the first outside decision. Its held kinds are unknown
        (zero), as `from_state` knows no deal."""
        self._check_position(
            py.players, py.rules is self.rules or dict(py.rules) == dict(self.rules)
        )
        state = self.state
        hcap, tcap = int(state[HCAP]), int(state[TCAP])
        if max(len(h) for h in py.hands) > hcap:
            raise ValueError(f"a hand of the position holds more than {hcap} cards")
        other, _ = from_state(py)
        layout = state[PLAYERS : DECK + 1].copy()  # this buffer's own block offsets
        state[:HANDS] = other[:HANDS]
        state[PLAYERS : DECK + 1] = layout
        o_terr, o_pile = int(state[O_TERR]), int(state[O_PILE])
        for k in range(self.players):  # the lists, laid out as this buffer lays them
            state[HANDS + k * hcap : HANDS + k * hcap + len(py.hands[k])] = py.hands[k]
            state[o_terr + k * tcap : o_terr + k * tcap + len(py.territory[k])] = py.territory[k]
        state[o_pile : o_pile + len(py.pile)] = py.pile
        self.cashed[:] = cashed_of(py)
        self.discard[:] = discard_of(py)
        self.held[:] = 0
        # fdc draws chance only at the deal: the State keeps no stream to go on from.
        return self._play_on_from(seat_slots, seed, game, None)

    def view(self, seat: int) -> fdc.View:
        """`rules.State.view(seat)` of the position, field for field."""
        s: list[int] = self.state.tolist()
        players, hcap, tcap, o_terr = s[PLAYERS], s[HCAP], s[TCAP], s[O_TERR]
        phase, turn = s[PHASE], s[TURN]
        hand = HANDS + seat * hcap
        territories = tuple(
            tuple(s[o_terr + k * tcap : o_terr + k * tcap + s[TLEN + k]]) for k in range(players)
        )
        # The recall records, as lists: each seat's cashed cards from MAXP + k * D.
        cashed: list[int] = self.cashed.tolist()
        discard: list[int] = self.discard.tolist()
        starts = range(MAXP, MAXP + players * self._deck.size, self._deck.size)
        mine = starts[seat]
        dash = phase == DASH_CHOICE
        to_resolve: tuple[tuple[int, int], ...] = ()
        if dash:  # the cards still to resolve after this dash
            qat, qlen = s[QAT], s[QLEN]
            queue = s[QSEAT + qat + 1 : QSEAT + qlen], s[QCARD + qat + 1 : QCARD + qlen]
            to_resolve = tuple(zip(*queue, strict=True))
        # The engine's fish played this trick: set when the trick's plays are
        # sorted out, emptied when it ends, so only a dash choice sees any.
        played = [c for c in s[PCARD : PCARD + turn] if c in self._fish] if dash else ()
        return fdc._new_view(
            seat,
            phase,
            tuple(s[hand : hand + s[HLEN + seat]]),
            s[LEADER],
            tuple(zip(s[PSEAT : PSEAT + turn], s[PCARD : PCARD + turn], strict=True)),
            territories,
            tuple(s[CCOUNT : CCOUNT + players]),
            tuple(cashed[mine : mine + cashed[seat]]),
            tuple(s[HLEN : HLEN + players]),
            s[PILE_LEN],
            to_resolve,
            tuple(k for k in range(players) if s[PROT + k]),
            frozenset(played),
            s[TRICKS],
            self.rules,
            self._deck,
            self._money,
            tuple(discard[1 : 1 + discard[0]]),
            tuple(tuple(cashed[at : at + cashed[k]]) for k, at in enumerate(starts)),
        )

    def record(self) -> GameRecord:
        """The finished game's record, as `rules.State.record` gives it (held kinds too)."""
        s: list[int] = self.state[:HANDS].tolist()  # the header and per-seat blocks hold it all
        players, extra = s[PLAYERS], self._uncashed
        events = dict(zip(fdc.EVENTS, s[EVENTS : EVENTS + N_EVENTS], strict=True))
        events["fish_uncashed_at_end"] = sum(s[TLEN : TLEN + players])
        return GameRecord(
            tuple(float(s[CMONEY + k] + extra * s[TLEN + k]) for k in range(players)),
            s[TRICKS],
            events,
            tuple(self.held.tolist()),
            self.progress_of(s[TRICKS]),
            decisions=self.decisions_of(),
        )
