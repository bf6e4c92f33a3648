"""The compiled fdc heuristic's shortcuts give the full computation's numbers exactly.

The kernel's heuristic (kernel.py, `_heuristic_play` on) avoids work the
Python bot (bots.py Heuristic) does: a lead card's value in closed form
(`_lead_value`), a foresight without a copy of the territories while at most
two dashes resolve (`_foresee_few_dashes`), a branchless best rival, a
follower's value in closed form when no dash resolves (`_dashless_value`). Each is
checked here against the Python bot's own functions, float for float, on
random positions: territories of every size (equal and unequal money, so
ties between victims and fish come up), survivors in any order, any number
of dashes, two to six players.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from balancer import knobs
from balancer.games.fdc import engine as fdc
from balancer.games.fdc import kernel as K
from balancer.games.fdc.bots import Heuristic

DEFAULTS = knobs.defaults(fdc.KNOBS)
# Money by count (every fish 1: ties everywhere), by face and face + 1.
RULES = [DEFAULTS, {**DEFAULTS, "cash_value": "face"}, {**DEFAULTS, "cash_value": "face_plus_one"}]
PARAMS = [
    {},
    {"fish_weight": 0.3, "rival_weight": 0.9, "lead_resolves": 0.45, "cash_at": 4},
    {"fish_weight": 0.8, "rival_weight": 0.1, "lead_resolves": 1.0, "cash_at": 0},
    {"fish_weight": 0.0, "rival_weight": 1.0, "lead_resolves": 0.0, "cash_at": 1},
]


@st.composite
def positions(draw: Any) -> tuple[dict[str, Any], fdc.State, list[tuple[int, int]], list[int]]:
    """(params, a position at the start of a trick, survivors, the leader's hand):
    random territories of fish, and survivors (one card per seat at most, any
    role, none from a territory) in any order."""
    rules = RULES[draw(st.integers(0, len(RULES) - 1))]
    params = PARAMS[draw(st.integers(0, len(PARAMS) - 1))]
    players = draw(st.integers(2, 6))
    deck = fdc.deck_for(rules)
    cards = draw(st.permutations(range(deck.size)))
    fish = [c for c in cards if deck.role[c] == fdc.FISH]
    territory = []
    for _ in range(players):
        k = draw(st.integers(0, 4))
        territory.append(fish[:k])
        fish = fish[k:]
    used = {c for t in territory for c in t}
    free = [c for c in cards if c not in used]
    hand = free[: draw(st.integers(1, 5))]
    free = free[len(hand) :]
    hands = [hand] + [[free.pop()] for _ in range(players - 1)]
    seats = draw(st.permutations(range(players)))
    m = draw(st.integers(0, players))
    survivors = [(seat, free.pop()) for seat in seats[:m]]
    py = fdc.State.arranged(rules, hands, territory=territory)
    return params, py, survivors, hand


def prepared(py: fdc.State) -> tuple[Any, Any, Any, Any]:
    state, tables = K.from_state(py)
    iwork, fwork = K.new_work(state)
    K._prepare_play(state, tables, iwork)
    return state, tables, iwork, fwork


@settings(max_examples=400, deadline=None)
@given(positions())
def test_a_foresight_without_territory_copies_is_the_full_one(case: Any) -> None:
    params, py, survivors, _ = case
    state, tables, iwork, fwork = prepared(py)
    for i, (seat, card) in enumerate(survivors):
        iwork[K.W_SSEAT + i], iwork[K.W_SCARD + i] = seat, card
    iwork[K.W_SLEN] = len(survivors)
    row = K.bot_params("heuristic", params)
    bot = Heuristic(**params)
    view = py.view(0)
    gains = bot._foresee(view, survivors, view.money)
    dashes = sum(py.deck.role[c] == fdc.DASH for _, c in survivors)
    few = K._foresee_few_dashes(state, tables, row, 0, len(survivors), iwork, fwork)
    assert few == (dashes <= 2)
    if few:
        assert [float(x) for x in fwork[: py.players]] == gains
    K._foresee(state, tables, row, 0, len(survivors), iwork, fwork)
    assert [float(x) for x in fwork[: py.players]] == gains
    for me in range(py.players):
        rivals = [g for s, g in enumerate(gains) if s != me]
        value = K._foreseen_value(state, tables, row, 0, me, iwork, fwork)
        assert value == gains[me] - bot.rival_weight * max(rivals)


@settings(max_examples=300, deadline=None)
@given(positions())
def test_a_lead_cards_closed_form_value_is_the_bots(case: Any) -> None:
    params, py, _, hand = case
    state, tables, iwork, _ = prepared(py)
    row = K.bot_params("heuristic", params)
    bot = Heuristic(**params)
    view = py.view(0)
    assert py.current_player() == 0 and not view.trick
    for card in hand:
        value = K._lead_value(state, tables, row, 0, 0, card, iwork)
        assert value == bot._card_value(view, card, view.money)


def test_hand_made_two_dashes_the_second_takes_the_first_thiefs_catch() -> None:
    """Worked out by hand (3 players, money by face, fish_weight 0.5): seat 1
    holds fish 9 and 1, seat 2 fish 5. Seat 0's dash 8 resolves first and takes
    fish 9 from seat 1 (worth 10 against 5); then seat 2's dash 3 looks at seat 0
    (worth 9, richest 9) and seat 1 (worth 1): it takes the 9 back from seat 0.
    Gains: seat 0 +4.5 -4.5 = 0.0, seat 1 -4.5, seat 2 +4.5."""
    rules = {**DEFAULTS, "cash_value": "face"}

    def c(text: str) -> int:
        return fdc.parse(text, rules)

    py = fdc.State.arranged(
        rules,
        [[c("red cash 0")], [c("red cash 1")], [c("red cash 2")]],
        territory=[[], [c("red fish 9"), c("blue fish 1")], [c("blue fish 5")]],
    )
    state, tables, iwork, fwork = prepared(py)
    survivors = [(0, c("red dash 8")), (2, c("blue dash 3"))]
    for i, (seat, card) in enumerate(survivors):
        iwork[K.W_SSEAT + i], iwork[K.W_SCARD + i] = seat, card
    row = K.bot_params("heuristic", {"fish_weight": 0.5})
    assert K._foresee_few_dashes(state, tables, row, 0, 2, iwork, fwork)
    assert [float(x) for x in fwork[:3]] == [0.0, -4.5, 4.5]


# Rules where the trick sorts out differently: 猫に小判 off, after one follower,
# without cancelling duplicates; two copies of each card (equal numbers and
# colours in one trick), three colours.
TRICK_RULES = [
    DEFAULTS,
    {**DEFAULTS, "neko_min_followers": 1, "neko_cancel_duplicates": False},
    {**DEFAULTS, "neko_ni_koban": False},
    {**DEFAULTS, "deck": fdc._check_deck({"numbers": [0, 3], "copies": 2})},
    {**DEFAULTS, "deck": fdc._check_deck({"colours": ["red", "blue", "green"], "numbers": [1, 2]})},
]


@st.composite
def tricks(draw: Any) -> fdc.State:
    """A position part-way through a trick: 2 to 6 players, 0 to all but one
    of them have played, the one to play holds 1 to 6 cards."""
    rules = TRICK_RULES[draw(st.integers(0, len(TRICK_RULES) - 1))]
    players = draw(st.integers(2, 6))
    deck = fdc.deck_for(rules)
    cards = list(draw(st.permutations(range(deck.size))))
    turn = draw(st.integers(0, players - 1))
    hands = [[cards.pop()] for _ in range(players)]
    hands[turn] += [cards.pop() for _ in range(draw(st.integers(0, 5)))]
    py = fdc.State.arranged(rules, hands)
    for _ in range(turn):
        py.apply_action(py.hands[py.current_player()][0])
    return py


@settings(max_examples=400, deadline=None)
@given(tricks())
def test_placing_a_candidate_in_the_sorted_trick_is_sort_out(py: fdc.State) -> None:
    """`_place`'s survivors (from the lists `_prepare_play` sorts out once per
    decision) are the kernel's sort_out of the trick with the candidate, for
    every candidate `_place` is asked about: any card when leading, a lead-colour
    card, an off-colour card when 猫に小判 would fire."""
    state, tables = K.from_state(py)
    iwork, _ = K.new_work(state)
    neko = K._prepare_play(state, tables, iwork)
    seat = py.current_player()
    turn = len(py.plays)
    colour = py.deck.colour
    lead = colour[py.plays[0][1]] if turn else -1
    plays = np.zeros(2 * K.MAXP, np.int64)
    for i, (s, card) in enumerate(py.plays):
        plays[i], plays[K.MAXP + i] = s, card
    for card in py.hands[seat]:
        if turn and colour[card] != lead and not neko:
            continue  # the caller knows it is cancelled
        plays[turn], plays[K.MAXP + turn] = seat, card
        out = np.zeros(2 * K.MAXP, np.int64)
        m, _, _ = K.sort_out(tables, plays, 0, K.MAXP, turn + 1, out, 0, K.MAXP)
        expected = [(int(out[i]), int(out[K.MAXP + i])) for i in range(m)]
        survives = K._place(state, tables, seat, card, lead, iwork)
        placed = [
            (int(iwork[K.W_SSEAT + i]), int(iwork[K.W_SCARD + i])) for i in range(iwork[K.W_SLEN])
        ]
        assert placed == expected
        assert survives == ((seat, card) in expected)


@settings(max_examples=400, deadline=None)
@given(tricks(), st.sampled_from(PARAMS), st.integers(0, 3))
def test_a_trick_without_dashes_is_valued_in_closed_form(
    py: fdc.State, params: dict[str, Any], territory_cards: int
) -> None:
    """When no dash would resolve, `_heuristic_play` values a follower's card
    without placing it or foreseeing the trick (`_dashless_place`,
    `_dashless_value`): the same survival and the same float as `_place` and
    `_foreseen_value`, for every candidate they would be asked about. Each seat
    holds a territory of up to three fish, so a cash gains something."""
    deck = py.deck
    fish = [card for card in range(deck.size) if deck.role[card] == fdc.FISH]
    free = [card for card in fish if all(card not in h for h in py.hands) and
            all(card != c for _, c in py.plays)]  # fmt: skip
    for s in range(py.players):
        py.territory[s] = free[s * territory_cards : (s + 1) * territory_cards]
    state, tables = K.from_state(py)
    iwork, fwork = K.new_work(state)
    neko = K._prepare_play(state, tables, iwork)
    seat = py.current_player()
    if not py.plays:
        return
    row = K.bot_params("heuristic", params)
    lead = deck.colour[py.plays[0][1]]
    in_base = K._dashless_gains(
        state, tables, row, 0, iwork, K.W_BSEAT, K.W_BCARD, iwork[K.W_BLEN], fwork, K.F_BTERM
    )
    in_neko = neko and K._dashless_gains(
        state, tables, row, 0, iwork, K.W_NSEAT, K.W_NCARD, iwork[K.W_NLEN], fwork, K.F_NTERM
    )
    for card in py.hands[seat]:
        in_lead = deck.colour[card] == lead
        if (not in_lead and not neko) or deck.role[card] == fdc.DASH:
            continue
        if not (in_base if in_lead else in_neko):
            continue
        survives, removed = K._dashless_place(state, tables, card, in_lead, iwork)
        mine = K._dashless_gain(state, tables, row, 0, seat, card) if survives else 0.0
        m, at = (iwork[K.W_BLEN], K.F_BTERM) if in_lead else (iwork[K.W_NLEN], K.F_NTERM)
        value = K._dashless_value(state, row, 0, m, removed, mine, fwork, at)
        assert survives == K._place(state, tables, seat, card, lead, iwork)
        assert value == K._foreseen_value(state, tables, row, 0, seat, iwork, fwork)
