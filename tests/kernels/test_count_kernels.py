"""A chunk counted by the compiled pass (GameCounts.count) is counted exactly as `add` counts it.

`add` is the numpy path every batch of a run went through before the
counting became a compiled pass per chunk; it stays the reference
(GameCounts.from_arrays, a report read back). These tests pin that merging
per-chunk counts gives the same tables, key for key and type for type, at
any chunk size; that the win shares are table.win_shares_matrix's bit for
bit; that card impact's per-chunk tallies merge into the batch tally; and
that a run's counts do not depend on the workers or the chunk size.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import balancer
from balancer import jit, table
from balancer.sim import runner, sink
from balancer.stats.card_tally import CardTally
from balancer.stats.count_kernels import count_chunk
from balancer.stats.streamed import GameCounts
from tests.helpers import VARIANTS

EVENTS = ("x", "peak")


def _typed(counts: GameCounts) -> dict[str, Any]:
    """Every table of the counts as sorted (key type, key, games): 1 and 1.0 differ here."""

    def rows(table: dict) -> list[tuple[str, Any, int]]:
        return sorted((type(k).__name__, k, v) for k, v in table.items())

    return {
        "games": counts.games,
        "outcomes": rows(counts.outcomes),
        "scores": [rows(t) for t in counts.scores],
        "margins": rows(counts.margins),
        "lengths": rows(counts.lengths),
        "events": {name: rows(t) for name, t in counts.event_values.items()},
        "orders": rows(counts.orders),
    }


def _empty(players: int, labels: tuple[str, ...], higher: bool, rotate: bool) -> GameCounts:
    return GameCounts(
        players=players,
        events=EVENTS,
        labels=labels,
        value_events=("peak",),
        higher_is_better=higher,
        rotate=rotate,
    )


def _games(draw: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    n = draw(st.integers(1, 60))
    players = draw(st.integers(1, 5))
    # A few distinct scores, so ties for best are common; sometimes a half point.
    scores = np.array(
        draw(st.lists(st.sampled_from([-2.0, 0.0, 1.0, 3.0, 3.5]), min_size=n * players,
                      max_size=n * players))
    ).reshape(n, players)  # fmt: skip
    length = np.array(draw(st.lists(st.integers(0, 40), min_size=n, max_size=n)), dtype=np.int64)
    odd = draw(st.sampled_from([0.0, 0.25, 1e6, np.inf]))  # values `add` sorts, not bins
    x = np.array(draw(st.lists(st.integers(0, 7), min_size=n, max_size=n)), dtype=np.float64)
    peak = x * 3 - 5
    if draw(st.booleans()):
        peak[draw(st.integers(0, n - 1))] = odd
    return scores, length, np.stack([x, peak], axis=1)


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_chunks_counted_where_played_are_the_batch_counted_by_numpy(data: Any) -> None:
    scores, length, events = _games(data.draw)
    n, players = scores.shape
    labels = tuple(data.draw(st.lists(st.sampled_from("ab"), min_size=players, max_size=players)))
    higher, rotate = data.draw(st.booleans()), data.draw(st.booleans())
    start = data.draw(st.integers(0, 7))
    reference = _empty(players, labels, higher, rotate)
    reference.add(start, scores, length, events)
    merged = _empty(players, labels, higher, rotate)
    cut = sorted(set(data.draw(st.lists(st.integers(1, n), max_size=4))) | {0, n})
    for lo, hi in zip(cut, cut[1:], strict=False):
        chunk = _empty(players, labels, higher, rotate)
        wins = chunk.count(start + lo, scores[lo:hi], length[lo:hi], events[lo:hi])
        if jit.ENABLED:
            assert wins is not None
        if wins is not None:
            assert np.array_equal(wins, table.win_shares_matrix(scores[lo:hi], higher))
        merged.merge(chunk)
    assert _typed(merged) == _typed(reference)
    if np.isfinite(events).all():  # an infinite value's figures are NaN, never equal
        assert merged.figures() == reference.figures()


def test_counts_of_three_games_by_hand() -> None:
    """Three 3-seat games, higher is better, no rotation, worked out by hand."""
    scores = np.array([[3.0, 1.0, 3.0], [0.0, 2.0, 1.0], [5.0, 5.0, 5.0]])
    counts = _empty(3, ("a", "a", "b"), True, False)
    wins = counts.count(0, scores, np.array([4, 4, 6]), np.array([[1, 2], [0, 2], [1, 2.5]]))
    if jit.ENABLED:
        assert wins is not None and wins.tolist() == [
            [0.5, 0.0, 0.5],
            [0.0, 1.0, 0.0],
            [1 / 3, 1 / 3, 1 / 3],
        ]
    # winners: seats 0 and 2 (mask 5), seat 1 (mask 2), all three (mask 7)
    assert counts.outcomes == {5: 1, 2: 1, 7: 1}
    assert counts.margins == {0.0: 2, 1.0: 1}  # ties are 0; game 1: 2 - 1
    assert counts.lengths == {4.0: 2, 6.0: 1}
    assert counts.scores[0] == {0.0: 1, 3.0: 1, 5.0: 1}
    assert counts.event_values["peak"] == {2.0: 2, 2.5: 1}
    # Orders of pairs (0,1), (0,2), (1,2), digits 2 ahead / 1 tie / 0 behind, key code * 3.
    codes = [(2 * 9 + 1 * 3 + 0) * 3, (0 * 9 + 0 * 3 + 2) * 3, (1 * 9 + 1 * 3 + 1) * 3]
    assert counts.orders == {c: 1 for c in codes}


@pytest.mark.skipif(not jit.ENABLED, reason="the compiled pass itself")
def test_a_score_that_is_not_finite_leaves_the_chunk_to_numpy() -> None:
    scores = np.array([[1.0, np.inf], [2.0, 0.0]])
    finite = count_chunk(scores, np.zeros(2, np.int64), np.zeros((2, 0)), 0, False, True, False)[0]
    assert not finite
    counts = _empty(2, ("a", "a"), True, False)
    events = np.zeros((2, 2))
    assert counts.count(0, scores, np.zeros(2, np.int64), events) is None
    reference = _empty(2, ("a", "a"), True, False)
    reference.add(0, scores, np.zeros(2, np.int64), events)
    assert _typed(counts) == _typed(reference)


def test_card_tallies_of_chunks_merge_into_the_batch_tally() -> None:
    rng = np.random.default_rng(3)
    scores = rng.integers(0, 3, size=(500, 4)).astype(float)
    held = rng.integers(0, 1 << 40, size=(500, 4), dtype=np.uint64)
    wins = table.win_shares_matrix(scores, True)
    whole = CardTally(4, 40)
    whole.add(wins, held)
    parts = CardTally(4, 40)
    for lo in range(0, 500, 77):
        part = CardTally(4, 40)
        part.add(wins[lo : lo + 77], held[lo : lo + 77])
        parts.merge(part)
    assert parts.games == whole.games == 500
    assert np.array_equal(parts.sums, whole.sums)


@pytest.mark.parametrize(
    ("name", "compiled"),
    [
        ("fdc-5p-vs-random", False),  # --check: worker processes count their chunks
        ("kk-4p-bots", False),
        ("dqz-4p-vs-random", False),
        ("fdc-5p-vs-random", True),  # threads: the main thread counts each chunk
        ("kk-4p-bots", True),
    ],
)
def test_a_run_counted_chunk_by_chunk_is_the_run_counted_in_one_batch(
    name: str, compiled: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Per-chunk counts (two workers, small chunks) against `add` over the whole table."""
    if compiled:
        monkeypatch.delenv(runner.CHECK_ENV, raising=False)
    v = balancer.load_variant(VARIANTS / f"{name}.yaml", games=300, seed=11)
    monkeypatch.setattr(sink, "BATCH_ROWS", 70)
    played = runner.run(v, workers=2)
    frame = played.frame()
    n, players = frame.height, v.players
    scores = np.stack([frame[table.score(s)].to_numpy() for s in range(players)], axis=1)
    events = np.stack([frame[table.event(e)].to_numpy() for e in v.spec.events], axis=1)
    whole = GameCounts.from_arrays(
        scores,
        frame[table.LENGTH].to_numpy(),
        events.reshape(n, len(v.spec.events)),
        event_names=v.spec.events,
        labels=[s.label for s in v.seats],
        value_events=v.spec.value_events,
        higher_is_better=v.spec.higher_is_better,
        rotate=v.seat_rotation,
    )
    assert _typed(played.counts) == _typed(whole)
    if v.spec.card_kinds is not None:
        kinds = v.spec.card_kinds(v.rules)
        held = np.stack(
            [frame[c].to_numpy() for c in frame.columns if c.startswith("held_")], axis=1
        )
        tally = CardTally(players, len(kinds))
        tally.add(table.win_shares_matrix(scores, v.spec.higher_is_better), held)
        assert played.cards is not None
        assert np.array_equal(played.cards.sums, tally.sums)
