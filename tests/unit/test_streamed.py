"""Streamed figures: counts gathered batch by batch give the figures of the whole table.

A run never holds its games: they go to games.parquet as they arrive and
into counts (stats.streamed.GameCounts). These tests pin that the counts'
figures do not depend on how the games were split, that they are the
figures stats.figures computes on whole per-game arrays (to rounding; the
quantiles, extremes and counts exactly), and that games.parquet is the
table, in game order, however many batches it was written in.
"""

from __future__ import annotations

import math
import os
from dataclasses import replace
from typing import Any

import numpy as np
import polars as pl
import pytest
from hypothesis import given
from hypothesis import strategies as st

import balancer
from balancer import table
from balancer.config.variant import SeatSpec
from balancer.report import build
from balancer.sim import runner, sink
from balancer.stats import describe
from balancer.stats.figures import RunData, figures_for_run
from balancer.stats.streamed import Counted, GameCounts
from tests.helpers import VARIANTS


def _close(a: Any, b: Any, path: str = "") -> None:
    """Equal structure; floats equal to rounding (1e-9 relative); everything else equal."""
    if isinstance(a, dict):
        assert a.keys() == b.keys(), path
        for key in a:
            _close(a[key], b[key], f"{path}.{key}")
    elif isinstance(a, list | tuple):
        assert len(a) == len(b), path
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            _close(x, y, f"{path}[{i}]")
    elif isinstance(a, float) and isinstance(b, float):
        assert a == b or math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12), (path, a, b)
    else:
        assert a == b, (path, a, b)


@given(st.lists(st.integers(-5, 30), min_size=1, max_size=200))
def test_counted_quantiles_are_numpys_exactly(values: list[int]) -> None:
    data = np.array(values, dtype=float) / 2  # halves too: interpolation between values
    counted = Counted.of(dict(zip(*np.unique(data, return_counts=True), strict=True)))
    for q in (0.0, 0.25, 0.5, 0.75, 1.0):
        assert counted.quantile(q) == float(np.quantile(data, q))
    whole = describe.distribution(data)
    mine = counted.distribution()
    assert (mine["min"], mine["max"]) == (whole["min"], whole["max"])
    _close(mine, whole)


def test_counts_of_three_games_by_hand() -> None:
    # Game 0: seat 0 wins 3-1; game 1: a 2-2 tie; game 2: seat 1 wins 5-0.
    counts = GameCounts.from_arrays(
        np.array([[3.0, 1.0], [2.0, 2.0], [0.0, 5.0]]),
        np.array([4, 4, 6]),
        np.array([[1.0], [0.0], [2.0]]),
        event_names=["bust"],
        labels=["a", "a"],
    )
    assert counts.outcomes == {0b01: 1, 0b11: 1, 0b10: 1}
    figures = counts.figures()
    assert [s.win.estimate for s in figures.seats] == [0.5, 0.5]  # 1 + 1/2 + 0 over 3 games
    assert counts.margins == {2.0: 1, 0.0: 1, 5.0: 1}
    assert counts.length_counts().mean() == pytest.approx(14 / 3)
    assert counts.event_values["bust"] == {0.0: 1, 1.0: 1, 2.0: 1}
    fired = figures.events["bust"].share_of_games
    assert fired is not None and fired.estimate == pytest.approx(2 / 3)
    assert figures.seat_advantage.note == ""  # one bot everywhere: a test, not confounded


