"""Each game's progress (the scores after each step) and how it played, on hand-made games.

Each test lays a game by hand, plays it on the engine and on the kernel, and checks
the rows each keeps (a trick, a round, a deal at a time) and the figures read from
them (stats/how_it_plays.py) against the values worked out by hand in its docstring.
The kernel side calls what the chunk loop calls at the end of each move. That the
chunk loop keeps the same rows as the engine, game for game, is the kernel
conformance check's (tests/kernels/test_kernel_conformance.py).
"""

from __future__ import annotations

import numpy as np

from balancer import games, knobs
from balancer.games.daqizi import engine as dqz
from balancer.games.daqizi.kernel import chunk as dqz_chunk
from balancer.games.daqizi.kernel import layout as dqz_layout
from balancer.games.daqizi.kernel import resolution as dqz_resolution
from balancer.games.fdc import engine as fdc
from balancer.games.fdc.kernel import note_trick
from balancer.games.kimekimera import engine as kk
from balancer.games.kimekimera import kernel as kk_kernel
from balancer.games.roles import gamefile, load_file
from balancer.games.roles.definition import game_knobs
from balancer.games.roles.engine import State as RoleState
from balancer.rng import CHANCE, Stream, bot_stream
from balancer.sim.play import with_figures
from balancer.stats.how_it_plays import FIGURES, NAMES, figures_of


def _same(got: np.ndarray | tuple[float, ...], expected: list[float]) -> None:
    assert np.array_equal(np.asarray(got), np.array(expected), equal_nan=True), dict(
        zip(NAMES, np.asarray(got).tolist(), strict=True)
    )


def _streams(players: int) -> list[Stream]:
    return [Stream(0, 0, bot_stream(seat)) for seat in range(players)]


# -- Fish! Dash! Cash!: a trick at a time --------------------------------------------

FDC_TRICKS = [
    ("red cash 9", "blue dash 5"),
    ("red fish 1", "red cash 6"),
    ("red fish 2", "red cash 3"),
    ("blue fish 0", "blue fish 5"),
    ("red cash 8", "blue dash 7"),
]
# The money after each trick is worked out in tests/unit/test_fdc_rules.py
# (test_a_tie_leaves_the_standing_leader...): 1-0, 1-1, 2-1, 2-1, 2-3. With
# uncashed_value 3 each fish left in a territory adds 3: seat 0's territory holds
# 0, 1, 0, 1, 1 fish after each trick, seat 1's 1, 0, 1, 2, 0.
FDC_ROWS = [(1, 3), (4, 1), (2, 4), (5, 7), (5, 3)]
# Seat 0 wins 5-3. Sole leaders 1, 0, 1, 1, 0: 3 changes. Decided at 5/5 (seat 0
# leads alone only from trick 5). At trick ceil(5/2) = 3 seat 0 is last (2-4): a
# comeback. Seat 0's largest deficit is 2, the widest spread 3 (trick 2): drama
# 2/3. Leaders at tricks 2, 3, 4 (25%, 50%, 75%): seat 0 (won), 1, 1.
FDC_FIGURES = [3, 1.0, 1.0, 2 / 3, 1.0, 0.0, 0.0]


def _fdc_game() -> fdc.State:
    rules = {**knobs.defaults(fdc.KNOBS), "uncashed_value": 3}
    # Each seat's cards of FDC_TRICKS, in the order played (seat 1 leads tricks 3 and 5).
    hands = [
        "red cash 9, red fish 1, red cash 3, blue fish 0, blue dash 7",
        "blue dash 5, red cash 6, red fish 2, blue fish 5, red cash 8",
    ]
    territory = [[fdc.parse("blue fish 9")], [fdc.parse("blue fish 1")]]
    dealt = [[fdc.parse(card) for card in hand.split(", ")] for hand in hands]
    return fdc.State.arranged(rules, dealt, territory=territory)


def test_fdc_engine_keeps_each_tricks_scores_uncashed_fish_counted() -> None:
    state = _fdc_game()
    for trick in FDC_TRICKS:
        for card in trick:
            state.apply_action(fdc.parse(card))
    assert state.is_terminal()
    record = with_figures(state.record(), True)
    assert record.scores == (5.0, 3.0)
    assert record.progress == tuple(FDC_ROWS)
    _same(record.figures, FDC_FIGURES)


