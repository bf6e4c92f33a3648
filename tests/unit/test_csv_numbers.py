"""CSV numbers: counts as integers, every other number with every digit report.json has."""

from __future__ import annotations

from pathlib import Path

import polars as pl
from hypothesis import given
from hypothesis import strategies as st

from balancer.report.csv_numbers import for_csv


def test_hand_made_table_is_written_as_a_designer_reads_it() -> None:
    frame = pl.DataFrame(
        {
            "game": [0, 1, 2],
            "score_0": [3.0, 0.0, 12.0],  # whole numbers held as floats
            "win_0": [1 / 3, 0.19791666666666669, 1.0],
            "rare_per_game": [0.0000123456, 0.0, 0.5],
            "bot_0": ["careful", "random", "=1+1"],
            "missing": [None, 2.0, 4.0],
        }
    )
    text = for_csv(frame).write_csv()
    assert text.splitlines() == [
        "game,score_0,win_0,rare_per_game,bot_0,missing",
        "0,3,0.3333333333333333,0.0000123456,careful,",
        "1,0,0.19791666666666669,0.0,random,2",
        "2,12,1.0,0.5,=1+1,4",
    ]


def test_a_real_report_writes_integer_counts(tmp_path: Path) -> None:
    from balancer.config import variant
    from balancer.report.build import from_run
    from balancer.sim import runner
    from tests.helpers import VARIANTS

    loaded = variant.load(VARIANTS / "fdc-3p.yaml").with_overrides(games=12, seed=None)
    from balancer.report.tables import write_csv_tables

    saved = from_run(runner.run(loaded)).save(tmp_path / "r")
    write_csv_tables(saved, tmp_path / "r")  # as `balancer csv` does: games.csv too
    games = (tmp_path / "r" / "games.csv").read_text().splitlines()
    header = games[0].split(",")
    first = dict(zip(header, games[1].split(","), strict=True))
    assert "." not in first["ev_steals"] and "." not in first["score_0"]
    # A share is written with every digit: seat 0's, as report.json holds it.
    seats = (tmp_path / "r" / "seats.csv").read_text().splitlines()
    seat_0 = dict(zip(seats[0].split(","), seats[1].split(","), strict=True))
    assert seat_0["win_share"] == repr(saved.seats[0].win_share)


@given(st.lists(st.floats(-1e6, 1e6, allow_nan=False), min_size=1, max_size=20))
def test_every_value_reads_back_as_the_same_float(values: list[float]) -> None:
    frame = pl.DataFrame({"x": values}, schema={"x": pl.Float64})
    written = pl.read_csv(for_csv(frame).write_csv().encode(), schema={"x": pl.Float64})
    assert written["x"].to_list() == values
