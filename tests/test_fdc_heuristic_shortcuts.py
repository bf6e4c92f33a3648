"""The compiled fdc heuristic's shortcuts give the full computation's numbers exactly.

The kernel's heuristic (kernel.py, `_heuristic_play` on) avoids work the
Python bot (bots.py Heuristic) does: a lead card's value in closed form
(`_lead_value`), a foresight without a copy of the territories while at most
two dashes resolve (`_foresee_few_dashes`), a branchless best rival. Each is
checked here against the Python bot's own functions, float for float, on
random positions: territories of every size (equal and unequal money, so
ties between victims and fish come up), survivors in any order, any number
of dashes, two to six players.
"""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from balancer import knobs
from balancer.games.fdc import kernel as K
from balancer.games.fdc import rules as fdc
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
