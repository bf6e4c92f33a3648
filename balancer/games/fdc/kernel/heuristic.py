"""The heuristic's play (bots.py Heuristic, move for move): each candidate's trick
foreseen, the survivors placed, territories and money as they would stand."""

from __future__ import annotations

import numpy as np

from balancer.games.fdc.kernel.layout import (
    COLOUR,
    EFFECT,
    EFFECT_CASH,
    EFFECT_STEAL_OR_PROTECT,
    EFFECT_TERRITORY,
    F_BTERM,
    F_NTERM,
    MAXP,
    MONEY,
    NUMBER,
    O_TERR,
    P_CASH_AT,
    P_COST,
    P_FISH_WEIGHT,
    P_LEAD_RESOLVES,
    P_RIVAL_WEIGHT,
    PCARD,
    PLAYERS,
    PROT,
    PSEAT,
    T_CARDS,
    T_DECK,
    T_NEKO,
    T_NEKO_DEDUPE,
    T_NEKO_MIN,
    TCAP,
    TLEN,
    TMAX2,
    TMAXM,
    TURN,
    TWORTH,
    W_BCARD,
    W_BLEN,
    W_BSEAT,
    W_NCARD,
    W_NLEN,
    W_NSEAT,
    W_PROT,
    W_RUN,
    W_SCARD,
    W_SLEN,
    W_SSEAT,
    W_TERR,
    W_TLEN,
    inlined,
)
from balancer.games.fdc.kernel.resolution import _u
from balancer.games.trick.kernel.lists import remove_at, seat_after

# -- the heuristic's play: each candidate's trick foreseen --------------------------


@inlined
def _heuristic_play(
    state: np.ndarray,
    tables: np.ndarray,
    params: np.ndarray,
    po: int,
    seat: int,
    moves: np.ndarray,
    n: int,
    iwork: np.ndarray,
    fwork: np.ndarray,
) -> int:
    """bots.py Heuristic._play: the first card of highest value.

    Python sorts out the whole trick again for every candidate card; here what
    the candidates share is worked out once (`_prepare_play`): each territory's
    money and richest fish, and the trick so far sorted out both ways it can
    go (W_BASE: the lead colour's cards; W_NEKO: the followers, when 猫に小判
    would fire on an off-colour card). A candidate then only places itself in
    one of those lists (`_place`), which gives exactly sort_out's survivors,
    and every off-colour card that 猫に小判 can't save shares one foresight.
    A lead card needs no list: its value has a closed form (`_lead_value`);
    nor does a fish or a cash following when no dash would resolve, where
    order changes nothing and each seat gains from its own card alone
    (`_dashless_place`, `_dashless_value`).
    tests/unit/test_fdc_heuristic_shortcuts.py checks each shortcut against the
    full computation.
    """
    d = tables[T_DECK]
    eff = T_CARDS + EFFECT * d
    col = T_CARDS + COLOUR * d
    turn = state[TURN]
    neko_possible = _prepare_play(state, tables, iwork)
    lead_colour = tables[_u(col + state[PCARD])] if turn > 0 else -1
    best = moves[0]
    best_value = -np.inf
    if turn == 0:
        for i in range(n):
            value = _lead_value(state, tables, params, po, seat, moves[_u(i)], iwork)
            if value > best_value:
                best, best_value = moves[_u(i)], value
        return best
    # Whether W_BASE and W_NEKO hold no dash (then each card's gain is in fwork);
    # one call site each, as every inlined site is compiled again.
    base_dashless = False
    neko_dashless = False
    for which in range(2 if neko_possible else 1):
        wseat, wcard, m, fterm = W_BSEAT, W_BCARD, iwork[W_BLEN], F_BTERM
        if which == 1:
            wseat, wcard, m, fterm = W_NSEAT, W_NCARD, iwork[W_NLEN], F_NTERM
        plain = _dashless_gains(state, tables, params, po, iwork, wseat, wcard, m, fwork, fterm)
        if which == 0:
            base_dashless = plain
        else:
            neko_dashless = plain
    shared = 0.0
    shared_known = False
    for i in range(n):
        card = moves[_u(i)]
        effect = tables[_u(eff + card)]
        in_lead_colour = tables[_u(col + card)] == lead_colour
        mine_survives = False
        # Off colour without 猫に小判: cancelled, and the trick resolves as if it
        # had not been played, the same for every such card.
        off = not neko_possible and not in_lead_colour
        if off and shared_known:
            value = shared
        elif (base_dashless if in_lead_colour or off else neko_dashless) and (
            off or effect != EFFECT_STEAL_OR_PROTECT
        ):
            # No dash resolves: each seat gains from its own card alone.
            mine_survives, removed = False, -1
            if not off:
                mine_survives, removed = _dashless_place(state, tables, card, in_lead_colour, iwork)
            mine = 0.0
            if mine_survives:
                mine = _dashless_gain(state, tables, params, po, seat, card)
            m, fterm = iwork[W_NLEN], F_NTERM
            if in_lead_colour or off:
                m, fterm = iwork[W_BLEN], F_BTERM
            value = _dashless_value(state, params, po, m, removed, mine, fwork, fterm)
        else:
            if off:
                _copy_survivors(iwork, W_BSEAT, W_BCARD, iwork[W_BLEN])
                mine_survives = False
            else:
                mine_survives = _place(state, tables, seat, card, lead_colour, iwork)
            value = _foreseen_value(state, tables, params, po, seat, iwork, fwork)
        if off:
            shared, shared_known = value, True
            value -= params[_u(po + P_COST + effect)]
        elif not mine_survives:
            value -= params[_u(po + P_COST + effect)]
        elif effect == EFFECT_CASH and state[_u(TWORTH + seat)] < params[_u(po + P_CASH_AT)]:
            value -= params[_u(po + P_COST + EFFECT_CASH)]  # too early: keep it for later
        if value > best_value:
            best, best_value = card, value
    return best


