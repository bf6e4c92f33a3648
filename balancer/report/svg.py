"""A small SVG chart kit for report.html: axes with round ticks, bars, whiskers, text.

matplotlib drew these charts before, at about 1.4 s of CPU a report (most of
a short run's fixed cost): the charts are a few dozen rectangles and lines
whose positions are plain arithmetic, so they are written here as markup
the way analysis/diff_html.py writes its row charts.

Coordinates are SVG user units in a viewBox WIDTH wide; the page scales the
drawing to its column. Every number is written rounded to 0.1 unit, so the
same inputs give the same bytes. Every text is escaped here, once, where it
becomes markup: callers pass names as they came (a bot called "<script>" or
"a$b$" comes out as that literal text).
"""

from __future__ import annotations

import html
import math
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field

from balancer.escape import visible

WIDTH = 720.0  # every chart is this wide so the page has one rhythm
FONT = 12.5  # the base text size, in user units
SMALL = 11.0  # tick labels and value labels
LINE = 1.25  # line height of multi-line labels, in ems

INK = "#1d2330"
MUTED = "#5b6472"
AXIS = "#9aa1ab"
GRID = "#e6e8ec"


def num(x: float) -> str:
    """A coordinate as written: 0.1 unit is far below a pixel, and fixed rounding
    keeps the bytes stable."""
    text = f"{x:.1f}"
    if text.endswith(".0"):
        text = text[:-2]
    return "0" if text == "-0" else text


def text_width(text: str, size: float = FONT) -> float:
    """Roughly how wide `text` is drawn at `size` (its widest line): wide (CJK)
    characters take an em, the rest about 0.6 of one."""
    widest = 0.0
    for line in text.split("\n"):
        ems = sum(1.0 if unicodedata.east_asian_width(c) in "WF" else 0.6 for c in line)
        widest = max(widest, ems)
    return widest * size


def shortened(text: str, width: int = 28) -> str:
    """A name as a chart shows it: a long (plugin) name cut to `width` characters,
    its end an ellipsis, so it can't crowd the axis."""
    text = str(text)
    return text if len(text) <= width else text[: width - 1] + "…"


def _escaped(text: str) -> str:
    # visible(): a bidi override or a control character in a name shows as \uXXXX
    # instead of reordering or breaking the chart's text.
    return html.escape(visible(text), quote=True)


@dataclass(frozen=True)
class Scale:
    """A linear map from data values [lo, hi] onto positions [start, end]."""

    lo: float
    hi: float
    start: float
    end: float

    def __call__(self, value: float) -> float:
        span = self.hi - self.lo
        if span == 0:
            return (self.start + self.end) / 2
        return self.start + (value - self.lo) / span * (self.end - self.start)


def nice_step(span: float, bins: int, integer: bool = False) -> float:
    """The smallest step of 1, 2, 2.5 or 5 times a power of ten that cuts `span`
    into at most `bins` pieces: 25% and 10 read at a glance, 30% and 8 don't."""
    if span <= 0 or not math.isfinite(span):
        return 1.0
    raw = span / max(1, bins)
    power = 10.0 ** math.floor(math.log10(raw))
    for m in (1, 2, 2.5, 5, 10):
        step = m * power
        if step >= raw * (1 - 1e-9) and not (integer and step < 1) and not (integer and m == 2.5):
            return step
    return 10 * power


def ticks(lo: float, hi: float, bins: int, integer: bool = False) -> list[float]:
    """Round tick values covering [lo, hi], at most about `bins` + 1 of them."""
    step = nice_step(hi - lo, bins, integer)
    first = math.ceil(lo / step - 1e-9)
    last = math.floor(hi / step + 1e-9)
    # Rounded to the step's own decimals: 0.1 * 3 is 0.30000000000000004.
    digits = max(0, -math.floor(math.log10(step)) + 2)
    return [round(i * step, digits) for i in range(first, last + 1)]


