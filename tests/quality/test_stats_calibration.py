"""Calibration on real games (the compiled kernels): nulls that hold by the rules themselves.

Fish! Dash! Cash! with random bots and `first_leader: random` has seats that
are exchangeable by symmetry: every seat's win share is exactly 1/5, whatever
the scoring (`cash_value: count` or `face` changes who scores what, and how
often games tie, but not which seat is favoured). So:

- A/A diffs (one variant, two seeds) must flag nothing in at least 95%;
- count against face (same seed: paired) must flag a win-share row in at most 5%;
- `--until-decided` on A/A must claim "changed" in at most 5%, whenever it stops;
- each seat's 95% interval must cover 1/5 in 95 ± 1.5% of runs;
- the seat-advantage test must give p < 0.05 in 5 ± 2% of runs.

A rate "at most r" is checked as the data being consistent with it: the
one-sided 99% Clopper–Pearson lower bound of the observed rate is at most
r (`consistent_with_at_most`). A rate of exactly 5% then fails 0.6% of
seeds at 200 repetitions; a rate of 15% (a test of the wrong thing, a
missing correction, peeking) fails nearly always (passes in 0.8% of
seeds; at 100 repetitions a rate of 20% passes in 1.3%). A fixed
allowance ("≤ r + 2%") at these sizes would fail a correct procedure by
chance about as often as it caught a wrong one.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator

import numpy as np
import pytest
from scipy import stats as sps

import balancer
from balancer import table
from balancer.analysis.until_decided import play_until_decided
from balancer.config.variant import Variant
from balancer.sim import runner
from balancer.stats import describe, intervals
from balancer.stats.figures import RunData, anytime_diff_rows, diff_rows
from balancer.stats.seat_advantage import seat_advantage
from tests.helpers import VARIANTS

pytestmark = pytest.mark.quality


def consistent_with_at_most(count: int, reps: int, rate: float, confidence: float = 0.99) -> bool:
    """Whether `count` of `reps` is consistent with a true rate ≤ `rate` (one-sided CP bound)."""
    if count == 0:
        return True
    lower = float(sps.beta.ppf(1 - confidence, count, reps - count + 1))
    return lower <= rate


def test_consistent_with_at_most_by_hand() -> None:
    # 5 of 100 is a rate of 5%; 14 of 100 has a 99% lower bound of 6.6%: too many.
    assert consistent_with_at_most(5, 100, 0.05)
    assert consistent_with_at_most(9, 100, 0.05)  # lower bound 3.5%
    assert not consistent_with_at_most(14, 100, 0.05)
    assert consistent_with_at_most(0, 10, 0.0)


@pytest.fixture(autouse=True)
def compiled(monkeypatch: pytest.MonkeyPatch) -> None:
    """The compiled kernels: the suite forces --check (step by step) everywhere else."""
    monkeypatch.setenv(runner.CHECK_ENV, "0")


def symmetric(games: int, seed: int, cash_value: str = "count") -> Variant:
    """fdc, 5 random bots, a random first leader: every seat's true win share is 1/5."""
    return _symmetric(cash_value).with_overrides(games=games, seed=seed)


@functools.cache
def _symmetric(cash_value: str) -> Variant:
    # Read once: the repetitions differ only in games and seed (a Variant is frozen).
    return balancer.load_variant(
        VARIANTS / "fdc-5p-random.yaml", first_leader="random", cash_value=cash_value
    )


def run_data(variant: Variant) -> RunData:
    result = runner.run(variant)
    spec = variant.spec
    frame = table.frame(result.columns(), variant.players, spec.events)
    return RunData.from_frame(
        frame,
        variant.players,
        spec.events,
        spec.value_events,
        spec.higher_is_better,
        variant.seat_rotation,
    )


def seeds(reps: int, base: int) -> Iterator[int]:
    return iter(range(base, base + reps))


def test_scoring_does_not_move_the_seats() -> None:
    # The null the tests rely on: face scoring changes scores and ties, not seats' shares.
    a = run_data(symmetric(20_000, 1))
    b = run_data(symmetric(20_000, 1, "face"))
    assert not np.array_equal(a.scores, b.scores)
    assert (a.wins % 1 != 0).mean() != (b.wins % 1 != 0).mean()  # tie rates differ
    for data in (a, b):
        for iv in intervals.seat_share_intervals(data.wins):
            assert iv.low < 0.2 < iv.high


def test_a_a_diffs_flag_nothing_in_95_percent() -> None:
    # 200 independent A/A pairs of 1000-game runs: blocks of two long runs of two seeds
    # (the long runs other tests here read too: see `_whole`).
    reps, games = 200, 1000
    flagged = 0
    for a, b in zip(blocks(reps, games, COUNT_A), blocks(reps, games, COUNT_B), strict=True):
        flagged += diff_rows(a, b, False).changed
    assert consistent_with_at_most(flagged, reps, 0.05), flagged


