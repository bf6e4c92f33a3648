"""tune's racing, on planted optima: candidates whose figure is known exactly (per-game
values drawn around a planted mean, with a deal's noise common to every candidate as
common seeds give), so what a search keeps can be checked against the truth over many
seeds, with today's-before successive halving as the control that fails the same check."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from balancer.analysis import tune
from balancer.analysis.plays import Games, Job
from balancer.config.variant import Variant, load
from balancer.errors import UserError
from tests.helpers import VARIANTS

KK4 = load(VARIANTS / "kk-4p.yaml")  # its knob `rounds` names the candidates; nothing is played
LONGEST = 40_000  # games a planted candidate can be asked for


def planted(
    means: dict[int, float], seed: int
) -> tuple[Callable[[Sequence[Job]], list[Games]], list[int]]:
    """A `play` whose candidate rounds=k gives per-game values means[k] + deal + own noise
    (both standard normal; the deal's is game i's whatever k, as common seeds give), in
    the games' lengths; and a list that counts the games it played."""
    deal = np.random.default_rng([seed, 0]).standard_normal(LONGEST)
    own = {k: np.random.default_rng([seed, 1, k]).standard_normal(LONGEST) for k in means}
    played = [0]

    def play(jobs: Sequence[Job]) -> list[Games]:
        out = []
        for job in jobs:
            k = job.variant.rules["rounds"]
            games = slice(job.start, job.stop)
            values = means[k] + deal[games] + own[k][games]
            out.append(_games(job.variant, job.start, values))
            played[0] += job.stop - job.start
        return out

    return play, played


def _games(variant: Variant, start: int, lengths: np.ndarray) -> Games:
    n, seats = lengths.size, variant.players
    return Games(
        start,
        np.zeros((n, seats)),
        np.full((n, seats), 1 / seats),
        np.full((n, seats), "random", dtype=object),
        lengths.astype(float),
        {name: np.zeros(n) for name in variant.spec.events},
    )


def search(means: dict[int, float], target: str, budget: int, seed: int) -> tune.TuneResult:
    values = sorted(means)
    knob = tune.parse_knob(f"rounds={values[0]}..{values[-1]}", KK4)
    play, _ = planted(means, seed)
    return tune.search(KK4, [knob], tune.parse_target(target, KK4), budget, play)


def halving(goal: tune.Goal, alive: list[tune.Candidate], alpha: float) -> list[tune.Candidate]:
    """The control: successive halving as tune did before racing (the better half by
    estimate goes on, whatever the noise)."""
    ranked = sorted(alive, key=lambda c: goal.loss(c.estimate))
    return ranked[: max(1, math.ceil(len(alive) / 2))]


# The planted optimum (rounds=3, mean 0, the target) between close rivals: 0.15 away is
# a seventh of one game's noise, so a few dozen games can't tell them apart.
NEAR = {1: 0.5, 2: 0.15, 3: 0.0, 4: 0.15, 5: 0.5}
SEEDS = range(200)
COVERED = 190  # 95% of the seeds


def kept_optimum(
    survivors: Callable[..., list[tune.Candidate]],
    target: str,
    means: dict[int, float] = NEAR,
    seeds: range = SEEDS,
) -> int:
    """In how many of the searches the planted optimum (rounds=3) is among those kept."""
    kept = 0
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(tune, "survivors", survivors)
        for seed in seeds:
            result = search(means, target, 3000, seed)
            kept += any(c.point["rounds"] == 3 and c.consistent for c in result.candidates)
    return kept


def test_racing_keeps_a_planted_optimum_in_95_percent_of_searches() -> None:
    # 5% is the promise over the whole search; Bonferroni over the looks makes it
    # conservative, so far fewer than 10 of 200 seeds lose it.
    assert kept_optimum(tune.survivors, "length.mean=0") >= COVERED


def test_the_control_halving_loses_the_planted_optimum_often() -> None:
    # The check above can fail: halving drops the optimum by chance (it kept it in 174
    # of the 200 searches when this was written: 87%, short of the 95% promised).
    assert kept_optimum(halving, "length.mean=0") < COVERED


def test_racing_keeps_a_planted_minimum_and_halving_does_not() -> None:
    means = {1: 0.5, 2: 0.1, 3: 0.0, 4: 0.1, 5: 0.5}  # the minimum at rounds=3
    seeds = range(100)
    assert kept_optimum(tune.survivors, "length.mean min", means, seeds) >= 95
    # 90 of 100 when this was written.
    assert kept_optimum(halving, "length.mean min", means, seeds) < 95


def test_far_candidates_go_and_a_clear_optimum_is_named() -> None:
    means = {1: 3.0, 2: 2.0, 3: 0.0, 4: 2.0, 5: 3.0}
    result = search(means, "length.mean=0", 4000, seed=7)
    assert [c.point["rounds"] for c in result.candidates if c.consistent] == [3]
    assert result.best.point == {"rounds": 3} and result.reached is True
    assert "best: rounds=3" in tune.text(result)


def test_no_value_reaching_the_target_is_said_plainly() -> None:
    # Every candidate's figure is at least 1 from the target 0: the nearest is named
    # "closest", and the JSON says the target was not reached.
    means = {1: 1.0, 2: 1.5, 3: 2.0}
    result = search(means, "length.mean=0", 6000, seed=3)
    assert result.best.point == {"rounds": 1} and result.reached is False
    said = tune.text(result)
    assert "closest: rounds=1" in said and "no value shown to reach 0" in said
    assert result.to_json()["reached"] is False
    assert "最も近い" in tune.text(result, "ja")
    page = tune.html_page(result, tune.chart_svg(result))
    assert "No value is shown to reach 0" in page


def test_among_survivors_the_answer_is_one_whose_interval_holds_the_target() -> None:
    # Two survivors: one estimated nearer the target but whose interval misses it
    # (a tight interval just off), one whose interval holds it: the answer holds it.
    goal = tune.parse_target("length.mean=8", KK4)
    pool, _ = tune.candidates_for(KK4, [tune.parse_knob("rounds=1..2", KK4)])
    near_miss, holder = pool
    near_miss.estimate, near_miss.low, near_miss.high = 8.05, 8.02, 8.08
    holder.estimate, holder.low, holder.high = 7.9, 7.6, 8.2
    assert tune._holds(goal, holder) and not tune._holds(goal, near_miss)
    best = min(pool, key=lambda c: (not tune._holds(goal, c), goal.loss(c.estimate)))
    assert best is holder


@settings(max_examples=40)
@given(
    candidates=st.integers(1, 30),
    extra=st.integers(0, 5000),
    seed=st.integers(0, 2**31),
)
def test_a_search_never_plays_more_than_its_budget(candidates: int, extra: int, seed: int) -> None:
    budget = candidates * tune.MIN_FIRST_ROUND + extra
    means = {k: 0.05 * k for k in range(1, candidates + 1)}
    knob = tune.KnobRange("rounds", tuple(range(1, candidates + 1)))
    play, played = planted(means, seed)
    result = tune.search(KK4, [knob], tune.parse_target("length.mean=0.5", KK4), budget, play)
    assert result.played == played[0] <= budget
    # The looks the correction counts, and the sole survivor's last games.
    assert len(result.rounds) <= tune.looks(candidates, budget) + 1


def test_a_budget_too_small_for_round_zero_is_refused() -> None:
    with pytest.raises(UserError, match="at least 150"):
        search({1: 0.0, 2: 0.0, 3: 0.0, 4: 0.0, 5: 0.0}, "length.mean=0", 149, seed=0)