def tick_texts(values: Sequence[float]) -> list[str]:
    """Tick values all with one number of decimals, the fewest that keep each exact:
    0.25, 0.50, 0.75 rather than 0.25, 0.5, 0.75."""

    def exact(d: int) -> bool:
        return all(abs(v - round(v, d)) < 1e-9 * max(1.0, abs(v)) for v in values)

    digits = next((d for d in range(7) if exact(d)), 7)
    return [f"{v:.{digits}f}" if abs(v) > 1e-12 else f"{0:.{digits}f}" for v in values]


def tick_text(value: float) -> str:
    """A tick value without a trailing .0."""
    if float(value).is_integer():
        return str(int(value))
    return f"{value:.10g}"


@dataclass
class Chart:
    """One SVG drawing, built element by element in painting order."""

    height: float
    width: float = WIDTH
    parts: list[str] = field(default_factory=list)

    def rect(self, x: float, y: float, w: float, h: float, fill: str, cls: str = "") -> None:
        # A negative extent is drawn by moving the corner: SVG draws nothing for it.
        if w < 0:
            x, w = x + w, -w
        if h < 0:
            y, h = y + h, -h
        self.parts.append(
            f'<rect x="{num(x)}" y="{num(y)}" width="{num(w)}" height="{num(h)}" '
            f'fill="{fill}"{_cls(cls)}/>'
        )

    def line(
        self,
        x1: float,
        y1: float,
        x2: float,
        y2: float,
        stroke: str,
        width: float = 1.0,
        dash: str | None = None,
        cls: str = "",
    ) -> None:
        extra = (f' stroke-dasharray="{dash}"' if dash else "") + _cls(cls)
        self.parts.append(
            f'<line x1="{num(x1)}" y1="{num(y1)}" x2="{num(x2)}" y2="{num(y2)}" '
            f'stroke="{stroke}" stroke-width="{num(width)}"{extra}/>'
        )

    def text(
        self,
        x: float,
        y: float,
        text: str,
        *,
        anchor: str = "start",
        size: float = FONT,
        fill: str = INK,
        bold: bool = False,
        middle: bool = False,
        rotate: float = 0.0,
        cls: str = "",
    ) -> None:
        """`text` at (x, y): its first line's baseline at y, or, with `middle`, the
        block of lines centred on y. Newlines start new lines."""
        lines = text.split("\n")
        if middle:
            # A baseline sits about 0.35 em below the centre of a line of text.
            y += 0.35 * size - (len(lines) - 1) * LINE * size / 2
        attrs = [f'x="{num(x)}"', f'y="{num(y)}"']
        if anchor != "start":
            attrs.append(f'text-anchor="{anchor}"')
        if size != FONT:
            attrs.append(f'font-size="{num(size)}"')
        if fill != INK:
            attrs.append(f'fill="{fill}"')
        if bold:
            attrs.append('font-weight="bold"')
        if rotate:
            attrs.append(f'transform="rotate({num(rotate)} {num(x)} {num(y)})"')
        if cls:
            attrs.append(_cls(cls).strip())
        body = _escaped(lines[0]) + "".join(
            f'<tspan x="{num(x)}" dy="{num(LINE * size)}">{_escaped(line)}</tspan>'
            for line in lines[1:]
        )
        self.parts.append(f"<text {' '.join(attrs)}>{body}</text>")

    def whisker(
        self,
        x: float,
        low: float,
        high: float,
        cap: float,
        vertical: bool = True,
        colour: str = INK,
    ) -> None:
        """An interval's whisker from `low` to `high` with caps `cap` wide, across x
        (vertical) or along it (horizontal, x then being the row's centre)."""
        half = cap / 2
        if vertical:
            self.line(x, low, x, high, colour, 1.4, cls="ci")
            for end in (low, high):
                self.line(x - half, end, x + half, end, colour, 1.4, cls="cap")
        else:
            self.line(low, x, high, x, colour, 1.2, cls="ci")
            for end in (low, high):
                self.line(end, x - half, end, x + half, colour, 1.2, cls="cap")

    def circle(
        self,
        cx: float,
        cy: float,
        r: float,
        fill: str,
        stroke: str | None = None,
        width: float = 1.0,
        cls: str = "",
    ) -> None:
        edge = f' stroke="{stroke}" stroke-width="{num(width)}"' if stroke else ""
        self.parts.append(
            f'<circle cx="{num(cx)}" cy="{num(cy)}" r="{num(r)}" fill="{fill}"{edge}{_cls(cls)}/>'
        )

    def polyline(
        self, points: Sequence[tuple[float, float]], stroke: str, width: float = 1.0, cls: str = ""
    ) -> None:
        """Line segments through `points` in order (nothing for fewer than two)."""
        if len(points) < 2:
            return
        coords = " ".join(f"{num(x)},{num(y)}" for x, y in points)
        self.parts.append(
            f'<polyline points="{coords}" fill="none" stroke="{stroke}" '
            f'stroke-width="{num(width)}"{_cls(cls)}/>'
        )

    def render(self, standalone: bool = False) -> str:
        """The drawing as inline markup, or (`standalone`) as an .svg file's text."""
        w, h = num(self.width), num(self.height)
        # No xmlns inline: in HTML the parser supplies it, and the page holds no URL. A
        # file on its own needs it (and a prolog) for a browser to draw it as SVG.
        # No role or label either: the <figure> around the chart carries them.
        prolog = '<?xml version="1.0" encoding="utf-8"?>\n' if standalone else ""
        xmlns = ' xmlns="http://www.w3.org/2000/svg"' if standalone else ""
        return (
            f'{prolog}<svg{xmlns} viewBox="0 0 {w} {h}" width="{w}" height="{h}" '
            f'font-family="sans-serif" font-size="{num(FONT)}" fill="{INK}">'
            f'<rect width="{w}" height="{h}" fill="white"/>'
            + "".join(self.parts)
            + "</svg>"
            + ("\n" if standalone else "")
        )


