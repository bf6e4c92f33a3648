"""Secret goals on the compiled role kernel (kernel/secret_goals.py, tables.py, scoring.py,
play.py) play the Python interpreter's games (roles/goals.py is the authority).

- secret_goals.yaml (two goals a seat from eight, terms of every kind a goal holds,
  `{goals: true}` in the score, an at_end and a lead_changes event): game for game
  with `random` and `lookahead` seats, and through the kernel conformance check
  (legal moves, choices, copies, from_state, play_out, determinize, each game's
  progress and figures);
- the deal: the compiled start deals each seat the goals the engine deals;
- a hand-made position worked out by hand, scored and played on the kernel alone;
- worlds: the compiled determinize deals the rivals' goals the view's world holds
  (roles/determinize.py, from the same stream), and two states that differ only in
  a rival's goal give the same world and the compiled lookahead the same move and
  values; the control, a sampler that keeps the true goals, tells them apart;
- a `search` seat plays games of a file with goals, and never peeks at them.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from balancer import games
from balancer.bots.search import MonteCarloSearch
from balancer.games.api import win_shares
from balancer.games.kernel_conformance import check_kernel
from balancer.games.roles import kernel as K
from balancer.games.roles import load_file
from balancer.games.roles.compiled import RoleKernel
from balancer.games.roles.definition import build
from balancer.games.roles.determinize import determinize
from balancer.games.roles.engine import CHOICE, State
from balancer.games.roles.kernel.lookahead import SEED_SPAN
from balancer.games.roles.kernel.tables import Region
from balancer.games.roles.lookahead import Lookahead
from balancer.rng import CHANCE, Stream, bot_stream
from balancer.rng_kernels import below, stream_key
from tests.kernels import test_roles_lookahead_kernel as looking
from tests.kernels.test_roles_kernel import HERE, assert_same_games, rules_of
from tests.unit.test_roles_goals import GOALS, PUSH_NEXT, PUSH_SELF, goals_game, two_worlds
from tests.unit.test_search import PeekingSearch

PATH = HERE / "secret_goals.yaml"
GAME = load_file(PATH)
RULES = rules_of(GAME)
LOOKAHEAD, RANDOM = looking.LOOKAHEAD, looking.RANDOM
# secret_goals.yaml's goal cards, in the file's order.
MISER, RUNNER, PODIUM, SHY, BANKER, LAGGARD, HOARDER, IDLER = range(8)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_goals_game_with_random_bots_game_for_game(players: int) -> None:
    assert_same_games(GAME, RULES, players, 11, 0, 120)
    assert_same_games(GAME, rules_of(GAME, first_leader="random"), players, 12, 0, 40)


def test_the_goals_game_exercises_what_it_is_for() -> None:
    """Its goals score in most games, either way, and the lead changes with them (else
    the game-for-game test would hold the kernel to little)."""
    cols = K.play_chunk(GAME, RULES, 3, 11, 0, 120, [RANDOM] * 3, False)
    names = [e.name for e in GAME.events]
    points = cols.events[:, names.index("goal_points")]
    assert (points > 0).sum() > 60 and (points < 0).sum() > 0
    assert cols.events[:, names.index("goal_leader")].sum() > 0


@pytest.mark.parametrize("players", [2, 4])
def test_lookahead_plays_the_python_bots_games(players: int) -> None:
    for seed in (3, 20261206):
        looking.assert_same_games(GAME, seed, 3, [LOOKAHEAD] * players)
    looking.assert_same_games(GAME, 8, 4, [LOOKAHEAD, RANDOM, RANDOM, LOOKAHEAD][:players])


@pytest.mark.parametrize(
    "seats", [[RANDOM] * 3, [LOOKAHEAD] * 3, [LOOKAHEAD, RANDOM, RANDOM, LOOKAHEAD]],
    ids=["random", "lookahead", "mixed"],
)  # fmt: skip
def test_the_kernel_conformance_check_passes(seats: list[Any]) -> None:
    definition = build(GAME)
    assert definition.kernel() is not None
    check_kernel(definition, RULES, len(seats), seats, seed=7, games=4)


def test_the_compiled_start_deals_the_engines_goals() -> None:
    """Game by game the same goals to the same seats, after the same hands; over the
    games every goal card is dealt, never one to two seats."""
    dealt: set[int] = set()
    for players in (2, 3, 4):
        tables = K.make_tables(GAME, RULES, players)
        state, streams = K.new_state(tables), K.new_streams(players)
        for index in range(30):
            K.start_game(state, tables, streams, 5, index)
            engine = State(GAME, RULES, players, Stream(5, index, CHANCE))
            seen = K.snapshot(state, tables, GAME)
            assert seen["secret_goals"] == engine.goals and seen["hands"] == engine.hands
            assert len({g for held in engine.goals for g in held}) == 2 * players
            dealt.update(g for held in engine.goals for g in held)
    assert dealt == set(range(8))


# -- a position worked out by hand ---------------------------------------------------


def card(colour: int, role: int, number: int) -> int:
    """secret_goals.yaml's card: (colour * 4 + role) * 4 + number - 1."""
    return (colour * 4 + role) * 4 + number - 1