@inlined
def _lead_value(
    state: np.ndarray,
    tables: np.ndarray,
    params: np.ndarray,
    po: int,
    seat: int,
    card: int,
    iwork: np.ndarray,
) -> float:
    """bots.py Heuristic._card_value of a lead card, in closed form: it resolves
    alone (猫に小判 needs followers) on territories nothing of this trick has
    touched, so the foresight is one card's gain (a fish's money, a cash of
    TWORTH, a dash's steal of the richest untouched territory's richest fish,
    as `_foresee_few_dashes` picks it) and every other seat's 0.0. The float
    operations are `_foresee`'s and `_foreseen_value`'s, in the same order: each
    gain starts from 0.0, and the best rival is 0.0 unless the only rival is
    the dash's victim."""
    d = tables[T_DECK]
    effect = tables[_u(T_CARDS + EFFECT * d + card)]
    weight = params[_u(po + P_FISH_WEIGHT)]
    mine = 0.0
    rival = 0.0
    if effect == EFFECT_TERRITORY:
        mine += weight * float(tables[_u(T_CARDS + MONEY * d + card)])
    elif effect == EFFECT_CASH:
        mine += (1 - weight) * float(state[_u(TWORTH + seat)])
    elif effect == EFFECT_STEAL_OR_PROTECT:
        players = state[PLAYERS]
        victim = -1
        best_worth, best_money = -1, -1
        for k in range(1, players):
            other = seat_after(seat, k, players)
            richest = state[_u(TMAXM + other)]
            if state[_u(PROT + other)] != 0 or richest < 0:
                continue
            worth = state[_u(TWORTH + other)]
            if worth > best_worth or (worth == best_worth and richest > best_money):
                victim, best_worth, best_money = other, worth, richest
        if victim >= 0:  # else it protects: nobody gains
            mine += weight * float(best_money)
            if players == 2:
                rival -= weight * float(best_money)
    value = mine - params[_u(po + P_RIVAL_WEIGHT)] * rival
    value *= params[_u(po + P_LEAD_RESOLVES)]
    if effect == EFFECT_CASH and state[_u(TWORTH + seat)] < params[_u(po + P_CASH_AT)]:
        value -= params[_u(po + P_COST + EFFECT_CASH)]  # too early: keep it for later
    return value


