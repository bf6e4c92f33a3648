"""Numbers as a CSV should show them: counts as integers, fractions to four decimals.

The figures are computed in float64; written as they are, a count reads
`3.0` and a share `0.19791666666666669`, digits that say nothing and make a
spreadsheet look broken. At write time (only: report.json keeps full
precision) a float column whose values are all whole numbers becomes an
integer column, and any other float is rounded to DECIMALS places; a value
so small that would round to 0 keeps SMALL_DIGITS significant digits, so a
rare event's rate is not written as none.
"""

from __future__ import annotations

import numpy as np
import polars as pl

DECIMALS = 4
SMALL_DIGITS = 3


def _rounded(values: np.ndarray) -> np.ndarray:
    out = np.round(values, DECIMALS)
    small = (out == 0) & (values != 0) & np.isfinite(values)
    for index in np.flatnonzero(small):
        out[index] = float(f"{values[index]:.{SMALL_DIGITS}g}")
    return out


def column_for_csv(series: pl.Series) -> pl.Series:
    """One column as written: whole floats as Int64, other floats rounded; the rest as is."""
    if not series.dtype.is_float():
        return series
    values = series.cast(pl.Float64).to_numpy()  # a null reads as NaN here
    known = values[series.is_not_null().to_numpy()]
    whole = bool(np.isfinite(known).all() and np.all(known == np.round(known)))
    if whole and (known.size == 0 or np.abs(known).max() < 2**53):
        return series.cast(pl.Int64)
    rounded = pl.Series(series.name, _rounded(values), dtype=pl.Float64)
    return rounded.zip_with(series.is_not_null(), series.cast(pl.Float64))


def for_csv(frame: pl.DataFrame) -> pl.DataFrame:
    """The table as a CSV shows it (see the module's docstring)."""
    return frame.with_columns([column_for_csv(frame[name]) for name in frame.columns])