RED, BLUE = 0, 1
STASH, SHOW, RUN, NUDGE = range(4)


def worked_example() -> State:
    """Seat 0 holds miser and podium, its vault red stash 3 and blue stash 4, 4 coins and
    5 steps: 4 coins + miser 2 × 2 cards + 3 + 4 = 11 + podium (the most coins: place
    1) 6 = 21. Seat 1 holds banker and laggard, its table red show 2, 1 coin and 3
    steps: 1 + banker 3 × 1 + 1 card + 2 = 6 + laggard (the fewest steps: place 1) 5
    = 12."""
    return State.arranged(
        GAME,
        RULES,
        [[card(RED, NUDGE, 1)], [card(RED, RUN, 4)]],
        zones={
            "vault": [[card(RED, STASH, 3), card(BLUE, STASH, 4)], []],
            "table": [[], [card(RED, SHOW, 2)]],
        },
        counters={"coins": [4, 1], "steps": [5, 3]},
        goals=[[MISER, PODIUM], [BANKER, LAGGARD]],
    )


def test_a_seats_goals_score_as_worked_out_compiled() -> None:
    """Then seat 0 nudges (its coins 5, seat 1's 0) and seat 1 runs 4 steps (7): seat 0
    5 + 11 + podium 6 = 22; seat 1 0 + banker 0 + 1 + 2 = 3 + laggard 0 (now the most
    steps, second: past the one point) = 3. The goals scored 17 + 3 = 20 (the at_end
    event); the lead never passed from one seat to another. On the kernel alone."""
    state = worked_example()
    arrays, tables = K.from_state(state)
    scores = np.zeros(2, np.float64)
    K.scores_of(arrays, tables, scores)
    assert scores.tolist() == [21.0, 12.0]
    streams = K.new_streams(2)
    buffer = K.new_legal(arrays, tables)
    steps_option = -1  # run's first option (the steps); its second, a rival's coins
    for move in (card(RED, NUDGE, 1), card(RED, RUN, 4), steps_option):
        assert move in buffer[: K.legal(arrays, tables, buffer)].tolist()
        K.apply(arrays, tables, streams, move)
    assert K.current_player(arrays, tables) == -1
    record = K.record(arrays, tables, GAME)
    assert record.scores == (22.0, 3.0) and record.length == 1
    assert record.events == {"goal_points": 20.0, "goal_leader": 0.0}


def test_secret_goals_py_worked_example_compiled(tmp_path: Path) -> None:
    """tests/unit/test_roles_goals.py's: seat 0 hoarder, bank [bank 2, bank 3], position
    1 scores 2 + 2 × 2 = 6; seat 1 racer, position 4, 3 × 4 = 12; after bank 1 and
    push 2 taken by seat 1 itself: 3 + 2 × 3 = 9 and 3 × 6 = 18."""
    game = goals_game(tmp_path)
    state = State.arranged(
        game, rules_of(game), [[0], [4]], zones={"bank": [[1, 2], []]},
        counters={"position": [1, 4]}, goals=[[0], [1]],
    )  # fmt: skip
    arrays, tables = K.from_state(state)
    scores = np.zeros(2, np.float64)
    K.scores_of(arrays, tables, scores)
    assert scores.tolist() == [6.0, 12.0]
    streams = K.new_streams(2)
    for move in (0, 4, PUSH_SELF):
        K.apply(arrays, tables, streams, move)
    assert K.record(arrays, tables, game).scores == (9.0, 18.0)


# -- worlds ------------------------------------------------------------------------------


def positions(players: int, count: int) -> list[State]:
    """Positions of random games of secret_goals.yaml: every decision, each game's end."""
    found = []
    index = 0
    while len(found) < count:
        state = State(GAME, RULES, players, Stream(4, index, CHANCE))
        pick = Stream(4, index, 99)
        while not state.is_terminal():
            legal = state.legal_actions()
            if len(legal) > 1:
                found.append(state.clone())
            state.apply_action(legal[pick.below(len(legal))])
        found.append(state.clone())
        index += 1
    return found[:count]


