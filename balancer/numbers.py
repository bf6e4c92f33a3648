"""How an estimate with a 95% interval is written: as many decimals as its interval can back.

The rule (docs/figures-and-outputs.md): the interval's width is shown to one
significant digit, or to two when that digit would be a 1 or a 2 (a width of
0.15 written as 0.2 would misstate it by a third); the estimate and both ends
get the same decimals. So 3.521 with interval [3.121, 3.921] (width 0.8) is
"3.5", and 12.97 with [12.95, 12.99] (width 0.04) is "12.97". A column of
several estimates uses one number of decimals for every row, its typical
(median) row's (`column_decimals`), so the digits line up.

The rule is for what people read (terminal tables, Markdown and HTML pages).
report.json and the CSV files keep the numbers as computed: `raw` writes one
(the shortest decimal that reads back as the same float; a whole number
without its `.0`), as Python's json and polars' CSV writer do.

An interval's ends, wherever a file names them, are `FIGURE.ci95_low` and
`FIGURE.ci95_high` (`CI95_LOW`, `CI95_HIGH`).
"""

from __future__ import annotations

import math
from collections.abc import Iterable

# The one spelling of a 95% interval's ends in every CSV column and JSON key a person reads:
# `win_share.ci95_low` (docs/figures-and-outputs.md).
CI95_LOW, CI95_HIGH = ".ci95_low", ".ci95_high"
MAX_DECIMALS = 6  # a narrower interval than 1e-6 is shown at 1e-6: no one reads further


def decimals(low: float | None, high: float | None) -> int | None:
    """Decimals that show the width of [low, high] (module docstring); None when it has no
    width (missing, infinite or zero: the caller writes the value as it is)."""
    if low is None or high is None:
        return None
    width = high - low
    if not math.isfinite(width) or width <= 0:
        return None
    exponent = math.floor(math.log10(width))
    # The leading digit, from the width scaled into [1, 10); rounding first so that
    # 0.29999999 counts as 0.3.
    leading = int(round(width / 10.0**exponent, 9))
    if leading >= 10:  # 0.0999999999 rounded up to 0.1
        exponent, leading = exponent + 1, 1
    places = -exponent + (1 if leading < 3 else 0)
    return min(MAX_DECIMALS, max(0, places))


def column_decimals(intervals: Iterable[tuple[float | None, float | None]]) -> int | None:
    """One number of decimals for a column of estimates: its typical row's (the median of
    the rows' decimals, the lower one of an even count: when in doubt, fewer digits of
    noise); None when no row has an interval.

    Not the most any row needs: a share pressed against 100% has a very narrow
    interval ([99.92%, 100%]) and would drag every other row of its column into
    digits that are noise."""
    found = sorted(d for d in (decimals(low, high) for low, high in intervals) if d is not None)
    return found[(len(found) - 1) // 2] if found else None


def fixed(value: float, places: int, signed: bool = False) -> str:
    """`value` at `places` decimals; a value that rounds to zero has no sign ("0.00",
    never "-0.00" or "+0.00")."""
    if not math.isfinite(value):
        return str(value)
    if round(value, places) == 0:
        return f"{0:.{places}f}"
    return f"{value:+.{places}f}" if signed else f"{value:.{places}f}"


def raw(value: float) -> str:
    """`value` as a file keeps it: every digit of the float (the shortest decimal that
    reads back as it), a whole number as an integer."""
    value = float(value)
    if value.is_integer() and abs(value) < 2**53:
        return str(int(value))
    return repr(value)


def ends(figure: str) -> tuple[str, str]:
    """The names of `figure`'s interval ends in a file: (`FIGURE.ci95_low`, `...high`)."""
    return figure + CI95_LOW, figure + CI95_HIGH


def plain(value: float) -> str:
    """A value without an interval to size it by: four significant digits."""
    if not math.isfinite(value):
        return str(value)
    if float(value).is_integer() and abs(value) < 1e15:
        return str(int(value))
    return f"{value:.4g}"


def estimate(value: float, low: float | None, high: float | None, places: int | None = None) -> str:
    """The estimate alone at its interval's precision (`places`: a column's, if given)."""
    places = decimals(low, high) if places is None else places
    return plain(value) if places is None else fixed(value, places)


def with_interval(
    value: float, low: float | None, high: float | None, places: int | None = None
) -> str:
    """`3.5 [3.1, 3.9]`: the estimate and its interval at one precision (`places`: a
    column's, if given); the value alone when there is no interval."""
    places = decimals(low, high) if places is None else places
    if places is None or low is None or high is None:
        return plain(value)
    return f"{fixed(value, places)} [{fixed(low, places)}, {fixed(high, places)}]"


def percent_decimals(intervals: Iterable[tuple[float, float] | None]) -> int | None:
    """column_decimals for shares written in percent: the rule applies to the
    percentage points (a share's interval [0.238, 0.322] is 8.4 points wide: whole percents)."""
    return column_decimals((100 * low, 100 * high) for low, high in (i for i in intervals if i))


def percent(share: float, places: int | None, fallback: int = 1) -> str:
    """A share in percent at `places` decimals (`fallback` when None: no interval width)."""
    return fixed(100 * share, fallback if places is None else places) + "%"
