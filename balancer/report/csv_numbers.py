"""Numbers as a CSV shows them: counts as integers, every other number exactly as computed.

The figures are computed in float64. A count held as a float would read `3.0`,
so at write time a float column whose values are all whole numbers becomes an
integer column. Every other float is written whole: the shortest decimal that
reads back as the same float (`0.19791666666666669`), as report.json and
`numbers.raw` write it (polars spells a tiny one `0.0000123456` where Python
writes `1.23456e-05`: the same float), so a spreadsheet's figure is the
report's and a script comparing the two finds them equal. Rounding for reading is the pages'
and the terminal's job (balancer/numbers.py), never the files'.
"""

from __future__ import annotations

import polars as pl


def column_for_csv(series: pl.Series) -> pl.Series:
    """One column as written: whole floats as Int64; the rest as they are."""
    if not series.dtype.is_float():
        return series
    known = series.drop_nulls().cast(pl.Float64)
    if known.is_infinite().any() or known.is_nan().any():
        return series
    whole = bool((known == known.round(0)).all())
    if whole and (known.len() == 0 or float(known.abs().max()) < 2**53):  # type: ignore[arg-type]
        return series.cast(pl.Int64)
    return series


def for_csv(frame: pl.DataFrame) -> pl.DataFrame:
    """The table as a CSV shows it (see the module's docstring)."""
    return frame.with_columns([column_for_csv(frame[name]) for name in frame.columns])