def keeping_the_true_goals(
    state: np.ndarray,
    tables: np.ndarray,
    seat: int,
    rng: np.ndarray,
    out: np.ndarray,
    out_streams: np.ndarray,
) -> int:
    """The control: the compiled determinize, then every seat's true goals put back."""
    K.determinize(state, tables, seat, rng, out, out_streams)
    region = Region(state, tables)
    held = slice(region.goals, region.goals + region.held * region.players)
    out[held] = state[held]
    return 0


@pytest.mark.parametrize("sampler", ["determinize", "keeping"])
def test_a_worlds_goals_are_the_views_world(sampler: str) -> None:
    """From every seat at decisions and ends of random 3-player games, the compiled
    determinize deals, from the same stream, the world roles/determinize.py draws from
    the seat's view: the same hands, pile, zones and goals. The control keeps the
    true goals: its worlds differ, where the redeal gave a rival another goal."""
    deal = K.determinize if sampler == "determinize" else keeping_the_true_goals
    differ = 0
    for n, py in enumerate(positions(3, 60)):
        state, tables = K.from_state(py)
        for seat in range(3):
            stream = Stream(9, n, seat)
            world = determinize(GAME, py.view(seat), stream.copy())
            out = state.copy()
            rng = np.array([[stream.key, stream.counter]], np.uint64)
            deal(state, tables, seat, rng, out, K.new_streams(3))
            same = K.snapshot(out, tables, GAME) == K.snapshot_of(world)
            differ += not same
            if sampler == "determinize":
                assert same, (n, seat)
    if sampler == "keeping":
        assert differ > 60


def racer_and_idler(folder: Path) -> tuple[Any, Any]:
    """tests/unit/test_roles_goals.py's two worlds (seat 0, hoarder, decides where its
    push goes; seat 1 holds racer or idler) on the kernel: (arrays, tables) each."""
    racer, idler = two_worlds(folder)
    return K.from_state(racer), K.from_state(idler)


@pytest.mark.parametrize("sampler", ["determinize", "keeping"])
def test_two_states_alike_to_the_seat_give_the_same_world(tmp_path: Path, sampler: str) -> None:
    """Bit for bit the same world for seat 0 from the same stream; the control's worlds
    keep the rival's goal, and differ."""
    deal = K.determinize if sampler == "determinize" else keeping_the_true_goals
    worlds = []
    for arrays, tables in racer_and_idler(tmp_path):
        assert arrays[K.PHASE] == CHOICE
        out = arrays.copy()
        deal(arrays, tables, 0, np.array([[77, 0]], np.uint64), out, K.new_streams(2))
        worlds.append(out)
    assert np.array_equal(worlds[0], worlds[1]) == (sampler == "determinize")


def compiled_values(
    arrays: np.ndarray, tables: np.ndarray, legal: list[int], rng: Stream, sampler: Callable
) -> list[float]:
    """kernel/lookahead.py lookahead_move's values for seat 0 of the two worlds' game (no
    end goal, no place term: no goal pull), step by step from Python with `sampler`
    dealing its 8 worlds: each move played in each world, the trick finished with the
    reply stream's draws, valued as the margin over the rival plus 100 for a win."""
    own = np.array([[rng.key, rng.counter]], np.uint64)
    quiet = K.new_streams(2)
    worlds = []
    for _ in range(8):
        out = arrays.copy()
        sampler(arrays, tables, 0, own, out, quiet)
        worlds.append(out)
    keys = [stream_key(below(own, 0, SEED_SPAN), 0, 0) for _ in worlds]
    moves = K.new_legal(arrays, tables)
    values = []
    for move in legal:
        total = 0.0
        for world, key in zip(worlds, keys, strict=True):
            trial = world.copy()
            reply = np.array([[key, 0]], np.uint64)
            action = move
            while True:
                K.apply(trial, tables, quiet, action)
                if trial[K.PHASE] == K.OVER or trial[K.TRICKS] != arrays[K.TRICKS]:
                    break
                action = moves[below(reply, 0, K.legal(trial, tables, moves))]
            scores = np.zeros(2, np.float64)
            K.scores_of(trial, tables, scores)
            total += scores[0] - scores[1]
            if trial[K.PHASE] == K.OVER:
                total += 100 * win_shares(tuple(scores.tolist()), True)[0]
        values.append(total / 8)
    return values


