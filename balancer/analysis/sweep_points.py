"""Which points of a sweep can be told apart, from their 95% intervals alone.

A sweep's chart must not draw noise as a pattern: a point is marked as
different from the highest point only when a test says so after Holm's
correction over the comparisons made (one per other point), and a heatmap
shades only such differences.

The test: each point's standard error is its 95% interval's half-width over
1.96, and the difference of two points is tested by z = (a - b) /
sqrt(se_a² + se_b²), two-sided. The points of a sweep share their seed, so
their figures are positively correlated (the same deals) and the true
variance of a difference is smaller than this sum: the test is conservative,
it can miss a difference but does not invent one beyond its level.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

Z95 = 1.959963984540054
ALPHA = 0.05


@dataclass(frozen=True)
class Point:
    value: float
    low: float
    high: float

    @property
    def se(self) -> float:
        return (self.high - self.low) / (2 * Z95)


def p_value(a: Point, b: Point) -> float:
    """Two-sided p of "a and b are equal", from their intervals (module docstring)."""
    se = math.hypot(a.se, b.se)
    difference = abs(a.value - b.value)
    if se == 0:
        return 1.0 if difference == 0 else 0.0
    return math.erfc(difference / se / math.sqrt(2))


def holm(p_values: Sequence[float]) -> list[float]:
    """Holm's step-down adjusted p-values, in the input order."""
    order = sorted(range(len(p_values)), key=lambda i: p_values[i])
    adjusted = [1.0] * len(p_values)
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, p_values[i] * (len(p_values) - rank)))
        adjusted[i] = running
    return adjusted


def differs_from(points: Sequence[Point | None], reference: int) -> list[bool]:
    """Per point, whether it differs from points[reference] after Holm over the others.

    The reference itself, and a point without an interval, are False.
    """
    ref = points[reference]
    if ref is None:
        return [False] * len(points)
    others = [i for i, p in enumerate(points) if p is not None and i != reference]
    adjusted = holm([p_value(ref, points[i]) for i in others])  # type: ignore[arg-type]
    found = [False] * len(points)
    for i, p in zip(others, adjusted, strict=True):
        found[i] = p <= ALPHA
    return found


def highest(points: Sequence[Point | None]) -> int | None:
    """The index of the point with the highest value (the first of equals), or None."""
    known = [(p.value, -i) for i, p in enumerate(points) if p is not None]
    return -max(known)[1] if known else None


def lowest(points: Sequence[Point | None]) -> int | None:
    known = [(p.value, i) for i, p in enumerate(points) if p is not None]
    return min(known)[1] if known else None


def tiers(points: Sequence[Point | None]) -> list[int | None]:
    """A shade per point that encodes only differences the test can see.

    2: not distinguishable from the highest point; 0: not from the lowest (but
    from the highest); 1: distinguishable from both. When the highest and the
    lowest can't be told apart, every point is 2: one shade, no pattern.
    None for a point without an interval.
    """
    top, bottom = highest(points), lowest(points)
    if top is None or bottom is None:
        return [None] * len(points)
    below_top = differs_from(points, top)
    above_bottom = differs_from(points, bottom)
    shades: list[int | None] = []
    for i, p in enumerate(points):
        if p is None:
            shades.append(None)
        elif not below_top[i]:
            shades.append(2)
        elif not above_bottom[i]:
            shades.append(0)
        else:
            shades.append(1)
    return shades


# The value axis spans at least this many typical interval widths: points that all lie
# within each other's noise then sit in a band, not across the whole chart as a "peak".
MIN_SPAN_IN_WIDTHS = 3.0


def axis_limits(points: list[Point | None]) -> tuple[float, float] | None:
    """The value axis for these points: every interval in view, never zoomed into the noise.

    At least MIN_SPAN_IN_WIDTHS median interval widths tall (centred on the
    intervals), and from 0 when every interval is at or above 0 and 0 is
    within one such span below them: a count or a share keeps its baseline.
    """
    known = [p for p in points if p is not None]
    if not known:
        return None
    low, high = min(p.low for p in known), max(p.high for p in known)
    widths = sorted(p.high - p.low for p in known)
    need = MIN_SPAN_IN_WIDTHS * widths[len(widths) // 2]
    if high - low < need:
        pad = (need - (high - low)) / 2
        low, high = low - pad, high + pad
    if min(p.low for p in known) >= 0 and 0 <= low <= high - low:
        low = 0.0
    if high == low:
        low, high = low - 0.5, high + 0.5
    margin = 0.05 * (high - low)
    return low - (margin if low != 0 else 0.0), high + margin
