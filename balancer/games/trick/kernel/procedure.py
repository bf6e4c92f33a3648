"""The trick procedure compiled (games/trick/procedure.py, step for step): the deal,
who plays a trick, the moves of a seat to play and playing one, cancelling and
resolution order, the next leader and the draw. Fish! Dash! Cash!'s kernel and the
role games' call these; what a surviving card does is theirs.

What stays with each game, and why it is not folded in here: the start of a trick
(`open_trick` is shared, but which seats sit a trick out is the role games' skip
rule), the end of a trick (each game clears and counts its own words between the
count of tricks and the draw), and the resolution itself (fdc's effects, the role
interpreter's task queue). Those are not the same procedure written twice but two
games' rules around it.
"""

from __future__ import annotations

import numpy as np

from balancer.games.trick.kernel.layout import (
    COLOUR,
    DECK,
    HANDS,
    HCAP,
    HLEN,
    KIND,
    LEADER,
    MAXP,
    NEXT_LEADER,
    NORDER,
    NUMBER,
    O_PILE,
    ORDER,
    OVER,
    PCARD,
    PHASE,
    PILE_LEN,
    PLAY,
    PLAYERS,
    PSEAT,
    SURVIVOR_CARD,
    T_CARDS,
    T_COPIES,
    T_DECK,
    T_FIRST_RANDOM,
    T_HAND_SIZE,
    T_LEADER_NEXT,
    T_NEKO,
    T_NEKO_DEDUPE,
    T_NEKO_MIN,
    TRICKS,
    TURN,
    inlined,
)
from balancer.games.trick.kernel.lists import in_plays, index_of, kind_seen, remove_at, seat_after
from balancer.rng import CHANCE
from balancer.rng_kernels import ZERO, below, shuffle

# -- the deal -------------------------------------------------------------------------


@inlined
def deal(state: np.ndarray, tables: np.ndarray, streams: np.ndarray) -> None:
    """Shuffle 0..D-1 on the chance stream, deal the hands, lay the rest as the pile
    (procedure.deal), pick the first leader and open the first trick. The game's own
    words are the game's to set."""
    players = state[PLAYERS]
    d = state[DECK]
    hcap = state[HCAP]
    size = tables[T_HAND_SIZE]
    pile = state[O_PILE]
    for s in range(MAXP):
        state[HLEN + s] = 0
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
    state[NEXT_LEADER] = -1
    state[TRICKS] = 0
    first = np.int64(0)
    if tables[T_FIRST_RANDOM] != 0:
        # below() is uint64 when compiled: mixed with int64 it would turn float.
        first = np.int64(below(streams, CHANCE, players))
    state[LEADER] = first
    start_trick(state, int(first))


@inlined
def held_at_deal(state: np.ndarray, tables: np.ndarray, held: np.ndarray, words: int) -> None:
    """GameRecord.held (games/api.py pack_held) of the hands just dealt, `words` per
    seat, into held[:players * words]: set bit by bit here, where the hands are,
    rather than from a copy of every hand after the chunk (a numpy pass that cost
    about a tenth of a random game of fdc)."""
    players = state[PLAYERS]
    for i in range(players * words):
        held[i] = ZERO
    kinds = T_CARDS + KIND * tables[T_DECK]
    hcap = state[HCAP]
    for s in range(players):
        for j in range(state[HLEN + s]):
            kind = tables[kinds + state[HANDS + s * hcap + j]]
            w = s * words + (kind >> 6)
            held[w] = held[w] | (np.uint64(1) << np.uint64(kind & 63))


# -- who plays --------------------------------------------------------------------------


@inlined
def holding(state: np.ndarray) -> int:
    """A bit per seat that holds cards."""
    seats = 0
    for s in range(state[PLAYERS]):
        if state[HLEN + s] > 0:
            seats |= 1 << s
    return seats


