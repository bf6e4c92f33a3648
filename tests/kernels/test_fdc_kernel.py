"""The compiled Fish! Dash! Cash! kernel plays exactly the Python engine's games.

Game for game (records equal: scores, length, every §5 event) over every
shipped fdc variant, with random bots and with the variants' own heuristic
bots, and over rule sets that move every knob off its default (a deck with
two copies of each card among them); position for position from hand-made
and mid-game states converted from `rules.State`; and the same numbers with
the kernels run as plain Python (BALANCER_JIT=0).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from balancer import jit, knobs
from balancer.bot import bot_params_with_defaults
from balancer.config.variant import SeatSpec, Variant, load
from balancer.games.fdc import engine as fdc
from balancer.games.fdc import kernel as K
from balancer.games.fdc.bots import BOTS, Heuristic
from balancer.games.trick.kernel.random_bot import draw_below
from balancer.rng import CHANCE, Stream, bot_stream
from balancer.sim.play import play_game
from balancer.sim.runner import build_seats

ROOT = Path(__file__).parents[2]
VARIANTS = sorted(p for p in (ROOT / "variants").glob("fdc-*.yaml") if p.stem != "fdc-base")
DEFAULTS = knobs.defaults(fdc.KNOBS)


def slots_of(variant: Variant) -> list[tuple[str, dict[str, Any]]]:
    return [(s.bot, bot_params_with_defaults(BOTS[s.bot], s.params)) for s in variant.seats]


def assert_same_games(variant: Variant, start: int, stop: int) -> None:
    """Kernel chunk and Python engine agree on every game start..stop-1."""
    cols = K.play_chunk(
        variant.rules,
        variant.players,
        variant.seed,
        start,
        stop,
        slots_of(variant),
        variant.seat_rotation,
    )
    assert cols.start == start
    assert cols.scores.shape == (stop - start, variant.players)
    assert cols.events.shape == (stop - start, len(fdc.EVENTS))
    seats = build_seats(variant, 1.0, start)
    for index in range(start, stop):
        record = play_game(
            fdc.SPEC, variant.rules, variant.seated(seats, index), variant.seed, index
        )
        row = index - start
        kernel = (
            tuple(float(x) for x in cols.scores[row]),
            int(cols.length[row]),
            [float(x) for x in cols.events[row]],
        )
        engine = (record.scores, record.length, [record.events[e] for e in fdc.EVENTS])
        assert kernel == engine, f"{variant.name}: game {index} differs"


def with_bots(variant: Variant, seats: Sequence[SeatSpec], rotate: bool) -> Variant:
    return replace(variant, seats=tuple(seats), seat_rotation=rotate)


def all_random(variant: Variant) -> Variant:
    return with_bots(variant, [SeatSpec("random")] * variant.players, False)


# -- game for game --------------------------------------------------------------


@pytest.mark.parametrize("path", VARIANTS, ids=lambda p: p.stem)
def test_every_variant_with_random_bots_game_for_game(path: Path) -> None:
    assert_same_games(all_random(load(path)), 0, 1000)


@pytest.mark.parametrize("path", VARIANTS, ids=lambda p: p.stem)
def test_every_variant_with_its_own_bots_game_for_game(path: Path) -> None:
    variant = load(path)
    # fdc-5p-vs-random is the heuristic's yardstick run: 1000 games of it, and
    # 150 of each all-heuristic variant (the Python heuristic is the slow side).
    games = 1000 if "vs-random" in path.stem else 150
    assert_same_games(variant, 3000, 3000 + games)


HEURISTIC_ODD = SeatSpec(
    "heuristic", {"fish_weight": 0.3, "rival_weight": 0.9, "lead_resolves": 0.45, "cash_at": 4}
)
HEURISTIC_EAGER = SeatSpec(
    "heuristic", {"fish_weight": 0.8, "rival_weight": 0.1, "lead_resolves": 1.0, "cash_at": 0}
)


def deck(**changes: Any) -> dict[str, Any]:
    return fdc._check_deck(changes)


# Between them every knob is off its default somewhere, and so is every
# heuristic parameter; decks with 2 and 3 copies, roles listed out of order,
# a deck without cash and one of a single colour.
KNOB_SETS: dict[str, tuple[int, dict[str, Any], list[SeatSpec], bool]] = {
    "three-colours-two-copies": (
        4,
        {
            "deck": deck(colours=["red", "blue", "green"], numbers=[1, 6], copies=2),
            "hand_size": 6,
            "first_leader": "random",
            "neko_min_followers": 1,
            "cash_value": "face_plus_one",
            "uncashed_value": -1,
        },
        [HEURISTIC_ODD, SeatSpec("random"), SeatSpec("heuristic"), SeatSpec("random")],
        True,
    ),
    "roles-reordered-two-copies": (
        3,
        {
            "deck": deck(roles=["cash", "fish", "dash"], numbers=[0, 7], copies=2),
            "neko_cancel_duplicates": False,
            "leader_if_nothing_resolves": "next",
            "cash_value": "face",
            "uncashed_value": 2,
        },
        [HEURISTIC_EAGER, HEURISTIC_ODD, SeatSpec("heuristic")],
        False,
    ),
    "one-colour-three-copies": (
        6,
        {
            "deck": deck(colours=["red"], numbers=[0, 4], copies=3),
            "hand_size": 3,
            "neko_ni_koban": False,
            "first_leader": "random",
        },
        [SeatSpec("random"), HEURISTIC_EAGER] * 3,
        True,
    ),
    "no-cash-big-hands": (
        2,
        {
            "deck": deck(roles=["fish", "dash"], numbers=[2, 9]),
            "hand_size": 9,
            "neko_min_followers": 3,
            "uncashed_value": 1,
        },
        [SeatSpec("heuristic"), SeatSpec("random")],
        True,
    ),
    "neko-one-follower-next": (
        5,
        {
            "neko_min_followers": 1,
            "neko_cancel_duplicates": False,
            "leader_if_nothing_resolves": "next",
            "hand_size": 2,
            "cash_value": "face",
        },
        [
            HEURISTIC_ODD,
            SeatSpec("random"),
            HEURISTIC_EAGER,
            SeatSpec("random"),
            SeatSpec("heuristic"),
        ],
        True,
    ),
}


def knob_variant(name: str) -> Variant:
    players, changes, seats, rotate = KNOB_SETS[name]
    base = load(ROOT / "variants" / "fdc-base.yaml")
    variant = replace(base.with_knobs(changes), players=players, name=name, seed=99)
    assert fdc.unplayable(variant.rules, players) is None
    return with_bots(variant, seats, rotate)


@pytest.mark.parametrize("name", KNOB_SETS)
def test_knobs_off_default_game_for_game(name: str) -> None:
    variant = knob_variant(name)
    assert_same_games(variant, 0, 300)
    assert_same_games(all_random(variant), 500, 1000)


def test_every_knob_and_parameter_is_off_default_somewhere() -> None:
    moved = {
        knob.name
        for _, changes, _, _ in KNOB_SETS.values()
        for knob in fdc.KNOBS
        if knob.name in changes and changes[knob.name] != knob.default
    }
    assert moved == {knob.name for knob in fdc.KNOBS}
    params = {name for seat in (HEURISTIC_ODD, HEURISTIC_EAGER) for name in seat.params}
    assert params == {p.name for p in BOTS["heuristic"].params}
    copies = {
        changes["deck"]["copies"] for _, changes, _, _ in KNOB_SETS.values() if "deck" in changes
    }
    assert 2 in copies


def test_a_chunk_plays_the_same_games_wherever_it_starts() -> None:
    variant = load(ROOT / "variants" / "fdc-5p-vs-random.yaml")
    args = (variant.rules, variant.players, variant.seed)
    whole = K.play_chunk(*args, 0, 60, slots_of(variant), True)
    part = K.play_chunk(*args, 35, 60, slots_of(variant), True)
    assert np.array_equal(whole.scores[35:], part.scores)
    assert np.array_equal(whole.length[35:], part.length)
    assert np.array_equal(whole.events[35:], part.events)
    empty = K.play_chunk(*args, 7, 7, slots_of(variant), True)
    assert empty.scores.shape == (0, 5)


@pytest.mark.skipif(not jit.ENABLED, reason="numba is off")
def test_knobs_and_parameters_are_runtime_data_not_recompiled() -> None:
    for name in KNOB_SETS:
        variant = knob_variant(name)
        K.play_chunk(variant.rules, variant.players, 1, 0, 3, slots_of(variant), True)
    assert len(K._play_games.nopython_signatures) == 1


# -- position for position ---------------------------------------------------------


def c(text: str, rules: Mapping[str, Any] = DEFAULTS) -> int:
    return fdc.parse(text, rules)


def cards(*texts: str) -> list[int]:
    return [c(t) for t in texts]


def kernel_legal(state: np.ndarray, tables: np.ndarray) -> list[int]:
    out = K.new_legal(state)
    n = K.legal(state, tables, out)
    return [int(x) for x in out[:n]]


def heuristic_both(
    py: fdc.State, params: Mapping[str, Any], state: np.ndarray, tables: np.ndarray
) -> tuple[int, int]:
    """The Python heuristic's choice from its view, and the compiled one's from the arrays."""
    legal = py.legal_actions()
    seat = py.current_player()
    python = Heuristic(**params).act(py.view(seat), legal, Stream(0, 0, bot_stream(seat)))
    moves = np.array(legal, np.int64)
    iwork, fwork = K.new_work(state)
    row = K.bot_params("heuristic", params)
    streams = K.new_streams(py.players)
    compiled = K.choose(
        state, tables, streams, K.BOT_HEURISTIC, row, moves, len(legal), iwork, fwork
    )
    return python, int(compiled)


def step_both(py: fdc.State, params: Mapping[str, Any], rng: Stream) -> None:
    """Convert `py`, then step engine and kernel together to the end with random
    moves, comparing the position, the legal moves and the heuristic's choice at
    every step, and the records at the end."""
    state, tables = K.from_state(py)
    streams = K.new_streams(py.players)
    while True:
        assert K.snapshot(state) == K.snapshot_of(py)
        assert K.current_player(state) == py.current_player()
        legal = py.legal_actions()
        assert kernel_legal(state, tables) == legal
        if py.is_terminal():
            break
        if len(legal) > 1:
            python, compiled = heuristic_both(py, params, state, tables)
            assert python == compiled
        action = legal[rng.below(len(legal))]
        py.apply_action(action)
        K.apply(state, tables, streams, action)
    assert K.record(state, tables) == py.record()


ARRANGED_PARAMS = [{}, dict(HEURISTIC_ODD.params), dict(HEURISTIC_EAGER.params)]


def arranged_positions() -> dict[str, fdc.State]:
    two = {**DEFAULTS, "deck": deck(copies=2)}
    f3, d9 = c("red fish 3", two), c("red dash 9", two)
    positions = {
        # Two dashes to resolve, both with something to steal; money at the start.
        "two-dashes": fdc.State.arranged(
            DEFAULTS,
            [
                cards("red dash 9", "blue fish 1"),
                cards("red dash 4", "red cash 2"),
                cards("blue cash 0", "red fish 6"),
            ],
            pile=cards("blue dash 3", "blue fish 8", "red cash 7"),
            territory=[cards("blue fish 5"), [], cards("blue fish 6", "red fish 1")],
            cashed=[cards("blue fish 2"), [], cards("blue fish 9")],
        ),
        # The leader's hand is empty; an empty hand in between plays nothing.
        "empty-hands": fdc.State.arranged(
            DEFAULTS,
            [[], cards("red fish 4", "red fish 1"), [], cards("red cash 4", "blue dash 2")],
        ),
        # Two copies of each card: identical cards in hand and territory are one move.
        "copies": fdc.State.arranged(
            two,
            [
                [f3, f3 + 1, d9, c("blue fish 2", two)],
                [c("blue cash 1", two), d9 + 1],
                [c("red cash 5", two)],
            ],
            territory=[
                [],
                [c("red fish 2", two), c("red fish 2", two) + 1],
                [c("blue fish 7", two)],
            ],
            pile=[c("red fish 0", two), c("blue dash 0", two)],
        ),
        # Hands longer than hand_size, 猫に小判 ready to fire.
        "long-hands": fdc.State.arranged(
            DEFAULTS,
            [
                cards(*(f"red fish {n}" for n in range(7))),
                cards(*(f"blue dash {n}" for n in range(7))),
                cards(*(f"blue cash {n}" for n in range(7))),
            ],
            pile=cards("red dash 7", "red dash 8", "red dash 9", "blue fish 9"),
        ),
    }
    # Mid-trick, and stopped at a dash choice.
    mid = fdc.State.arranged(
        DEFAULTS,
        [
            cards("red dash 9", "red fish 8"),
            cards("red dash 5", "blue cash 3"),
            cards("blue fish 1", "red cash 1"),
        ],
        territory=[[], [], cards("red fish 3", "blue fish 4")],
    )
    mid.apply_action(c("red dash 9"))
    positions["mid-trick"] = mid.clone()
    mid.apply_action(c("red dash 5"))
    mid.apply_action(c("blue fish 1"))
    assert mid.phase == fdc.DASH_CHOICE
    positions["dash-choice"] = mid
    return positions


@pytest.mark.parametrize("name", list(arranged_positions()))
def test_arranged_positions_step_alike(name: str) -> None:
    for k, params in enumerate(ARRANGED_PARAMS):
        for seed in range(8):
            py = arranged_positions()[name]
            step_both(py, params, Stream(seed, k, 0))


def test_territory_money_is_kept_through_landing_stealing_and_cashing() -> None:
    """TWORTH/TMAXM/TMAX2 (money, richest and second richest card of each
    territory), kept as play goes, worked out by hand: seat 0's red dash 9
    resolves before seat 1's red fish 1 and steals seat 1's red fish 2 (not
    its richest); then seat 1 cashes before seat 0's fish of no money lands."""
    rules = {**DEFAULTS, "cash_value": "face"}
    py = fdc.State.arranged(
        rules,
        [cards("red dash 9", "blue fish 0"), cards("red fish 1", "blue cash 3")],
        territory=[cards("blue fish 4"), cards("blue fish 5", "red fish 2", "blue fish 8")],
    )
    state, tables = K.from_state(py)
    streams = K.new_streams(2)

    def stats() -> list[list[int]]:
        snap = K.snapshot(state)
        return [snap["territory_money"], snap["territory_richest"], snap["territory_second"]]

    assert stats() == [[4, 15], [4, 8], [-1, 5]]
    for action in (c("red dash 9"), c("red fish 1"), c("red fish 2")):
        py.apply_action(action)
        K.apply(state, tables, streams, action)
        assert K.snapshot(state) == K.snapshot_of(py)
    # Seat 0: blue fish 4, red fish 2; seat 1: blue fish 5, blue fish 8, red fish 1.
    assert stats() == [[6, 14], [4, 8], [2, 5]]
    for action in (c("blue fish 0"), c("blue cash 3")):
        py.apply_action(action)
        K.apply(state, tables, streams, action)
    assert py.phase == fdc.OVER and K.snapshot(state) == K.snapshot_of(py)
    assert stats() == [[6, 0], [4, -1], [2, -1]]


