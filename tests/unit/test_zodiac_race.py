"""The zodiac race (猫にまつわる干支セトラ) played by hand: outcomes worked out from
docs/games/zodiac-race.md, and the place term's checks in a game file.

Cards: colours red 0, blue 1; roles run 0, ride 1, tease 2; numbers 0..9:
card = (colour * 3 + role) * 10 + number (the engine's encoding). Defaults:
gate 22, ride_gap 2; place p of 12 scores 13 - p, the cat (a place past 12) 0.
Resolution is highest number first; the owner of the first card resolved leads next.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from balancer import knobs
from balancer.games.api import win_shares
from balancer.games.roles import check_file, gamefile, load_file
from balancer.games.roles.definition import game_knobs
from balancer.games.roles.engine import State

ZODIAC_FILE = gamefile.shipped_path("zodiac-race")
assert ZODIAC_FILE is not None
ZODIAC = load_file(ZODIAC_FILE)
RUN, RIDE, TEASE = 0, 1, 2
RED, BLUE = 0, 1


def card(colour: int, role: int, number: int) -> int:
    return (colour * 3 + role) * 10 + number


def rules(**overrides: Any) -> dict[str, Any]:
    return {**knobs.defaults(game_knobs(ZODIAC)), **overrides}


def play(state: State, *moves: int) -> State:
    for move in moves:
        assert move in state.legal_actions(), (move, state.legal_actions())
        state.apply_action(move)
        state.check_invariants()
    return state


def test_arrivals_take_places_in_order_behind_an_animal_that_overtook() -> None:
    # Steps [20, 15, 0]. Seat 2's blue run is off-colour: cancelled, and a cancelled
    # run lets another animal through (zodiac 0 -> 1). Run 9 takes seat 1 to 24, run
    # 5 seat 0 to 25: both at the gate (22) when the trick ends; the further (seat 0,
    # 25) takes place 2, seat 1 place 3: 13 - 2 = 11 and 13 - 3 = 10 points.
    hands = [[card(RED, RUN, 5)], [card(RED, RUN, 9)], [card(BLUE, RUN, 1)]]
    state = State.arranged(ZODIAC, rules(), hands, counters={"steps": [20, 15, 0]})
    play(state, *(h[0] for h in hands))
    assert state.counters["steps"] == [25, 24, 0]
    assert state.places["zodiac"] == [2, 3, 0] and state.globals["zodiac"] == 3
    record = state.record()
    assert record.scores == (11.0, 10.0, 0.0)
    assert record.events["overtaken"] == 1 and record.events["arrivals"] == 2
    assert record.events["cats"] == 0


def test_animals_arriving_level_share_a_place_and_the_next_takes_the_one_after() -> None:
    # Trick 1: runs 3, 6, 1 take steps [20, 17, 13] to [23, 23, 14]: seats 0 and 1
    # arrive level and share place 1 (12 points each); two places are taken. Seat 1's
    # run 6 resolved first: seat 1 leads trick 2, where seat 2's run 9 takes it to 23:
    # place 3 (10 points). Seats 0 and 1 share the win.
    hands = [
        [card(RED, RUN, 3), card(RED, RUN, 4)],
        [card(RED, RUN, 6), card(RED, RUN, 2)],
        [card(RED, RUN, 1), card(RED, RUN, 9)],
    ]
    state = State.arranged(ZODIAC, rules(), hands, counters={"steps": [20, 17, 13]})
    play(state, card(RED, RUN, 3), card(RED, RUN, 6), card(RED, RUN, 1))
    assert state.places["zodiac"] == [1, 1, 0] and state.globals["zodiac"] == 2
    assert state.current_player() == 1
    play(state, card(RED, RUN, 2), card(RED, RUN, 9), card(RED, RUN, 4))
    assert state.places["zodiac"] == [1, 1, 3] and state.globals["zodiac"] == 3
    assert state.is_terminal()
    scores = state.record().scores
    assert scores == (12.0, 12.0, 10.0)
    assert win_shares(scores, True) == (0.5, 0.5, 0.0)


def cat_position(zodiac: int) -> State:
    # Steps [20, 19, 0], `zodiac` places already taken; runs 5, 4, 2 take seats 0
    # and 1 to 25 and 23, both past the gate; each seat keeps one more card.
    hands = [
        [card(RED, RUN, 5), card(RED, RUN, 7)],
        [card(RED, RUN, 4), card(RED, RUN, 8)],
        [card(RED, RUN, 2), card(RED, RUN, 6)],
    ]
    state = State.arranged(
        ZODIAC, rules(), hands, counters={"steps": [20, 19, 0]}, globals_={"zodiac": zodiac}
    )
    return play(state, card(RED, RUN, 5), card(RED, RUN, 4), card(RED, RUN, 2))


def test_the_animal_after_the_twelfth_place_is_the_cat_and_ends_the_race() -> None:
    # 11 places taken: seat 0 (25) takes place 12, 1 point; seat 1 (23) takes place
    # 13, past the twelve: it is the cat, 0 points; the 13th place taken ends the
    # race though every hand still holds a card. One arrival took a place (the cat
    # took none: `arrivals` counts an animal that took one of the twelve places).
    state = cat_position(11)
    assert state.places["zodiac"] == [12, 13, 0]
    assert state.is_terminal() and state.tricks == 1
    record = state.record()
    assert record.scores == (1.0, 0.0, 0.0)
    assert record.events["cats"] == 1 and record.events["arrivals"] == 1


def test_with_one_place_more_there_is_no_cat_and_the_race_goes_on() -> None:
    # The control: 10 places taken: places 11 and 12 (2 and 1 points), no cat, 12
    # places taken is not the end.
    state = cat_position(10)
    assert state.places["zodiac"] == [11, 12, 0]
    assert not state.is_terminal()
    assert state.scores() == [2.0, 1.0, 0.0] and state.record().events["cats"] == 0
    assert state.record().events["arrivals"] == 2


def test_a_ride_comes_up_behind_the_animal_furthest_ahead() -> None:
    # Steps [0, 15, 20]: ride 9 resolves first and takes seat 0 to the furthest
    # rival's 20 less ride_gap 2: 18; then run 1 (seat 1 to 16), run 0 (seat 2 stays).
    hands = [[card(RED, RIDE, 9)], [card(RED, RUN, 1)], [card(RED, RUN, 0)]]
    state = State.arranged(ZODIAC, rules(), hands, counters={"steps": [0, 15, 20]})
    play(state, *(h[0] for h in hands))
    assert state.counters["steps"] == [18, 16, 20]
    assert state.record().events["rides"] == 1
    # `runs` counts a run that moved its animal: run 1, not run 0 (docs/games).
    assert state.record().events["runs"] == 1


def test_a_tease_makes_the_animal_furthest_ahead_sit_out_the_next_trick() -> None:
    # Steps [0, 10, 5]: seat 0's tease 7 resolves first; seat 1, furthest ahead,
    # sits out trick 2, which seat 0 leads: only seats 0 and 2 play it.
    hands = [
        [card(RED, TEASE, 7), card(RED, RUN, 3)],
        [card(RED, RUN, 1), card(RED, RUN, 5)],
        [card(RED, RUN, 2), card(RED, RUN, 4)],
    ]
    state = State.arranged(ZODIAC, rules(), hands, counters={"steps": [0, 10, 5]})
    play(state, card(RED, TEASE, 7), card(RED, RUN, 1), card(RED, RUN, 2))
    assert state.order == [0, 2]
    assert state.record().events["teases"] == 1


def test_two_teases_in_a_trick_make_an_animal_sit_out_the_next_trick_only() -> None:
    # Steps [10, 0, 0]: seats 1 and 2 both tease seat 0, the furthest ahead of each.
    # Tease 9 resolves first: seat 0 sits out trick 2 (the page: "sits out the next
    # trick"); tease 8 finds it napping and does nothing, not a second trick, and is
    # not counted. Trick 2 (seat 1 leads, its tease resolved first): seats 1 and 2
    # only; trick 3: seat 0 plays again.
    hands = [
        [card(RED, RUN, 1), card(RED, RUN, 2), card(RED, RUN, 3)],
        [card(RED, TEASE, 9), card(RED, RUN, 5), card(RED, RUN, 6)],
        [card(RED, TEASE, 8), card(RED, RUN, 4), card(RED, RUN, 7)],
    ]
    state = State.arranged(ZODIAC, rules(), hands, counters={"steps": [10, 0, 0]})
    play(state, card(RED, RUN, 1), card(RED, TEASE, 9), card(RED, TEASE, 8))
    assert state.order == [1, 2]
    play(state, card(RED, RUN, 5), card(RED, RUN, 4))  # run 5 first: seat 1 leads again
    assert state.order == [1, 2, 0]
    assert state.record().events["teases"] == 1


# -- the place term in a game file ------------------------------------------------

# A copy under a name of its own: one keeping the shipped game's name is refused.
BASE = (
    ZODIAC_FILE.read_text(encoding="utf-8")
    .replace("name: zodiac-race", "name: my-zodiac")
    .replace("short: zr", "short: myz")
)
SCORE = """\
  - {place: zodiac, counter: steps, reaches: gate, places: 12, beyond: 0, event: arrivals,
     beyond_event: cats}