def _cls(cls: str) -> str:
    # Classes name what a mark is (bar, ci, tick...) so a test or a stylesheet can find it.
    return f' class="{cls}"' if cls else ""


def pct_labels(values: Sequence[float], signed: bool = False) -> list[str]:
    """Percent tick labels with as few decimals as keep every tick distinct."""
    digits = next(
        (d for d in range(3) if all(abs(100 * v - round(100 * v, d)) < 1e-9 for v in values)), 3
    )
    sign = "+" if signed else ""
    return [f"{100 * v:{sign}.{digits}f}%" if abs(v) > 1e-12 else f"{0:.{digits}f}%"
            for v in values]  # fmt: skip


def y_grid(
    chart: Chart,
    scale: Scale,
    values: Sequence[float],
    left: float,
    right: float,
    labels: Sequence[str] | None = None,
) -> None:
    """Horizontal gridlines at `values` from `left` to `right`, labelled left of the axis."""
    for i, value in enumerate(values):
        y = scale(value)
        chart.line(left, y, right, y, GRID, 1, cls="grid")
        if labels is not None:
            chart.text(left - 6, y, labels[i], anchor="end", size=SMALL, middle=True, cls="tick")


def x_grid(
    chart: Chart,
    scale: Scale,
    values: Sequence[float],
    top: float,
    bottom: float,
    labels: Sequence[str] | None = None,
) -> None:
    """Vertical gridlines at `values` from `top` to `bottom` (none when they meet),
    labelled under the axis."""
    for i, value in enumerate(values):
        x = scale(value)
        if top != bottom:
            chart.line(x, top, x, bottom, GRID, 1, cls="grid")
        if labels is not None:
            chart.text(x, bottom + 4 + SMALL, labels[i], anchor="middle", size=SMALL, cls="tick")


def axis_line(chart: Chart, x1: float, y1: float, x2: float, y2: float) -> None:
    chart.line(x1, y1, x2, y2, AXIS, 1)
