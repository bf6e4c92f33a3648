"""Kimekimera's exact odds: hand-worked lotteries, the simulator against them, the bots, the CLI.

The situation used throughout: theme r5+b7 (sum 12), my chimera y3+g12.
Breeding with r1+rainbow gives, in PAIRS order:
  y3+g12 15: error 3, no match            ->  3
  y3+r1   4: error 8, r1~r5               ->  8 - 3 =  5
  y3+RB  16: error 4, RB~either           ->  4 - 3 =  1
  g12+r1 13: error 1, r1~r5               ->  1 - 3 = -2
  g12+RB 25: error 13, RB~either          -> 13 - 3 = 10
  r1+RB  14: error 2, r1~r5 and RB~b7     ->  2 - 7 = -5     mean 12/6 = 2
Breeding with b9+grey:
  y3+g12 3; y3+b9 12: error 0, b9~b7 -> -3; y3+grey 0; g12+b9 21: 9 - 3 = 6;
  g12+grey 0; b9+grey 0 (grey blocks the bonus)            mean 6/6 = 1
  (with grey's partner counting, b9+grey -> -3, and the mean is 3/6)
Breeding with y4+g5: 3; y3+y4 7: 5; y3+g5 8: 4; g12+y4 16: 4; g12+g5 17: 5;
  y4+g5 9: 3                                               mean 24/6 = 4
"""

from __future__ import annotations

import json
import math
from fractions import Fraction

from click.testing import CliRunner

from balancer import knobs
from balancer.cli.kk_odds import kk_odds
from balancer.games.kimekimera import engine as kk
from balancer.games.kimekimera.bots import BOTS, Cautious, Expected
from balancer.games.kimekimera.engine import KEEP, State
from balancer.games.kimekimera.odds import Scoring, odds
from balancer.rng import Stream

DEFAULTS = knobs.defaults(kk.KNOBS)
RB, GREY = 48, 52


def c(name: str) -> int:
    return kk.parse_card(name)


THEME = (c("r5"), c("b7"))
MINE = (c("y3"), c("g12"))
FREE = [(c("r1"), RB), (c("b9"), GREY), (c("y4"), c("g5"))]


def test_each_choice_is_the_exact_lottery_over_the_six_pairs() -> None:
    choices = odds(THEME, MINE, FREE)
    assert [ch.choice for ch in choices] == [0, 1, 2]
    assert choices[0].scores == (3, 5, 1, -2, 10, -5)
    assert choices[0].chimeras == (
        (c("y3"), c("g12")),
        (c("y3"), c("r1")),
        (c("y3"), RB),
        (c("g12"), c("r1")),
        (c("g12"), RB),
        (c("r1"), RB),
    )
    assert choices[0].expected == 2
    assert choices[1].scores == (3, -3, 0, 6, 0, 0) and choices[1].expected == 1
    assert choices[2].scores == (3, 5, 4, 4, 5, 3) and choices[2].expected == 4
    assert [choices[0].worst(k) for k in range(1, 7)] == [10, 5, 3, 1, -2, -5]


def test_scoring_knobs_change_the_lottery() -> None:
    partner = odds(THEME, MINE, FREE[1:2], Scoring(grey_blocks_colour_bonus=False))[0]
    assert partner.scores == (3, -3, 0, 6, 0, -3) and partner.expected == Fraction(1, 2)
    floored = odds(THEME, MINE, FREE[:1], Scoring(floor_at_zero=True))[0]
    assert floored.scores == (3, 5, 1, 0, 10, 0) and floored.expected == Fraction(19, 6)
    bigger = odds(THEME, MINE, FREE[:1], Scoring(bonus_1=4, bonus_2=9))[0]
    assert bigger.scores == (3, 4, 0, -3, 9, -7) and bigger.expected == 1


def test_keep_and_empty_slots() -> None:
    choices = odds(THEME, MINE, [(), FREE[0]], keep=True)
    assert [ch.choice for ch in choices] == [1, KEEP]
    assert choices[1].scores == (3,) * 6 and choices[1].free is None