MID_GAME_RULES = [
    DEFAULTS,
    KNOB_SETS["three-colours-two-copies"][1],
    KNOB_SETS["roles-reordered-two-copies"][1],
    KNOB_SETS["one-colour-three-copies"][1],
]


@pytest.mark.parametrize("which", range(len(MID_GAME_RULES)))
def test_mid_game_positions_convert_and_step_alike(which: int) -> None:
    """Random Python games stopped after a random number of moves, converted and
    stepped on both sides from there (their deals also checked against the kernel's)."""
    rules = {**DEFAULTS, **MID_GAME_RULES[which]}
    for game in range(12):
        players = 2 + game % 5
        if fdc.unplayable(rules, players):
            continue
        py = fdc.new_state(rules, players, Stream(5, game, CHANCE))
        tables = K.make_tables(rules, players)
        dealt = K.new_state(tables)
        K.start_game(dealt, tables, K.new_streams(players), 5, game)
        assert K.snapshot(dealt) == K.snapshot_of(py)
        rng = Stream(6, game, 0)
        for _ in range(rng.below(40)):
            if py.is_terminal():
                break
            legal = py.legal_actions()
            py.apply_action(legal[rng.below(len(legal))])
        step_both(py, ARRANGED_PARAMS[game % 3], rng)


