"""What report.html and its charts share: the colours, and how a figure is written."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from balancer import i18n

if TYPE_CHECKING:
    from balancer.report.model import Report

ACCENT = "#2f6fb0"
ACCENT_LIGHT = "#9dbfe0"
BOT_COLOURS = ("#2f6fb0", "#d9822b", "#3a9a5b", "#b5464b", "#7a5cae", "#8c6d46", "#c15f9e")


def pct(x: float, digits: int = 1) -> str:
    return f"{100 * x:.{digits}f}%"


def num(x: float) -> str:
    """A figure with as many decimals as its size deserves."""
    if not math.isfinite(x):
        return str(x)
    if float(x).is_integer() and abs(x) < 1e6:
        return str(int(x))
    magnitude = abs(x)
    if magnitude >= 100:
        return f"{x:.0f}"
    if magnitude >= 10:
        return f"{x:.1f}"
    return f"{x:.2f}"


def better_word(report: Report, lang: str | None = None) -> str:
    return i18n.text("higher" if report.higher_is_better else "lower", lang)


def value_events_of(report: Report) -> set[str]:
    """Events that are a per-game value (a maximum, say), not a count of firings.

    A report may say so itself; otherwise the game's spec does. A report of
    a game this build doesn't know treats every event as a count.
    """
    if report.value_events is not None:
        return set(report.value_events)
    try:
        from balancer import games

        return set(games.get(report.game).value_events)
    except (KeyError, ImportError, AttributeError):
        return set()
