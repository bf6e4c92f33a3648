"""The rank score term (roles/rank.py), worked out by hand from docs/new-game.md's words:
"seats ranked by the counter, the most first (`order: lowest`: the fewest first);
place p scores points[p - 1], a place past the list 0; tied seats share the best
place they tie for (1, 2, 2, 4)".

The game, RANKS: one red `step` card per seat adds its number to `distance`; the
score is the rank term alone, points [gold, 3, 1] with the knob gold = 5. Its cards:
red step 1..5 are cards 0..4. tests/kernels/test_roles_deck_groups_kernel.py holds
the compiled kernel to the same scores.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

from balancer import knobs
from balancer.games.roles import bounds, check_file, load_file, narrate
from balancer.games.roles.definition import game_knobs
from balancer.games.roles.engine import State
from balancer.games.roles.engine import bounds as score_bounds
from balancer.games.roles.model import RoleGame

RANKS = """\
name: ranks
short: rk
players: [2, 5]
deck: {colours: [red], roles: [step], numbers: [1, 5], copies: 1}
hand_size: 1
counters:
  distance: {min: 0, max: 50}
knobs:
  gold: {default: 5, range: [0, 100], meaning: the first place's points}
roles:
  step: [{add: {counter: distance, by: number}}]
score:
  - {rank: {counter: distance, points: [gold, 3, 1]}}
"""
LOWEST = RANKS.replace("points: [gold, 3, 1]}", "points: [gold, 3, 1], order: lowest}")


def ranks(folder: Path, text: str = RANKS) -> RoleGame:
    path = folder / "ranks.yaml"
    path.write_text(text, encoding="utf-8")
    return load_file(path)


@dataclass(frozen=True)
class Standing:
    """Counters laid by hand, the order, a knob, and the scores worked out by hand."""

    distance: tuple[int, ...]
    scores: tuple[int, ...]
    lowest: bool = False
    gold: int = 5

    def state(self, folder: Path) -> State:
        game = ranks(folder, LOWEST if self.lowest else RANKS)
        rules = {**knobs.defaults(game_knobs(game)), "gold": self.gold}
        hands = [[s % 5] for s in range(len(self.distance))]  # a card each, not played
        return State.arranged(game, rules, hands, counters={"distance": list(self.distance)})


STANDINGS = {
    # 9 > 6 > 4 > 1: places 1, 3, 2, 4 by seat; points 5, 1, 3 and 0 past the list.
    "no-tie": Standing((9, 4, 6, 1), (5, 1, 3, 0)),
    # A two-way tie first: 7, 7 both place 1 (no seat ahead), 2 place 3 (two ahead),
    # 0 place 4: 5, 5, 1, 0 (place 2 is skipped, as in 1, 1, 3, 4).
    "two-way-tie-first": Standing((7, 7, 2, 0), (5, 5, 1, 0)),
    # A two-way tie second: 9 place 1, both 4s place 2 (one ahead), 1 place 4: 5, 3, 3, 0.
    "two-way-tie-second": Standing((9, 4, 4, 1), (5, 3, 3, 0)),
    # A three-way tie first: 4, 4, 4 place 1 each (5 points each), 1 place 4 (0).
    "three-way-tie-first": Standing((4, 4, 4, 1), (5, 5, 5, 0)),
    # A three-way tie last of five: 9 place 1 (5), 8 place 2 (3), the three 2s place 3
    # each (two ahead): 1 each, though places 4 and 5 are past the list.
    "three-way-tie-last": Standing((8, 2, 2, 2, 9), (3, 1, 1, 1, 5)),
    # Every seat tied: both place 1.
    "all-tied": Standing((3, 3), (5, 5)),
    # The fewest first: 0 place 1 (5), 2 place 2 (3), the two 7s place 3 (1 each).
    "lowest-first": Standing((7, 7, 2, 0), (1, 1, 3, 5), lowest=True),
    # The knob gold = 10 is place 1's points: 10, 10, 1, 0.
    "knob-points": Standing((7, 7, 2, 0), (10, 10, 1, 0), gold=10),
}


@pytest.mark.parametrize("name", list(STANDINGS))
def test_each_standing_scores_as_worked_out(tmp_path: Path, name: str) -> None:
    standing = STANDINGS[name]
    state = standing.state(tmp_path)
    assert state.scores() == [float(s) for s in standing.scores]


def test_the_term_is_scored_on_the_counters_the_game_ends_with(tmp_path: Path) -> None:
    """Distances 2, 4, 0 before the last trick; seats 0, 1, 2 play red step 3, 1, 5
    (all red, numbers apart: none cancelled), each adding its number: 5, 5, 5, a
    three-way tie, place 1 each, 5 points each. Before the trick the standing was
    4 > 2 > 0: 3, 5, 1. The replay tells the places before the scores."""
    game = ranks(tmp_path)
    rules = knobs.defaults(game_knobs(game))
    state = State.arranged(game, rules, [[2], [0], [4]], counters={"distance": [2, 4, 0]})
    assert state.scores() == [3.0, 5.0, 1.0]
    state.trace = []
    for card in (2, 0, 4):
        state.apply_action(card)
    assert state.is_terminal()
    assert state.counters["distance"] == [5, 5, 5]
    assert state.record().scores == (5.0, 5.0, 5.0)
    told = [line for line in narrate.lines(state.trace or [], rules) if isinstance(line, str)]
    assert told[-2:] == [
        "  ranked by distance, the most first: seat 0 place 1 (+5), seat 1 place 1 (+5), "
        "seat 2 place 1 (+5)",
        "Game over after 1 tricks: scores seat 0 5, seat 1 5, seat 2 5",
    ]


def test_the_score_bounds_are_the_points_and_0(tmp_path: Path) -> None:
    """Points [gold = 5, 3, 1]: a seat scores at most 5, at least 0 (a place past the
    list); with points [-4, 2] (a penalty first) at least -4, at most 2; the static
    bound for the 64-bit check is the largest point in magnitude, gold's range top 100."""
    game = ranks(tmp_path)
    rules = knobs.defaults(game_knobs(game))
    assert score_bounds(game, rules, 3).score == (0.0, 5.0)
    other = ranks(tmp_path, RANKS.replace("[gold, 3, 1]", "[-4, 2]"))
    assert score_bounds(other, knobs.defaults(game_knobs(other)), 3).score == (-4.0, 2.0)
    term = game.score[0]
    assert bounds.term_most(term, game.deck, game.counters, game.knobs) == 100


# (text replaced in RANKS, its replacement, key, a piece of the message); all on line 13.
MISTAKES = [
    ("counter: distance, points", "counter: distanse, points", "score[0].rank.counter",
     "unknown counter 'distanse' (did you mean 'distance'?)"),
    ("points: [gold, 3, 1]", "points: 5", "score[0].rank.points", "expected a list"),
    ("points: [gold, 3, 1]", "points: []", "score[0].rank.points", "expected a list"),
    ("points: [gold, 3, 1]", "points: [gold, three, 1]", "score[0].rank.points[1]",
     "expected a whole number or a knob, got 'three'"),
    ("[gold, 3, 1]}", "[gold, 3, 1], order: last}", "score[0].rank.order",
     "expected highest or lowest"),
    (", points: [gold, 3, 1]", "", "score[0].rank", "missing key 'points'"),
    ("{counter: distance, points", "{points", "score[0].rank", "missing key 'counter'"),
    ("[gold, 3, 1]}", "[gold, 3, 1], per: 2}", "score[0].rank.per", "unknown key"),
    ("{rank: {counter: distance, points: [gold, 3, 1]}}", "{rank: distance}", "score[0].rank",
     "expected {counter: C, points: [first, second, ...]}"),
]  # fmt: skip


@pytest.mark.parametrize("old, new, key, piece", MISTAKES)
def test_a_bad_rank_term_is_one_line_at_its_key(
    tmp_path: Path, old: str, new: str, key: str, piece: str
) -> None:
    assert old in RANKS
    path = tmp_path / "ranks.yaml"
    path.write_text(RANKS.replace(old, new), encoding="utf-8")
    game, problems = check_file(path)
    assert game is None
    assert [(p.line, p.key) for p in problems] == [(13, key)], problems
    assert problems[0].message.startswith(f"{path}:13: {key}: ")
    assert piece in problems[0].message


@pytest.mark.parametrize("text", [RANKS, LOWEST])
def test_the_rank_games_themselves_are_valid(tmp_path: Path, text: str) -> None:
    """The control of the test above."""
    path = tmp_path / "ranks.yaml"
    path.write_text(text, encoding="utf-8")
    game, problems = check_file(path)
    assert problems == [] and game is not None
