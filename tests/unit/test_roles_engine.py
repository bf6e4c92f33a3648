"""Role games played by hand: situations whose outcome is worked out from the rules.

MEGA RACER's cards: colours red 0, blue 1; roles speed 0, accident 1, block 2;
numbers 1..6; card = (colour * 3 + role) * 6 + number - 1 (the engine's
encoding, the hand-written Fish! Dash! Cash!'s).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from balancer import knobs
from balancer.games.roles import gamefile, load_file
from balancer.games.roles.definition import build, game_knobs
from balancer.games.roles.engine import State
from balancer.games.roles.model import RoleGame
from balancer.rng import CHANCE, Stream
from balancer.sim.conformance import check_game

RACER = load_file(gamefile.shipped_path("mega-racer"))  # type: ignore[arg-type]
SPEED, ACCIDENT, BLOCK = 0, 1, 2
RED, BLUE = 0, 1


def racer(colour: int, role: int, number: int) -> int:
    return (colour * 3 + role) * 6 + number - 1


def rules_of(game: RoleGame, **overrides: Any) -> dict[str, Any]:
    return {**knobs.defaults(game_knobs(game)), **overrides}


def play(state: State, *moves: int) -> State:
    for move in moves:
        assert move in state.legal_actions(), (move, state.legal_actions())
        state.apply_action(move)
        state.check_invariants()
    return state


def test_an_accident_throws_back_the_rival_in_front() -> None:
    # Both red: speed 5 resolves first (seat 0 to 5), then seat 1's accident 3 throws
    # the rival furthest ahead (seat 0) back by accident_loss 3: 5 - 3 = 2.
    state = State.arranged(
        RACER, rules_of(RACER), [[racer(RED, SPEED, 5)], [racer(RED, ACCIDENT, 3)]]
    )
    play(state, racer(RED, SPEED, 5), racer(RED, ACCIDENT, 3))
    assert state.is_terminal()  # every hand is empty
    record = state.record()
    assert record.scores == (2.0, 0.0) and record.length == 1
    assert record.events["moves"] == 1 and record.events["accidents"] == 1
    # Seat 0 is the first sole leader: that is not a change.
    assert record.events["lead_changes"] == 0


def test_a_block_resolved_before_the_accident_keeps_the_machine_in_place() -> None:
    # Seat 0 is at 10. Resolution is by number, highest first: block 6 (seat 0
    # blocking, +1 = 11), speed 5 (seat 2 to 5), accident 4 (seat 1: the rival in
    # front is seat 0, blocking, so nothing happens).
    hands = [[racer(RED, BLOCK, 6)], [racer(RED, ACCIDENT, 4)], [racer(RED, SPEED, 5)]]
    state = State.arranged(RACER, rules_of(RACER), hands, counters={"position": [10, 0, 0]})
    play(state, *(hand[0] for hand in hands))
    assert state.counters["position"] == [11, 0, 5]
    assert state.record().events["accidents"] == 0
    assert state.record().events["blocks"] == 1


def test_without_the_block_the_accident_hits() -> None:
    # The control of the test above: seat 0 plays speed 1 instead. Speed 5 (seat 2
    # to 5), accident 4 (seat 0, in front at 10, to 7), speed 1 (seat 0 to 8).
    hands = [[racer(RED, SPEED, 1)], [racer(RED, ACCIDENT, 4)], [racer(RED, SPEED, 5)]]
    state = State.arranged(RACER, rules_of(RACER), hands, counters={"position": [10, 0, 0]})
    play(state, *(hand[0] for hand in hands))
    assert state.counters["position"] == [8, 0, 5]
    assert state.record().events["accidents"] == 1


def test_an_accident_on_a_machine_at_0_throws_nothing_back_and_is_not_counted() -> None:
    # Both at 0, both red: accident 4 (seat 1: the rival furthest ahead is seat 0, at
    # 0; 0 - 3 kept at min 0 is 0: nothing moved), then speed 2 (seat 0 to 2). The
    # event is "an accident that threw the leading rival back": this one threw it
    # nowhere. The control is test_without_the_block_the_accident_hits.
    hands = [[racer(RED, SPEED, 2)], [racer(RED, ACCIDENT, 4)]]
    state = State.arranged(RACER, rules_of(RACER), hands)
    play(state, racer(RED, SPEED, 2), racer(RED, ACCIDENT, 4))
    assert state.counters["position"] == [2, 0]
    assert state.record().events["accidents"] == 0


def test_reaching_the_goal_ends_the_race_at_the_tricks_end() -> None:
    # Seat 0 at 18 leads red speed 3; seat 1's blue speed 6 is off-colour, cancelled.
    # 21 >= goal 20: the race ends though both hands still hold a card.
    hands = [
        [racer(RED, SPEED, 3), racer(BLUE, SPEED, 1)],
        [racer(BLUE, SPEED, 6), racer(RED, SPEED, 2)],
    ]
    state = State.arranged(RACER, rules_of(RACER, goal=20), hands, counters={"position": [18, 0]})
    play(state, racer(RED, SPEED, 3), racer(BLUE, SPEED, 6))
    assert state.is_terminal()
    assert state.record().scores == (21.0, 0.0) and state.record().length == 1
    assert state.record().events["cards_cancelled"] == 1
    # The control: with the goal at 30 the race goes on.
    other = State.arranged(RACER, rules_of(RACER, goal=30), hands, counters={"position": [18, 0]})
    play(other, racer(RED, SPEED, 3), racer(BLUE, SPEED, 6))
    assert not other.is_terminal()


DOZE = """\
name: doze
short: dz
players: [2, 4]
deck: {colours: [red, blue], roles: [run, nap, poke], numbers: [0, 3], copies: 1}
hand_size: 2
counters:
  dist: {}