def test_counting_without_numba_seats_a_chunk_from_its_start(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # BALANCER_JIT=0 (numba off): count is add. Two players rotating, a chunk of
    # games 1 and 2. Game 1 is in phase 1, seat 0 wins: key 1 << 2 | 0b01 = 5; game 2 in
    # phase 0, seat 1 wins: key 0b10 = 2.
    from balancer import jit

    monkeypatch.setattr(jit, "ENABLED", False)
    counts = GameCounts(players=2, events=(), labels=("a", "b"), rotate=True)
    shares = counts.count(1, np.array([[3.0, 1.0], [0.0, 5.0]]), np.array([4, 6]), np.zeros((2, 0)))
    assert shares is None
    assert counts.outcomes == {5: 1, 2: 1} and counts.games == 2


def _random_games(rng: np.random.Generator, n: int, players: int, events: int) -> tuple:
    scores = rng.integers(0, 6, size=(n, players)).astype(float)
    length = rng.integers(8, 14, size=n)
    values = rng.poisson(0.7, size=(n, events)).astype(float)
    return scores, length, values


@pytest.mark.parametrize(
    ("labels", "rotate", "higher"),
    [
        (("a", "a", "a", "a"), False, True),
        (("a", "b", "b", "b"), True, True),
        (("a", "b", "b", "c"), False, False),  # confounded: no seat-advantage test
    ],
)
def test_any_split_gives_the_figures_of_the_whole_table(
    labels: tuple[str, ...], rotate: bool, higher: bool
) -> None:
    rng = np.random.default_rng(7)
    scores, length, values = _random_games(rng, 997, 4, 2)
    names = ("x", "peak")
    options = dict(
        event_names=names, labels=labels, value_events=("peak",), higher_is_better=higher
    )
    whole = GameCounts.from_arrays(scores, length, values, rotate=rotate, **options)  # type: ignore[arg-type]
    for cuts in ([], [1], [100, 101, 500], sorted(rng.choice(996, 40, replace=False) + 1)):
        parts = GameCounts(
            players=4,
            events=names,
            labels=labels,
            value_events=("peak",),
            higher_is_better=higher,
            rotate=rotate,
        )
        edges = [0, *cuts, 997]
        for start, stop in zip(edges, edges[1:], strict=False):
            parts.add(start, scores[start:stop], length[start:stop], values[start:stop])
        assert parts.figures() == whole.figures()  # exactly: counts are integers
        assert parts.head_to_head() == whole.head_to_head()
    # ... and the figures stats.figures computes from the whole per-game arrays.
    n = len(length)
    slots = table.seat_slots(0, n, 4, rotate)
    data = RunData(
        scores=scores,
        wins=table.win_shares_matrix(scores, higher),
        bot_labels=np.array(labels)[slots],
        lengths=length.astype(float),
        events={name: values[:, k] for k, name in enumerate(names)},
        value_events=("peak",),
        higher_is_better=higher,
        rotate=rotate,
    )
    _close(whole.figures().to_json(), figures_for_run(data).to_json())
    if len(set(labels)) > 1:
        frame = pl.DataFrame(
            {
                "game": np.arange(n),
                **{table.score(s): scores[:, s] for s in range(4)},
                **{table.bot(s): data.bot_labels[:, s] for s in range(4)},
            }
        )
        _close(whole.head_to_head(), describe.head_to_head(frame, 4, higher))


@pytest.fixture
def small_batches(monkeypatch: pytest.MonkeyPatch) -> None:
    """Batches of 70 games: a 300-game run writes games.parquet in five."""
    monkeypatch.setattr(sink, "BATCH_ROWS", 70)


@pytest.mark.parametrize("name", ["fdc-5p-vs-random", "kk-4p-bots", "dqz-4p-vs-random"])
def test_a_run_in_batches_is_the_run_in_one(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    v = balancer.load_variant(VARIANTS / f"{name}.yaml", games=300, seed=4)
    one = runner.run(v)
    monkeypatch.setattr(sink, "BATCH_ROWS", 70)
    parts = runner.run(v, workers=2)
    frame = parts.frame()
    assert frame["game"].to_list() == list(range(300))  # in game order
    assert frame.equals(one.frame())
    kinds = v.spec.card_kinds
    words = table.held_words(len(kinds(v.rules))) if kinds is not None else 0
    assert frame.schema == pl.Schema(table.schema(v.players, v.spec.events, words))
    streamed = build.build_report(parts)
    assert streamed.json_text() == build.build_report(one).json_text()
    # The in-memory computation (counts of the whole table at once) says the same.
    assert build.build_report(one, one.frame()).json_text() == streamed.json_text()


def test_games_parquet_is_read_only_by_whoever_asks(tmp_path: Any, small_batches: None) -> None:
    v = balancer.load_variant(VARIANTS / "fdc-3p.yaml", games=300, seed=2)
    report = balancer.run(v, scratch=tmp_path / "scratch")
    assert "_games_read" not in report.__dict__
    saved = report.save(tmp_path / "r")
    assert "_games_read" not in report.__dict__  # saved and charted without reading the rows
    on_disk = pl.read_parquet(tmp_path / "r" / "games.parquet")
    assert on_disk.height == 300 and saved.games.equals(on_disk)
    assert report.games.equals(on_disk)
    assert sorted(p.name for p in (tmp_path / "r").iterdir() if "games" in p.name) == [
        "games.parquet"
    ]


def test_a_run_stopped_early_holds_the_games_played(small_batches: None) -> None:
    v = balancer.load_variant(VARIANTS / "fdc-3p.yaml", games=400, seed=2)
    seen: list[int] = []

    def enough(result: runner.ChunkResult) -> bool:
        seen.append(len(result.length))
        return sum(seen) >= 100

    result = runner.run(v, on_chunk=enough)
    assert result.games == sum(seen) < 400
    assert result.frame()["game"].to_list() == list(range(result.games))
    assert build.build_report(result).n_games == result.games


def test_scratch_is_removed_with_its_run(tmp_path: Any) -> None:
    v = balancer.load_variant(VARIANTS / "fdc-3p.yaml", games=20, seed=2)
    result = runner.run(v, scratch=tmp_path)
    folder = result.games_file.folder
    assert folder.parent == tmp_path and (folder / "games.parquet").is_file()
    del result
    assert not folder.exists()
    assert os.listdir(tmp_path) == []


def test_a_different_bot_per_seat_without_rotation_streams_like_the_table() -> None:
    v = balancer.load_variant(VARIANTS / "fdc-4p.yaml", games=200, seed=9)
    mixed = replace(
        v, seats=tuple(SeatSpec(bot=b) for b in ("heuristic", "random", "random", "heuristic"))
    )
    result = runner.run(mixed)
    report = build.build_report(result)
    assert report.seat_advantage is not None and report.seat_advantage.p_value is None
    assert report.json_text() == build.build_report(result, result.frame()).json_text()
    frame = result.frame()
    data = RunData.from_frame(frame, 4, v.spec.events, v.spec.value_events, True, False)
    _close(result.counts.figures().to_json(), figures_for_run(data).to_json())


def test_a_run_that_fails_midway_leaves_no_games_and_no_writer(
    tmp_path: Any, small_batches: None
) -> None:
    import threading

    v = balancer.load_variant(VARIANTS / "fdc-3p.yaml", games=400, seed=2)
    seen: list[int] = []

    def fails(result: runner.ChunkResult) -> bool:
        seen.append(len(result.length))
        if sum(seen) >= 200:  # two batches written, a third waiting
            raise KeyError("stop")
        return False

    with pytest.raises(KeyError):
        runner.run(v, on_chunk=fails, scratch=tmp_path)
    assert os.listdir(tmp_path) == []
    assert not [t for t in threading.enumerate() if t.name == "games.parquet"]


def test_a_run_of_no_game_writes_the_empty_table(tmp_path: Any) -> None:
    v = balancer.load_variant(VARIANTS / "fdc-3p.yaml", games=10, seed=2)
    result = runner.run(v, backend=lambda chunks, workers, started: iter(()), scratch=tmp_path)
    assert result.games == 0
    frame = result.frame()
    assert frame.height == 0 and list(frame.columns) == list(table.schema(3, v.spec.events))


def test_the_quantiles_without_scipy_stats_are_scipy_stats_own() -> None:
    from scipy import stats as sps

    from balancer.stats import intervals, streamed

    for df in (1, 2, 3, 7, 29, 30, 99, 1000, 12345, 999_999, 10**7, 10**8, math.inf):
        assert streamed.t95(df) == intervals._t_quantile(df), df
    for estimate, variance, n in ((0.2, 0.0001, 500), (0.0, 0.0, 40), (1.0, 0.0, 3), (0.5, 0, 9)):
        assert streamed.wilson_effective(estimate, variance, n) == intervals.wilson_effective(
            estimate, variance, n
        )
    from scipy import special

    for f, k, d in ((0.5, 4, 996), (2.87, 4, 55), (30.0, 3, 10**6), (0.0, 1, 1)):
        assert float(special.fdtrc(k, d, f)) == float(sps.f.sf(f, k, d))


def test_a_full_disk_while_the_games_stream_is_one_line(
    tmp_path: Any, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from balancer.cli import main
    from tests.helpers import one_error_line

    def disk_full(*args: object, **kwargs: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(pl.LazyFrame, "sink_parquet", disk_full)
    out = tmp_path / "r"
    assert main(["run", "-q", str(VARIANTS / "fdc-3p.yaml"), "-n", "30", "-o", str(out)]) == 2
    line = one_error_line(capsys)
    # Named by the report's folder, not the scratch file the games stream to.
    assert line == f"balancer: error: {out}: can't write the games: No space left on device"
    assert not out.exists() and os.listdir(tmp_path) == []