"""
assert SCORE in BASE


@pytest.mark.parametrize(
    ("new", "key", "piece"),
    [
        (SCORE.replace("place: zodiac", "place: zodiak"), "score[0].place",
         "unknown global counter 'zodiak' (did you mean 'zodiac'?)"),
        (SCORE.replace("places: 12", "places: 0"), "score[0].places",
         "expected at least 1 place"),
        (SCORE.replace("places: 12, ", ""), "score[0]", "missing key 'places'"),
        (SCORE.replace("reaches: gate", "reaches: 5000"), "score[0].reaches",
         "the deck can never bring steps to 5000 (at most 1000)"),
        (SCORE.replace("beyond: 0", "behind: 0"), "score[0].behind",
         "unknown key (did you mean 'beyond'?)"),
        (SCORE + "  - {place: zodiac, counter: steps, reaches: 3, places: 2}\n", "score[1].place",
         "global counter 'zodiac' already hands out places (at score.0.place)"),
    ],
)  # fmt: skip
def test_a_place_terms_mistake_is_named(tmp_path: Path, new: str, key: str, piece: str) -> None:
    path = tmp_path / "zr.yaml"
    path.write_text(BASE.replace(SCORE, new), encoding="utf-8")
    _, problems = check_file(path)
    assert [p.key for p in problems] == [key], [p.message for p in problems]
    assert piece in problems[0].message


def test_a_place_term_belongs_in_score(tmp_path: Path) -> None:
    text = BASE.replace(
        "  runs:\n",
        "  places_at_end:\n    at_end: {place: zodiac, counter: steps, reaches: 3, places: 2}\n"
        "    meaning: places\n  runs:\n",
    )
    path = tmp_path / "zr.yaml"
    path.write_text(text, encoding="utf-8")
    _, problems = check_file(path)
    assert [p.key for p in problems] == ["events.places_at_end.at_end.place"]
    assert "it belongs in score:" in problems[0].message


ARRIVALS_ONLY = """\
name: gate-only
short: go
players: [2, 4]
deck: {colours: [red], roles: [step], numbers: [1, 4], copies: 1}
hand_size: 1
counters:
  lap: {}
