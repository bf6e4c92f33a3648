"""`run --trace N`: the scores after each step of the run's first N games, in trace.parquet.

A hand-made game file whose every game is the same (SEESAW, worked out below) is
traced exactly; for every shipped game the figures recomputed from a trace equal
the ones the game's kernel computes for the same games; the count's edges (more
games than played, 0, negative, too many) are each said plainly; the folder stays
all or nothing with a trace in it, and `csv` and `diff` read a folder that holds one.
"""

from __future__ import annotations

import errno
import json
from pathlib import Path

import numpy as np
import polars as pl
import pytest

import balancer
from balancer.cli import main
from balancer.games.progress import NAMES, NO_MARGIN, figures_of
from balancer.sim import compiled
from balancer.sim.trace import METADATA_KEY, TRACE_PARQUET, Trace, read_trace, trace_games
from tests.helpers import VARIANTS, assert_untouched, contents, one_error_line, write_file

pytestmark = pytest.mark.usefixtures("engine_unchecked")

# Two seats, one card kind (red token 1, twelve copies): every trick both seats play a
# token 1, both are cancelled as a repeated number, and so nothing resolves and the lead
# passes to the next seat (leader_if_nothing_resolves: next): seat 0 leads tricks 1, 3
# and 5, seat 1 tricks 2, 4 and 6. A cancelled token moves its owner 1; at the trick's
# end the trick's leader catches up to the other seat plus 1 (offset -1). Whatever the
# deal and the bots' choices, every game goes:
#   trick 1 (seat 0 leads): 1-1, seat 0 up to 2      -> 2-1
#   trick 2 (seat 1 leads): 3-2, seat 1 up to 4      -> 3-4
#   trick 3 (seat 0 leads): 4-5, seat 0 up to 6      -> 6-5
#   trick 4: 7-6 -> 7-8;  trick 5: 8-9 -> 10-9;  trick 6: 11-10 -> 11-12
SEESAW = """\
name: seesaw
short: ssw
players: [2, 2]
deck: {colours: [red], roles: [token], numbers: [1, 1], copies: 12}
hand_size: 6
trick:
  leader_if_nothing_resolves: next
counters:
  position: {start: 0, min: 0, max: 1000}
roles:
  token:
    resolve: [{add: {counter: position, by: 1}}]
    on_cancelled: [{add: {counter: position, by: 1}}]
hooks:
  on_trick_end: [{catch_up: {counter: position, target: trick_leader, offset: -1}}]
score:
  - {counter: position}
win: highest
"""
SEESAW_ROWS = [(2, 1), (3, 4), (6, 5), (7, 8), (10, 9), (11, 12)]
# Seat 1 wins 12-11. The sole leader flips every trick: 5 lead changes. Seat 1 leads
# alone only from trick 6: decided at 6/6. At trick ceil(6/2) = 3 seat 1 is last (5
# against 6): a comeback. Its largest deficit is 1, the widest spread 1: drama 1. The
# leaders at tricks 2, 3 and 5 (25%, 50%, 75% of 6): seat 1 (won), seat 0, seat 0.
SEESAW_FIGURES = [5, 1.0, 1.0, 1.0, 1.0, 0.0, 0.0]


