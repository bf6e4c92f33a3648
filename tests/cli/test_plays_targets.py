"""`expect:` and `tune --target` on the `plays:` figures: held to a number at the target's
level, on the variant's own sample (analysis/plays_measure.py); refused up front, in one line,
where they can't be (no `plays:`, --until-decided, against another figure, tune's min/max).

SUM (tests/plays_games.py): a seat scores its hand's sum whatever it plays, so the deal
decides (share 1, every resample too) and search buys nothing over random (0 in every deal).
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from balancer.analysis import expect, plays_measure
from balancer.analysis.plays import Games
from balancer.cli import main
from balancer.config.variant import Variant, load
from tests import plays_games
from tests.helpers import one_error_line

SAMPLE = "plays: {games: 2, deals: 3, search_budget: 2}\n"


def _file(game: str, name: str, tail: str, hand_size: int | None = None) -> Path:
    folder = plays_games.game_file(game).parent
    file = game.split("\n", 1)[0].removeprefix("name: ")
    path = folder / f"{file}-target-{name}.yaml"
    head = f"game: ./{file}.yaml\nplayers: 2\ngames: 6\nseed: 7\nbots: random\n"
    path.write_text(head + tail, encoding="utf-8")
    return path


def test_a_target_that_holds_passes_and_one_that_does_not_fails(
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = _file(
        plays_games.SUM,
        "check",
        SAMPLE + "expect:\n"
        "  how_it_plays.luck.share: {at_least: 0.9}\n"
        "  how_it_plays.search_over_random.mean: {at_least: 0.2}\n",
    )
    assert main(["check", "-q", str(path), "--format", "json"]) == 3
    targets = json.loads(capsys.readouterr().out)["variants"][0]["targets"]
    luck, bought = targets
    assert (luck["verdict"], luck["estimate"], luck["interval"]) == ("pass", 1.0, [1.0, 1.0])
    assert (bought["verdict"], bought["estimate"]) == ("fail", 0.0)
    assert bought["interval"] == [0.0, 0.0]


def test_the_interval_is_the_targets_level() -> None:
    """At alpha 0.05 a target reads the two-sided 90% interval: narrower than the 95% of
    report.json (a share of 3 in 10 games, clustered: Wilson's with the design effect)."""
    variant = load(_file(plays_games.SUM, "level", SAMPLE))
    sample = plays_measure.Sample(
        real=np.array([1.0, 2.0, 0.0, 0.0, 0.0]),
        turns=np.array([2.0, 2.0, 2.0, 2.0, 2.0]),
        kingmade=np.array([1.0, 0.0, 0.0, 0.0, 0.0]),
        outcomes=None,
    )
    games = Games.empty(variant)
    games._plays = sample
    member = expect.resolve("how_it_plays.real_decisions.share", variant).members[0]
    assert member.interval_at is not None
    at_90 = member.interval_at(games, 0.90)
    at_95 = plays_measure.intervals(sample)["real_decisions"]
    assert at_90[0] == at_95.estimate == pytest.approx(0.3)
    assert at_95.low < at_90[1] < at_90[2] < at_95.high
    # A target at alpha 0.05 is tested on that 90% interval.
    target = expect.Target(expect.resolve(member.label, variant), "at_most", high=0.9)
    outcome = expect.evaluate(target, games)
    assert (outcome.estimate, outcome.low, outcome.high) == at_90


def _games(variant: Variant, start: int, n: int) -> Games:
    players = variant.players
    events = {name: np.zeros(n) for name in variant.spec.events}
    labels = np.full((n, players), "random")
    zeros = np.zeros((n, players))
    return Games(start, zeros, zeros, labels, np.ones(n), events, None, None, variant)


def test_games_that_follow_on_keep_the_sample_measured_once() -> None:
    variant = load(_file(plays_games.SUM, "keep", SAMPLE))
    first = _games(variant, 0, 3)
    sample = plays_measure.Sample(None, None, None, None)
    first._plays = sample
    longer = first.then(_games(variant, 3, 2))
    assert longer.n == 5 and longer.plays_sample() is sample
    assert longer.head(1).plays_sample() is sample
    assert Games.empty(variant).then(first).plays_sample() is sample


@pytest.mark.parametrize(
    ("tail", "argv", "said"),
    [
        (
            "expect:\n  how_it_plays.kingmaking.share: {at_most: 0.1}\n",
            [],
            "how_it_plays.kingmaking.share needs `plays:` in the variant",
        ),
        (
            SAMPLE + "expect:\n  how_it_plays.kingmaking.share: {at_most: 0.1}\n",
            ["--until-decided"],
            "no number of games decides it",
        ),
        (
            SAMPLE + "expect:\n  how_it_plays.luck.share: {above: how_it_plays.kingmaking.share}\n",
            [],
            "measured once on the variant's plays: sample, not game by game",
        ),
    ],
)
def test_check_refuses_what_it_cannot_test_before_any_game(
    tail: str, argv: list[str], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _file(plays_games.SUM, "refused", tail)
    assert main(["check", "-q", str(path), *argv]) == 2
    line = one_error_line(capsys)
    assert said in line, line
    assert "playing" not in capsys.readouterr().err


def test_tune_aims_a_knob_at_a_plays_figure(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """PICK at hand sizes 2 and 4: each candidate's figure is its own sample's (the one a run
    of that variant reports)."""
    plays = "plays: {games: 1, deals: 4, search_budget: 2}\n"
    path = _file(plays_games.PICK, "tune", plays)
    figure = "how_it_plays.search_over_random.mean"
    argv = ["tune", "-q", str(path), "--knob", "rules.hand_size=2..4:2"]
    assert main([*argv, "--target", f"{figure}=0.3", "-n", "60", "--format", "json"]) == 0
    got = json.loads(capsys.readouterr().out)
    assert got["figure"] == figure
    estimates = {c["point"]["hand_size"]: c for c in got["candidates"]}
    for hand_size in (2, 4):
        run = _file(plays_games.PICK, f"tune-{hand_size}", plays + f"hand_size: {hand_size}\n")
        out = tmp_path / str(hand_size)
        assert main(["run", "-q", str(run), "--out", str(out)]) == 0
        block = json.loads((out / "report.json").read_text())["how_it_plays"]
        assert estimates[hand_size]["estimate"] == block["search_over_random"]["mean"]
        assert estimates[hand_size]["interval"] == block["search_over_random"]["ci95"]


def test_tune_refuses_min_and_max_of_a_plays_figure(capsys: pytest.CaptureFixture[str]) -> None:
    path = _file(plays_games.PICK, "tune-min", SAMPLE)
    argv = ["tune", "-q", str(path), "--knob", "rules.hand_size=2..4"]
    assert main([*argv, "--target", "how_it_plays.kingmaking.share min"]) == 2
    assert "give it a number" in one_error_line(capsys)
