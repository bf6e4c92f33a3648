"""How-it-plays figures (stats/how_it_plays.py) of games worked out by hand, and their intervals.

Each hand-made game states its progress (scores after each step) and the
figures, with the reasoning beside them. The property tests compare the
compiled matrix form with a plain-Python reading of the definitions written
here from docs/analysis.md (not from the module), the row-at-a-time tracker
with the matrix form, and check what must hold of any game.
"""

from __future__ import annotations

import json
import math
import os
import random
import subprocess
import sys
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from balancer import jit
from balancer.stats import how_it_plays as hip
from balancer.stats import intervals
from tests.helpers import ROOT

NAN = math.nan


def figures(progress: list[list[int]], final: list[int] | None = None, **kw: object) -> list:
    return hip.figures_of(progress, final, **kw).tolist()  # type: ignore[arg-type]


def same(got: list[float], want: list[float]) -> bool:
    """Equal figure by figure, NaN equal to NaN (a checkpoint without a sole leader)."""
    return len(got) == len(want) and all(
        (math.isnan(a) and math.isnan(b)) or a == b for a, b in zip(got, want, strict=True)
    )


# Rows: lead changes, decided at, comeback, drama, leader wins at 25%, 50%, 75%.


def test_a_race_the_leader_can_never_be_caught() -> None:
    # Seat 0 gains 3 a step, the others 1: seat 0 is sole leader from step 1 on.
    race = [[3, 1, 1], [6, 2, 2], [9, 3, 3], [12, 4, 4]]
    # No change (the first sole leader took the lead from nobody); decided after
    # step 1 of 4; the winner was never behind, never in deficit; the leader at
    # every checkpoint (steps 1, 2, 3) won.
    assert figures(race) == [0, 1 / 4, 0, 0, 1, 1, 1]


def test_a_lead_that_flips_every_step() -> None:
    flips = [[1, 0], [1, 2], [3, 2], [3, 4], [5, 4]]
    # Sole leaders 0, 1, 0, 1, 0: four changes. Seat 0 wins, leading for good
    # only from step 5: decided at 5/5. Its deficit was 1 (steps 2 and 4), the
    # widest spread 1: drama 1. Halfway is step ceil(5/2) = 3, [3, 2]: seat 1 is
    # last, not the winner: no comeback. Checkpoints ceil(5/4) = 2 (seat 1 led,
    # lost), 3 (seat 0, won), ceil(15/4) = 4 (seat 1, lost).
    assert figures(flips) == [4, 1, 0, 1, 0, 1, 0]


def test_ties_at_the_top() -> None:
    game = [[2, 2, 0], [2, 3, 0], [4, 3, 0], [4, 4, 1]]
    # Seats 0 and 1 tie at the end: each wins 1/2. Sole leaders: none (tied),
    # 1, 0, none: one change (1 to 0); the tie at step 4 leaves seat 0 standing.
    # The top set is the winners' set {0, 1} only from step 4: decided at 4/4.
    # Winners' largest deficit 1 (seat 0 at step 2, seat 1 at step 3); widest
    # spread 4 (step 3): drama 1/4. Halfway (step 2) seat 2 is last, no winner:
    # no comeback. Checkpoint step 1 has no sole leader; steps 2 and 3 have a
    # leader that won half.
    assert same(figures(game), [1, 1, 0, 1 / 4, NAN, 1 / 2, 1 / 2])
    # With margin 0 every seat not at the top is behind: at step 2 seat 0 (1 behind)
    # is, and it won half: a comeback of 1/2.
    assert same(figures(game, margin=0), [1, 1, 1 / 2, 1 / 4, NAN, 1 / 2, 1 / 2])
    # Two seats tied at the top from the first step to the end: decided at 1/2.
    assert figures([[2, 2, 0], [4, 4, 1]])[hip.DECIDED_AT] == 1 / 2
    # A tie passes the lead on, it does not take it away: 0 then 1 is one change.
    assert figures([[1, 0], [1, 1], [1, 2]])[hip.LEAD_CHANGES] == 1
    # All tied at halfway (step 2 of 3): nobody is last, so no comeback.
    assert figures([[0, 0], [0, 0], [1, 0]])[hip.COMEBACK] == 0