def test_count_against_face_flags_a_win_share_in_at_most_5_percent() -> None:
    """Paired (same seed): the change of scoring changes ties, not who wins on average."""
    reps, games = 200, 1000
    flagged = wilcoxon_flagged = 0
    # Block i of both runs is games i*1000.. of one seed: the same deals, still paired.
    count, face = blocks(reps, games, COUNT_A), blocks(reps, games, COUNT_A, "face")
    for i, (a, b) in enumerate(zip(count, face, strict=True)):
        result = diff_rows(a, b, True)
        assert result.paired
        flagged += any(row.verdict == "changed" for row in result.rows if row.kind == "win")
        if i < 40:
            p = [describe.wilcoxon_paired(a.wins[:, s], b.wins[:, s]) for s in range(5)]
            wilcoxon_flagged += bool((describe.holm(p) <= 0.05).any())
    assert consistent_with_at_most(flagged, reps, 0.05), flagged
    # The signed-rank test the rows used to run (a test of symmetry) fails here: 9 of
    # 30 diffs flagged at 1,000 games when measured. The null can tell the two apart.
    assert not consistent_with_at_most(wilcoxon_flagged, 40, 0.05), wilcoxon_flagged


def test_until_decided_on_a_a_claims_changed_in_at_most_5_percent() -> None:
    """Stopped when every win share is decided (or at the cap): false 'changed' ≤ 5% then."""
    reps, most = 60, 2000
    false_changed = stopped_early = 0
    for seed in seeds(reps, 500):
        # Two seeds: game g of A and of B are independent games, a valid (noisier) pairing.
        decided = play_until_decided(
            symmetric(most, seed), symmetric(most, seed + 50_000), tolerances={"win": "0.08"}
        )
        stopped_early += decided.stopped_at is not None
        false_changed += decided.watch.changed
    assert consistent_with_at_most(false_changed, reps, 0.05), false_changed
    assert stopped_early >= reps * 3 // 4  # it does stop: equivalence is reached on most runs


def test_until_decided_on_count_against_face_claims_no_win_share_changed() -> None:
    """The paired null under --until-decided: whenever it stops, no win share 'changed'."""
    reps, most = 60, 2000
    false_changed = 0
    for seed in seeds(reps, 700):
        decided = play_until_decided(
            symmetric(most, seed), symmetric(most, seed, "face"), tolerances={"win": "0.06"}
        )
        verdicts = decided.watch.verdicts()
        false_changed += any(
            verdicts[name] == "changed"
            for name, row in decided.watch.rows.items()
            if row.kind == "win"
        )
    assert consistent_with_at_most(false_changed, reps, 0.05), false_changed


def test_anytime_rows_of_a_stopped_a_a_diff_stay_quiet() -> None:
    """The rows written for the stopped runs (anytime_diff_rows) agree with the loop's verdicts."""
    decided = play_until_decided(symmetric(2000, 1), symmetric(2000, 2), tolerances={"win": "0.06"})
    a = decided.a.variant
    spec = a.spec

    def data(result: runner.RunResult) -> RunData:
        frame = table.frame(result.columns(), a.players, spec.events)
        return RunData.from_frame(
            frame, a.players, spec.events, spec.value_events, spec.higher_is_better, False
        )

    rows = anytime_diff_rows(data(decided.a), data(decided.b), {"win": "0.06"})
    assert not rows.changed


# The long runs the block tests cut up: 200,000 games each (~3 s a run), so that each is
# played once per test process and read by several tests instead of every test playing
# its own two. Each test's claim is about one procedure on independent blocks, which
# these still are; tests reading the same games are correlated with each other, not
# within themselves, so each one's false-failure rate and power are as before.
COUNT_A, COUNT_B = 300, 900
WHOLE_GAMES = 200_000


@functools.cache
def _whole(seed: int, cash_value: str) -> RunData:
    return run_data(symmetric(WHOLE_GAMES, seed, cash_value))


def blocks(runs: int, games: int, seed: int, cash_value: str = "count") -> Iterator[RunData]:
    """`runs` independent runs of `games` games each: consecutive games of one long run.

    Game i depends only on (seed, i), so games 0..199, 200..399, ... of one run are
    independent samples of a 200-game run, played in one call instead of a thousand.
    """
    assert runs * games == WHOLE_GAMES, "every block test cuts up one of the shared runs"
    with pytest.MonkeyPatch.context() as patch:  # played unchecked whoever asks first
        patch.setenv(runner.CHECK_ENV, "0")
        whole = _whole(seed, cash_value)
    for i in range(runs):
        part = slice(i * games, (i + 1) * games)
        yield RunData(
            scores=whole.scores[part],
            wins=whole.wins[part],
            bot_labels=whole.bot_labels[part],
            lengths=whole.lengths[part],
            events={name: values[part] for name, values in whole.events.items()},
            value_events=whole.value_events,
            higher_is_better=whole.higher_is_better,
            rotate=whole.rotate,
        )


def test_seat_intervals_cover_one_fifth() -> None:
    runs, games = 1000, 200
    hits = np.zeros(5)
    for data in blocks(runs, games, COUNT_B):
        for s, iv in enumerate(intervals.seat_share_intervals(data.wins)):
            hits[s] += iv.low <= 0.2 <= iv.high
    coverage = hits.sum() / (5 * runs)
    assert abs(coverage - 0.95) <= 0.015, hits / runs


def test_seat_advantage_is_calibrated_on_real_games() -> None:
    runs, games = 1000, 200
    p = []
    for data in blocks(runs, games, COUNT_A):
        p.append(seat_advantage(data.wins, data.bot_labels, data.rotate).p_value)
    rate = float((np.array(p) < 0.05).mean())
    assert abs(rate - 0.05) <= 0.02, rate
