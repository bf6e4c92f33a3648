"""The rules of Fish! Dash! Cash! as compiled kernels: the deal, legal moves, applying a
move, and a trick's cancelling, ordering and resolution by card effect."""

from __future__ import annotations

import numpy as np

from balancer.games.fdc.kernel.layout import (
    CCOUNT,
    CMONEY,
    COLOUR,
    DASH_CHOICE,
    DECK,
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
    HANDS,
    HCAP,
    HLEN,
    KIND,
    LEADER,
    MAXP,
    MONEY,
    N_EVENTS,
    NEXT_LEADER,
    NORDER,
    NUMBER,
    O_PILE,
    O_TERR,
    ORDER,
    OVER,
    PCARD,
    PHASE,
    PILE_LEN,
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
    T_FIRST_RANDOM,
    T_HAND_SIZE,
    T_LEADER_NEXT,
    T_NEKO,
    T_NEKO_DEDUPE,
    T_NEKO_MIN,
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
from balancer.rng import CHANCE
from balancer.rng_kernels import ZERO, below, init_streams, next_u64, shuffle


@inlined
def _below(streams: np.ndarray, s: int, n: int) -> np.int64:
    """rng.below, draw for draw (tests/kernels/test_fdc_kernel.py checks it): a uniform
    integer in [0, n), n >= 1, redrawing the next_u64 under 2**64 mod n. A copy
    not for want of options but because rng.below is compiled apart with
    Python's error model (its `%` raises on n = 0): from every move of the
    random bot that is a call with an exception path, which brings back the
    reference counting `inlined` avoids."""
    nn = np.uint64(n)
    threshold = (ZERO - nn) % nn
    while True:
        x = next_u64(streams, s)
        if x >= threshold:
            return np.int64(x % nn)


@inlined
def start_game(
    state: np.ndarray, tables: np.ndarray, streams: np.ndarray, seed: int, game: int
) -> None:
    """Set the streams to game `game` of `seed` and deal it (engine.py State.__init__)."""
    init_streams(streams, seed, game)
    deal(state, tables, streams)


@inlined
def deal(state: np.ndarray, tables: np.ndarray, streams: np.ndarray) -> None:
    """Shuffle 0..D-1 on the chance stream, deal, and start the first trick."""
    players = state[PLAYERS]
    d = state[DECK]
    hcap = state[HCAP]
    size = tables[T_HAND_SIZE]
    pile = state[O_PILE]
    for i in range(EVENTS, EVENTS + N_EVENTS):
        state[i] = 0
    for s in range(MAXP):
        state[PROT + s] = 0
        state[CMONEY + s] = 0
        state[CCOUNT + s] = 0
        state[HLEN + s] = 0
        state[TLEN + s] = 0
        state[TWORTH + s] = 0
        state[TMAXM + s] = -1
        state[TMAX2 + s] = -1
    # Shuffle in the pile's own space: cards[0..D) as the engine's list.
    for i in range(d):
        state[pile + i] = i
    shuffle(streams, CHANCE, state[pile : pile + d], d)
    for s in range(players):
        for j in range(size):
            state[HANDS + s * hcap + j] = state[pile + s * size + j]
        state[HLEN + s] = size
    # The rest, reversed: the engine pops its pile from the end, cards[P*size] first.
    rest = d - players * size
    for k in range(rest):
        state[pile + k] = state[pile + players * size + k]
    for k in range(rest >> 1):
        tmp = state[pile + k]
        state[pile + k] = state[pile + rest - 1 - k]
        state[pile + rest - 1 - k] = tmp
    state[PILE_LEN] = rest
    state[QLEN] = 0
    state[QAT] = 0
    state[NEXT_LEADER] = -1
    state[TRICKS] = 0
    state[SOLE] = -1
    first = np.int64(0)
    if tables[T_FIRST_RANDOM] != 0:
        # below() is uint64 when compiled: mixed with int64 it would turn float.
        first = np.int64(below(streams, CHANCE, players))
    state[LEADER] = first
    _start_trick(state, int(first))


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
        seat = state[ORDER + state[TURN]]
        base = HANDS + seat * state[HCAP]
        n = state[HLEN + seat]
        copies = tables[T_COPIES]
        m = 0
        for i in range(n):
            card = state[base + i]
            if copies > 1 and _kind_seen(tables, state, base, i, card):
                continue
            out[m] = card
            m += 1
        return m
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
        turn = state[TURN]
        seat = state[ORDER + turn]
        base = HANDS + seat * state[HCAP]
        n = state[HLEN + seat]
        _remove_at(state, base, n, _index_of(state, base, n, action))
        state[HLEN + seat] = n - 1
        state[PSEAT + turn] = seat
        state[PCARD + turn] = action
        state[TURN] = turn + 1
        if turn + 1 == state[NORDER]:
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
def _kind_seen(tables: np.ndarray, arr: np.ndarray, base: int, upto: int, card: int) -> bool:
    """Whether arr[base : base + upto] holds a copy of `card`."""
    kinds = T_CARDS + KIND * tables[T_DECK]
    kind = tables[kinds + card]
    # Loops, not any(...): compiled code takes no generator expressions.
    for j in range(upto):  # noqa: SIM110
        if tables[kinds + arr[base + j]] == kind:
            return True
    return False


@inlined
def _seat_after(seat: int, k: int, players: int) -> int:
    """(seat + k) % players for 0 <= seat, k < players, without `%`: an integer
    `%` or `//` anywhere in a kernel makes numba keep reference counting (atomic
    calls) around every array passed in its loops, several times slower."""
    s = seat + k
    return s - players if s >= players else s


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
def _index_of(arr: np.ndarray, base: int, n: int, value: int) -> int:
    for i in range(n):
        if arr[base + i] == value:
            return i
    return -1


@inlined
def _remove_at(arr: np.ndarray, base: int, n: int, i: int) -> None:
    """Remove arr[base + i] of a list of n, keeping the order (list.remove)."""
    for j in range(i, n - 1):
        arr[base + j] = arr[base + j + 1]


@inlined
def _in_plays(arr: np.ndarray, pcard: int, n: int, card: int) -> bool:
    for i in range(n):  # noqa: SIM110
        if arr[pcard + i] == card:
            return True
    return False


@inlined
def _start_trick(state: np.ndarray, leader: int) -> None:
    players = state[PLAYERS]
    anyone = False
    for s in range(players):
        if state[HLEN + s] > 0:
            anyone = True
    if not anyone:
        state[PHASE] = OVER
        return
    while state[HLEN + leader] == 0:
        leader = _seat_after(leader, 1, players)
    state[LEADER] = leader
    n = 0
    for k in range(players):
        seat = _seat_after(leader, k, players)
        if state[HLEN + seat] > 0:
            state[ORDER + n] = seat
            n += 1
    state[NORDER] = n
    state[TURN] = 0
    state[PHASE] = PLAY


@inlined
def sort_out(
    tables: np.ndarray,
    src: np.ndarray,
    pseat: int,
    pcard: int,
    n: int,
    dst: np.ndarray,
    sseat: int,
    scard: int,
) -> tuple[int, int, bool]:
    """Cancelling and order (engine.py sort_out) of the n plays at src[pseat..], src[pcard..].

    Writes the survivors in resolution order to dst[sseat..], dst[scard..] and
    returns (survivors, cards cancelled, whether 猫に小判 fired).
    """
    d = tables[T_DECK]
    col = T_CARDS + COLOUR * d
    num = T_CARDS + NUMBER * d
    lead_colour = tables[col + src[pcard]]
    neko = tables[T_NEKO] != 0 and n - 1 >= tables[T_NEKO_MIN]
    if neko:
        for i in range(1, n):
            if tables[col + src[pcard + i]] == lead_colour:
                neko = False
                break
    first = 0
    cancelled = 0
    dedupe = True
    if neko:
        first = 1
        cancelled = 1
        dedupe = tables[T_NEKO_DEDUPE] != 0
    m = 0
    for i in range(first, n):
        card = src[pcard + i]
        if not neko and tables[col + card] != lead_colour:
            cancelled += 1
            continue
        number = tables[num + card]
        if dedupe:
            same = 0
            for j in range(first, n):
                other = src[pcard + j]
                if (neko or tables[col + other] == lead_colour) and tables[num + other] == number:
                    same += 1
            if same > 1:
                cancelled += 1
                continue
        # Insertion after equal numbers keeps play order among them (a stable sort).
        pos = m
        while pos > 0:
            before = tables[num + dst[scard + pos - 1]]
            if (before > number) if neko else (before < number):
                dst[sseat + pos] = dst[sseat + pos - 1]
                dst[scard + pos] = dst[scard + pos - 1]
                pos -= 1
            else:
                break
        dst[sseat + pos] = src[pseat + i]
        dst[scard + pos] = card
        m += 1
    return m, cancelled, neko


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
        victim = _seat_after(seat, k, players)
        if state[PROT + victim] != 0:
            continue
        base = o_terr + victim * tcap
        for i in range(state[TLEN + victim]):
            if not _in_plays(state, PCARD, turn, state[base + i]):
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
        victim = _seat_after(seat, k, players)
        if state[PROT + victim] != 0:
            continue
        base = o_terr + victim * tcap
        first = m
        for i in range(state[TLEN + victim]):
            fish = state[base + i]
            if _in_plays(state, PCARD, turn, fish):  # played this trick: never stealable in it
                continue
            if copies > 1 and _kind_seen(tables, out, first, m - first, fish):
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
        i = _index_of(state, base, n, action)
        if i >= 0:
            _remove_at(state, base, n, i)
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
    if state[NEXT_LEADER] >= 0:
        leader = state[NEXT_LEADER]
    elif tables[T_LEADER_NEXT] == 0:
        leader = state[LEADER]
    else:
        leader = _seat_after(state[LEADER], 1, players)
    pile = state[O_PILE]
    hcap = state[HCAP]
    for k in range(players):
        top = state[PILE_LEN]
        if top == 0:
            break
        seat = _seat_after(leader, k, players)
        state[HANDS + seat * hcap + state[HLEN + seat]] = state[pile + top - 1]
        state[HLEN + seat] += 1
        state[PILE_LEN] = top - 1
    _start_trick(state, leader)


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
