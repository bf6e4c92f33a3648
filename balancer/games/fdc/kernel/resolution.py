"""The rules of Fish! Dash! Cash! as compiled kernels: the deal, legal moves, applying a
move, and a trick's resolution by card effect. The trick procedure (the deal's
shuffle, who plays, a play, cancelling and order, next leader, draw) is the trick
package's (games/trick/kernel/procedure.py); fdc's are its own words around it."""

from __future__ import annotations

import numpy as np

from balancer.games.fdc.kernel.layout import (
    CCOUNT,
    CMONEY,
    DASH_CHOICE,
    E_CANCELLED,
    E_CASH,
    E_CASHED,
    E_LEAD,
    E_NEKO,
    E_PROTECTS,
    E_STEALS,
    E_UNCASHED,
    EFFECT,
    EFFECT_CASH,
    EFFECT_STEAL_OR_PROTECT,
    EFFECT_TERRITORY,
    EVENTS,
    MAXP,
    MONEY,
    N_EVENTS,
    NEXT_LEADER,
    O_TERR,
    ORDER,
    PCARD,
    PHASE,
    PLAY,
    PLAYERS,
    PROT,
    PROTECT,
    PSEAT,
    QAT,
    QCARD,
    QLEN,
    QSEAT,
    SOLE,
    T_CARDS,
    T_COPIES,
    T_DECK,
    T_UNCASHED,
    TCAP,
    TLEN,
    TMAX2,
    TMAXM,
    TRICKS,
    TURN,
    TWORTH,
    inlined,
)
from balancer.games.trick.kernel.lists import in_plays, index_of, kind_seen, remove_at, seat_after
from balancer.games.trick.kernel.procedure import deal as deal_trick
from balancer.games.trick.kernel.procedure import (
    draw_round,
    legal_plays,
    next_leader,
    play_card,
    sort_out,
    start_trick,
)
from balancer.rng_kernels import init_streams


@inlined
def start_game(
    state: np.ndarray, tables: np.ndarray, streams: np.ndarray, seed: int, game: int
) -> None:
    """Set the streams to game `game` of `seed` and deal it (engine.py State.__init__)."""
    init_streams(streams, seed, game)
    deal(state, tables, streams)


@inlined
def deal(state: np.ndarray, tables: np.ndarray, streams: np.ndarray) -> None:
    """fdc's words at their start, then the trick's deal: shuffle 0..D-1 on the chance
    stream, deal, and start the first trick."""
    for i in range(EVENTS, EVENTS + N_EVENTS):
        state[i] = 0
    for s in range(MAXP):
        state[PROT + s] = 0
        state[CMONEY + s] = 0
        state[CCOUNT + s] = 0
        state[TLEN + s] = 0
        state[TWORTH + s] = 0
        state[TMAXM + s] = -1
        state[TMAX2 + s] = -1
    state[QLEN] = 0
    state[QAT] = 0
    state[SOLE] = -1
    deal_trick(state, tables, streams)


@inlined
def current_player(state: np.ndarray) -> int:
    """The seat to act, or -1 when the game is over."""
    phase = state[PHASE]
    if phase == PLAY:
        return state[ORDER + state[TURN]]
    if phase == DASH_CHOICE:
        return state[QSEAT + state[QAT]]
    return -1


@inlined
def legal(state: np.ndarray, tables: np.ndarray, out: np.ndarray) -> int:
    """Fill out[:n] with the legal actions, in the engine's order; return n (0 when over)."""
    phase = state[PHASE]
    if phase == PLAY:
        return legal_plays(state, tables, out)
    if phase == DASH_CHOICE:
        out[0] = PROTECT
        return 1 + _stealable(state, tables, state[QSEAT + state[QAT]], out, 1)
    return 0