@inlined
def _prepare_play(state: np.ndarray, tables: np.ndarray, iwork: np.ndarray) -> bool:
    """What every candidate of `_heuristic_play` shares; returns whether an
    off-colour card would fire 猫に小判.

    (Per seat, the territory's money and its richest and second richest
    card's money are kept in the state, TWORTH/TMAXM/TMAX2: while cards are
    being played, nothing of this trick has landed, so every territory card
    is stealable and those are what a foreseen dash looks at.)
    W_BASE (W_BLEN long): the lead colour's cards of the trick so far with a
    number no other of them has, in descending number order, and the other
    lead-colour cards (W_BCANCELLED of them) from the end of the W_BCARD block
    back (a trick has fewer than MAXP cards, so the two never meet); W_NEKO (W_NLEN):
    the followers so far (numbers unique among them if duplicates cancel), in
    ascending order, play order among equals.
    """
    d = tables[T_DECK]
    col = T_CARDS + COLOUR * d
    turn = state[TURN]
    iwork[W_BLEN] = 0
    iwork[W_NLEN] = 0
    if turn == 0:
        return False
    lead_colour = tables[_u(col + state[PCARD])]
    followers_off = True
    m = 0
    cancelled = 0
    for i in range(turn):
        card = state[_u(PCARD + i)]
        if tables[_u(col + card)] != lead_colour:
            continue
        if i > 0:
            followers_off = False
        if _count_number(tables, state, PCARD, 0, turn, card, lead_colour, True) > 1:
            cancelled += 1
            iwork[_u(W_BCARD + MAXP - cancelled)] = card
            continue
        m = _insert(tables, iwork, W_BSEAT, W_BCARD, m, state[_u(PSEAT + i)], card, False)
    iwork[W_BLEN] = m
    iwork[W_BCANCELLED] = cancelled
    # With the candidate, `turn` followers will have played.
    neko = tables[T_NEKO] != 0 and turn >= tables[T_NEKO_MIN] and followers_off
    if neko:
        dedupe = tables[T_NEKO_DEDUPE] != 0
        m = 0
        for i in range(1, turn):
            card = state[_u(PCARD + i)]
            if dedupe and _count_number(tables, state, PCARD, 1, turn, card, 0, False) > 1:
                continue
            m = _insert(tables, iwork, W_NSEAT, W_NCARD, m, state[_u(PSEAT + i)], card, True)
        iwork[W_NLEN] = m
    return neko


@inlined
def _count_number(
    tables: np.ndarray,
    arr: np.ndarray,
    pcard: int,
    lo: int,
    hi: int,
    card: int,
    colour: int,
    same_colour: bool,
) -> int:
    """How many of arr[pcard + lo .. pcard + hi) have `card`'s number (and, if
    `same_colour`, colour `colour`)."""
    d = tables[T_DECK]
    col = T_CARDS + COLOUR * d
    num = T_CARDS + NUMBER * d
    number = tables[_u(num + card)]
    count = 0
    for j in range(lo, hi):
        other = arr[_u(pcard + j)]
        if tables[_u(num + other)] == number and (
            not same_colour or tables[_u(col + other)] == colour
        ):
            count += 1
    return count


@inlined
def _insert(
    tables: np.ndarray,
    iwork: np.ndarray,
    wseat: int,
    wcard: int,
    m: int,
    seat: int,
    card: int,
    ascending: bool,
) -> int:
    """Insert (seat, card) into the sorted list of m at iwork[wseat..], iwork[wcard..]
    after every equal number (a stable sort: play order among equals); return m + 1."""
    num = T_CARDS + NUMBER * tables[T_DECK]
    number = tables[_u(num + card)]
    pos = m
    while pos > 0:
        before = tables[_u(num + iwork[_u(wcard + pos - 1)])]
        if (before > number) if ascending else (before < number):
            iwork[_u(wseat + pos)] = iwork[_u(wseat + pos - 1)]
            iwork[_u(wcard + pos)] = iwork[_u(wcard + pos - 1)]
            pos -= 1
        else:
            break
    iwork[_u(wseat + pos)] = seat
    iwork[_u(wcard + pos)] = card
    return m + 1


@inlined
def _copy_survivors(iwork: np.ndarray, wseat: int, wcard: int, m: int) -> None:
    """Make iwork[wseat..], iwork[wcard..] (m long) the survivors `_foresee` reads."""
    for i in range(m):
        iwork[_u(W_SSEAT + i)] = iwork[_u(wseat + i)]
        iwork[_u(W_SCARD + i)] = iwork[_u(wcard + i)]
    iwork[W_SLEN] = m