def test_the_simulator_breeds_as_the_odds_say() -> None:
    """20,000 breedings through the game: the mean within 4 standard errors of the exact one."""
    exact = odds(THEME, MINE, FREE[:1])[0]
    rng = Stream(20261130, 0, 0)
    counts = dict.fromkeys(exact.chimeras, 0)
    total = 0.0
    n = 20_000
    for _ in range(n):
        state = State.arranged(
            {**DEFAULTS, "rounds": 1}, mine=[MINE], free=FREE[:1], theme=THEME, rng=rng
        )
        state.apply_action(0)
        total += state.record().scores[0]
        counts[(state.mine[0], state.mine[1])] += 1
    mean = float(exact.expected)
    sd = math.sqrt(sum((s - mean) ** 2 for s in exact.scores) / 6)
    assert abs(total / n - mean) < 4 * sd / math.sqrt(n)
    # Each pair comes up 1/6 of the time (binomial, 4 standard errors).
    spread = 4 * math.sqrt(n * (1 / 6) * (5 / 6))
    assert all(abs(k - n / 6) < spread for k in counts.values())


def _view(free: list, rules: dict | None = None) -> tuple:
    state = State.arranged({**DEFAULTS, **(rules or {})}, mine=[MINE], free=free, theme=THEME)
    return state.view(0), state.legal_actions()


def test_expected_takes_the_lowest_mean_and_cautious_the_best_bad_case() -> None:
    view, legal = _view(FREE)
    rng = Stream(0, 0, 0)
    assert Expected().act(view, legal, rng) == 1  # means 2, 1, 4
    assert Cautious(rank=1).act(view, legal, rng) == 2  # worst cases 10, 6, 5
    assert Cautious(rank=2).act(view, legal, rng) == 1  # 2nd-worst 5, 3, 5
    assert BOTS["cautious"].params[0].name == "rank"
    assert BOTS["cautious"].params[0].section == "params"
    assert BOTS["cautious"].factory(rank=3).rank == 3


def test_bots_use_the_variant_s_scoring() -> None:
    # b9+grey (mean 1; 1/2 when grey's partner counts) against r3+b6 (mean 5/6).
    free = [FREE[1], (c("r3"), c("b6"))]
    assert Expected().act(*_view(free), Stream(0, 0, 0)) == 1
    view, legal = _view(free, {"grey_blocks_colour_bonus": False})
    assert Expected().act(view, legal, Stream(0, 0, 0)) == 0
    # r1+rainbow (mean 2; 19/6 floored) against r2+y5 (17/6; 3 floored).
    free = [FREE[0], (c("r2"), c("y5"))]
    assert Expected().act(*_view(free), Stream(0, 0, 0)) == 0
    view, legal = _view(free, {"floor_at_zero": True})
    assert Expected().act(view, legal, Stream(0, 0, 0)) == 1


def test_bots_may_keep_when_breeding_is_optional() -> None:
    # Keeping y3+g12 scores 3 for sure. y1+g1 can give 3, 8, 8, 1, 1, 10: mean 31/6.
    view, legal = _view([(c("y1"), c("g1"))], {"breeding_optional": True})
    assert legal == [0, KEEP]
    assert Expected().act(view, legal, Stream(0, 0, 0)) == KEEP
    # b9+grey with grey's partner counting: mean 1/2 but worst 6, against a sure 3.
    view, legal = _view([FREE[1]], {"breeding_optional": True, "grey_blocks_colour_bonus": False})
    assert Expected().act(view, legal, Stream(0, 0, 0)) == 0
    assert Cautious(rank=1).act(view, legal, Stream(0, 0, 0)) == KEEP


def test_ties_go_to_the_first_legal_move_whatever_the_generator() -> None:
    # Two rainbow pairs are the same lottery.
    view, legal = _view([(48, 49), (50, 51)])
    for seed in range(5):
        assert Expected().act(view, legal, Stream(seed, 0, 0)) == 0
        assert Cautious(rank=3).act(view, legal, Stream(seed, 0, 0)) == 0