def test_fdc_kernel_keeps_each_tricks_scores_uncashed_fish_counted() -> None:
    kernel = games.definition("fish-dash-cash").kernel()
    assert kernel is not None
    position = kernel.from_state(_fdc_game(), _streams(2))
    progress = np.zeros((len(FDC_TRICKS), 2), np.int64)
    tricks = 0
    for trick in FDC_TRICKS:
        for card in trick:
            kernel.apply(position, fdc.parse(card))
            tricks = note_trick(position.state, position.tables, tricks, progress)
    assert kernel.current_player(position) == -1
    assert tricks == len(FDC_TRICKS)
    assert [tuple(row) for row in progress.tolist()] == FDC_ROWS
    _same(figures_of(progress, kernel.scores(position)), FDC_FIGURES)


# -- Kimekimera: a round at a time, several rounds in one move -----------------------

KK_RULES = {
    **knobs.defaults(kk.KNOBS),
    "rounds": 3,
    "colour_bonus": {1: 0, 2: 0},
    "reshuffle_discards": False,
    "rotate_first_player": False,
}
# Kimekimera's lowest total wins. Theme red 3 + blue 4 = 7. Seat 0's chimera and
# the one free chimera are all fives (any pair bred sums 10: an error of 3 a round),
# seat 1's two ones (an error of 5). No colour bonus. Every other card is in the
# discard and nothing reshuffles: seat 0's breeding (round 1's one move) leaves the
# slot empty, so seat 1 can't breed, and no new theme can be turned up. That one move
# ends all three rounds.
KK_ROWS = [(3, 5), (6, 10), (9, 15)]
# Seat 0 leads alone throughout: no change, decided at 1/3, no comeback (seat 0 is
# never behind), drama 0 (its deficit is never more than 0, the spread reaches 6),
# and the leader at rounds 1, 2 and 3 (25%, 50%, 75%) wins.
KK_FIGURES = [0, 1 / 3, 0.0, 0.0, 1.0, 1.0, 1.0]


def _kk_card(cards: object, number: int, colour: int) -> int:
    numbers, classes = cards.number, cards.colour_class  # type: ignore[attr-defined]
    return next(c for c in range(len(numbers)) if numbers[c] == number and classes[c] == colour)


def _kk_game() -> kk.State:
    cards = kk.State(KK_RULES, 2, Stream(0, 0, CHANCE), deal=False).cards
    red, blue, yellow, green = (lambda n, k=k: _kk_card(cards, n, k) for k in range(4))
    return kk.State.arranged(
        KK_RULES,
        mine=[(red(5), blue(5)), (red(1), blue(1))],
        free=[(yellow(5), green(5))],
        theme=(red(3), blue(4)),
        rest="discard",
    )


def test_kk_engine_keeps_every_round_one_move_ends() -> None:
    state = _kk_game()
    assert state.legal_actions() == [0]
    state.apply_action(0)
    assert state.is_terminal()
    record = with_figures(state.record(), False)
    assert record.progress == tuple(KK_ROWS)
    _same(record.figures, KK_FIGURES)


def test_kk_kernel_keeps_every_round_one_move_ends_in_a_state_with_room() -> None:
    kernel = games.definition("kimekimera").kernel()
    assert kernel is not None
    position = kernel.from_state(_kk_game(), _streams(2))
    plain = position.state.copy()
    # The chunk loop's state: one game's rounds longer, the rows kept from S_PROGRESS on.
    state = np.concatenate([position.state, np.full(3 * 2, -1, np.int64)])
    kk_kernel.apply(state, position.tables, position.streams.copy(), 0)
    assert state[kk_kernel.S_SEAT] == -1
    rows = state[kk_kernel.S_PROGRESS :].reshape(3, 2)
    assert [tuple(row) for row in rows.tolist()] == KK_ROWS
    final = state[kk_kernel.S_TOTALS : kk_kernel.S_TOTALS + 2]
    _same(figures_of(rows, final, higher_is_better=False), KK_FIGURES)
    # A state of STATE_SIZE (search's copies, stepped games) keeps none and plays the same.
    kk_kernel.apply(plain, position.tables, position.streams.copy(), 0)
    assert np.array_equal(plain, state[: kk_kernel.S_PROGRESS])


# -- Da Qi Zi: a deal at a time -------------------------------------------------------

