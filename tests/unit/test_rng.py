"""The randomness contract (balancer/rng.py): pure, identical in kernel and Python, uniform."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy import stats

from balancer import rng

SEEDS = st.integers(0, 2**63 - 1)
GAMES = st.integers(0, 10**8)
STREAMS = st.integers(0, 6)


@given(SEEDS, GAMES, STREAMS)
def test_kernel_and_python_keys_agree(seed: int, game: int, stream: int) -> None:
    assert int(rng.stream_key(seed, game, stream)) == rng.key_of(seed, game, stream)


@given(SEEDS, GAMES, STREAMS, st.lists(st.integers(1, 2**40), min_size=1, max_size=20))
def test_kernel_and_python_draws_agree(seed: int, game: int, stream: int, bounds) -> None:
    streams = np.zeros((stream + 1, 2), np.uint64)
    rng.init_streams(streams, seed, game)
    python = rng.Stream(seed, game, stream)
    assert [rng.below(streams, stream, n) for n in bounds] == [python.below(n) for n in bounds]
    assert int(streams[stream, 1]) == python.counter


@given(SEEDS, GAMES, st.integers(0, 60))
def test_kernel_and_python_shuffles_agree(seed: int, game: int, n: int) -> None:
    streams = np.zeros((1, 2), np.uint64)
    rng.init_streams(streams, seed, game)
    values = np.arange(n, dtype=np.int64)
    rng.shuffle(streams, 0, values, n)
    python = list(range(n))
    rng.Stream(seed, game, 0).shuffle(python)
    assert values.tolist() == python


def test_a_draw_depends_only_on_its_coordinates() -> None:
    first = rng.Stream(1, 2, 3)
    [first.next_u64() for _ in range(10)]
    tenth = first.next_u64()
    assert rng.Stream(1, 2, 3, counter=10).next_u64() == tenth
    # Neighbouring seeds, games and streams give unrelated numbers.
    others = {rng.Stream(*c).next_u64() for c in [(1, 2, 3), (2, 2, 3), (1, 3, 3), (1, 2, 4)]}
    assert len(others) == 4


@pytest.mark.parametrize("n", [2, 3, 7, 10, 60])
def test_below_is_uniform(n: int) -> None:
    stream = rng.Stream(20261201, n, 0)
    draws = np.array([stream.below(n) for _ in range(2000 * n)])
    counts = np.bincount(draws, minlength=n)
    assert stats.chisquare(counts).pvalue > 1e-4


def test_below_is_unbiased_for_a_bound_near_two_to_the_64() -> None:
    # 2**64 mod n is about n/2 here: plain x % n would give the lower half of
    # the range twice the weight of the upper half.
    n = (2**64 // 3) * 2
    stream = rng.Stream(5, 5, 5)
    low = sum(stream.below(n) < n // 2 for _ in range(4000))
    assert stats.binomtest(low, 4000, 0.5).pvalue > 1e-4


def test_shuffle_positions_are_uniform() -> None:
    n, trials = 8, 8000
    counts = np.zeros((n, n), np.int64)  # card -> position
    streams = np.zeros((1, 2), np.uint64)
    for game in range(trials):
        rng.init_streams(streams, 99, game)
        values = np.arange(n, dtype=np.int64)
        rng.shuffle(streams, 0, values, n)
        counts[values, np.arange(n)] += 1
    p = stats.chisquare(counts.ravel(), np.full(n * n, trials / n)).pvalue
    assert p > 1e-4


def test_uniform01_is_in_the_unit_interval_and_matches_python() -> None:
    streams = np.zeros((1, 2), np.uint64)
    rng.init_streams(streams, 3, 4)
    kernel = [rng.uniform01(streams, 0) for _ in range(1000)]
    python = rng.Stream(3, 4, 0)
    assert kernel == [python.random() for _ in range(1000)]
    assert min(kernel) >= 0.0 and max(kernel) < 1.0
    assert stats.kstest(kernel, "uniform").pvalue > 1e-4


def test_stream_methods_behave_like_random() -> None:
    stream = rng.Stream(1, 1, 1)
    assert all(3 <= stream.randrange(3, 9) < 9 for _ in range(200))
    assert {stream.randint(1, 2) for _ in range(200)} == {1, 2}
    assert stream.choice("abc") in "abc"
    with pytest.raises(ValueError):
        stream.randrange(0)
    with pytest.raises(IndexError):
        stream.choice([])