globals:
  crowd: {}
roles:
  run:
    resolve:
      - add: {counter: dist, by: 1}
    on_cancelled:
      - add_global: {counter: crowd, by: 1, event: crowds}
  nap:
    - skip_turn: {target: next, event: naps}
  poke:
    - choose:
        - add: {counter: dist, by: -1, target: rival}
        - add: {counter: dist, by: 2}
score:
  - {counter: dist}
end:
  - {global: crowd, reaches: 2}
events:
  naps: {meaning: a nap}
  crowds: {meaning: a cancelled run}
"""
# doze's cards: roles run 0, nap 1, poke 2; numbers 0..3: (colour * 3 + role) * 4 + number.


def doze_card(colour: int, role: int, number: int) -> int:
    return (colour * 3 + role) * 4 + number


def doze(tmp_path: Path) -> RoleGame:
    path = tmp_path / "doze.yaml"
    path.write_text(DOZE, encoding="utf-8")
    return load_file(path)


def test_a_nap_keeps_the_next_seat_out_of_the_next_trick(tmp_path: Path) -> None:
    game = doze(tmp_path)
    hands = [
        [doze_card(RED, 1, 2), doze_card(RED, 0, 3)],  # nap 2, run 3
        [doze_card(RED, 0, 1), doze_card(RED, 0, 2)],  # run 1, run 2
        [doze_card(RED, 0, 0), doze_card(BLUE, 0, 3)],  # run 0, blue run 3
    ]
    state = State.arranged(game, rules_of(game), hands)
    # Nap 2 resolves first (seat 1 will sit out one trick), then run 1, run 0.
    play(state, doze_card(RED, 1, 2), doze_card(RED, 0, 1), doze_card(RED, 0, 0))
    assert state.counters["dist"] == [0, 1, 1]
    # Seat 0 leads again (its nap resolved first); seat 1 naps: only 0 and 2 play.
    assert state.order == [0, 2] and state.current_player() == 0
    # Trick 2: red run 3, then seat 2's blue run 3 is off-colour: cancelled, and its
    # on_cancelled step adds 1 to the crowd.
    play(state, doze_card(RED, 0, 3), doze_card(BLUE, 0, 3))
    assert state.globals["crowd"] == 1 and state.counters["dist"] == [1, 1, 1]
    # Seat 1, awake again, plays the last trick alone; the hands are then empty.
    assert state.order == [1]
    play(state, doze_card(RED, 0, 2))
    assert state.is_terminal() and state.record().events == {"naps": 1, "crowds": 1}


def test_a_choice_lists_a_rival_per_seat_and_one_option_for_self(tmp_path: Path) -> None:
    game = doze(tmp_path)
    # Seat 0's red poke 3 resolves alone (the others play blue: 猫に小判 would fire
    # with 2 followers off-colour, so they play red low numbers instead).
    hands = [[doze_card(RED, 2, 3)], [doze_card(RED, 0, 1)], [doze_card(RED, 0, 0)]]
    state = State.arranged(game, rules_of(game), hands)
    play(state, doze_card(RED, 2, 3), doze_card(RED, 0, 1))
    play(state, doze_card(RED, 0, 0))
    # Two options: option 0 (-1 to a rival: seat 1 or 2), option 1 (+2 to self).
    # Rival option i=0, seat s: -(1 + 2 + 0 * 3 + s); the self option: -(1 + 1).
    assert state.current_player() == 0
    assert state.legal_actions() == [-4, -5, -2]
    play(state, -5)  # seat 2 loses 1
    assert state.counters["dist"] == [0, 1, 0]  # run 1 and run 0 resolve after, +1 each
    assert state.is_terminal()


def test_a_global_goal_ends_the_game(tmp_path: Path) -> None:
    game = doze(tmp_path)
    # Two off-colour runs cancelled in one trick: the crowd reaches 2.
    hands = [
        [doze_card(RED, 0, 0), doze_card(RED, 0, 1)],
        [doze_card(BLUE, 0, 0), doze_card(RED, 0, 2)],
        [doze_card(BLUE, 0, 1), doze_card(RED, 0, 3)],
    ]
    state = State.arranged(game, rules_of(game, neko_ni_koban=False), hands)
    play(state, doze_card(RED, 0, 0), doze_card(BLUE, 0, 0), doze_card(BLUE, 0, 1))
    assert state.globals["crowd"] == 2 and state.is_terminal()


def test_every_legal_game_ends_within_its_bounds() -> None:
    """No role game can go on forever: each trick plays a card from a hand and the
    pile only shrinks, naps lapse when every seat with cards would nap. Random
    games of MEGA RACER with an unreachable goal end within the spec's bounds."""
    rules = rules_of(RACER, goal=1000)
    from balancer.games.roles.engine import bounds

    for players in (2, 6):
        limit = bounds(RACER, rules, players)
        for index in range(50):
            state = State(RACER, rules, players, Stream(11, index, CHANCE))
            pick = Stream(11, index, 99)
            moves = 0
            while not state.is_terminal():
                legal = state.legal_actions()
                state.apply_action(legal[pick.randrange(len(legal))])
                moves += 1
                assert moves <= limit.moves
            assert limit.length[0] <= state.record().length <= limit.length[1]
            assert all(not hand for hand in state.hands)