DQZ_RULES = {**knobs.defaults(dqz.KNOBS), "max_deals": 3}
# Each deal's end, laid by hand: (winner, cards captured per seat, multiplier). A
# loser owes (4 - captured, + 1 if none) × multiplier to the winner; 20 chips each.
DQZ_DEALS = [(2, (0, 3, 5, 1), 1), (0, (6, 0, 2, 4), 2), (1, (1, 5, 0, 2), 3)]
# Deal 1: seats 0, 1, 3 owe 5, 1, 3. Deal 2: seats 1, 2, 3 owe 10, 4, 0. Deal 3:
# seats 0, 2, 3 owe 9, 15, 6. The third deal is the last (max_deals).
DQZ_ROWS = [(15, 19, 29, 17), (29, 9, 25, 17), (20, 39, 10, 11)]
# Seat 1 wins. Sole leaders 2, 0, 1: 2 changes; decided at 3/3; after deal
# ceil(3/2) = 2 seat 1 is last (a comeback); its largest deficit 20 (deal 2), the
# widest spread 29 (deal 3): drama 20/29; the leaders after deals 1, 2, 3 (25%,
# 50%, 75%) are seats 2, 0, 1: only the last wins.
DQZ_FIGURES = [2, 1.0, 1.0, 20 / 29, 0.0, 0.0, 1.0]


def test_dqz_engine_keeps_the_chips_after_each_deal() -> None:
    state = dqz.State(DQZ_RULES, 4, Stream(5, 0, CHANCE))
    for winner, captured, multiplier in DQZ_DEALS:
        state.n_captured = list(captured)
        state.multiplier = multiplier
        state._end_deal(winner)
    assert state.over
    record = with_figures(state.record(), True)
    assert record.progress == tuple(DQZ_ROWS)
    _same(record.figures, DQZ_FIGURES)


def test_dqz_kernel_keeps_the_chips_after_each_deal() -> None:
    L = dqz_layout
    state = dqz_chunk.from_python(dqz.State(DQZ_RULES, 4, Stream(5, 0, CHANCE)))
    tables = L.encode_rules(DQZ_RULES)
    streams = dqz_chunk.streams_from(Stream(5, 0, CHANCE), _streams(4))
    progress = np.zeros((3, 4), np.int64)
    deals = 0
    for winner, captured, multiplier in DQZ_DEALS:
        state[L.S_NCAP : L.S_NCAP + 4] = captured
        state[L.S_MULT] = multiplier
        dqz_resolution._end_deal(state, tables, streams, winner)
        deals = dqz_chunk.note_deal(state, deals, progress)
    assert state[L.S_OVER] == 1
    assert [tuple(row) for row in progress.tolist()] == DQZ_ROWS
    _same(figures_of(progress, state[L.S_CHIPS : L.S_CHIPS + 4]), DQZ_FIGURES)


def test_a_game_that_kept_no_progress_gets_no_figures() -> None:
    """A record without progress (a position stepped from the middle) is left as it is."""
    record = _fdc_game().record()
    assert record.progress == ()
    assert with_figures(record, True).figures == ()
    assert with_figures(_kk_game().record(), False).figures == ()
    assert len(FDC_FIGURES) == FIGURES


# -- Game files: a trick at a time -----------------------------------------------------

# MEGA RACER, two seats, all red speed cards: seat 0 holds speed 5 and 1, seat 1 speed 3
# and 6. A speed card moves its owner by its number, and the score is the position.
# Trick 1 plays 5 and 3, trick 2 plays 1 and 6: positions 5-3, then 6-9.
RACE_HANDS = {0: [5, 1], 1: [3, 6]}
RACE_ROWS = ((5, 3), (6, 9))
# Seat 1 wins 9-6. Sole leaders 0, 1: one change. Seat 1 leads for good from trick 2:
# decided at 2/2. At trick ceil(2/2) = 1 seat 1 is last (3 against 5): a comeback. Its
# largest deficit 2, the widest spread 3 (trick 2): drama 2/3. The leader at tricks 1,
# 1, 2 (25%, 50%, 75%): seat 0 (lost), seat 0, seat 1 (won).
RACE_FIGURES = [1, 1.0, 1.0, 2 / 3, 0.0, 0.0, 1.0]


def test_a_game_file_keeps_each_tricks_scores() -> None:
    racer = load_file(gamefile.shipped_path("mega-racer"))  # type: ignore[arg-type]
    rules = knobs.defaults(game_knobs(racer))

    def speed(number: int) -> int:  # red speed cards: the deck's first six
        return number - 1

    hands = [[speed(n) for n in RACE_HANDS[seat]] for seat in (0, 1)]
    state = RoleState.arranged(racer, rules, hands)
    while not state.is_terminal():
        seat = state.current_player()
        card = next(c for c in hands[seat] if c in state.legal_actions())
        hands[seat].remove(card)
        state.apply_action(card)
    record = with_figures(state.record(), True)
    assert record.scores == (6.0, 9.0)
    assert record.progress == RACE_ROWS
    _same(record.figures, RACE_FIGURES)