@inlined
def _place(
    state: np.ndarray,
    tables: np.ndarray,
    seat: int,
    card: int,
    lead_colour: int,
    iwork: np.ndarray,
) -> bool:
    """sort_out(trick + (seat, card)) from `_prepare_play`'s lists: the survivors
    into W_SSEAT/W_SCARD (W_SLEN long); returns whether `card` is among them.

    Leading, the card alone resolves (猫に小判 needs a follower). Following in
    the lead colour, 猫に小判 can't fire: the card joins W_BASE unless a lead-
    colour card has its number (then both cancel, the other only if it was
    alone with that number). Off colour, only when 猫に小判 fires (else the
    caller knows it is cancelled): it joins W_NEKO, numbers cancelling alike
    if duplicates cancel.
    """
    d = tables[T_DECK]
    col = T_CARDS + COLOUR * d
    turn = state[TURN]
    if turn == 0:
        iwork[W_SSEAT] = seat
        iwork[W_SCARD] = card
        iwork[W_SLEN] = 1
        return True
    if tables[_u(col + card)] == lead_colour:
        return _place_in_lead_colour(tables, iwork, seat, card)
    same = 0
    if tables[T_NEKO_DEDUPE] != 0:
        same = _count_number(tables, state, PCARD, 1, turn, card, 0, False)
    return _place_in(tables, iwork, W_NSEAT, W_NCARD, iwork[W_NLEN], seat, card, same, True)


# How many lead-colour cards of the trick so far were cancelled (`_prepare_play`).
W_BCANCELLED = W_NLEN + 1


@inlined
def _place_in_lead_colour(tables: np.ndarray, iwork: np.ndarray, seat: int, card: int) -> bool:
    """`_place` of a lead-colour card, in one walk down W_BASE (descending,
    numbers unique): a card there with its number cancels with it (its number
    was alone), one of the cancelled lead-colour cards with its number means it
    alone cancels (the list stays), and otherwise it goes in before the first
    lower number, after every higher one (the order `_insert` gives)."""
    num = T_CARDS + NUMBER * tables[T_DECK]
    number = tables[_u(num + card)]
    m = iwork[W_BLEN]
    p = 0
    while p < m and tables[_u(num + iwork[_u(W_BCARD + p)])] > number:
        iwork[_u(W_SSEAT + p)] = iwork[_u(W_BSEAT + p)]
        iwork[_u(W_SCARD + p)] = iwork[_u(W_BCARD + p)]
        p += 1
    if p < m and tables[_u(num + iwork[_u(W_BCARD + p)])] == number:
        for i in range(p + 1, m):
            iwork[_u(W_SSEAT + i - 1)] = iwork[_u(W_BSEAT + i)]
            iwork[_u(W_SCARD + i - 1)] = iwork[_u(W_BCARD + i)]
        iwork[W_SLEN] = m - 1
        return False
    survives = True
    for j in range(1, iwork[W_BCANCELLED] + 1):
        if tables[_u(num + iwork[_u(W_BCARD + MAXP - j)])] == number:
            survives = False
    at = p
    if survives:
        iwork[_u(W_SSEAT + p)] = seat
        iwork[_u(W_SCARD + p)] = card
        at = p + 1
    for i in range(p, m):
        iwork[_u(W_SSEAT + at + i - p)] = iwork[_u(W_BSEAT + i)]
        iwork[_u(W_SCARD + at + i - p)] = iwork[_u(W_BCARD + i)]
    iwork[W_SLEN] = m + (at - p)
    return survives


@inlined
def _place_in(
    tables: np.ndarray,
    iwork: np.ndarray,
    wseat: int,
    wcard: int,
    m: int,
    seat: int,
    card: int,
    same: int,
    ascending: bool,
) -> bool:
    """The survivors when (seat, card) meets the sorted list at iwork[wseat..]
    whose cards share its number `same` times (0 when duplicates don't cancel)."""
    if same == 0:
        _copy_survivors(iwork, wseat, wcard, m)
        iwork[W_SLEN] = _insert(tables, iwork, W_SSEAT, W_SCARD, m, seat, card, ascending)
        return True
    num = T_CARDS + NUMBER * tables[T_DECK]
    number = tables[_u(num + card)]
    k = 0
    for i in range(m):
        if same == 1 and tables[_u(num + iwork[_u(wcard + i)])] == number:
            continue  # it was alone with that number: the two cancel
        iwork[_u(W_SSEAT + k)] = iwork[_u(wseat + i)]
        iwork[_u(W_SCARD + k)] = iwork[_u(wcard + i)]
        k += 1
    iwork[W_SLEN] = k
    return False