def test_a_game_of_naps_and_pokes_always_ends_with_every_hand_played(tmp_path: Path) -> None:
    """Naps keep seats out of tricks, yet every trick plays a card: with no goal to
    end it early, every random game ends with every hand empty, within the bounds."""
    path = tmp_path / "naps.yaml"
    text = DOZE.replace("end:\n  - {global: crowd, reaches: 2}\n", "")
    path.write_text(text.replace("hand_size: 2", "hand_size: 4"), encoding="utf-8")
    game = load_file(path)
    rules = rules_of(game)
    from balancer.games.roles.engine import bounds

    naps = 0
    for players in (2, 3, 4):
        limit = bounds(game, rules, players)
        for index in range(40):
            state = State(game, rules, players, Stream(5, index, CHANCE))
            pick = Stream(5, index, 99)
            moves = 0
            while not state.is_terminal():
                legal = state.legal_actions()
                state.apply_action(legal[pick.randrange(len(legal))])
                moves += 1
                assert moves <= limit.moves
            assert all(not hand for hand in state.hands) and not state.pile
            naps += state.record().events["naps"]
    assert naps > 0  # the games did nap


def test_naps_that_would_stop_every_seat_lapse(tmp_path: Path) -> None:
    game = doze(tmp_path)
    # 2 players: seat 0 naps seat 1, seat 1's card is off-colour (cancelled, crowd 1).
    hands = [[doze_card(RED, 1, 3)], [doze_card(BLUE, 0, 0), doze_card(RED, 0, 1)]]
    state = State.arranged(game, rules_of(game), hands)
    play(state, doze_card(RED, 1, 3), doze_card(BLUE, 0, 0))
    # Seat 0 has no card left and seat 1 naps: the nap lapses and seat 1 plays.
    assert state.order == [1] and not state.is_terminal()
    play(state, doze_card(RED, 0, 1))
    assert state.is_terminal()


@pytest.mark.parametrize("name", ["fish-dash-cash-roles", "mega-racer", "zodiac-race"])
def test_the_shipped_game_files_pass_the_engine_conformance_checks(name: str) -> None:
    """games/conformance.py, as every hand-written game passes it: legal moves,
    invariants, bounds, records, determinism, clones, what a view hides."""
    definition = build(load_file(gamefile.shipped_path(name)))  # type: ignore[arg-type]
    rules = knobs.freeze(knobs.defaults(definition.spec.knobs))
    for players in (definition.spec.min_players, 4, definition.spec.max_players):
        check_game(definition.spec, rules, players, seed=3, games=3)