def test_one_step() -> None:
    # The only step decides everything: the first sole leader is no change, the
    # game is decided at 1/1, seat 0 is last at halfway (step 1) but lost, the
    # winner never trailed, and every checkpoint is step 1, led by the winner.
    assert figures([[0, 5, 3]]) == [0, 1, 0, 0, 1, 1, 1]


def test_one_seat() -> None:
    # A lone seat is always the sole leader and the winner: decided at step 1,
    # never last (no seat is better), never in deficit.
    assert figures([[1], [2], [3]]) == [0, 1 / 3, 0, 0, 1, 1, 1]


def test_a_comeback_from_last_at_halfway() -> None:
    game = [[0, 2, 1], [0, 4, 2], [5, 4, 3], [9, 5, 4]]
    # Halfway (step 2) seat 0 is last, and it wins: comeback 1. Sole leaders
    # 1, 1, 0, 0: one change; decided at 3/4. Seat 0 trailed by up to 4 (step
    # 2); widest spread 5 (step 4): drama 4/5. Checkpoint leaders: seat 1 at
    # steps 1 and 2 (lost), seat 0 at step 3 (won).
    assert figures(game) == [1, 3 / 4, 1, 4 / 5, 0, 0, 1]


def test_a_comeback_from_more_than_the_margin_behind() -> None:
    game = [[1, 4, 0], [2, 8, 0], [10, 9, 1]]
    # Halfway (step 2) seat 0 is 6 behind, not last (seat 2 is); it wins.
    assert figures(game)[hip.COMEBACK] == 0  # last only
    assert figures(game, margin=5)[hip.COMEBACK] == 1  # 6 > 5
    assert figures(game, margin=6)[hip.COMEBACK] == 0  # more than the margin, not as much


def test_drama_where_a_lower_score_wins() -> None:
    # Kimekimera's totals: the lowest wins. Final [6, 9, 8]: seat 0 wins.
    game = [[0, 3, 2], [5, 3, 9], [6, 9, 8]]
    # Sole leaders (lowest) 0, 1, 0: two changes, decided at 3/3. Seat 0 was 2
    # behind at step 2, where the spread was widest (9 - 3 = 6): drama 2/6.
    # Halfway (step 2) seat 2 was last, not seat 0: no comeback. Checkpoint
    # leaders: seat 0 (won), seat 1 (lost), seat 0 (won).
    assert figures(game, higher_is_better=False) == [2, 1, 0, 1 / 3, 1, 0, 1]
    # Control: read as higher-wins, seat 1 wins; it was last and 6 behind at step 2.
    assert figures(game) == [2, 1, 1, 1, 1, 0, 1]


def test_a_scoring_after_the_last_step_decides() -> None:
    # Seat 0 leads every step; a scoring at the end (final [4, 5]) makes seat 1
    # win. The top set after the last step is not the winners': decided at 1.
    # Seat 1 trailed by 2, the widest spread (steps 1 and 2) is 2: drama 1. Seat
    # 1 was last at halfway (step 1) and won: a comeback. Every checkpoint's
    # leader, seat 0, lost.
    assert figures([[3, 1], [4, 2]], [4, 5]) == [0, 1, 1, 1, 0, 0, 0]


def test_a_fixed_buffer_is_read_only_up_to_the_steps() -> None:
    game = np.array([[1, 0], [1, 2], [3, 2], [3, 4]], dtype=np.int64)
    buffer = np.zeros((10, 2), dtype=np.int64)
    buffer[:, 0] = 99  # rows a finished game left behind: seat 0 far ahead
    buffer[:4] = game
    out = np.empty(hip.FIGURES)
    hip.game_figures(buffer, 4, game[-1].copy(), True, hip.NO_MARGIN, out)
    assert out.tolist() == figures(game.tolist())
    # Control: the rows past the steps would change the figures if read.
    assert figures(buffer.tolist()) != out.tolist()