@inlined
def apply(state: np.ndarray, tables: np.ndarray, streams: np.ndarray, action: int) -> None:
    """Play `action` (one of `legal`) for the current player; the game runs on to the
    next decision. `streams` is unused after the deal: chance draws only at the start."""
    phase = state[PHASE]
    if phase == PLAY:
        if play_card(state, action):
            _cancel_and_order(state, tables)
            _resolve(state, tables)
    elif phase == DASH_CHOICE:
        seat = state[QSEAT + state[QAT]]
        _dash(state, tables, seat, action)
        state[QAT] += 1
        state[PHASE] = PLAY
        _resolve(state, tables)


@inlined
def write_record(
    state: np.ndarray, tables: np.ndarray, scores: np.ndarray, events: np.ndarray
) -> int:
    """A finished game's per-seat scores and events (SPEC.events order); returns its length."""
    players = state[PLAYERS]
    tcount = 0
    for s in range(players):
        scores[s] = float(state[CMONEY + s] + tables[T_UNCASHED] * state[TLEN + s])
        tcount += state[TLEN + s]
    for i in range(N_EVENTS):
        events[i] = float(state[EVENTS + i])
    events[E_UNCASHED] = float(tcount)
    return state[TRICKS]


# -- a trick, step by step ------------------------------------------------------------


@inlined
def _u(i: int) -> np.uint64:
    """Index `i` (>= 0) as unsigned, as the heuristic indexes its arrays: numba
    wraps a signed index it can't prove non-negative around (a shift, a mask
    and an add of the array's length, which in a function the size of a
    whole game is often reloaded from the stack), and the heuristic's loads
    are chains of data-dependent indices (a seat, its card, the card's
    effect). Only the index's type changes, never a value read."""
    return np.uint64(i)


@inlined
def _cancel_and_order(state: np.ndarray, tables: np.ndarray) -> None:
    m, cancelled, neko = sort_out(tables, state, PSEAT, PCARD, state[TURN], state, QSEAT, QCARD)
    if neko:
        state[EVENTS + E_NEKO] += 1
    state[EVENTS + E_CANCELLED] += cancelled
    state[QLEN] = m
    state[QAT] = 0
    state[NEXT_LEADER] = state[QSEAT] if m > 0 else -1


@inlined
def _resolve(state: np.ndarray, tables: np.ndarray) -> None:
    """Resolve queued cards, dispatching on each card's effect, until a dash needs
    a choice or the trick ends."""
    eff = T_CARDS + EFFECT * tables[T_DECK]
    while state[QAT] < state[QLEN]:
        qat = state[QAT]
        seat = state[QSEAT + qat]
        card = state[QCARD + qat]
        effect = tables[eff + card]
        if effect == EFFECT_TERRITORY:
            _land(state, tables, seat, card)
        elif effect == EFFECT_CASH:
            _cash(state, tables, seat)
        elif effect == EFFECT_STEAL_OR_PROTECT:
            if _has_stealable(state, seat):
                state[PHASE] = DASH_CHOICE
                return
            _dash(state, tables, seat, PROTECT)
        state[QAT] = qat + 1
    _end_trick(state, tables)


@inlined
def _land(state: np.ndarray, tables: np.ndarray, seat: int, card: int) -> None:
    """`card` goes to the end of seat's territory, its money into TWORTH/TMAXM/TMAX2."""
    state[state[O_TERR] + seat * state[TCAP] + state[TLEN + seat]] = card
    state[TLEN + seat] += 1
    value = tables[T_CARDS + MONEY * tables[T_DECK] + card]
    state[TWORTH + seat] += value
    state[TMAX2 + seat] = max(state[TMAX2 + seat], min(state[TMAXM + seat], value))
    state[TMAXM + seat] = max(state[TMAXM + seat], value)


@inlined
def _territory_stats(state: np.ndarray, tables: np.ndarray, seat: int) -> None:
    """TWORTH/TMAXM/TMAX2 of seat's territory worked out from its cards."""
    money = T_CARDS + MONEY * tables[T_DECK]
    base = state[O_TERR] + seat * state[TCAP]
    worth = 0
    richest = -1
    second = -1
    for i in range(state[TLEN + seat]):
        value = tables[money + state[base + i]]
        worth += value
        second = max(second, min(richest, value))
        richest = max(richest, value)
    state[TWORTH + seat] = worth
    state[TMAXM + seat] = richest
    state[TMAX2 + seat] = second