@inlined
def _foreseen_value(
    state: np.ndarray,
    tables: np.ndarray,
    params: np.ndarray,
    po: int,
    seat: int,
    iwork: np.ndarray,
    fwork: np.ndarray,
) -> float:
    """bots.py Heuristic._card_value's `gains[seat] - rival_weight * max(rivals)` for
    the survivors in W_SSEAT/W_SCARD, operation for operation (the same float order)."""
    m = iwork[W_SLEN]
    if not _foresee_few_dashes(state, tables, params, po, m, iwork, fwork):
        _foresee(state, tables, params, po, m, iwork, fwork)
    # max(rivals): equal gains are equal floats (0.0 and -0.0 aside, which give
    # the same value up to its zero's sign, and comparisons ignore that), so a
    # branchless max over the other seats is Python's first-maximal pick.
    players = state[PLAYERS]
    rival = -np.inf
    for k in range(1, players):
        rival = max(rival, fwork[_u(seat_after(seat, k, players))])
    return fwork[_u(seat)] - params[_u(po + P_RIVAL_WEIGHT)] * rival


@inlined
def _dashless_gain(
    state: np.ndarray, tables: np.ndarray, params: np.ndarray, po: int, seat: int, card: int
) -> float:
    """A fish's or a cash's gain to its owner `seat` in a foreseen trick without a
    dash, as `_foresee_few_dashes` adds it to the seat's 0.0 (0.0 + x is x, up
    to a zero's sign, which no comparison sees): nothing else of the trick
    touches its territory."""
    d = tables[T_DECK]
    weight = params[_u(po + P_FISH_WEIGHT)]
    if tables[_u(T_CARDS + EFFECT * d + card)] == EFFECT_TERRITORY:
        return weight * float(tables[_u(T_CARDS + MONEY * d + card)])
    return (1 - weight) * float(state[_u(TWORTH + seat)])


@inlined
def _dashless_gains(
    state: np.ndarray,
    tables: np.ndarray,
    params: np.ndarray,
    po: int,
    iwork: np.ndarray,
    wseat: int,
    wcard: int,
    m: int,
    fwork: np.ndarray,
    fterm: int,
) -> bool:
    """Whether the list of m at iwork[wseat..], iwork[wcard..] holds no dash; if so
    each card's gain to its owner (`_dashless_gain`) at fwork[fterm..]."""
    eff = T_CARDS + EFFECT * tables[T_DECK]
    for i in range(m):
        card = iwork[_u(wcard + i)]
        if tables[_u(eff + card)] == EFFECT_STEAL_OR_PROTECT:
            return False
        fwork[_u(fterm + i)] = _dashless_gain(state, tables, params, po, iwork[_u(wseat + i)], card)
    return True


@inlined
def _dashless_place(
    state: np.ndarray, tables: np.ndarray, card: int, in_lead_colour: bool, iwork: np.ndarray
) -> tuple[bool, int]:
    """`_place` for a trick without a dash, where order changes nothing: whether
    `card` survives, and the index of the card of W_BASE (in the lead colour)
    or W_NEKO (off it, 猫に小判 firing) that cancels with it (-1: none)."""
    num = T_CARDS + NUMBER * tables[T_DECK]
    number = tables[_u(num + card)]
    if in_lead_colour:
        for i in range(iwork[W_BLEN]):
            if tables[_u(num + iwork[_u(W_BCARD + i)])] == number:
                return False, i  # it was alone with that number: the two cancel
        for j in range(1, iwork[W_BCANCELLED] + 1):
            if tables[_u(num + iwork[_u(W_BCARD + MAXP - j)])] == number:
                return False, -1
        return True, -1
    if tables[T_NEKO_DEDUPE] == 0:
        return True, -1
    same = _count_number(tables, state, PCARD, 1, state[TURN], card, 0, False)
    if same == 0:
        return True, -1
    if same > 1:
        return False, -1
    for i in range(iwork[W_NLEN]):
        if tables[_u(num + iwork[_u(W_NCARD + i)])] == number:
            return False, i
    return False, -1


