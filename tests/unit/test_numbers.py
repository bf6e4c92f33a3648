"""One way to write an estimate with its interval: digits the interval can back (numbers.py)."""

from __future__ import annotations

import pytest

from balancer.numbers import column_decimals, decimals, estimate, fixed, with_interval


@pytest.mark.parametrize(
    ("value", "half", "shown"),
    [
        # width 0.8: one digit (tenths) -> 3.5
        (3.521, 0.4, "3.5"),
        # width 0.04: one digit (hundredths) -> 12.97
        (12.97, 0.02, "12.97"),
        # width 0.2 leads with a 2: two digits (hundredths) -> 0.25, not 0.3
        (0.2468, 0.1, "0.25"),
        # width 0.16 leads with a 1: two digits -> 3.52
        (3.521, 0.08, "3.52"),
        # width 0.3 leads with a 3: one digit -> 3.5
        (3.521, 0.15, "3.5"),
        # width 40: tens, but a value is never cut left of the point -> 1235
        (1234.6, 20, "1235"),
        # width 0.00024: two digits at 1e-5 -> 0.50012
        (0.500123, 0.00012, "0.50012"),
    ],
)
def test_an_estimate_has_the_digits_its_interval_backs(
    value: float, half: float, shown: str
) -> None:
    assert estimate(value, value - half, value + half) == shown


def test_the_interval_is_written_at_the_estimates_precision() -> None:
    assert with_interval(3.521, 3.121, 3.921) == "3.5 [3.1, 3.9]"
    assert with_interval(12.97, 12.95, 12.99) == "12.97 [12.95, 12.99]"
    # No width (a figure that never varies), or no interval: the value as it is.
    assert with_interval(20.0, 20.0, 20.0) == "20"
    assert with_interval(0.123456, None, None) == "0.1235"
    # A change that rounds to nothing has no sign.
    assert fixed(-0.004, 2, signed=True) == "0.00" and fixed(0.014, 2, signed=True) == "+0.01"


def test_a_width_on_a_power_of_ten_boundary() -> None:
    # 0.1 computed as 0.3 - 0.2 is 0.09999999999999998: still a width of 0.1 (two digits).
    assert decimals(0.2, 0.3) == 2
    assert decimals(0.0, 0.1) == 2
    assert decimals(1.0, 1.0) is None and decimals(0.0, float("inf")) is None


def test_a_column_takes_its_typical_rows_decimals() -> None:
    rows = [(3.521, 0.4), (3.51, 0.4), (12.97, 0.02)]  # the 3.521 / 3.51 / 12.97
    places = column_decimals((v - h, v + h) for v, h in rows)
    assert places == 1  # rows need 1, 1 and 2 decimals: the median is 1
    assert [estimate(v, v - h, v + h, places) for v, h in rows] == ["3.5", "3.5", "13.0"]
    # A share pressed against 100% (width 0.08 points) doesn't drag its column to hundredths.
    shares = [(24.6, 23.5, 25.9), (91.7, 90.9, 92.5), (100.0, 99.92, 100.0)]
    assert column_decimals((low, high) for _, low, high in shares) == 1
    # An even count takes the lower median: 1, 2 -> 1.
    assert column_decimals([(3.1, 3.9), (12.95, 12.99)]) == 1
    assert column_decimals([(3.1, 3.9), (12.95, 12.99), (1.0, 1.04)]) == 2
    assert column_decimals([(None, None), (1.0, 1.0)]) is None


def test_check_writes_its_interval_as_every_table_does() -> None:
    """`check`'s line: 0.207 with [0.1974, 0.2169] (width 0.0195, a leading 1: two digits
    of it, so three decimals) reads 0.207 [0.197, 0.217], not four significant digits."""
    from types import SimpleNamespace

    from balancer.analysis.expect import Outcome, Target

    figure = SimpleNamespace(name="seat_win_share.0")
    target = Target(figure=figure, kind="within", low=0.18, high=0.22, text="within [0.18, 0.22]")  # type: ignore[arg-type]
    line = Outcome(target, "pass", 0.207, 0.1974, 0.2169, 2000).line()
    assert "seat_win_share.0 within [0.18, 0.22]: 0.207 [0.197, 0.217], " in line