def test_no_steps_fractions_and_a_tracker_too_small_are_refused() -> None:
    # Scores read back as floats (a --trace file) are fine while whole; a fraction is no score.
    assert figures([[1.0, 0.0]]) == figures([[1, 0]])
    with pytest.raises(ValueError, match="progress must be whole"):
        hip.figures_of([[1.5, 0.0]])
    with pytest.raises(ValueError, match="final scores must be whole"):
        hip.figures_of([[1, 0]], [math.nan, 0.0])
    out = np.empty(hip.FIGURES)
    with pytest.raises(ValueError, match="at least one step"):
        hip.game_figures(np.zeros((3, 2), np.int64), 0, np.zeros(2, np.int64), True, 0, out)
    tracker = np.zeros(hip.tracker_words(2, 2), dtype=np.int64)
    hip.tracker_start(tracker, 2)
    for step in (1, 2):  # as many steps as it was sized for
        hip.tracker_step(tracker, np.array([step, 0], np.int64), 2, True, hip.NO_MARGIN)
    with pytest.raises(ValueError, match="more steps"):
        hip.tracker_step(tracker, np.array([3, 0], np.int64), 2, True, hip.NO_MARGIN)


# --- properties -----------------------------------------------------------------


def reference(
    rows: list[list[int]], final: list[int], higher_is_better: bool, margin: int
) -> list[float]:
    """The figures as docs/analysis.md defines them, step by step in plain Python."""
    sign = 1 if higher_is_better else -1
    seats, steps = range(len(final)), len(rows)

    def top(row: list[int]) -> set[int]:
        best = max(sign * v for v in row)
        return {s for s in seats if sign * row[s] == best}

    def deficit(row: list[int], s: int) -> int:
        return max(sign * v for v in row) - sign * row[s]

    winners = top(final)
    share = Fraction(1, len(winners))
    sole = [next(iter(top(r))) if len(top(r)) == 1 else None for r in rows]
    leaders = [s for s in sole if s is not None]
    changes = sum(1 for a, b in zip(leaders, leaders[1:], strict=False) if a != b)
    for_good = [k for k in range(1, steps + 1) if all(top(r) == winners for r in rows[k - 1 :])]
    decided = Fraction(min(for_good) if for_good else steps, steps)
    spread = max(max(deficit(r, s) for s in seats) for r in [*rows, final])
    worst = max(max(deficit(r, s) for r in rows) for s in winners)
    drama = Fraction(worst, spread) if spread else Fraction(0)
    half = rows[math.ceil(Fraction(steps, 2)) - 1]
    behind = {
        s
        for s in seats
        if deficit(half, s) > margin
        or (deficit(half, s) == max(deficit(half, t) for t in seats) and deficit(half, s) > 0)
    }
    comeback = share * len(behind & winners)
    curve: list[float] = []
    for f in (Fraction(1, 4), Fraction(1, 2), Fraction(3, 4)):
        leader = sole[math.ceil(f * steps) - 1]
        curve.append(NAN if leader is None else float(share * (leader in winners)))
    return [changes, float(decided), float(comeback), float(drama), *curve]


score = st.integers(-6, 6)


@st.composite
def games(draw: st.DrawFn) -> tuple[list[list[int]], list[int], bool, int]:
    """A progress (1 to 12 steps, 1 to 5 seats), its final scores, the direction, a margin."""
    seats = draw(st.integers(1, 5))
    steps = draw(st.integers(1, 12))
    rows = draw(
        st.lists(st.lists(score, min_size=seats, max_size=seats), min_size=steps, max_size=steps)
    )
    # Usually the last row; sometimes a scoring after the last step.
    final = draw(st.one_of(st.just(rows[-1]), st.lists(score, min_size=seats, max_size=seats)))
    margin = draw(st.one_of(st.just(hip.NO_MARGIN), st.integers(0, 6)))
    return rows, final, draw(st.booleans()), margin


def tracked(rows: list[list[int]], final: list[int], higher_is_better: bool, margin: int) -> list:
    seats = len(final)
    tracker = np.full(hip.tracker_words(seats, len(rows)), 77, dtype=np.int64)  # dirty on purpose
    hip.tracker_start(tracker, seats)
    for row in rows:
        hip.tracker_step(tracker, np.array(row, dtype=np.int64), seats, higher_is_better, margin)
    out = np.empty(hip.FIGURES)
    hip.tracker_finish(tracker, np.array(final, dtype=np.int64), higher_is_better, out)
    return out.tolist()


