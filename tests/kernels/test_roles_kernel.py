"""The role kernel (roles/kernel/) plays exactly the Python interpreter's games.

The Python interpreter (roles/engine.py) is the authority. Game for game
(records equal: scores, length, every event of the file, the kinds dealt) with `random` in
every seat, dealt and drawn from the same streams, for the three shipped game files
at 2 to 6 players and at knobs off their defaults, and for a file that uses
every primitive (every_primitive.yaml) and one that uses the later ones
(new_mechanics.yaml); position for position from hand-made
states converted from engine.State; and through the one kernel interface's
conformance check (games/kernel_conformance.py: legal moves, bot choices,
copies, from_state, play_out, determinize). The 1,000-game comparison per
player count is tests/quality/test_roles_kernel_games.py.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from balancer import knobs
from balancer.games.definition import GameDefinition
from balancer.games.kernel_conformance import check_kernel
from balancer.games.roles import gamefile, load_file
from balancer.games.roles import kernel as K
from balancer.games.roles.definition import build, game_knobs
from balancer.games.roles.engine import State
from balancer.games.roles.model import RoleGame
from balancer.rng import CHANCE, Stream, bot_stream
from tests.unit.test_roles_engine import DOZE, doze_card

HERE = Path(__file__).parent
SHIPPED = ("fish-dash-cash-roles", "mega-racer", "zodiac-race", "fish-market")


def shipped(name: str) -> RoleGame:
    return load_file(gamefile.shipped_path(name))  # type: ignore[arg-type]


EVERY = load_file(HERE / "every_primitive.yaml")
NEW = load_file(HERE / "new_mechanics.yaml")


def rules_of(game: RoleGame, **overrides: Any) -> dict[str, Any]:
    return {**knobs.defaults(game_knobs(game)), **overrides}


def engine_records(
    game: RoleGame, rules: Mapping[str, Any], players: int, seed: int, start: int, stop: int
) -> list[tuple[tuple[float, ...], int, list[float], tuple[int, ...]]]:
    """Games start..stop-1 on the Python interpreter, `random` in every seat as sim/play.py
    plays it (legal[randrange(n)] from the seat's stream; a forced move unasked)."""
    out = []
    for index in range(start, stop):
        state = State(game, rules, players, Stream(seed, index, CHANCE))
        streams = [Stream(seed, index, bot_stream(seat)) for seat in range(players)]
        while not state.is_terminal():
            legal = state.legal_actions()
            move = legal[0]
            if len(legal) > 1:
                move = legal[streams[state.current_player()].randrange(len(legal))]
            state.apply_action(move)
        record = state.record()
        events = [record.events[e.name] for e in game.events]
        out.append((record.scores, record.length, events, tuple(record.held)))
    return out


def assert_same_games(
    game: RoleGame, rules: Mapping[str, Any], players: int, seed: int, start: int, stop: int
) -> None:
    cols = K.play_chunk(game, rules, players, seed, start, stop, [("random", {})] * players, True)
    assert cols.scores.shape == (stop - start, players)
    assert cols.events.shape == (stop - start, len(game.events))
    expected = engine_records(game, rules, players, seed, start, stop)
    for row, engine in enumerate(expected):
        kernel = (
            tuple(float(x) for x in cols.scores[row]),
            int(cols.length[row]),
            [float(x) for x in cols.events[row]],
            tuple(int(x) for x in cols.held[row]),  # the kinds dealt (card impact)
        )
        assert kernel == engine, f"{game.name}, {players} players: game {start + row} differs"


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("name", SHIPPED)
def test_shipped_games_with_random_bots_game_for_game(name: str, players: int) -> None:
    game = shipped(name)
    assert_same_games(game, rules_of(game), players, 17, 0, 150)


# Every trick-procedure knob off its default somewhere, and every file knob.
KNOB_SETS: dict[str, tuple[str, int, dict[str, Any]]] = {
    "racer-two-copies-random-leader": (
        "mega-racer",
        4,
        {
            "deck": {
                "colours": ["red", "blue", "green"],
                "roles": ["speed", "accident", "block"],
                "numbers": [1, 5],
                "copies": 2,
            },
            "first_leader": "random",
            "accident_loss": 5,
            "goal": 15,
            "hand_size": 4,
        },
    ),  # fmt: skip
    "racer-neko-one-follower-keeps-duplicates": (
        "mega-racer",
        3,
        {
            "neko_min_followers": 1,
            "neko_cancel_duplicates": False,
            "leader_if_nothing_resolves": "next",
        },
    ),
    "fdc-roles-face-plus-one-penalty": (
        "fish-dash-cash-roles",
        5,
        {"cash_per_card": 1, "cash_per_number": 1, "uncashed_value": -1, "neko_ni_koban": False},
    ),
    # A near gate: most animals arrive, many in the same trick, and the cat often.
    "zodiac-near-gate-no-gap": ("zodiac-race", 6, {"gate": 9, "ride_gap": 0}),
    "zodiac-two-copies-random-leader": (
        "zodiac-race",
        4,
        {
            "deck": {
                "colours": ["red", "blue"],
                "roles": ["run", "ride", "tease"],
                "numbers": [0, 4],
                "copies": 2,
            },
            "first_leader": "random",
            "gate": 12,
            "ride_gap": 3,
            "hand_size": 4,
        },
    ),  # fmt: skip
}


@pytest.mark.parametrize("which", list(KNOB_SETS))
def test_knobs_off_default_game_for_game(which: str) -> None:
    name, players, overrides = KNOB_SETS[which]
    game = shipped(name)
    assert_same_games(game, rules_of(game, **overrides), players, 5, 0, 150)


@pytest.mark.parametrize("players", [2, 4, 6])
def test_every_primitive_game_for_game(players: int) -> None:
    assert_same_games(EVERY, rules_of(EVERY), players, 3, 0, 150)
    other = rules_of(EVERY, sting=0, first_leader="random", leader_if_nothing_resolves="next")
    assert_same_games(EVERY, other, players, 4, 0, 60)


def test_the_every_primitive_game_exercises_what_it_is_for() -> None:
    """Its games do steal, hit, catch up, stash, cancel and change the leader (else
    its game-for-game test would hold the kernel to little)."""
    cols = K.play_chunk(EVERY, rules_of(EVERY), 4, 3, 0, 150, [("random", {})] * 4, False)
    totals = dict(zip([e.name for e in EVERY.events], cols.events.sum(axis=0), strict=True))
    for name in ("grabs", "hits", "catches", "stashed", "heat_leader", "cancelled", "neko"):
        assert totals[name] > 0, name


@pytest.mark.parametrize("players", [2, 3, 5])
def test_the_new_mechanics_game_for_game(players: int) -> None:
    assert_same_games(NEW, rules_of(NEW), players, 8, 0, 150)
    assert_same_games(NEW, rules_of(NEW, first_leader="random"), players, 9, 0, 60)


def test_the_new_mechanics_game_exercises_what_it_is_for() -> None:
    """Its games lift the lowest rival, raise every seat, and wipe marks off rivals and
    off the owner (counted only where a mark was set), on both paths alike above."""
    cols = K.play_chunk(NEW, rules_of(NEW), 3, 8, 0, 150, [("random", {})] * 3, False)
    totals = dict(zip([e.name for e in NEW.events], cols.events.sum(axis=0), strict=True))
    for name in ("lifts", "rises", "wipes", "unmarks"):
        assert totals[name] > 0, name


def test_a_knob_is_table_data_not_recompiled() -> None:
    """Two knob values give two games from one compiled chunk loop (no new signature)."""
    game = shipped("mega-racer")
    loop = K.chunk._play_games
    K.play_chunk(game, rules_of(game), 4, 1, 0, 5, [("random", {})] * 4, False)
    before = len(getattr(loop, "signatures", ()))
    a = K.play_chunk(game, rules_of(game, goal=3), 4, 1, 0, 40, [("random", {})] * 4, False)
    b = K.play_chunk(game, rules_of(game, goal=30), 4, 1, 0, 40, [("random", {})] * 4, False)
    assert len(getattr(loop, "signatures", ())) == before
    assert a.length.mean() < b.length.mean()  # the goal did change the games


# -- hand-made positions, converted and stepped on both ----------------------------------


def stepped_alike(state: State, moves: list[int]) -> None:
    """Convert `state` (engine.State) to the kernel, play `moves` on both and compare
    the positions (roles/kernel/tables.py snapshot) and legal moves after each."""
    arrays, tables = K.from_state(state)
    streams = K.new_streams(state.players)
    streams[CHANCE] = state.chance.key, state.chance.counter  # a random discard draws it
    buffer = K.new_legal(arrays, tables)
    for move in [*moves, None]:
        assert K.snapshot(arrays, tables, state.game) == K.snapshot_of(state)
        n = K.legal(arrays, tables, buffer)
        assert buffer[:n].tolist() == state.legal_actions()
        assert int(K.current_player(arrays, tables)) == state.current_player()
        if move is None:
            break
        state.apply_action(move)
        K.apply(arrays, tables, streams, move)


def doze(tmp_path: Path) -> RoleGame:
    path = tmp_path / "doze.yaml"
    path.write_text(DOZE, encoding="utf-8")
    return load_file(path)


def test_a_nap_and_a_cancelled_run_step_alike(tmp_path: Path) -> None:
    game = doze(tmp_path)
    red, blue, run, nap = 0, 1, 0, 1
    hands = [
        [doze_card(red, nap, 2), doze_card(red, run, 3)],
        [doze_card(red, run, 1), doze_card(red, run, 2)],
        [doze_card(red, run, 0), doze_card(blue, run, 3)],
    ]
    state = State.arranged(game, rules_of(game), hands)
    moves = [doze_card(red, nap, 2), doze_card(red, run, 1), doze_card(red, run, 0)]
    moves += [doze_card(red, run, 3), doze_card(blue, run, 3), doze_card(red, run, 2)]
    stepped_alike(state, moves)
    assert state.is_terminal() and state.record().events == {"naps": 1, "crowds": 1}


def test_a_choice_of_rivals_steps_alike(tmp_path: Path) -> None:
    game = doze(tmp_path)
    red, run, poke = 0, 0, 2
    hands = [[doze_card(red, poke, 3)], [doze_card(red, run, 1)], [doze_card(red, run, 0)]]
    state = State.arranged(game, rules_of(game), hands)
    # The poke waits for its owner: -4 / -5 (seat 1 or 2 loses 1), -2 (+2 to self).
    stepped_alike(state, [doze_card(red, poke, 3), doze_card(red, run, 1), doze_card(red, run, 0)])
    arrays, tables = K.from_state(state)
    buffer = K.new_legal(arrays, tables)
    assert buffer[: K.legal(arrays, tables, buffer)].tolist() == [-4, -5, -2]
    stepped_alike(state, [-5])
    assert state.counters["dist"] == [0, 1, 0]


def test_a_steal_from_a_game_in_the_middle_steps_alike() -> None:
    """fish-dash-cash-roles positions mid-game (some waiting on a dash's choice),
    converted and stepped on to the end on both."""
    game = shipped("fish-dash-cash-roles")
    rules = rules_of(game)
    choices = 0
    for index in range(30):
        state = State(game, rules, 4, Stream(9, index, CHANCE))
        pick = Stream(9, index, 99)
        for _ in range(12 + index % 7):
            if state.is_terminal():
                break
            legal = state.legal_actions()
            state.apply_action(legal[pick.randrange(len(legal))])
        choices += state.phase == 1
        rest = []
        other = state.clone()
        while not other.is_terminal():
            legal = other.legal_actions()
            rest.append(legal[pick.randrange(len(legal))])
            other.apply_action(rest[-1])
        stepped_alike(state, rest)
    assert choices > 0  # some positions were converted while a dash waited


def test_what_every_seat_recalls_of_face_down_zones_steps_alike() -> None:
    """recall.yaml's cards go face down, move between face-down zones (leaving every
    seat unsure which went) and come face up again: whole random games stepped on both
    keep the same unsure cards (snapshot "unsure") after every move."""
    game = load_file(HERE / "recall.yaml")
    unsure = 0
    for index in range(30):
        state = State(game, rules_of(game), 3, Stream(6, index, CHANCE))
        pick = Stream(6, index, 99)
        other, moves = state.clone(), []
        while not other.is_terminal():
            legal = other.legal_actions()
            moves.append(legal[pick.randrange(len(legal))])
            other.apply_action(moves[-1])
            unsure += bool(other.unsure)
        stepped_alike(state, moves)
    assert unsure > 30  # positions where some card's place was unsure


# The zodiac race's cards (tests/unit/test_zodiac_race.py): (colour * 3 + role) * 10 + number.
def zodiac_run(number: int) -> int:
    return number  # red (colour 0), run (role 0)


def kernel_record(state: State) -> tuple[Any, ...]:
    """`state` converted to the kernel and played on there to the end by the moves the
    engine plays it (each legal move the same on both): the kernel's record."""
    arrays, tables = K.from_state(state)
    streams = K.new_streams(state.players)
    other = state.clone()
    while not other.is_terminal():
        move = other.legal_actions()[0]
        other.apply_action(move)
        K.apply(arrays, tables, streams, move)
    assert int(K.current_player(arrays, tables)) == -1
    kernel, engine = K.record(arrays, tables, state.game), other.record()
    assert (kernel.scores, kernel.length, kernel.events) == (
        engine.scores, engine.length, engine.events,
    )  # fmt: skip
    return kernel.scores, kernel.length, dict(kernel.events)


def level_arrivals() -> State:
    """Steps [20, 17, 13]; trick 1: runs 3, 6, 1 take them to [23, 23, 14] (gate 22):
    seats 0 and 1 arrive level and share place 1; trick 2 (seat 1 leads, its run 6
    resolved first): run 9 takes seat 2 to 23: place 3."""
    game = shipped("zodiac-race")
    hands = [
        [zodiac_run(3), zodiac_run(4)],
        [zodiac_run(6), zodiac_run(2)],
        [zodiac_run(1), zodiac_run(9)],
    ]
    return State.arranged(game, rules_of(game), hands, counters={"steps": [20, 17, 13]})


def test_two_animals_arriving_level_share_a_place_compiled() -> None:
    # Places 1, 1, 3: 12, 12 and 10 points, three arrivals, no cat; two tricks.
    state = level_arrivals()
    stepped_alike(state.clone(), [3, 6, 1, 2, 9, 4])
    assert kernel_record(state) == (
        (12.0, 12.0, 10.0), 2,
        {"neko_ni_koban": 0, "cards_cancelled": 0, "runs": 6, "rides": 0, "teases": 0,
         "overtaken": 0, "arrivals": 3, "cats": 0, "lead_changes": 0},
    )  # fmt: skip


def test_places_taken_before_the_conversion_stay_taken() -> None:
    # Converted after trick 1 (places [1, 1, 0], 2 taken): trick 2 places seat 2 alone,
    # third (the third arrival of the game). A kernel that lost the places would place
    # all three again in trick 2 (steps 27, 25, 23, all past the gate): places 3, 4
    # and 5, 10, 9 and 8 points, not 12, 12 and 10.
    state = level_arrivals()
    for move in (3, 6, 1):
        state.apply_action(move)
    assert state.places["zodiac"] == [1, 1, 0]
    assert K.snapshot_of(state)["places"] == {"zodiac": [1, 1, 0]}
    scores, length, events = kernel_record(state)
    assert scores == (12.0, 12.0, 10.0) and length == 2 and events["arrivals"] == 3


def test_the_cat_arrives_compiled_and_ends_the_race() -> None:
    # 11 places taken, steps [20, 19, 0]; runs 5, 4, 2 take seats 0 and 1 to 25 and 23:
    # place 12 (1 point) and 13, past the twelve (the cat, 0 points): the 13th place
    # taken ends the race after one trick though every hand keeps a card.
    game = shipped("zodiac-race")
    hands = [
        [zodiac_run(5), zodiac_run(7)],
        [zodiac_run(4), zodiac_run(8)],
        [zodiac_run(2), zodiac_run(6)],
    ]
    state = State.arranged(
        game, rules_of(game), hands, counters={"steps": [20, 19, 0]}, globals_={"zodiac": 11}
    )
    scores, length, events = kernel_record(state)
    assert scores == (1.0, 0.0, 0.0) and length == 1
    assert events["arrivals"] == 1 and events["cats"] == 1  # the cat took no place


# -- the kernel interface ------------------------------------------------------------------


def definitions() -> dict[str, GameDefinition]:
    return {
        **{name: build(shipped(name)) for name in SHIPPED},
        "every-primitive": build(EVERY),
        "new-mechanics": build(NEW),
    }


@pytest.mark.parametrize("name", [*SHIPPED, "every-primitive", "new-mechanics"])
def test_the_kernel_conformance_check_passes(name: str) -> None:
    definition = definitions()[name]
    assert definition.kernel() is not None
    rules = knobs.defaults(definition.spec.knobs)
    for players in (2, 4, 6):
        seats = [("random", {})] * players
        check_kernel(definition, rules, players, seats, seed=7, games=5)


class _WrongSeatWorlds:
    """A kernel whose determinize keeps the next seat's view instead of the one asked."""

    def __init__(self, kernel: Any) -> None:
        self.kernel = kernel

    def __getattr__(self, attr: str) -> Any:
        return getattr(self.kernel, attr)

    def determinize(self, position: Any, seat: int, rng: Any, out: Any) -> int:
        players = len(position.streams) - 1
        return int(self.kernel.determinize(position, (seat + 1) % players, rng, out))


def test_the_check_fails_worlds_that_keep_another_seats_view() -> None:
    """The conformance check's determinize control, on a role game: worlds dealt for
    the wrong seat redeal the seat's own hand, and its moves change."""
    from dataclasses import replace

    definition = definitions()["mega-racer"]
    real = definition.kernel()
    wrong = replace(definition, kernel=lambda: _WrongSeatWorlds(real))
    rules = knobs.defaults(definition.spec.knobs)
    with pytest.raises(AssertionError, match="other moves"):
        check_kernel(wrong, rules, 4, [("random", {})] * 4, seed=7, games=5)


def test_a_world_keeps_what_the_seat_sees_and_redeals_the_rest() -> None:
    """determinize for seat 0 of fish-dash-cash-roles mid-game: its hand, every
    territory (face up) and every bank stay (face down, but every fish in a bank was
    seen face up going in: recalled); the other hands and the pile hold the same cards
    between them, each its size; two true positions that differ only in those hidden
    cards give the same world."""
    game = shipped("fish-dash-cash-roles")
    kernel = build(game).kernel()
    assert kernel is not None

    def mid_game(index: int) -> State:
        state = State(game, rules_of(game), 4, Stream(2, index, CHANCE))
        pick = Stream(2, index, 99)
        while state.tricks < 5 or state.phase != 0:
            legal = state.legal_actions()
            state.apply_action(legal[pick.randrange(len(legal))])
        return state

    # The first game whose position has a rival's bank to redeal.
    state = next(s for s in map(mid_game, range(50)) if any(s.zones["bank"][k] for k in (1, 2, 3)))
    position = kernel.from_state(state, [Stream(1, 0, s) for s in range(4)])
    world = position.copy()
    kernel.determinize(position, 0, np.array([[99, 0]], np.uint64), world)
    seen = K.snapshot(position.state, position.tables, game)
    got = K.snapshot(world.state, world.tables, game)
    assert got["hands"][0] == seen["hands"][0]
    assert got["zones"]["territory"] == seen["zones"]["territory"]
    assert got["zones"]["bank"] == seen["zones"]["bank"]

    def hidden(snap: dict[str, Any]) -> list[list[int]]:
        return [*snap["hands"][1:], snap["pile"]]

    assert list(map(len, hidden(got))) == list(map(len, hidden(seen)))
    assert sorted(sum(hidden(got), [])) == sorted(sum(hidden(seen), []))
    assert hidden(got) != hidden(seen)
    # The hidden cards moved around in the true state: the same world all the same.
    swapped = state.clone()
    swapped.hands[1], swapped.pile[0] = (
        [swapped.pile[0], *swapped.hands[1][1:]],
        swapped.hands[1][0],
    )
    other = kernel.from_state(swapped, [Stream(1, 0, s) for s in range(4)])
    world2 = other.copy()
    kernel.determinize(other, 0, np.array([[99, 0]], np.uint64), world2)
    assert np.array_equal(world.state, world2.state)


def test_a_world_keeps_the_places_taken() -> None:
    """determinize for seat 0 of the zodiac race mid-game, after arrivals (a near gate,
    9): places are public, so the world keeps every seat's place, the steps and the
    places taken, while the other hands are dealt again."""
    game = shipped("zodiac-race")
    rules = rules_of(game, gate=9)
    kernel = build(game).kernel()
    assert kernel is not None

    def after_arrivals(index: int) -> State | None:
        state = State(game, rules, 5, Stream(4, index, CHANCE))
        pick = Stream(4, index, 99)
        while not state.is_terminal():
            if state.phase == 0 and any(state.places["zodiac"]) and state.pile:
                return state
            legal = state.legal_actions()
            state.apply_action(legal[pick.randrange(len(legal))])
        return None

    state = next(s for s in map(after_arrivals, range(50)) if s is not None)
    position = kernel.from_state(state, [Stream(1, 0, s) for s in range(5)])
    world = position.copy()
    kernel.determinize(position, 0, np.array([[99, 0]], np.uint64), world)
    seen = K.snapshot(position.state, position.tables, game)
    got = K.snapshot(world.state, world.tables, game)
    assert seen["places"] == {"zodiac": state.places["zodiac"]}  # some place taken
    assert got["places"] == seen["places"]
    assert got["counters"] == seen["counters"] and got["globals"] == seen["globals"]
    assert got["hands"][0] == seen["hands"][0]
    assert got["hands"][1:] != seen["hands"][1:]  # the control: the rest is dealt again