@pytest.mark.parametrize("sampler", ["determinize", "keeping"])
def test_the_compiled_lookahead_cannot_tell_a_rivals_goal(tmp_path: Path, sampler: str) -> None:
    """The two worlds of tests/unit/test_roles_goals.py's no-peek test: against a racer
    keeping the push is worth -10, pushing -16; against an idler 102 and 104. From
    the compiled worlds the values are the same for both states, bit for bit (and
    the Python bot's from the view), and the compiled bot picks the same move from
    every stream, the move those values pick. The control keeps the true goals: the
    values are those worked out above, and the moves differ."""
    deal = K.determinize if sampler == "determinize" else keeping_the_true_goals
    states = two_worlds(tmp_path)
    (racer, tables), (idler, _) = (K.from_state(state) for state in states)
    legal = [PUSH_NEXT, PUSH_SELF]
    for arrays in (racer, idler):
        moves = K.new_legal(arrays, tables)
        assert moves[: K.legal(arrays, tables, moves)].tolist() == legal
    kernel = RoleKernel(states[0].game)
    bots = kernel.encode_bots([LOOKAHEAD, RANDOM])
    python = Lookahead(kernel.game, samples=8)
    chosen = set()
    for seed in range(12):
        rng = Stream(seed, 0, bot_stream(0))
        values = [compiled_values(a, tables, legal, rng.copy(), deal) for a in (racer, idler)]
        if sampler == "keeping":
            assert values == [[-16.0, -10.0], [104.0, 102.0]]
            continue
        assert values[0] == values[1] == python.values(states[0].view(0), legal, rng.copy())
        best = legal[values[0].index(max(values[0]))]
        chosen.add(best)
        for state in states:
            streams = [rng.copy(), Stream(seed, 0, bot_stream(1))]
            position = kernel.from_state(state.clone(), streams)
            assert kernel.choose(position, bots, kernel.legal(position)) == best
    if sampler == "determinize":
        assert chosen == set(legal)  # the worlds decide it: neither move always wins


# -- the search ------------------------------------------------------------------------


@pytest.fixture(scope="module")
def registered(tmp_path_factory: pytest.TempPathFactory) -> str:
    folder = tmp_path_factory.mktemp("goals")
    path = folder / "secret-goals-search.yaml"
    path.write_text(
        GOALS.replace("name: secret-goals", "name: secret-goals-search").replace(
            "short: sg", "short: sgs"
        ),
        encoding="utf-8",
    )
    return games.register_file(path)


def test_a_search_seat_plays_a_file_with_goals(tmp_path: Path) -> None:
    """A run with a search seat at secret_goals.yaml plays every game to its end on the
    kernel, the seat's bot the search."""
    from balancer.cli import main
    from tests.helpers import load_report

    variant = tmp_path / "goals.yaml"
    variant.write_text(
        f"game: {PATH}\nplayers: 3\ngames: 3\nseed: 3\n"
        "seats: [{bot: search, params: {samples: 4}}, lookahead, random]\n",
        encoding="utf-8",
    )
    assert main(["run", "-q", str(variant), "-o", str(tmp_path / "r"), "-w", "1"]) == 0
    report = load_report(tmp_path / "r")
    assert [seat["bot"] for seat in report["seats"]][0] == "search(samples=4)"
    assert report["games"] == 3


@pytest.mark.parametrize("method", ["flat", "ismcts"])
def test_the_search_cannot_tell_a_rivals_goal(tmp_path: Path, registered: str, method: str) -> None:
    """Seat 0 of the two worlds loses to a racer whatever it does, and beats an idler:
    the search from the view values both states alike; the control, reading the true
    state, values them apart."""
    # The file registered under another name holds the same rules: its search reads the
    # views of these states as its own game's.
    racer, idler = two_worlds(tmp_path)
    legal = racer.legal_actions()

    def values(bot: MonteCarloSearch, state: State) -> tuple[Any, ...]:
        found = bot.evaluate(state.view(0), legal, Stream(7, 0, 1))
        return (*found.values, found.best)

    honest = MonteCarloSearch(registered, samples=8, method=method)
    assert values(honest, racer) == values(honest, idler)
    peeking = PeekingSearch(registered, samples=8, method=method)
    peeking.true_state = racer
    first = values(peeking, racer)
    peeking.true_state = idler
    assert first != values(peeking, idler)
