"""`balancer tune`: the schedule, knobs whose answer is known by the rules, a noisy knob
cross-checked against a fine sweep, reusing a sweep's games, and bad arguments."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from balancer.analysis import tune
from balancer.analysis.expect import resolve
from balancer.analysis.plays import Job, play
from balancer.cli import main
from balancer.config.variant import load
from balancer.errors import UserError
from balancer.sim.runner import CHECK_ENV
from tests.helpers import VARIANTS, one_error_line

KK4 = str(VARIANTS / "kk-4p.yaml")
DQZ4 = str(VARIANTS / "dqz-4p.yaml")


@pytest.fixture(autouse=True)
def compiled_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    # The suite forces --check (step by step); these runs play compiled.
    monkeypatch.delenv(CHECK_ENV, raising=False)


def test_round_zero_and_the_looks_worked_out_by_hand() -> None:
    # 4 candidates, 1000 games: round 0 takes a quarter of the budget, 1000 // 16 = 62
    # each; a survivor can be given at most 1000 games, so the rounds can give it
    # 62, 124, 248, 496 (992): log2(1000 / 62) = 4.01, five looks at most.
    assert tune.first_round(4, 1000) == 62
    assert tune.looks(4, 1000) == 5
    assert tune.first_round(100, 3000) == tune.MIN_FIRST_ROUND  # the floor
    assert tune.looks(1, 30) == 1
    tune.check_budget(100, 3000)
    with pytest.raises(UserError, match="at least 3000"):
        tune.check_budget(100, 2999)


def test_parse_knob_ranges() -> None:
    variant = load(KK4)
    assert tune.parse_knob("rules.rounds=2..6", variant).values == (2, 3, 4, 5, 6)
    assert tune.parse_knob("rounds=2..10:4", variant).values == (2, 6, 10)


def run_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict:
    assert main(["tune", *args, "-q", "-w", "1", "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_kimekimera_lasts_its_rounds_so_the_answer_is_the_target(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # RULES.md: a game of Kimekimera is `rounds` rounds; its length is counted in rounds.
    out = tmp_path / "t"
    data = run_json(
        capsys, KK4, "--knob", "rules.rounds=1..20", "--target", "length.mean=7", "-n", "3000",
        "-o", str(out),
    )  # fmt: skip
    assert data["best"]["point"] == {"rounds": 7}
    assert data["best"]["interval"] == [7.0, 7.0]
    assert data["not_ruled_out"] == [{"rounds": 7}]
    assert data["games_played"] <= 3000 and data["budget"] == 3000 and data["reached"] is True
    assert {p.name for p in out.iterdir()} >= {"tune.csv", "tune.svg", "tune.html"}
    page = (out / "tune.html").read_text()
    assert "<svg" in page and "<script" not in page
    # report.html's look; the chart: a whisker and a mark per candidate, the best ringed,
    # every other rounds value ruled out (their length is exact and not 7).
    from balancer.report.html import CSS

    assert CSS in page and "<section>" in page
    drawn = (out / "tune.svg").read_text(encoding="utf-8")
    assert drawn.count('class="ci"') == 20 and drawn.count('class="point best-ring"') == 1
    assert drawn.count('class="point apart"') == 19
    # min and max of a figure that grows with the knob: the ends of the range.
    low = run_json(capsys, KK4, "--knob", "rounds=2..9", "--target", "length.mean min", "-n", "800")
    high = run_json(
        capsys, KK4, "--knob", "rounds=2..9", "--target", "length.mean max", "-n", "800"
    )
    assert low["best"]["point"] == {"rounds": 2} and high["best"]["point"] == {"rounds": 9}


def test_two_knobs_find_the_one_that_matters(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(
        capsys, KK4, "--knob", "rounds=1..5", "--knob", "rules.free_chimeras=3..4",
        "--target", "length.mean=3", "-n", "1500",
    )  # fmt: skip
    assert data["best"]["point"]["rounds"] == 3
    assert {tuple(p.values()) for p in data["not_ruled_out"]} <= {(3, 3), (3, 4)}


def test_dqz_starting_chips_for_8_deals_agrees_with_a_fine_sweep(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # More chips, longer games: the deals a game lasts grow with starting_chips. A
    # fine sweep (every value, 1000 games each, the same seeds) says where 8 deals is.
    base = load(DQZ4)
    values = list(range(22, 35))
    jobs = [Job(base.with_knobs({"starting_chips": v}), 0, 1000) for v in values]
    means = np.array([g.lengths.mean() for g in play(jobs)])
    assert np.all(np.diff(means) > -0.5)  # monotone, up to noise
    sweep_best = values[int(np.argmin(np.abs(means - 8)))]
    data = run_json(
        capsys, DQZ4, "--knob", "rules.starting_chips=22..34", "--target", "length.mean=8",
        "-n", "10000",
    )  # fmt: skip
    best = data["best"]["point"]["starting_chips"]
    assert abs(best - sweep_best) <= 1, (best, sweep_best, means.round(2).tolist())
    low, high = data["best"]["interval"]
    assert low <= data["best"]["estimate"] <= high and high - low < 0.5
    assert data["games_played"] <= 10000


def test_a_sweeps_games_are_reused_exactly(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    sweep = tmp_path / "sw"
    args = [DQZ4, "--set", "rules.starting_chips=10,12", "-n", "200", "-q", "-w", "1"]
    assert main(["sweep", *args, "-o", str(sweep)]) == 0
    capsys.readouterr()
    base = load(DQZ4)
    find = tune.sweep_reuse(sweep)
    # Game i of the sweep's point is game i of the candidate, bit for bit.
    (fresh,) = play([Job(base.with_knobs({"starting_chips": 12}), 0, 200)])
    found = find(base.with_knobs({"starting_chips": 12}))
    assert found is not None and found.n == 200
    assert np.array_equal(found.wins, fresh.wins) and np.array_equal(found.lengths, fresh.lengths)
    assert np.array_equal(found.labels, fresh.labels)
    # Another value, or another seed, is not the sweep's.
    assert find(base.with_knobs({"starting_chips": 11})) is None
    assert find(base.with_knobs({"starting_chips": 12}).with_overrides(seed=1)) is None
    search = [DQZ4, "--knob", "starting_chips=10..13", "--target", "length.mean=4", "-n", "800"]
    alone = run_json(capsys, *search)
    helped = run_json(capsys, *search, "--sweep", str(sweep))
    assert alone["games_reused"] == 0 and helped["games_reused"] == 400
    # The budget is the games played; the sweep's games come on top of it.
    assert helped["games_played"] == alone["games_played"] == 800
    assert sum(c["games"] for c in helped["candidates"]) == 1200


def test_spread_is_its_widest_pair() -> None:
    variant = load(DQZ4)
    figure = resolve("seat_win_share.spread", variant)
    from tests.kernels.test_check import games_of

    wins = np.tile(
        np.array([[1, 0, 0, 0], [0, 0, 1, 0], [1, 0, 0, 0], [0, 0, 0, 1]], float), (10, 1)
    )
    # Seats win 1/2, 0, 1/4, 1/4: the widest pair is seat 0 − seat 1, 0.5 apart.
    assert figure.value(games_of(wins)) == pytest.approx(0.5)
    assert tune.series(figure, games_of(wins)).mean() == pytest.approx(0.5)


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--knob", "rules.rounds=5..2", "--target", "length.mean=3"], "LO < HI"),
        (["--knob", "rules.rounds=1-5", "--target", "length.mean=3"], "LO..HI"),
        # A STEP that is no number was a traceback (int(nan)).
        (["--knob", "rounds=1..5:nan", "--target", "length.mean=3"], "positive number, not nan"),
        (["--knob", "rounds=1..5:-1", "--target", "length.mean=3"], "positive number, not -1"),
        (["--knob", "rules.breeding_optional=0..1", "--target", "length.mean=3"], "numeric"),
        (["--knob", "rules.nope=1..3", "--target", "length.mean=3"], "no knob 'nope'"),
        (["--knob", "rounds=1..3", "--target", "length.mean=x"], "not a number"),
        (["--knob", "rounds=1..3", "--target", "length.mean best"], "FIGURE min|max"),
        (["--knob", "rounds=1..3", "--target", "seat_win_share min"], "name a seat"),
        (["--knob", "rounds=1..3", "--target", "lenght.mean=3"], "did you mean"),
        (["--knob", "rounds=1..3", "--knob", "rounds=1..2", "--target", "length.mean=3"], "twice"),
    ],
)
def test_bad_arguments_are_one_line(
    capsys: pytest.CaptureFixture[str], args: list[str], words: str
) -> None:
    assert main(["tune", KK4, *args, "-q"]) == 2
    assert words in one_error_line(capsys)


def test_a_log_gets_one_start_line_for_all_rounds(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["tune", KK4, "--knob", "rounds=1..4", "--target", "length.mean=2", "-n", "400"]
    assert main([*args, "-w", "1"]) == 0
    err = capsys.readouterr().err.strip().splitlines()
    assert err == ["balancer: playing 400 games of tune kk-4p on 1 worker"]
