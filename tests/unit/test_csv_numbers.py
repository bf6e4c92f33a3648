"""CSV numbers: counts as integers, fractions to four decimals, report.json untouched."""

from __future__ import annotations

import math
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
        "0,3,0.3333,0.0000123,careful,",
        "1,0,0.1979,0.0,random,2",
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
    for line in [*games[1:], *(tmp_path / "r" / "seats.csv").read_text().splitlines()[1:]]:
        for cell in line.split(","):
            if "." in cell:
                assert len(cell.split(".")[1]) <= 4, cell


@given(st.lists(st.floats(-1e6, 1e6, allow_nan=False), min_size=1, max_size=20))
def test_rounding_keeps_every_value_within_half_a_unit_of_the_fourth_decimal(
    values: list[float],
) -> None:
    written = for_csv(pl.DataFrame({"x": values}, schema={"x": pl.Float64}))["x"].to_list()
    for before, after in zip(values, written, strict=True):
        assert math.isclose(after, before, abs_tol=0.5e-4 + 1e-9), (before, after)
        if before != 0:
            assert after != 0 or abs(before) < 1e-300  # a rare rate is never written as none