def test_the_compiled_heuristic_reads_nothing_its_seat_cannot_see() -> None:
    """Mid-game positions with the other seats' hands and the pile dealt anew
    (same sizes): the heuristic's choice never moves."""
    rng = Stream(11, 0, 0)
    checked = 0
    for game in range(30):
        players = 2 + game % 5
        py = fdc.new_state(DEFAULTS, players, Stream(12, game, CHANCE))
        for _ in range(rng.below(25)):
            legal = py.legal_actions()
            py.apply_action(legal[rng.below(len(legal))])
        if py.is_terminal() or len(py.legal_actions()) < 2:
            continue
        state, tables = K.from_state(py)
        seat = py.current_player()
        before = heuristic_both(py, {}, state, tables)
        hidden = [card for s in range(players) if s != seat for card in py.hands[s]] + py.pile
        for _ in range(5):
            rng.shuffle(hidden)
            other = py.clone()
            at = 0
            for s in range(players):
                if s != seat:
                    other.hands[s] = hidden[at : at + len(py.hands[s])]
                    at += len(py.hands[s])
            other.pile = hidden[at:]
            state2, tables2 = K.from_state(other)
            assert heuristic_both(other, {}, state2, tables2) == before
            checked += 1
    assert checked > 50


def test_roles_are_data_a_per_card_effect_table() -> None:
    """The kernel resolves by each card's effect code: the tables say which."""
    rules = {**DEFAULTS, "deck": deck(roles=["dash", "cash", "fish"])}
    tables = K.make_tables(rules, 3)
    d = int(tables[K.T_DECK])
    effects = tables[K.T_CARDS + K.EFFECT * d : K.T_CARDS + (K.EFFECT + 1) * d]
    for card in range(d):
        role = fdc.ROLE_NAMES[fdc.deck_for(rules).role[card]]
        assert effects[card] == K.ROLE_EFFECTS[role]
    assert tables[K.T_TERRITORY_CARDS] == d // 3
    assert frozenset(BOTS) == K.COMPILED_BOTS