@pytest.fixture(scope="module")
def seesaw(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A two-seat variant of SEESAW with random bots."""
    folder = tmp_path_factory.mktemp("seesaw")
    write_file(folder, SEESAW, "seesaw.yaml")
    text = "game: seesaw.yaml\nplayers: 2\nseats: [random, random]\ngames: 4\nseed: 5\n"
    return write_file(folder, text, "seesaw-2p.yaml")


def _run(*args: str | Path) -> int:
    return main(["run", "-q", *(str(arg) for arg in args)])


def _long(rows: list[tuple[int, int]], games: int) -> list[tuple[int, int, int, int]]:
    """`rows` (each step's scores) as trace.parquet's (game, step, seat, score), for each game."""
    return [
        (game, step, seat, score)
        for game in range(games)
        for step, row in enumerate(rows, start=1)
        for seat, score in enumerate(row)
    ]


def test_a_hand_made_game_is_traced_exactly(seesaw: Path, tmp_path: Path) -> None:
    out = tmp_path / "r"
    assert _run(seesaw, "-n", "5", "--trace", "3", "-o", out) == 0
    trace = read_trace(out / TRACE_PARQUET)
    assert trace.frame.columns == ["game", "step", "seat", "score"]
    assert trace.frame.rows() == _long(SEESAW_ROWS, 3)
    assert trace.about == {
        "format": 1,
        "game": "seesaw",
        "variant": "seesaw-2p",
        "seed": 5,
        "games": 3,
        "length_unit": "tricks",
        "higher_is_better": True,
        "final_scores": "games.parquet: score_<seat> of the same game",
    }
    for game in range(3):
        progress = trace.progress(game)
        assert progress.tolist() == [list(row) for row in SEESAW_ROWS]
        got = figures_of(progress, [11, 12], trace.about["higher_is_better"])
        assert np.array_equal(got, SEESAW_FIGURES), dict(zip(NAMES, got.tolist(), strict=True))


# -- the figures from a trace are the kernel's, game for game -------------------------

TRACED = [
    ("fdc-5p.yaml", ""),  # heuristic bots, a trick at a time
    ("kk-4p.yaml", ""),  # a round at a time, lower totals win
    ("dqz-4p.yaml", ""),  # a deal at a time, of varying length
    # A game file, a trick at a time.
    ("mega-racer-4p.yaml", "seats: [random, random, random, random]\n"),
    # A comeback margin, kept in the trace's metadata for figures_of.
    ("kk-4p.yaml", "comeback_margin: 2\n"),
]
GAMES = 24


def recomputed_figures(folder: Path) -> np.ndarray:
    """Each traced game's figures, from its rows in trace.parquet and its final scores in
    games.parquet (what a reader of the folder does), float64 [games, figures]."""
    trace = read_trace(folder / TRACE_PARQUET)
    games = pl.read_parquet(folder / "games.parquet")
    seats = [column for column in games.columns if column.startswith("score_")]
    out = []
    for game in range(trace.games):
        row = games.filter(pl.col("game") == game)
        final = [row[column].item() for column in seats]
        margin = trace.about.get("comeback_margin", NO_MARGIN)
        out.append(figures_of(trace.progress(game), final, trace.about["higher_is_better"], margin))
    return np.array(out)


def streamed_figures(variant_path: Path, games: int, seed: int) -> np.ndarray:
    """The same games' figures as the compiled run computes them (its kernel's
    ChunkColumns.figures), float64 [games, figures]: the kernel's own, beside the
    columns games.parquet streams."""
    variant = balancer.load_variant(variant_path, games=games, seed=seed)
    figures = compiled.play_columns(variant, 0, games).figures
    assert figures is not None
    return figures


@pytest.mark.parametrize(("shipped", "seats"), TRACED, ids=[name for name, _ in TRACED])
def test_the_figures_from_a_trace_are_the_kernels(shipped: str, seats: str, tmp_path: Path) -> None:
    path = write_file(tmp_path, f"extends: {VARIANTS / shipped}\n{seats}", "v.yaml")
    out = tmp_path / "r"
    assert _run(path, "-n", GAMES, "--seed", "3", "--trace", GAMES, "-o", out) == 0
    trace = read_trace(out / TRACE_PARQUET)
    games = pl.read_parquet(out / "games.parquet")
    # Every game traced, each with as many steps as its length.
    steps = trace.frame.group_by("game").agg(pl.col("step").max()).sort("game")
    assert steps["game"].to_list() == list(range(GAMES))
    assert steps["step"].to_list() == games.sort("game")["length"].to_list()
    got, expected = recomputed_figures(out), streamed_figures(path, GAMES, 3)
    assert got.shape == expected.shape == (GAMES, len(NAMES))
    assert np.array_equal(got, expected, equal_nan=True)
    # ... and the run's own columns, as games.parquet streams them (null where undefined).
    columns = games.sort("game").select(NAMES).to_numpy().astype(float)
    assert np.array_equal(got, columns, equal_nan=True)
    assert len({tuple(np.nan_to_num(row, nan=-1)) for row in got}) > 1  # not all one game


# -- how many games ---------------------------------------------------------------------


def test_more_games_than_the_run_plays_traces_them_all_and_says_so(
    seesaw: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "r"
    assert _run(seesaw, "-n", "3", "--trace", "10", "-o", out) == 0
    assert "--trace 10: the run plays 3 games, all of them traced" in capsys.readouterr().err
    assert read_trace(out / TRACE_PARQUET).frame.rows() == _long(SEESAW_ROWS, 3)


def test_no_game_beyond_the_run_is_played_for_a_trace(seesaw: Path) -> None:
    variant = balancer.load_variant(seesaw, games=3)
    played: list[int] = []
    trace = trace_games(variant, 10, 1.0, advance=played.append)
    assert (trace.games, len(played)) == (3, 3)
    assert trace.frame.rows() == _long(SEESAW_ROWS, 3)


def test_a_trace_of_0_games_or_none_writes_no_trace(seesaw: Path, tmp_path: Path) -> None:
    assert _run(seesaw, "-n", "3", "--trace", "0", "-o", tmp_path / "zero") == 0
    assert _run(seesaw, "-n", "3", "-o", tmp_path / "none") == 0
    assert contents(tmp_path / "zero").keys() == contents(tmp_path / "none").keys()
    assert not (tmp_path / "zero" / TRACE_PARQUET).exists()
    # The control: one game is traced.
    assert _run(seesaw, "-n", "3", "--trace", "1", "-o", tmp_path / "one") == 0
    assert (tmp_path / "one" / TRACE_PARQUET).exists()


@pytest.mark.parametrize(
    ("count", "said"),
    [
        ("-1", "Invalid value for '--trace': -1 is not in the range 0<=x<=100000"),
        ("100001", "Invalid value for '--trace': 100001 is not in the range 0<=x<=100000"),
        ("two", "Invalid value for '--trace': 'two' is not a valid integer range"),
    ],
)
def test_a_bad_count_is_one_line_before_any_game(
    count: str, said: str, seesaw: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert _run(seesaw, "--trace", count, "-o", tmp_path / "r") == 2
    assert said in one_error_line(capsys)
    assert not (tmp_path / "r").exists()


def test_a_run_stopped_early_traces_no_game_it_did_not_play(seesaw: Path, tmp_path: Path) -> None:
    """Every SEESAW game is won by seat 1, so --until stops the run at its first look."""
    out = tmp_path / "r"
    args = ["-n", "2000", "--until", "win_ci<=0.5", "--trace", "2000", "-o", out]
    assert _run(seesaw, *args) == 0
    played = json.loads((out / "report.json").read_text())["games"]
    assert played < 2000
    trace = read_trace(out / TRACE_PARQUET)
    assert trace.games == played
    assert trace.frame["game"].unique().sort().to_list() == list(range(played))


# -- the folder --------------------------------------------------------------------------


def test_a_trace_that_cant_be_written_leaves_the_last_report_whole(
    seesaw: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    out = tmp_path / "r"
    assert _run(seesaw, "-n", "3", "-o", out) == 0
    before = contents(out)

    def full(self: Trace, path: Path) -> None:
        path.write_bytes(b"half a trace")
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(Trace, "write", full)
    assert _run(seesaw, "-n", "4", "--trace", "2", "-o", out) == 2
    line = one_error_line(capsys)
    assert "No space left on device" in line and TRACE_PARQUET in line, line
    assert_untouched(out, before)


def test_csv_keeps_the_trace_and_diff_reads_past_it(
    seesaw: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    traced, plain = tmp_path / "trace", tmp_path / "plain"  # one length: the same wrapping
    assert _run(seesaw, "-n", "4", "--trace", "2", "-o", traced) == 0
    assert _run(seesaw, "-n", "4", "-o", plain) == 0
    trace = (traced / TRACE_PARQUET).read_bytes()
    assert main(["csv", str(traced)]) == 0
    assert (traced / "games.csv").exists()
    assert (traced / TRACE_PARQUET).read_bytes() == trace  # rewritten in place, kept
    # Still balancer's folder (its manifest lists the trace): a run may replace it.
    assert _run(seesaw, "-n", "4", "--trace", "1", "-o", traced) == 0
    assert read_trace(traced / TRACE_PARQUET).games == 1
    capsys.readouterr()
    # diff says the same of a folder with a trace as of one without.
    assert main(["diff", "-q", str(traced), str(plain)]) == 0
    with_trace = capsys.readouterr().out
    assert main(["diff", "-q", str(plain), str(plain)]) == 0
    assert capsys.readouterr().out == with_trace.replace(str(traced), str(plain))


def test_the_trace_names_what_it_holds_in_the_parquet_metadata(
    seesaw: Path, tmp_path: Path
) -> None:
    """A reader without balancer finds the metadata as parquet key-value pairs."""
    out = tmp_path / "r"
    assert _run(seesaw, "-n", "2", "--trace", "2", "-o", out) == 0
    about = json.loads(pl.read_parquet_metadata(out / TRACE_PARQUET)[METADATA_KEY])
    assert (about["length_unit"], about["higher_is_better"], about["games"]) == ("tricks", True, 2)


def test_a_run_on_dask_keeps_the_same_trace(seesaw: Path, tmp_path: Path) -> None:
    """The trace is played in the run's own process, so a cluster's run keeps the local one."""
    pytest.importorskip("distributed")
    here, there = tmp_path / "here", tmp_path / "there"
    assert _run(seesaw, "-n", "6", "--trace", "3", "-w", "1", "-o", here) == 0
    dask = ["--backend", "dask", "-w", "2", "-o", there]
    assert _run(seesaw, "-n", "6", "--trace", "3", *dask) == 0
    local, cluster = read_trace(here / TRACE_PARQUET), read_trace(there / TRACE_PARQUET)
    assert cluster.frame.rows() == local.frame.rows() == _long(SEESAW_ROWS, 3)
    assert cluster.about == local.about


def test_a_bots_fault_in_a_traced_game_is_the_runs_one_line_before_its_games(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from balancer.sim import runner

    played: list[str] = []
    monkeypatch.setattr(runner, "run", lambda *args, **kwargs: played.append("games"))
    seats = "players: 3\nseats: [random, 'tests.plugins:Raises', random]\n"
    path = write_file(tmp_path, f"extends: {VARIANTS / 'fdc-base.yaml'}\n{seats}", "v.yaml")
    out = tmp_path / "r"
    assert _run(path, "-n", "3", "--trace", "2", "-o", out) == 2
    line = one_error_line(capsys)
    said = ("RuntimeError: the plugin broke", "game 0", "seat 1", "Nothing was written to")
    for part in (*said, "balancer replay"):
        assert part in line, line
    assert played == [] and not out.exists()