@inlined
def _has_stealable(state: np.ndarray, seat: int) -> bool:
    players = state[PLAYERS]
    o_terr, tcap, turn = state[O_TERR], state[TCAP], state[TURN]
    for k in range(1, players):
        victim = seat_after(seat, k, players)
        if state[PROT + victim] != 0:
            continue
        base = o_terr + victim * tcap
        for i in range(state[TLEN + victim]):
            if not in_plays(state, PCARD, turn, state[base + i]):
                return True
    return False


@inlined
def _stealable(
    state: np.ndarray, tables: np.ndarray, seat: int, out: np.ndarray, start: int
) -> int:
    """Fill out[start..] with the stealable fish, victims from the next seat on, one
    per (victim, kind of card) (engine.py _stealable); return how many."""
    players = state[PLAYERS]
    o_terr, tcap, turn = state[O_TERR], state[TCAP], state[TURN]
    copies = tables[T_COPIES]
    m = start
    for k in range(1, players):
        victim = seat_after(seat, k, players)
        if state[PROT + victim] != 0:
            continue
        base = o_terr + victim * tcap
        first = m
        for i in range(state[TLEN + victim]):
            fish = state[base + i]
            if in_plays(state, PCARD, turn, fish):  # played this trick: never stealable in it
                continue
            if copies > 1 and kind_seen(tables, out, first, m - first, fish):
                continue
            out[m] = fish
            m += 1
    return m - start


@inlined
def _dash(state: np.ndarray, tables: np.ndarray, seat: int, action: int) -> None:
    if action == PROTECT:
        state[PROT + seat] = 1
        state[EVENTS + E_PROTECTS] += 1
        return
    o_terr, tcap = state[O_TERR], state[TCAP]
    for victim in range(state[PLAYERS]):
        base = o_terr + victim * tcap
        n = state[TLEN + victim]
        i = index_of(state, base, n, action)
        if i >= 0:
            remove_at(state, base, n, i)
            state[TLEN + victim] = n - 1
            _territory_stats(state, tables, victim)
            _land(state, tables, seat, action)
            state[EVENTS + E_STEALS] += 1
            return


@inlined
def _cash(state: np.ndarray, tables: np.ndarray, seat: int) -> None:
    money = T_CARDS + MONEY * tables[T_DECK]
    base = state[O_TERR] + seat * state[TCAP]
    n = state[TLEN + seat]
    total = 0
    for i in range(n):
        total += tables[money + state[base + i]]
    state[EVENTS + E_CASH] += 1
    state[EVENTS + E_CASHED] += n
    state[CMONEY + seat] += total
    state[CCOUNT + seat] += n
    state[TLEN + seat] = 0
    state[TWORTH + seat] = 0
    state[TMAXM + seat] = -1
    state[TMAX2 + seat] = -1


@inlined
def _end_trick(state: np.ndarray, tables: np.ndarray) -> None:
    players = state[PLAYERS]
    state[TRICKS] += 1
    for s in range(players):
        state[PROT + s] = 0
    state[QLEN] = 0
    state[QAT] = 0
    _count_lead_change(state)
    leader = next_leader(state, tables)
    draw_round(state, leader)
    start_trick(state, leader)


@inlined
def _count_lead_change(state: np.ndarray) -> None:
    """RULES.md §5 (revised): a change is the sole leader passing from one seat to
    another; the first sole leader ever, a tie and no money count nothing."""
    players = state[PLAYERS]
    best = state[CMONEY]
    seat = 0
    count = 1
    for s in range(1, players):
        money = state[CMONEY + s]
        if money > best:
            best, seat, count = money, s, 1
        elif money == best:
            count += 1
    if best <= 0 or count != 1 or seat == state[SOLE]:
        return
    if state[SOLE] >= 0:
        state[EVENTS + E_LEAD] += 1
    state[SOLE] = seat