def test_a_replay_tells_each_primitive_in_the_games_words() -> None:
    from balancer.games.roles.narrate import lines

    hands = [[racer(RED, BLOCK, 6)], [racer(RED, ACCIDENT, 4)], [racer(RED, SPEED, 5)]]
    rules = rules_of(RACER)
    state = State.arranged(RACER, rules, hands, counters={"position": [10, 0, 0]})
    state.trace = []
    play(state, *(hand[0] for hand in hands))
    told = lines(state.trace, rules)
    assert told[0] == "Trick 1: seat 0 leads"
    assert (2, "  seat 2's hand: red speed 5") in told  # for its owner's eyes only
    assert told[4:] == [
        "  played seat 0: red block 6, seat 1: red accident 4, seat 2: red speed 5",
        "  seat 0 sets blocking on seat 0",
        "  seat 0: seat 0's position 10 -> 11",
        "  seat 2: seat 2's position 0 -> 5",
        "  seat 1's add on seat 0 is stopped by blocking",
        "Game over after 1 tricks: scores seat 0 11, seat 1 0, seat 2 5",
    ]


def test_a_tricks_goal_ends_the_game_with_cards_still_in_hand(tmp_path: Path) -> None:
    """doze with `end: tricks: 2`. Trick 1: seat 0's red run 0, seat 1's red run 1, both
    resolve (+1 each); run 1 resolved first, so seat 1 leads trick 2: red run 3, then
    seat 0's red run 2 (+1 each). Two tricks: over, each hand still holding a blue run."""
    path = tmp_path / "doze-2.yaml"
    path.write_text(DOZE.replace("end:\n", "end:\n  - {tricks: 2}\n"), encoding="utf-8")
    game = load_file(path)
    run = [doze_card(RED, 0, n) for n in range(4)]
    hands = [[run[0], run[2], doze_card(BLUE, 0, 0)], [run[1], run[3], doze_card(BLUE, 0, 2)]]
    state = State.arranged(game, rules_of(game), hands)
    play(state, run[0], run[1])
    assert not state.is_terminal() and state.current_player() == 1
    play(state, run[3], run[2])
    assert state.is_terminal()
    assert state.hands == [[doze_card(BLUE, 0, 0)], [doze_card(BLUE, 0, 2)]]
    assert state.record().scores == (2.0, 2.0) and state.record().length == 2


HEIST = """\
name: heist
short: hst
players: [2, 3]
deck: {colours: [red], roles: [keep, rob], numbers: [1, 3], copies: 1}
hand_size: 1
zones:
  stash: {face: up}
  left: {face: up}
  middle: {face: up}
  right: {face: up}
roles:
  keep:
    - place: {zone: stash}
  rob:
    - choose:
        - steal: {from: stash, to: left}
        - steal: {from: stash, to: middle}
        - steal: {from: stash, to: right}
score:
  - {zone: stash}
  - {zone: left}
  - {zone: middle}
  - {zone: right}
"""
# heist's 6 cards: role * 3 + number - 1 (keep 0-2, rob 3-5).


def test_each_steal_of_a_choose_takes_its_own_decisions(tmp_path: Path) -> None:
    """Decisions taking a card are k * deck size + card, k counting the steals before it
    in the choose (docs/new-game.md). Seat 0's rob 3 resolves before seat 1's keep 2;
    the one card to take is keep 1 (card 0) in seat 1's stash, by each of three steals:
    0 * 6 + 0, 1 * 6 + 0, 2 * 6 + 0. The third puts it in seat 0's right."""
    path = tmp_path / "heist.yaml"
    path.write_text(HEIST, encoding="utf-8")
    game = load_file(path)
    keep_1, keep_2, rob_3 = 0, 1, 5
    state = State.arranged(
        game, rules_of(game), [[rob_3], [keep_2]], zones={"stash": [[], [keep_1]]}
    )
    play(state, rob_3, keep_2)
    assert state.current_player() == 0 and state.legal_actions() == [0, 6, 12]
    play(state, 12)
    assert state.is_terminal()
    assert state.zones == {
        "stash": [[], [keep_2]],
        "left": [[], []],
        "middle": [[], []],
        "right": [[keep_1], []],
    }