@settings(max_examples=300)
@given(games())
def test_the_compiled_figures_equal_a_plain_reading_of_the_definitions(game: tuple) -> None:
    rows, final, higher, margin = game
    got = figures(rows, final, higher_is_better=higher, margin=margin)
    assert same(got, reference(rows, final, higher, margin))


@settings(max_examples=300)
@given(games())
def test_the_tracker_gives_the_matrix_forms_figures(game: tuple) -> None:
    rows, final, higher, margin = game
    assert same(
        tracked(rows, final, higher, margin),
        figures(rows, final, higher_is_better=higher, margin=margin),
    )


@settings(max_examples=200)
@given(games(), st.randoms(use_true_random=False))
def test_figures_do_not_depend_on_the_seats_names(game: tuple, rnd: random.Random) -> None:
    rows, final, higher, margin = game
    order = list(range(len(final)))
    rnd.shuffle(order)
    renamed = [[row[s] for s in order] for row in rows]
    kept = figures(rows, final, higher_is_better=higher, margin=margin)
    moved = figures(renamed, [final[s] for s in order], higher_is_better=higher, margin=margin)
    assert same(kept, moved)


@settings(max_examples=200)
@given(games())
def test_what_holds_of_every_game(game: tuple) -> None:
    rows, final, higher, margin = game
    got = figures(rows, final, higher_is_better=higher, margin=margin)
    assert 0 <= got[hip.LEAD_CHANGES] <= len(rows) - 1
    assert 1 / len(rows) <= got[hip.DECIDED_AT] <= 1
    assert 0 <= got[hip.COMEBACK] <= 1 and 0 <= got[hip.DRAMA] <= 1
    for k in range(3):
        value = got[hip.LEADER_WINS_25 + k]
        assert math.isnan(value) or 0 <= value <= 1
    # A lower score winning is a higher score winning with every score negated.
    negated = figures(
        [[-v for v in r] for r in rows],
        [-v for v in final],
        higher_is_better=not higher,
        margin=margin,
    )
    assert same(got, negated)


def sample_games() -> list[list[float]]:
    """Both forms' figures of 200 seeded random games (for the BALANCER_JIT=0 child)."""
    rng = np.random.default_rng(11)
    out: list[list[float]] = []
    for _ in range(200):
        seats, steps = int(rng.integers(1, 6)), int(rng.integers(1, 10))
        rows = rng.integers(-3, 4, size=(steps, seats)).cumsum(axis=0).tolist()
        final = rows[-1] if rng.random() < 0.7 else rng.integers(-9, 9, seats).tolist()
        higher, margin = bool(rng.random() < 0.5), int(rng.integers(0, 4))
        out.append(figures(rows, final, higher_is_better=higher, margin=margin))
        out.append(tracked(rows, final, higher, margin))
    return out