@inlined
def _dashless_value(
    state: np.ndarray,
    params: np.ndarray,
    po: int,
    m: int,
    removed: int,
    mine: float,
    fwork: np.ndarray,
    fterm: int,
) -> float:
    """`_foreseen_value` of a trick without a dash: the list's cards but
    `removed` resolve, each its owner's (a rival's) whole gain, with `mine` the
    bot's own; rivals without a card gain 0.0. The best rival is the same value
    whatever order max() meets the gains in (0.0 and -0.0 aside, equal to it)."""
    rival = -np.inf
    k = 0
    for i in range(m):
        if i != removed:
            rival = max(rival, fwork[_u(fterm + i)])
            k += 1
    if k < state[PLAYERS] - 1:
        rival = max(rival, 0.0)
    return mine - params[_u(po + P_RIVAL_WEIGHT)] * rival


# `_foresee_few_dashes` keeps, per seat, the money of the richest card a dash
# could take from its territory now (-1: none, or protected) where `_foresee`
# reads the foreseen territories.
W_RICH = W_PROT


@inlined
def _foresee_few_dashes(
    state: np.ndarray,
    tables: np.ndarray,
    params: np.ndarray,
    po: int,
    m: int,
    iwork: np.ndarray,
    fwork: np.ndarray,
) -> bool:
    """`_foresee` without a copy of the territories while at most two dashes
    resolve; False (fwork unfinished) at a third.

    Each seat plays at most one card a trick, so once its own card has resolved
    a territory changes only by being stolen from. Before the first dash,
    territories only grew by landed cards (never stealable this trick) or were
    emptied by a cash: the richest stealable card of each is its richest card
    (TMAXM), or none once cashed. A steal moves that card: the victim's next
    richest is its second richest (TMAX2; the first victim has stolen
    nothing), the thief's the richer of its own and the stolen card. That is
    all a second dash looks at; a dash with no target protects its owner,
    which keeps the second dash out (a protected territory has none: -1).
    Dashes key territories by the foreseen money (W_RUN) and richest card,
    victims from the next seat on, as `_richest_fish` does; only money moves,
    so which of two equal cards is taken changes nothing. The float operations
    are `_foresee`'s, in order.
    """
    players = state[PLAYERS]
    d = tables[T_DECK]
    eff = T_CARDS + EFFECT * d
    money = T_CARDS + MONEY * d
    weight = params[_u(po + P_FISH_WEIGHT)]
    for s in range(players):
        iwork[_u(W_RUN + s)] = state[_u(TWORTH + s)]
        iwork[_u(W_RICH + s)] = -1 if state[_u(PROT + s)] != 0 else state[_u(TMAXM + s)]
        fwork[_u(s)] = 0.0
    dashes = 0
    for i in range(m):
        seat = iwork[_u(W_SSEAT + i)]
        card = iwork[_u(W_SCARD + i)]
        effect = tables[_u(eff + card)]
        if effect == EFFECT_TERRITORY:
            iwork[_u(W_RUN + seat)] += tables[_u(money + card)]
            fwork[_u(seat)] += weight * float(tables[_u(money + card)])
        elif effect == EFFECT_CASH:
            fwork[_u(seat)] += (1 - weight) * float(iwork[_u(W_RUN + seat)])
            iwork[_u(W_RUN + seat)] = 0
            iwork[_u(W_RICH + seat)] = -1
        elif effect == EFFECT_STEAL_OR_PROTECT:
            dashes += 1
            if dashes > 2:
                return False
            victim = -1
            best_worth, best_money = -1, -1
            for k in range(1, players):
                other = seat_after(seat, k, players)
                richest = iwork[_u(W_RICH + other)]
                if richest < 0:
                    continue
                worth = iwork[_u(W_RUN + other)]
                if worth > best_worth or (worth == best_worth and richest > best_money):
                    victim, best_worth, best_money = other, worth, richest
            if victim < 0:
                iwork[_u(W_RICH + seat)] = -1  # it protects
                continue
            iwork[_u(W_RUN + victim)] -= best_money
            iwork[_u(W_RUN + seat)] += best_money
            iwork[_u(W_RICH + victim)] = state[_u(TMAX2 + victim)]
            if state[_u(PROT + seat)] == 0:  # protected territories stay out of reach
                iwork[_u(W_RICH + seat)] = max(iwork[_u(W_RICH + seat)], best_money)
            fwork[_u(seat)] += weight * float(best_money)
            fwork[_u(victim)] -= weight * float(best_money)
    return True