def test_the_expected_bot_agrees_with_the_odds_in_dealt_games() -> None:
    for seed in range(200):
        state = kk.new_state(DEFAULTS, 3, Stream(seed, 0, 0))
        if state.legal_actions() == [kk.REPLACE]:
            continue  # a dealt robot's forced replacement: no choice to judge
        seat = state.current_player()
        view = state.view(seat)
        free = [view.free_chimera(s) for s in range(state.n_free)]
        choices = odds(view.theme, view.my_chimera(), free)
        best = min(ch.expected for ch in choices)
        chosen = Expected().act(view, state.legal_actions(), Stream(0, 0, 0))
        assert next(ch for ch in choices if ch.choice == chosen).expected == best
        worst = min(ch.worst(2) for ch in choices)
        chosen = Cautious(rank=2).act(view, state.legal_actions(), Stream(0, 0, 0))
        assert next(ch for ch in choices if ch.choice == chosen).worst(2) == worst


# -- the command --------------------------------------------------------------

ARGS = ["--theme", "r5,b7", "--mine", "y3,g12", "--free", "r1,rainbow", "--free", "b9,grey"]


def test_command_prints_a_table_marking_the_best() -> None:
    result = CliRunner().invoke(kk_odds, [*ARGS, "--free", "y4,g5", "--keep"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].startswith("theme r5+b7, mine y3+g12")
    best = [line for line in lines if line.startswith("*")]
    assert len(best) == 1 and "free 1: b9+grey" in best[0]
    assert any("free 0: r1+rainbow" in line and " 2 " in line for line in lines)
    assert any(line.lstrip().startswith("keep") for line in lines)


def test_command_json_and_scoring_flags() -> None:
    result = CliRunner().invoke(
        kk_odds, [*ARGS, "--grey-partner-counts", "--bonus-1", "3", "--json"]
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["best"] == 1
    assert data["scoring"]["grey_blocks_colour_bonus"] is False
    assert [ch["expected"] for ch in data["choices"]] == ["2", "1/2"]
    assert data["choices"][1]["outcomes"][5] == {"chimera": ["b9", "grey"], "score": -3}
    assert data["choices"][0]["sorted_worst_first"] == [10, 5, 3, 1, -2, -5]
    floored = json.loads(
        CliRunner().invoke(kk_odds, [*ARGS[:6], "--floor-at-zero", "--json"]).output
    )
    assert floored["choices"][0]["expected"] == "19/6"


def test_command_rejects_bad_cards_in_one_line_with_exit_2() -> None:
    for args in (
        ["--theme", "r5,b13", "--mine", "y3,g12", "--free", "r1,b2"],
        ["--theme", "r5", "--mine", "y3,g12", "--free", "r1,b2"],
        ["--theme", "r5,b7", "--mine", "y3,g12", "--free", "r5,b2"],  # r5 twice
        ["--theme", "r5,grey", "--mine", "y3,g12", "--free", "r1,b2"],
        ["--theme", "r5,b7", "--mine", "y3,grey", "--free", "r1,b2"],
        [
            *ARGS[:4],
            "--free",
            "rainbow,rainbow",
            "--free",
            "rainbow,rainbow",
            "--free",
            "rainbow,b2",
        ],
    ):
        result = CliRunner().invoke(kk_odds, args)
        assert result.exit_code == 2, (args, result.output)
        assert len(result.output.strip().splitlines()) == 1
        assert "Traceback" not in result.output
    missing = CliRunner().invoke(kk_odds, ["--theme", "r5,b7", "--mine", "y3,g12"])
    assert missing.exit_code == 2


def test_command_has_help() -> None:
    result = CliRunner().invoke(kk_odds, ["--help"])
    assert result.exit_code == 0
    for flag in ("--theme", "--mine", "--free", "--bonus-1", "--bonus-2", "--grey-partner-counts"):
        assert flag in result.output
