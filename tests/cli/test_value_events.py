"""A value event (Da Qi Zi's max_multiplier: a value per game, not a count of firings) has
its share of games with a 95% interval, in report.json, events.csv and report.html alike."""

from __future__ import annotations

import math

import polars as pl
import pytest

from balancer import table
from balancer.config import variant
from balancer.report import html as report_html
from balancer.report.build import build_report
from balancer.report.tables import events_table
from balancer.sim import runner
from tests.helpers import VARIANTS

pytestmark = pytest.mark.usefixtures("engine_unchecked")


def wilson(k: int, n: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """The textbook Wilson score interval of k successes in n trials."""
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def test_a_value_events_share_of_games_has_its_interval() -> None:
    loaded = variant.load(VARIANTS / "dqz-4p.yaml").with_overrides(games=12, seed=None)
    result = runner.run(loaded)
    # Hand-made: 9 of the 12 games reach a multiplier, 3 never do (a value of 0).
    values = [1, 2, 0, 4, 1, 0, 8, 2, 1, 0, 2, 1]
    column = table.event("max_multiplier")
    frame = result.frame().with_columns(
        pl.Series(column, values, dtype=result.frame()[column].dtype)
    )
    report = build_report(result, frame)
    event = report.events["max_multiplier"]
    assert event.share_of_games == 9 / 12
    # Worked by hand: 0.75 of 12 -> centre 0.6894, half-width 0.2217.
    assert event.share_of_games_ci95 is not None
    low, high = event.share_of_games_ci95
    assert (round(low, 3), round(high, 3)) == (0.468, 0.911)
    assert (low, high) == pytest.approx(wilson(9, 12), abs=1e-9)
    # The same interval in events.csv and on the page.
    row = events_table(report).filter(pl.col("event") == "max_multiplier").row(0, named=True)
    assert row["share_of_games.ci95_low"] == low and row["share_of_games.ci95_high"] == high
    events = report_html.render_html(report).split('<section id="events">', 1)[1]
    (row,) = [r for r in events.split("<tr>") if "<code>max_multiplier</code>" in r]
    assert "75% (47% – 91%)" in row