@inlined
def open_trick(state: np.ndarray, leader: int, seats: int) -> None:
    """A trick of `seats` (a bit per seat, not 0) led by `leader`, or the first of them
    after it (procedure.trick_seats): LEADER, ORDER and NORDER set, nothing played."""
    players = state[PLAYERS]
    while (seats >> leader) & 1 == 0:
        leader = seat_after(leader, 1, players)
    state[LEADER] = leader
    n = 0
    for k in range(players):
        seat = seat_after(leader, k, players)
        if (seats >> seat) & 1 != 0:
            state[ORDER + n] = seat
            n += 1
    state[NORDER] = n
    state[TURN] = 0
    state[PHASE] = PLAY


@inlined
def start_trick(state: np.ndarray, leader: int) -> None:
    """Open the next trick for every seat with cards (`open_trick`), or end the game
    (OVER) when no hand holds a card."""
    seats = holding(state)
    if seats == 0:
        state[PHASE] = OVER
        return
    open_trick(state, leader, seats)


# -- a seat's play ----------------------------------------------------------------------


@inlined
def legal_plays(state: np.ndarray, tables: np.ndarray, out: np.ndarray) -> int:
    """The cards the seat to play may play into out[:n], in hand order, one per kind
    (identical copies are one move); returns n."""
    seat = state[ORDER + state[TURN]]
    base = HANDS + seat * state[HCAP]
    copies = tables[T_COPIES]
    m = 0
    for i in range(state[HLEN + seat]):
        card = state[base + i]
        if copies > 1 and kind_seen(tables, state, base, i, card):
            continue
        out[m] = card
        m += 1
    return m


@inlined
def play_card(state: np.ndarray, card: int) -> bool:
    """The seat to play plays `card` (from its hand, in order, to the trick's plays);
    whether that was the trick's last card."""
    turn = state[TURN]
    seat = state[ORDER + turn]
    base = HANDS + seat * state[HCAP]
    n = state[HLEN + seat]
    remove_at(state, base, n, index_of(state, base, n, card))
    state[HLEN + seat] = n - 1
    state[PSEAT + turn] = seat
    state[PCARD + turn] = card
    state[TURN] = turn + 1
    return turn + 1 == state[NORDER]


# -- cancelling and order ---------------------------------------------------------------


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
    """Cancelling and order (procedure.sort_out) of the n plays at src[pseat..], src[pcard..].

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
def cancelled_pass(
    state: np.ndarray, tables: np.ndarray, i: int, survivors: int, neko: bool
) -> int:
    """Where play i stands in procedure.sort_out's list of cancelled cards, read two
    passes over the plays: 0 in the first pass (the lead under 猫に小判, else an
    off-colour card), 1 in the second (a duplicate), -1 if it survived (it is
    among the `survivors` at SURVIVOR_CARD)."""
    card = state[PCARD + i]
    if in_plays(state, SURVIVOR_CARD, survivors, card):
        return -1
    if neko:
        return 0 if i == 0 else 1
    col = T_CARDS + COLOUR * tables[T_DECK]
    return 0 if tables[col + card] != tables[col + state[PCARD]] else 1


# -- the trick's end --------------------------------------------------------------------


@inlined
def next_leader(state: np.ndarray, tables: np.ndarray) -> int:
    """Step 5 (procedure.next_leader): the first card resolved's owner (NEXT_LEADER),
    else the same leader or the next seat, by the knob."""
    if state[NEXT_LEADER] >= 0:
        return state[NEXT_LEADER]
    if tables[T_LEADER_NEXT] == 0:
        return state[LEADER]
    return seat_after(state[LEADER], 1, state[PLAYERS])


@inlined
def draw_round(state: np.ndarray, leader: int) -> None:
    """Step 6 (procedure.draw_round): from `leader` in seat order each seat draws the
    pile's top card while the pile lasts."""
    players = state[PLAYERS]
    pile = state[O_PILE]
    hcap = state[HCAP]
    for k in range(players):
        top = state[PILE_LEN]
        if top == 0:
            break
        seat = seat_after(leader, k, players)
        state[HANDS + seat * hcap + state[HLEN + seat]] = state[pile + top - 1]
        state[HLEN + seat] += 1
        state[PILE_LEN] = top - 1