def test_plain_python_gives_the_compiled_figures() -> None:
    """With compiling off (a fresh process: BALANCER_JIT is read at import), the same figures."""
    code = (
        "import json\n"
        "from balancer import jit\n"
        "assert not jit.ENABLED\n"
        "from tests.unit.test_how_it_plays import sample_games\n"
        "print(json.dumps(sample_games()))\n"
    )
    env = {**os.environ, jit.JIT_ENV: "0", "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr
    plain, compiled = json.loads(done.stdout.replace("NaN", "null")), sample_games()
    assert jit.ENABLED  # the control: this side compiled
    assert [[None if math.isnan(v) else v for v in row] for row in compiled] == plain


# --- a run's figures and intervals ------------------------------------------------


def test_a_runs_intervals_worked_out_by_hand() -> None:
    rows = np.array(
        [
            # changes, decided, comeback, drama, leader wins at 25%, 50%, 75%
            [0, 0.25, 1, 0.5, 1, 1, 1],
            [2, 0.5, 0, 0.0, NAN, 0, 1],
            [4, 0.75, 0, 0.25, 0, 0.5, NAN],
        ]
    )
    run = hip.run_figures(rows)
    # Lead changes 0, 2, 4: mean 2, sd 2, se 2/sqrt(3), t(2) = 4.3026527297 (tables).
    half = 4.302652729696 * 2 / math.sqrt(3)
    assert run.lead_changes.estimate == 2
    assert run.lead_changes.ci95 == pytest.approx([2 - half, 2 + half], abs=1e-9)
    assert run.decided_at.estimate == 0.5 and run.drama.estimate == 0.25
    assert run.comeback.estimate == pytest.approx(1 / 3)
    # The leader's share over games with a sole leader at the checkpoint only:
    # at 25%, 1 of 2 (not 1 of 3); at 50%, (1 + 0 + 0.5) / 3; at 75%, 2 of 2.
    wins = [iv.estimate if iv else None for iv in run.leader_wins]
    assert wins == pytest.approx([1 / 2, 1 / 2, 1])
    assert run.leader_wins[0] is not None and run.leader_wins[0].n == 3
    # No game with a leader at a checkpoint: no figure there, not a share of 0.
    assert hip.run_figures(rows[1:2]).leader_wins[0] is None
    assert hip.HowItPlaysCounts().games == 0


def test_counted_batches_give_the_in_memory_intervals() -> None:
    rng = np.random.default_rng(7)
    rows = np.array(
        [
            hip.figures_of(rng.integers(-2, 4, size=(int(rng.integers(1, 9)), 4)).cumsum(axis=0))
            for _ in range(400)
        ]
    )
    whole = hip.run_figures(rows)
    one, other = hip.HowItPlaysCounts(), hip.HowItPlaysCounts()
    one.add(rows[:123])
    other.add(rows[123:300])
    other.add(rows[300:])
    one.merge(other)
    counted = one.figures()
    assert one.games == 400
    pairs = [
        (whole.lead_changes, counted.lead_changes),
        (whole.decided_at, counted.decided_at),
        (whole.comeback, counted.comeback),
        (whole.drama, counted.drama),
        *zip(whole.leader_wins, counted.leader_wins, strict=True),
    ]
    for a, b in pairs:
        assert a is not None and b is not None
        assert [b.estimate, *b.ci95, b.se] == pytest.approx([a.estimate, *a.ci95, a.se], rel=1e-12)
        assert a.n == b.n == 400
    # The counts, so the report, do not depend on how the games were split.
    all_at_once = hip.HowItPlaysCounts()
    all_at_once.add(rows)
    assert all_at_once.tables == one.tables
    assert all_at_once.figures() == counted
    # The comeback share is intervals' share of the per-game values, not a mean's t interval.
    assert whole.comeback == intervals.share_interval(rows[:, hip.COMEBACK])
    assert set(whole.to_json()) == set(hip.NAMES)


def test_the_figure_names_spell_the_progress_figures_in_their_order() -> None:
    """stats/play_names.py spells the figures without importing games/progress.py (which
    loads numba): its keys must be NAMES, in NAMES' order, or a figure name would read
    another figure's column."""
    from balancer.games.progress import NAMES
    from balancer.stats.play_names import HOW_IT_PLAYS

    assert list(HOW_IT_PLAYS.values()) == list(NAMES)
    assert all(name.startswith(f"how_it_plays.{key}.") for name, key in HOW_IT_PLAYS.items())


def test_counts_keep_each_column_apart_where_values_meet() -> None:
    """The counts sort every column at once: a column whose largest value equals the next
    column's smallest must not run into it. Worked by hand: two games, lead changes 0
    and 1, decided at 1.0 in both, no sole leader at 25% in the first (NaN: NO_LEADER)."""
    rows = np.zeros((2, hip.FIGURES))
    rows[:, hip.LEAD_CHANGES] = [0.0, 1.0]
    rows[:, hip.DECIDED_AT] = [1.0, 1.0]
    rows[:, hip.LEADER_WINS_25] = [np.nan, 1.0]
    counts = hip.HowItPlaysCounts()
    counts.add(rows)
    counts.add(rows[:0])  # an empty batch counts nothing
    assert counts.games == 2
    assert counts.tables[hip.LEAD_CHANGES] == {0.0: 1, 1.0: 1}
    assert counts.tables[hip.DECIDED_AT] == {1.0: 2}
    assert counts.tables[hip.LEADER_WINS_25] == {hip.NO_LEADER: 1, 1.0: 1}
    assert counts.tables[hip.DRAMA] == {0.0: 2}