# -- the same numbers as plain Python ----------------------------------------------------

PLAIN_GAMES = 12


def _chunks() -> list[tuple[Any, ...]]:
    variant = knob_variant("three-colours-two-copies")
    vs = load(ROOT / "variants" / "fdc-5p-vs-random.yaml")
    return [
        (dict(variant.rules), variant.players, 3, 0, PLAIN_GAMES, slots_of(variant), True),
        (dict(vs.rules), vs.players, 4, 10, 10 + PLAIN_GAMES, slots_of(vs), True),
    ]


def _columns(chunks: list[tuple[Any, ...]]) -> list[list[Any]]:
    out = []
    for args in chunks:
        cols = K.play_chunk(*args)
        out.append([cols.scores.tolist(), cols.length.tolist(), cols.events.tolist()])
    return out


def test_plain_python_kernels_give_the_same_games() -> None:
    """The kernels with BALANCER_JIT=0 (read at import: a fresh process) play the
    same games as compiled (and as the engine, by the tests above)."""
    code = (
        "import json, sys\n"
        "from balancer import jit\n"
        "assert not jit.ENABLED\n"
        "from tests.kernels.test_fdc_kernel import _chunks, _columns\n"
        "print(json.dumps(_columns(_chunks())))\n"
    )
    env = {**os.environ, jit.JIT_ENV: "0", "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == _columns(_chunks())


def test_the_kernels_below_draws_what_rng_below_draws() -> None:
    """The random bot's draw_below (rng.below without its exception path, in the trick
    package's kernel) is draw for draw the same,
    rejections included (n = 3 * 2**61 rejects a quarter of all draws)."""
    ours, theirs = np.zeros((3, 2), np.uint64), np.zeros((3, 2), np.uint64)
    for n in (1, 2, 3, 5, 7, 60, 1000, 2**32 + 1, 2**62 + 3, 3 * 2**61, 2**63 - 1):
        K.init_streams(ours, 8, n % 1000)
        K.init_streams(theirs, 8, n % 1000)
        for _ in range(200):
            assert draw_below(ours, 2, n) == K.below(theirs, 2, n)
        assert np.array_equal(ours, theirs)
