"""`draw` and `discard` on the compiled kernel: the hand-made situations of
tests/unit/test_roles_draw_discard.py played on the kernel alone end as worked out by
hand there, and step alike on both, position for position; draw_discard.yaml plays
game for game with the Python interpreter and passes the kernel conformance check
(determinize keeps the view: a drawn card stays hidden); and a draw of the largest
count the file allows, on every seat of the most seats, fits the compiled hands.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from balancer import knobs
from balancer.games.kernel_conformance import check_kernel
from balancer.games.roles import kernel as K
from balancer.games.roles import load_file
from balancer.games.roles.definition import build
from balancer.sim.conformance import check_game
from tests.kernels.test_roles_kernel import assert_same_games, rules_of, stepped_alike
from tests.kernels.test_roles_lookahead_kernel import LOOKAHEAD
from tests.kernels.test_roles_lookahead_kernel import assert_same_games as lookahead_games_alike
from tests.unit.test_roles_draw_discard import SITUATIONS, TOPUP, topup

HERE = Path(__file__).parent
DRAW_DISCARD = load_file(HERE / "draw_discard.yaml")


@pytest.mark.parametrize("name", list(SITUATIONS))
def test_each_situation_leaves_what_was_worked_out_compiled(tmp_path: Path, name: str) -> None:
    situation = SITUATIONS[name]
    game = topup(tmp_path)
    arrays, tables = K.from_state(situation.state(game))
    streams = K.new_streams(len(situation.hands))
    buffer = K.new_legal(arrays, tables)
    for move in situation.moves:
        assert move in buffer[: K.legal(arrays, tables, buffer)].tolist()
        K.apply(arrays, tables, streams, move)
    seen = K.snapshot(arrays, tables, game)
    assert tuple(map(tuple, seen["hands"])) == situation.after_hands
    assert tuple(reversed(seen["pile"])) == situation.after_pile
    assert tuple(map(tuple, seen["zones"]["bag"])) == situation.after_bag
    record = K.record(arrays, tables, game)
    if seen["phase"] == K.OVER:
        assert record.events == {k: float(v) for k, v in situation.expected_events().items()}


@pytest.mark.parametrize("name", list(SITUATIONS))
def test_each_situation_steps_alike(tmp_path: Path, name: str) -> None:
    situation = SITUATIONS[name]
    stepped_alike(situation.state(topup(tmp_path)), list(situation.moves))


def test_a_discard_from_face_down_makes_its_card_sure_on_both(tmp_path: Path) -> None:
    """The toss's card marked unsure by hand (as a steal between face-down zones leaves
    it): the kernel clears its flag as the interpreter does (snapshots compare it)."""
    situation = SITUATIONS["toss-discards-the-one-card-in-the-bag"]
    state = situation.state(topup(tmp_path))
    state.unsure = set(situation.bag[0])
    assert K.snapshot_of(state)["unsure"] == list(situation.bag[0])  # the control
    stepped_alike(state, list(situation.moves))


@pytest.mark.parametrize("players", [2, 3, 6])
def test_draw_and_discard_game_for_game(players: int) -> None:
    assert_same_games(DRAW_DISCARD, rules_of(DRAW_DISCARD), players, 5, 0, 150)
    other = rules_of(DRAW_DISCARD, first_leader="random", hand_size=4)
    assert_same_games(DRAW_DISCARD, other, players, 6, 0, 60)


def test_the_draw_discard_game_exercises_what_it_is_for() -> None:
    """The control of the game-for-game test: every draw and discard of the file acts
    in its games, so the comparison above covers each."""
    rules = rules_of(DRAW_DISCARD)
    cols = K.play_chunk(DRAW_DISCARD, rules, 3, 5, 0, 150, [("random", {})] * 3, False)
    totals = dict(zip([e.name for e in DRAW_DISCARD.events], cols.events.sum(axis=0), strict=True))
    assert all(totals[name] > 0 for name in totals), totals


def test_the_kernel_conformance_check_passes_with_draws() -> None:
    definition = build(DRAW_DISCARD)
    rules = knobs.defaults(definition.spec.knobs)
    for players in (2, 6):
        check_kernel(definition, rules, players, [("random", {})] * players, seed=7, games=5)


@pytest.mark.parametrize("players", [2, 5])
def test_lookahead_plays_the_python_bots_games_with_draws(players: int) -> None:
    """The compiled lookahead in every seat, its worlds and play-outs drawing and
    discarding, plays the Python bot's games (its decisions include the discards)."""
    for seed in (3, 20261203):
        lookahead_games_alike(DRAW_DISCARD, seed, 3, [LOOKAHEAD] * players)


def test_the_python_conformance_check_passes_with_draws() -> None:
    """sim/conformance.py on the interpreter: clones independent, a redeal of what a seat
    can't see (drawn cards in rivals' hands, the pile) keeps its view, worlds too."""
    spec = build(DRAW_DISCARD).spec
    rules = knobs.defaults(spec.knobs)
    for players in (2, 6):
        check_game(spec, rules, players, seed=3, games=10)


def test_the_largest_draw_fits_the_compiled_hands(tmp_path: Path) -> None:
    """A fetch drawing the most a count may be (knobs.INT_LIMIT) on every seat, six
    seats: the first seat from the owner takes the whole pile (40 - 6 = 34 cards,
    beside the hand it holds), more than any hand_size, and the kernel, whose hands
    hold the deck (HCAP = 40), plays it game for game with the interpreter."""
    text = TOPUP.replace("players: [2, 4]", "players: [2, 6]").replace(
        "draw: {count: 2, event: draws}",
        f"draw: {{count: {knobs.INT_LIMIT}, target: all, event: draws}}",
    )
    path = tmp_path / "greedy.yaml"
    path.write_text(text, encoding="utf-8")
    game = load_file(path)
    assert_same_games(game, rules_of(game), 6, 3, 0, 40)
    cols = K.play_chunk(game, rules_of(game), 6, 3, 0, 40, [("random", {})] * 6, False)
    assert cols.events[:, 0].sum() > 0  # the control: some fetch did draw the pile