globals:
  gone: {}
roles:
  step:
    - add: {counter: lap, by: number}
score:
  - {place: gone, counter: lap, reaches: 2, places: 3}
end:
  - {global: gone, reaches: GOAL}
"""


def test_arrivals_count_toward_a_global_goal(tmp_path: Path) -> None:
    # Nothing but arrivals raises `gone`: at most one per seat, 4 at the most players.
    path = tmp_path / "go.yaml"
    path.write_text(ARRIVALS_ONLY.replace("GOAL", "4"), encoding="utf-8")
    assert check_file(path)[1] == []
    path.write_text(ARRIVALS_ONLY.replace("GOAL", "5"), encoding="utf-8")
    problems = check_file(path)[1]
    assert [p.key for p in problems] == ["end[0].reaches"]
    assert "the deck can never bring gone to 5 (at most 4)" in problems[0].message


def test_a_replay_tells_each_arrival_and_the_cat() -> None:
    from balancer.games.roles.narrate import lines

    # The cat position (11 places taken): seat 0 takes place 12, seat 1 is the cat.
    hands = [
        [card(RED, RUN, 5), card(RED, RUN, 7)],
        [card(RED, RUN, 4), card(RED, RUN, 8)],
        [card(RED, RUN, 2), card(RED, RUN, 6)],
    ]
    state = State.arranged(
        ZODIAC, rules(), hands, counters={"steps": [20, 19, 0]}, globals_={"zodiac": 11}
    )
    state.trace = []
    play(state, card(RED, RUN, 5), card(RED, RUN, 4), card(RED, RUN, 2))
    told = [line for line in lines(state.trace, rules()) if isinstance(line, str)]
    assert told[-3:] == [
        "  seat 0 arrives: place 12 of zodiac",
        "  seat 1 arrives after every place of zodiac is taken (13)",
        "Game over after 1 tricks: scores seat 0 1, seat 1 0, seat 2 0",
    ]


def test_lookahead_runs_for_the_gate_rather_than_riding_short_of_it() -> None:
    # Seat 0 leads alone (seat 1 holds nothing, the pile is empty) at 18 steps, seat
    # 1 at 21; gate 22, nobody placed. Run 4 takes seat 0 to 22: it arrives, place 1,
    # 12 points against 0: margin 12, pull 4 * (1 - 21/22). A ride takes it to 21 - 2
    # = 19 only: margin 0, pull 4 * (19/22 - 21/22). The hand keeps a card either
    # way: no game ends. The run is listed second so a tie would pick the ride.
    from balancer.games.roles.lookahead import Lookahead
    from balancer.rng import Stream

    hands: list[list[int]] = [[card(RED, RIDE, 9), card(RED, RUN, 4), card(BLUE, RUN, 1)], []]
    state = State.arranged(ZODIAC, rules(), hands, counters={"steps": [18, 21]})
    bot = Lookahead(ZODIAC)
    legal = state.legal_actions()[:2]
    values = bot.values(state.view(0), legal, Stream(1, 0, 0))
    assert values == pytest.approx([4 * (19 - 21) / 22, 12 + 4 * (1 - 21 / 22)])
    assert bot.act(state.view(0), legal, Stream(1, 0, 0)) == card(RED, RUN, 4)
