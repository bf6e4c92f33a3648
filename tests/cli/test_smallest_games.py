"""A game file at its smallest: no events declared, one kind of card, one card a hand.

Every command that reads a report works on its report (run, csv, diff, cards,
replay) and every command that reads the file (show, events, validate), on the
compiled path and step by step alike: `run` once failed in sim/sink.py shaping
an empty events array ("cannot reshape array of size 0").
"""

from __future__ import annotations

import csv
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from click.testing import CliRunner

from balancer.cli import cli
from balancer.games.progress import NAMES, figures_of
from balancer.sim import runner
from balancer.sim.trace import TRACE_PARQUET, read_trace

# Two seats, one red card kind (number 2) in three copies, a hand of one; no event.
SMALLEST = """\
name: smallest-race-{path}
short: sr{path}
players: [2, 3]
deck: {colours: [red], roles: [go], numbers: [2, 2], copies: 3}
hand_size: 1
counters:
  steps: {start: 0, min: 0, max: 100}
roles:
  go:
    - add: {counter: steps, by: number}
score:
  - {counter: steps}
win: highest
"""
VARIANT = "game: smallest.yaml\nplayers: 2\ngames: 30\nseed: 5\nbots: random\n"


def invoke(*args: str) -> str:
    result = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output


@pytest.mark.parametrize("check", ["0", "1"], ids=["compiled", "step-by-step"])
def test_a_game_without_events_runs_and_every_command_reads_its_report(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, check: str
) -> None:
    monkeypatch.setenv(runner.CHECK_ENV, check)
    folder = tmp_path  # a name per path: one process registers each game name once
    (folder / "smallest.yaml").write_text(SMALLEST.replace("{path}", check), encoding="utf-8")
    (folder / "v.yaml").write_text(VARIANT, encoding="utf-8")
    report = folder / "report"
    invoke("run", str(folder / "v.yaml"), "-o", str(report), "-w", "1", "-q")
    with (report / "events.csv").open(encoding="utf-8") as f:
        rows = list(csv.reader(f))
    assert len(rows) == 1 and rows[0][0] == "event"  # the header, no event
    # Trick 1: both seats play a copy of the one card (number 2): the repeated number
    # cancels both (the trick procedure), the leader draws the third copy. Trick 2:
    # seat 0 alone plays it and moves 2 steps. Seat 0 wins every game, 2 to 0.
    with (report / "seats.csv").open(encoding="utf-8") as f:
        seats = list(csv.DictReader(f))
    assert [float(row["score_mean"]) for row in seats] == [2.0, 0.0]

    invoke("csv", str(report), "-o", str(folder / "csv"))
    assert (folder / "csv" / "events.csv").exists()
    assert "nothing changed" in invoke("diff", str(report), str(report))
    assert "go" in invoke("cards", str(report))
    assert "events: none" in invoke("replay", str(report), "-g", "3")
    assert "none: the game declares no events" in invoke("events", str(folder / "smallest.yaml"))
    assert "game: " + str(folder / "smallest.yaml") in invoke("show", str(folder / "v.yaml"))
    assert "ok" in invoke("validate", str(folder / "smallest.yaml"))


def test_the_smallest_game_is_traced_step_by_step_as_worked_out(tmp_path: Path) -> None:
    """`run --trace`: each game's two tricks as the test above works them out: after
    trick 1 (both cards cancelled) 0 to 0, after trick 2 seat 0 has moved 2 steps. The
    figures recomputed from the trace are the ones games.parquet streams."""
    folder = tmp_path
    (folder / "smallest.yaml").write_text(SMALLEST.replace("{path}", "trace"), encoding="utf-8")
    (folder / "v.yaml").write_text(VARIANT, encoding="utf-8")
    report = folder / "report"
    invoke("run", str(folder / "v.yaml"), "-o", str(report), "-w", "1", "-q", "--trace", "4")
    trace = read_trace(report / TRACE_PARQUET)
    assert trace.games == 4
    for game in range(4):
        assert trace.progress(game).tolist() == [[0, 0], [2, 0]]
    games = pl.read_parquet(report / "games.parquet").sort("game").head(4)
    streamed = games.select(NAMES).to_numpy().astype(float)
    for game in range(4):
        recomputed = figures_of(trace.progress(game), [2, 0], trace.about["higher_is_better"])
        assert np.array_equal(recomputed, streamed[game], equal_nan=True)