@inlined
def _foresee(
    state: np.ndarray,
    tables: np.ndarray,
    params: np.ndarray,
    po: int,
    m: int,
    iwork: np.ndarray,
    fwork: np.ndarray,
) -> None:
    """bots.py Heuristic._foresee: fwork[s] = seat s's gain if the m survivors in
    iwork resolve, in order, on a copy of the territories.

    Only asked while cards are being played (nothing of this trick has landed),
    so the copy's played-this-trick cards (unstealable) are exactly those it
    lands itself: each copied card carries that flag (after the territories,
    at W_TERR + P * TCAP), and each territory its money (W_RUN, an exact
    integer, from TWORTH), so a steal neither scans the plays nor re-adds.
    """
    players = state[PLAYERS]
    tcap = state[TCAP]
    o_terr = state[O_TERR]
    fresh = W_TERR + players * tcap
    d = tables[T_DECK]
    eff = T_CARDS + EFFECT * d
    money = T_CARDS + MONEY * d
    weight = params[_u(po + P_FISH_WEIGHT)]
    for s in range(players):
        n = state[_u(TLEN + s)]
        iwork[_u(W_TLEN + s)] = n
        iwork[_u(W_PROT + s)] = state[_u(PROT + s)]
        iwork[_u(W_RUN + s)] = state[_u(TWORTH + s)]
        for i in range(n):
            iwork[_u(W_TERR + s * tcap + i)] = state[_u(o_terr + s * tcap + i)]
            iwork[_u(fresh + s * tcap + i)] = 0
        fwork[_u(s)] = 0.0
    for i in range(m):
        seat = iwork[_u(W_SSEAT + i)]
        card = iwork[_u(W_SCARD + i)]
        effect = tables[_u(eff + card)]
        mine = seat * tcap
        if effect == EFFECT_TERRITORY:
            at = iwork[_u(W_TLEN + seat)]
            iwork[_u(W_TERR + mine + at)] = card
            iwork[_u(fresh + mine + at)] = 1
            iwork[_u(W_TLEN + seat)] = at + 1
            iwork[_u(W_RUN + seat)] += tables[_u(money + card)]
            fwork[_u(seat)] += weight * float(tables[_u(money + card)])
        elif effect == EFFECT_CASH:
            fwork[_u(seat)] += (1 - weight) * float(iwork[_u(W_RUN + seat)])
            iwork[_u(W_TLEN + seat)] = 0
            iwork[_u(W_RUN + seat)] = 0
        elif effect == EFFECT_STEAL_OR_PROTECT:
            victim, at = _richest_foreseen(tables, iwork, fresh, tcap, players, seat)
            if victim < 0:
                iwork[_u(W_PROT + seat)] = 1
                continue
            theirs = victim * tcap
            fish = iwork[_u(W_TERR + theirs + at)]
            n = iwork[_u(W_TLEN + victim)]
            remove_at(iwork, W_TERR + theirs, n, at)
            remove_at(iwork, fresh + theirs, n, at)
            iwork[_u(W_TLEN + victim)] = n - 1
            mine_at = iwork[_u(W_TLEN + seat)]
            iwork[_u(W_TERR + mine + mine_at)] = fish
            iwork[_u(fresh + mine + mine_at)] = 0  # stolen, not played this trick
            iwork[_u(W_TLEN + seat)] = mine_at + 1
            worth = tables[_u(money + fish)]
            iwork[_u(W_RUN + victim)] -= worth
            iwork[_u(W_RUN + seat)] += worth
            fwork[_u(seat)] += weight * float(worth)
            fwork[_u(victim)] -= weight * float(worth)


@inlined
def _richest_foreseen(
    tables: np.ndarray, iwork: np.ndarray, fresh: int, tcap: int, players: int, seat: int
) -> tuple[int, int]:
    """`_richest` on `_foresee`'s copy: territory money from W_RUN, played cards by flag."""
    money = T_CARDS + MONEY * tables[T_DECK]
    best_victim, best_at = -1, -1
    best_worth, best_money = -1, -1
    for k in range(1, players):
        victim = seat_after(seat, k, players)
        worth = iwork[_u(W_RUN + victim)]
        # (worth, money) beats the best only if worth is at least the best's.
        if iwork[_u(W_PROT + victim)] != 0 or worth < best_worth:
            continue
        base = victim * tcap
        for i in range(iwork[_u(W_TLEN + victim)]):
            if iwork[_u(fresh + base + i)] != 0:
                continue
            value = tables[_u(money + iwork[_u(W_TERR + base + i)])]
            if worth > best_worth or value > best_money:
                best_victim, best_at = victim, i
                best_worth, best_money = worth, value
    return best_victim, best_at
