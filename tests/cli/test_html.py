"""report.html: one self-contained, offline, deterministic page, checked in a real browser."""

from __future__ import annotations

import copy
import os
import re
import shutil
import subprocess
import sys
import warnings
import xml.etree.ElementTree as ET
from collections.abc import Callable
from dataclasses import replace
from html.parser import HTMLParser
from pathlib import Path

import numpy as np
import pytest

import balancer
from balancer.config import variant
from balancer.report import cards, html_format, svg
from balancer.report import html as report_html
from balancer.report.build import from_run
from balancer.report.figures import Interval
from balancer.report.games_table import value_counts
from balancer.report.model import Report, load_report
from balancer.sim import runner
from tests.helpers import VARIANTS, Processes, subprocess_env

# About reports, the command line and diffs, not the engine: runs play as a user's do
# (compiled where they can), not step by step as the suite's forced --check would.
pytestmark = pytest.mark.usefixtures("engine_unchecked")


def make_report(name: str, games: int) -> Report:
    loaded = variant.load(VARIANTS / name).with_overrides(games=games, seed=None)
    return from_run(runner.run(loaded))


@pytest.fixture(scope="module")
def fdc() -> Report:
    """Five players, a heuristic bot against random ones: every chart, bots included."""
    return make_report("fdc-5p-vs-random.yaml", 40)


@pytest.fixture(scope="module")
def kk_solo() -> Report:
    """One player, lower score is better, no 'bots'."""
    return make_report("kk-1p.yaml", 20)


@pytest.fixture(scope="module")
def dqz() -> Report:
    """Da Qi Zi: max_multiplier is a value per game, not a count."""
    return make_report("dqz-4p.yaml", 12)


_pages: dict[tuple[int, str | None], tuple[Report, str]] = {}


def page_of(report: Report, lang: str | None = None) -> str:
    """The page of a module fixture's report, drawn once (its charts take a second or
    so) for the tests that only read it; the tests about drawing it draw it afresh."""
    key = (id(report), lang)
    if key not in _pages:
        _pages[key] = (report, report_html.render_html(report, lang))
    return _pages[key][1]


def charts_of(report: Report) -> list[str]:
    return [
        c
        for c in report_html.CHARTS
        if (c != "win-by-bot" or report.bots is not None)
        and (c != "cards" or report.cards or cards.of_report(report))
        and (c != "leader-wins" or _has_curve(report))
    ]


def _has_curve(report: Report) -> bool:
    """Whether the page charts the leader-wins curve: the report knows how its games
    played, and some checkpoint had a game with a sole leader."""
    played = report.how_it_plays
    return played is not None and any(played.leader_wins())


class ChartFinder(HTMLParser):
    """Per data-chart element: the names of the tags inside it, and any <img> src."""

    VOID = {"img", "br", "meta", "link", "input", "hr", "col", "source", "wbr"}

    def __init__(self) -> None:
        super().__init__()
        self.charts: dict[str, list[tuple[str, str]]] = {}
        self.open: list[tuple[str, str | None]] = []  # (tag, chart it opened or None)

    def current(self) -> str | None:
        for _, chart in reversed(self.open):
            if chart is not None:
                return chart
        return None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attr = dict(attrs)
        inside = self.current()
        if inside is not None:
            self.charts[inside].append((tag, attr.get("src") or ""))
        chart = attr.get("data-chart")
        if chart is not None:
            self.charts[chart] = []
        if tag not in self.VOID:
            self.open.append((tag, chart))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        inside = self.current()
        if inside is not None:
            self.charts[inside].append((tag, dict(attrs).get("src") or ""))

    def handle_endtag(self, tag: str) -> None:
        for i in range(len(self.open) - 1, -1, -1):
            if self.open[i][0] == tag:
                del self.open[i:]
                break


def drawn_charts(page: str) -> dict[str, bool]:
    """Which data-chart elements hold a drawing: an <svg>, or an <img> with a data: URI."""
    finder = ChartFinder()
    finder.feed(page)
    return {
        name: any(tag == "svg" or (tag == "img" and src.startswith("data:")) for tag, src in inner)
        for name, inner in finder.charts.items()
    }


def svg_of(markup: str) -> ET.Element:
    """A chart's <svg>, parsed as XML: its escaping must hold for a strict parser too."""
    return ET.fromstring(markup[markup.index("<svg") : markup.rindex("</svg>") + 6])


def marks(root: ET.Element, tag: str, cls: str) -> list[ET.Element]:
    return [e for e in root.iter(tag) if e.get("class") == cls]


def text_of(element: ET.Element) -> str:
    """A <text>'s lines joined with newlines, as the chart was given it."""
    return "\n".join([element.text or "", *((t.text or "") for t in element.findall("tspan"))])


def labels(root: ET.Element) -> list[str]:
    return [text_of(t) for t in marks(root, "text", "label")]


def coords(element: ET.Element, *names: str) -> list[float]:
    return [float(element.get(n, "nan")) for n in names]


def tick_scale(root: ET.Element, axis: str) -> Callable[[float], float]:
    """The chart's value-to-position mapping, read off its tick labels: "y" from the
    horizontal gridlines its percent labels name, "x" from where its labels stand."""
    ticks = [t for t in marks(root, "text", "tick")]
    if axis == "y":
        ticks = [t for t in ticks if t.get("text-anchor") == "end"]
        grids = [g for g in marks(root, "line", "grid") if g.get("y1") == g.get("y2")]
        assert len(grids) == len(ticks)
        at = [float(g.get("y1", "nan")) for g in grids]
    else:
        ticks = [t for t in ticks if t.get("text-anchor") == "middle"]
        at = [float(t.get("x", "nan")) for t in ticks]
    assert len(ticks) >= 2
    value = [
        float(text_of(t).rstrip("%")) / (100 if text_of(t).endswith("%") else 1) for t in ticks
    ]
    (v0, p0), (v1, p1) = (value[0], at[0]), (value[-1], at[-1])
    return lambda v: p0 + (v - v0) * (p1 - p0) / (v1 - v0)


_charts: dict[int, tuple[Report, dict[str, str]]] = {}


def charts_for(report: Report) -> dict[str, str]:
    if id(report) not in _charts:
        _charts[id(report)] = (report, report_html.render_charts(report))
    return _charts[id(report)][1]


# -- the page itself -------------------------------------------------------------


@pytest.mark.parametrize("which", ["fdc", "kk_solo", "dqz"])
def test_one_offline_file_with_every_chart(
    which: str, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    report = request.getfixturevalue(which)
    report_html.write_html(report, tmp_path)
    assert [p.name for p in tmp_path.iterdir()] == ["report.html"]
    page = (tmp_path / "report.html").read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>")
    assert "http://" not in page and "https://" not in page
    # Nothing that could fetch: no scripts, stylesheets, fonts or remote images.
    assert not re.search(r"<(script|link|iframe|object)\b|@import|url\((?!#)", page)
    references = re.findall(r'\b(?:src|href)="([^"]*)"', page)
    assert all(ref.startswith(("#", "data:")) for ref in references), references
    assert drawn_charts(page) == dict.fromkeys(charts_of(report), True)
    better = "higher" if report.higher_is_better else "lower"
    assert f"{better} score is better" in page
    # Every knob of the resolved variant is shown.
    for section in ("rules", "scoring"):
        for knob in report.variant.get(section, {}):
            assert f"<td>{knob}" in page or f"<td>{knob}." in page, knob


def test_bots_chart_only_when_bots_differ(fdc, kk_solo) -> None:
    assert fdc.bots is not None and kk_solo.bots is None
    assert 'data-chart="win-by-bot"' in page_of(fdc)
    solo = page_of(kk_solo)
    assert 'data-chart="win-by-bot"' not in solo
    assert "no seat advantage to test" in solo and "lower score is better" in solo


def test_value_events_are_not_charted_as_counts(dqz) -> None:
    assert "max_multiplier" in dqz.events
    page = page_of(dqz)
    events_chart = page.split('data-chart="events"', 1)[1].split("</figure>", 1)[0]
    assert "busts" in events_chart  # chart text stays text in the SVG
    assert "max_multiplier" not in events_chart
    assert "a value, not a count" in page


def test_names_are_escaped(fdc) -> None:
    named = copy.deepcopy(dict(fdc.variant))
    named["name"] = "<b>キメ</b>"
    named["rules"]["hand_size"] = "<i>five</i>"
    assert fdc.bots is not None
    report = replace(
        fdc,
        variant=named,
        bots={
            "<script>x</script>": fdc.bots["heuristic"],
            "キメラ<bot>": fdc.bots["random"],
            "$x$": fdc.bots["random"],
        },
        events={"a<b & c": fdc.events["steals"], **fdc.events},
    )
    with warnings.catch_warnings():
        # Names in any script are the browser's to draw: nothing warns about them.
        warnings.simplefilter("error")
        page = report_html.render_html(report)
    for raw in ("<b>キメ</b>", "<i>five</i>", "<script>", "a<b", "<bot>"):
        assert raw not in page, raw
    assert "<h1>&lt;b&gt;キメ&lt;/b&gt;</h1>" in page
    assert "<title>&lt;b&gt;キメ&lt;/b&gt; — balancer report</title>" in page
    assert "&lt;i&gt;five&lt;/i&gt;" in page
    assert "&lt;script&gt;x&lt;/script&gt;" in page and "a&lt;b &amp; c" in page
    bots_chart = page.split('data-chart="win-by-bot"', 1)[1].split("</figure>", 1)[0]
    assert "キメラ&lt;bot&gt;" in bots_chart and "$x$" in bots_chart  # text, not mathtext
    events_chart = page.split('data-chart="events"', 1)[1].split("</figure>", 1)[0]
    assert "a&lt;b &amp; c" in events_chart
    # Read back by an XML parser, each label is the very name, whatever it holds.
    # (A label is wrapped onto lines of at most 16 characters.)
    shown = [label.replace("\n", "") for label in labels(svg_of(bots_chart))]
    assert shown == ["<script>x</script>", "キメラ<bot>", "$x$"]


def test_names_with_controls_or_bidi_overrides_stay_visible_in_charts(fdc) -> None:
    assert fdc.bots is not None
    report = replace(fdc, bots={"a\u202eb": fdc.bots["heuristic"], "c\x07d": fdc.bots["random"]})
    root = svg_of(report_html.render_charts(report)["win-by-bot"])
    assert labels(root) == ["a\\u202eb", "c\\x07d"]


def test_same_inputs_same_bytes(fdc, tmp_path: Path) -> None:
    first, second = tmp_path / "a", tmp_path / "b"
    first.mkdir()
    second.mkdir()
    report_html.write_html(fdc, first)
    report_html.write_html(replace(copy.deepcopy(fdc), games=fdc.games.clone()), second)
    assert (first / "report.html").read_bytes() == (second / "report.html").read_bytes()


def test_same_bytes_in_another_process(fdc, tmp_path: Path, processes: Processes) -> None:
    """A fresh interpreter with another hash seed writes the very same page."""
    (tmp_path / "report.json").write_text(fdc.json_text())
    fdc.games.write_parquet(tmp_path / "games.parquet")
    out = tmp_path / "other"
    out.mkdir()
    code = (
        "import sys; from pathlib import Path; from balancer.report.html import write_html; "
        "from balancer.report.model import load_report; "
        "d = Path(sys.argv[1]); write_html(load_report(d), d / 'other')"
    )
    env = {**subprocess_env(), "PYTHONHASHSEED": "12345"}
    processes.run([sys.executable, "-c", code, str(tmp_path)], env=env)
    report_html.write_html(load_report(tmp_path), tmp_path)
    assert (out / "report.html").read_bytes() == (tmp_path / "report.html").read_bytes()
    # Read back from its files, the report draws the very page it drew in memory.
    assert (tmp_path / "report.html").read_text(encoding="utf-8") == report_html.render_html(fdc)


def test_saving_a_report_writes_its_page(tmp_path: Path) -> None:
    loaded = variant.load(VARIANTS / "kk-2p.yaml").with_overrides(games=6, seed=None)
    balancer.run(loaded).save(tmp_path / "r")
    page = (tmp_path / "r" / "report.html").read_text(encoding="utf-8")
    # kk records the cards held, and each round's totals: how its games played
    drawn = ["win-by-seat", "scores", "length", "events", "cards", "leader-wins"]
    assert drawn_charts(page) == dict.fromkeys(drawn, True)


# -- what each chart draws --------------------------------------------------------


def test_win_by_seat_draws_a_bar_and_an_interval_per_seat(fdc) -> None:
    root = svg_of(charts_for(fdc)["win-by-seat"])
    y = tick_scale(root, "y")
    bars, whiskers = marks(root, "rect", "bar"), marks(root, "line", "ci")
    assert len(bars) == len(whiskers) == fdc.players == 5
    assert labels(root) == [f"seat {s.seat}" for s in fdc.seats]  # rotating: no bot under it
    for seat, bar, ci in zip(fdc.seats, bars, whiskers, strict=True):
        bx, by, bw, bh = coords(bar, "x", "y", "width", "height")
        assert by == pytest.approx(y(seat.win_share), abs=0.15)
        assert by + bh == pytest.approx(y(0), abs=0.15)
        x1, y1, x2, y2 = coords(ci, "x1", "y1", "x2", "y2")
        assert x1 == x2 == pytest.approx(bx + bw / 2, abs=0.15)
        assert (y1, y2) == pytest.approx((y(seat.win_ci95.low), y(seat.win_ci95.high)), abs=0.15)
    (even,) = marks(root, "line", "even")
    assert coords(even, "y1")[0] == pytest.approx(y(1 / 5), abs=0.15)
    values = [text_of(t) for t in marks(root, "text", "value")]
    from balancer.numbers import percent, percent_decimals

    places = percent_decimals((s.win_ci95.low, s.win_ci95.high) for s in fdc.seats)
    assert values == [percent(s.win_share, places) for s in fdc.seats]  # as the table
    assert any(text_of(t) == "equal\n20%" for t in root.iter("text"))


def test_a_bar_says_the_number_its_table_says(fdc) -> None:
    """Hand-made: a share of 19.9% whose interval is 6 points wide is whole percents (one
    digit of the width) in the seat table, so the bar's label is 20% too, not 19.9%."""
    seats = tuple(
        replace(seat, win_share=0.199, win_ci95=Interval(0.17, 0.23)) for seat in fdc.seats
    )
    report = replace(fdc, seats=seats)
    root = svg_of(report_html.render_charts(report)["win-by-seat"])
    assert [text_of(t) for t in marks(root, "text", "value")] == ["20%"] * 5
    wins = page_of(report).split('<section id="wins">', 1)[1].split("</section>", 1)[0]
    assert wins.count("<td class=num>20%</td>") == 5 and "19.9%" not in wins
    assert any(text_of(t) == "win share" for t in root.iter("text"))


def test_win_by_bot_draws_each_bot_in_its_own_colour(fdc) -> None:
    assert fdc.bots is not None
    root = svg_of(charts_for(fdc)["win-by-bot"])
    y = tick_scale(root, "y")
    bars = marks(root, "rect", "bar")
    assert labels(root) == list(fdc.bots) == ["heuristic", "random"]
    assert [b.get("fill") for b in bars] == list(html_format.BOT_COLOURS[:2])
    for bot, bar, ci in zip(fdc.bots.values(), bars, marks(root, "line", "ci"), strict=True):
        assert coords(bar, "y")[0] == pytest.approx(y(bot.win_share), abs=0.15)
        assert coords(ci, "y1", "y2") == pytest.approx(
            [y(bot.win_ci95.low), y(bot.win_ci95.high)], abs=0.1
        )


def _label_extents(root: ET.Element) -> list[tuple[float, float]]:
    """Each upright bar label's left and right ends, from its widest line."""
    out = []
    for t in marks(root, "text", "label"):
        x, half = float(t.get("x", "nan")), svg.text_width(text_of(t), svg.SMALL) / 2
        out.append((x - half, x + half))
    return out


def test_long_seat_names_wrap_without_running_into_each_other(fdc) -> None:
    seats = tuple(replace(s, bot="a very long heuristic bot name, version 2") for s in fdc.seats)
    root = svg_of(report_html.render_charts(replace(fdc, seats=seats))["win-by-seat"])
    assert labels(root)[0] == "seat 0\na very long\nheuristic bot"  # two lines at most
    assert all(t.get("transform") is None for t in marks(root, "text", "label"))
    extents = _label_extents(root)
    assert all(a[1] < b[0] for a, b in zip(extents, extents[1:], strict=False))


def test_twenty_bots_get_slanted_labels_that_stay_apart_and_inside(fdc) -> None:
    assert fdc.bots is not None
    names = [f"plugin_bot_with_a_long_name_{i}" for i in range(20)]
    bots = {n: fdc.bots["heuristic" if i % 2 else "random"] for i, n in enumerate(names)}
    # Intervals 0.08 points wide: labels of two decimals (28.13%), too wide to stand upright.
    bots = {
        n: replace(b, win_ci95=Interval(b.win_share - 0.0004, b.win_share + 0.0004))
        for n, b in bots.items()
    }
    root = svg_of(report_html.render_charts(replace(fdc, bots=bots))["win-by-bot"])
    assert len(marks(root, "rect", "bar")) == 20
    shown = marks(root, "text", "label")
    assert [text_of(t) for t in shown] == [n[:23] + "…" for n in names]
    assert all("rotate(-35 " in t.get("transform", "") for t in shown)
    x = [float(t.get("x", "nan")) for t in shown]
    # Parallel slanted lines: a gap across them of the spacing times sin 35°, over a line's height.
    assert min(b - a for a, b in zip(x, x[1:], strict=False)) * 0.57 > 1.2 * svg.SMALL
    reach = svg.text_width(text_of(shown[0]), svg.SMALL) * 0.82  # cos 35°
    assert x[0] - reach >= 0
    height = float(root.get("height", "nan"))
    assert all(float(t.get("y", "nan")) + 0.58 * reach < height for t in shown)
    # Upright value labels would overlap at this width: they are turned too.
    assert all("rotate(-90 " in t.get("transform", "") for t in marks(root, "text", "value"))


def test_scores_draws_a_row_per_seat_with_its_mean(fdc) -> None:
    root = svg_of(charts_for(fdc)["scores"])
    assert labels(root) == [f"seat {s.seat}" for s in fdc.seats]
    x_ticks = [t for t in marks(root, "text", "tick") if not text_of(t).endswith("%")]
    (v0, x0), (v1, x1) = [(float(text_of(t)), float(t.get("x", "nan"))) for t in x_ticks[::3][:2]]
    means = marks(root, "line", "mean")
    assert len(means) == fdc.players
    for seat, line in zip(fdc.seats, means, strict=True):
        at = x0 + (seat.score.mean - v0) * (x1 - x0) / (v1 - v0)
        assert coords(line, "x1")[0] == pytest.approx(at, abs=0.15)
    texts = [text_of(t) for t in root.iter("text")]
    assert [t for t in texts if t.startswith("mean ")] == [
        f"mean {report_html.num(s.score.mean)}" for s in fdc.seats
    ]
    counts = value_counts(fdc)
    scores = np.concatenate([counts.score_counts(s).values for s in range(fdc.players)])
    seen = sum(np.unique(counts.score_counts(s).values).size for s in range(fdc.players))
    assert len(marks(root, "rect", "bar")) == seen  # one per score a seat reached
    assert [float(text_of(t)) for t in x_ticks] == list(
        range(int(scores.min()), int(scores.max()) + 1)
    )


def test_length_draws_every_length_seen_and_a_lone_length_in_the_middle(fdc, dqz) -> None:
    root = svg_of(charts_for(fdc)["length"])
    (bar,) = marks(root, "rect", "bar")  # every fdc game lasts 12 tricks
    x = tick_scale(root, "x")
    bx, bw = coords(bar, "x", "width")
    assert bx + bw / 2 == pytest.approx(x(12), abs=0.15)
    assert marks(root, "line", "mean") == []  # nothing to mark on a single bar
    varied = svg_of(charts_for(dqz)["length"])
    lengths = value_counts(dqz).length_counts()
    assert len(marks(varied, "rect", "bar")) == np.unique(lengths.values).size
    (mean,) = marks(varied, "line", "mean")
    length = dqz.length
    assert length is not None
    assert coords(mean, "x1")[0] == pytest.approx(tick_scale(varied, "x")(length.mean), abs=0.15)


def test_events_draws_two_bars_per_counted_event(dqz) -> None:
    root = svg_of(charts_for(dqz)["events"])
    counted = [n for n in dqz.events if n != "max_multiplier"]
    assert labels(root) == counted
    bars = marks(root, "rect", "bar")
    assert len(bars) == 2 * len(counted)
    # Each panel's bars are in proportion to their figures, all from one zero.
    for panel, figure in (
        (bars[: len(counted)], [dqz.events[n].per_game for n in counted]),
        (bars[len(counted) :], [dqz.events[n].share_of_games for n in counted]),
    ):
        assert len({b.get("x") for b in panel}) == 1
        widths = [coords(b, "width")[0] for b in panel]
        top = max(range(len(figure)), key=figure.__getitem__)
        assert widths == pytest.approx([widths[top] * f / figure[top] for f in figure], abs=0.11)
    values = [text_of(t) for t in marks(root, "text", "value")]
    assert values[: len(counted)] == [report_html.num(dqz.events[n].per_game) for n in counted]
    assert values[len(counted) :] == [f"{100 * dqz.events[n].share_of_games:.0f}%" for n in counted]


def test_no_counted_events_says_so(kk_solo) -> None:
    report = replace(kk_solo, events={})
    root = svg_of(report_html.render_charts(report)["events"])
    assert [text_of(t) for t in root.iter("text")] == ["no events counted"]


def test_the_japanese_charts_keep_their_text_as_text(dqz) -> None:
    charts = report_html.render_charts(dqz, "ja")
    root = svg_of(charts["win-by-seat"])
    assert any(text_of(t) == "勝率" for t in root.iter("text"))
    assert labels(root)[0].startswith("席 0")
    assert any(text_of(t) == "1ゲームあたりの平均" for t in svg_of(charts["events"]).iter("text"))


def test_charts_are_the_same_bytes_every_time(fdc) -> None:
    again = report_html.render_charts(replace(copy.deepcopy(fdc), games=fdc.games.clone()))
    assert again == charts_for(fdc)


# -- in a real browser -----------------------------------------------------------

CHROMIUM = shutil.which("chromium") or (
    "/usr/bin/chromium" if Path("/usr/bin/chromium").exists() else None
)
needs_chromium = pytest.mark.skipif(
    CHROMIUM is None and not os.environ.get("CI"),
    reason="chromium is not installed (CI installs it and runs this test)",
)


def chromium(
    processes: Processes, page: Path, profile: Path, *args: str, scrollbars: bool = False
) -> subprocess.CompletedProcess[str]:
    """Open `page` in headless Chromium with no network chatter of its own (`scrollbars`:
    drawn and taking their room, as on a desktop, not hidden as a screenshot wants)."""
    assert CHROMIUM is not None, "chromium is required when CI is set"
    command = [
        CHROMIUM,
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-extensions",
        *([] if scrollbars else ["--hide-scrollbars"]),
        f"--user-data-dir={profile}",
        *args,
        page.resolve().as_uri(),
    ]
    return processes.run(command)


def console_problems(stderr: str) -> list[str]:
    """Lines where the page spoke on the console: the page has no script, so any is a fault
    (an exception, or a request the Content-Security-Policy blocked)."""
    return [line for line in stderr.splitlines() if ":CONSOLE" in line or "Uncaught" in line]


def load_in_browser(processes: Processes, page: Path, profile: Path) -> tuple[str, list[str]]:
    done = chromium(processes, page, profile, "--enable-logging=stderr", "--v=0", "--dump-dom")
    return done.stdout, console_problems(done.stderr)


@needs_chromium
@pytest.mark.parametrize("which", ["fdc", "kk_solo"])
def test_loads_cleanly_in_chromium(
    which: str, request: pytest.FixtureRequest, tmp_path: Path, processes: Processes
) -> None:
    report = request.getfixturevalue(which)
    report_html.write_html(report, tmp_path)
    dom, problems = load_in_browser(processes, tmp_path / "report.html", tmp_path / "profile")
    assert problems == []
    assert "<h1>" in dom
    assert drawn_charts(dom) == dict.fromkeys(charts_of(report), True)


@needs_chromium
def test_browser_check_catches_a_broken_page(fdc, tmp_path: Path, processes: Processes) -> None:
    """The console scan is not blind: a remote image and a script error are reported."""
    page = report_html.render_html(fdc).replace(
        "</main>",
        '<img src="http://example.invalid/x.png"><script>not_defined()</script></main>',
    )
    (tmp_path / "broken.html").write_text(page, encoding="utf-8")
    _, problems = load_in_browser(processes, tmp_path / "broken.html", tmp_path / "profile")
    assert any("example.invalid" in line for line in problems)
    assert any("script" in line.lower() for line in problems)


@needs_chromium
def test_charts_are_painted(fdc, tmp_path: Path, processes: Processes) -> None:
    """A screenshot holds the charts' blue: the inline SVG is drawn, not just parsed."""
    from PIL import Image

    report_html.write_html(fdc, tmp_path)
    shot = tmp_path / "shot.png"
    chromium(
        processes,
        tmp_path / "report.html",
        tmp_path / "profile",
        f"--screenshot={shot}",
        "--window-size=1200,3000",
    )
    with Image.open(shot) as image:
        rgb = np.asarray(image.convert("RGB"), dtype=int)
    accent = int((np.abs(rgb - (0x2F, 0x6F, 0xB0)).max(axis=2) < 12).sum())
    # The seat and bot bars alone cover far more than this at 1200 px wide.
    assert accent > 20_000


def test_head_to_head_table_when_bots_differ(tmp_path: Path) -> None:
    from balancer.cli import main

    out = tmp_path / "r"
    variant = str(VARIANTS / "kk-4p-bots.yaml")
    assert main(["run", "-q", variant, "-n", "20", "-o", str(out)]) == 0
    page = (out / "report.html").read_text()
    assert "Head to head" in page and "expected" in page and "cautious" in page


def test_the_page_shows_every_interval(fdc, dqz) -> None:
    page = page_of(fdc)
    num = report_html.num
    margin, seat = fdc.margin, fdc.seats[0]
    assert margin is not None and margin.ci95 is not None and seat.score_mean_ci95 is not None
    assert f"(95% interval {num(margin.ci95.low)} – {num(margin.ci95.high)})" in page
    from balancer.numbers import column_decimals, fixed, percent_decimals

    # The seat table's "mean's 95% interval": one precision for the column (numbers.py).
    means = [s.score_mean_ci95 for s in fdc.seats if s.score_mean_ci95 is not None]
    places = column_decimals((m.low, m.high) for m in means)
    assert places is not None
    low, high = seat.score_mean_ci95
    assert f"{fixed(low, places)} – {fixed(high, places)}" in page
    name, event = next(iter(fdc.events.items()))
    assert event.per_game_ci95 is not None and event.share_of_games_ci95 is not None
    counted = [e for e in fdc.events.values() if e.per_game_ci95 and e.share_of_games_ci95]
    per = column_decimals((e.per_game_ci95.low, e.per_game_ci95.high) for e in counted)
    shares = percent_decimals(
        (e.share_of_games_ci95.low, e.share_of_games_ci95.high) for e in counted
    )
    assert per is not None
    low, high = event.per_game_ci95
    shown = f"{fixed(event.per_game, per)} (95% interval {fixed(low, per)} – {fixed(high, per)})"
    assert shown in page
    assert report_html._interval(event.share_of_games_ci95, shares) in page
    # A value event has a mean's interval, and its share of games has one too.
    assert dqz.events["max_multiplier"].share_of_games_ci95 is not None
    assert dqz.events["max_multiplier"].per_game_ci95 is not None
    assert "Hotelling" in page  # the seat-advantage test is named


# -- tables, meanings, Japanese ----------------------------------------------------


class CellCounter(HTMLParser):
    """How many <table>, <tr> and <td> elements a page holds, as a browser would count them."""

    def __init__(self) -> None:
        super().__init__()
        self.counts = {"table": 0, "tr": 0, "td": 0}

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in self.counts:
            self.counts[tag] += 1


def test_tables_are_tables(fdc) -> None:
    """Rows and cells sit in <table> elements (a browser drops <tr>/<td> outside one)."""
    page = page_of(fdc)
    assert "<markup" not in page
    counter = CellCounter()
    counter.feed(page)
    # seats, seat advantage, bots, head to head, events, how it plays, variant
    assert counter.counts["table"] == 7
    assert counter.counts["td"] > 5 * 12  # the seat table alone has 5 rows of 12 cells


def test_every_event_is_explained_beside_its_chart(dqz) -> None:
    from balancer.cli.events import event_meanings

    page = page_of(dqz, "en")
    events = page.split('<section id="events">', 1)[1].split("</section>", 1)[0]
    assert 'data-chart="events"' in events
    for meaning in event_meanings("dqz").values():
        assert report_html._e(meaning) in events, meaning
    assert "tricks per deal: " in events


def test_japanese_page(dqz) -> None:
    page = page_of(dqz, "ja")
    assert '<html lang="ja">' in page
    assert '"Noto Sans CJK JP", "Noto Sans JP", "Hiragino Sans"' in page
    assert "html:lang(ja) body" in page  # the CJK stack applies to this page
    for words in ("打棋子", "席ごとの勝率", "最終得点", "各ルールの発生頻度", "ヤキトリ", "連荘"):
        assert words in page, words
    events_chart = page.split('data-chart="events"', 1)[1].split("</figure>", 1)[0]
    assert "ヤキトリ" in events_chart and "1ゲームあたりの平均" in events_chart
    assert "1ディールあたりのトリック数" in page
    assert "How often each rule fires" not in page and "Win share by seat" not in page
    # The English page names no CJK-first stack for itself and says it is English.
    english = page_of(dqz)
    assert '<html lang="en">' in english and "席ごとの勝率" not in english


def test_a_report_says_its_own_language(dqz) -> None:
    recorded = replace(dqz, variant={**dqz.variant, "lang": "ja"})
    assert '<html lang="ja">' in report_html.render_html(recorded)
    assert '<html lang="en">' in report_html.render_html(recorded, "en")


def japanese_fonts() -> list[str]:
    try:
        found = subprocess.run(
            ["fc-list", ":lang=ja", "family"], capture_output=True, text=True, check=False
        ).stdout
    except FileNotFoundError:
        return []
    return [line for line in found.splitlines() if line.strip()]


needs_cjk_font = pytest.mark.skipif(
    not japanese_fonts(),
    reason="no Japanese font installed (fc-list :lang=ja is empty; .ci/run installs "
    "fonts-noto-cjk)",
)


def screenshot(processes: Processes, page: str, where: Path, size: str = "900,160") -> np.ndarray:
    """The top of `page` as headless Chromium paints it, as an RGB array."""
    from PIL import Image

    where.mkdir()
    (where / "page.html").write_text(page, encoding="utf-8")
    shot = where / "shot.png"
    chromium(
        processes,
        where / "page.html",
        where / "profile",
        f"--screenshot={shot}",
        f"--window-size={size}",
    )
    with Image.open(shot) as image:
        return np.asarray(image.convert("RGB"), dtype=int)


def ink(rgb: np.ndarray) -> int:
    """Pixels dark enough to be text on the page's light background."""
    return int((rgb.max(axis=2) < 110).sum())


# Code points Unicode leaves unassigned (a gap in the Greek block): no font maps
# them, so each paints its font's one missing-glyph box. Private-use code points
# were used first, but a machine with an icon font (Nerd Fonts, Powerline) paints
# them as icons, and CI once had such a machine.
UNASSIGNED_A, UNASSIGNED_B = "\u0378", "\u0379"
PROBE_HEIGHT = 40  # px: whole pixels, so every probe is rasterised alike


def probes(page: str, h1: str, texts: list[str]) -> str:
    """`page` with its heading replaced by one heading per text, each pinned at a
    whole-pixel position of its own, so one paint draws them all and the pinned
    boxes can be compared pixel for pixel within a single screenshot."""
    pinned = "".join(
        f'<h1 style="position:fixed;left:0;top:{i * PROBE_HEIGHT}px;height:{PROBE_HEIGHT}px;'
        f'width:480px;margin:0;overflow:hidden;white-space:nowrap;background:#fff;z-index:1">'
        f"{text}</h1>"
        for i, text in enumerate(texts)
    )
    return page.replace(h1, pinned, 1)


@needs_chromium
@needs_cjk_font
def test_japanese_glyphs_render_in_chromium(dqz, tmp_path: Path, processes: Processes) -> None:
    """The Japanese page's heading is drawn in a real CJK font, not as tofu boxes.

    Two different strings of unassigned code points paint identical boxes: that
    is what a page without a CJK font looks like, and the comparison sees it.
    Two different Japanese strings of the same length paint differently, and
    differently from the boxes. All four are painted in one screenshot, so no
    difference between two browser runs can enter the comparison.
    """
    page = page_of(dqz, "ja")
    h1 = "<h1>dqz-4p</h1>"
    assert h1 in page
    texts = [UNASSIGNED_A * 6, UNASSIGNED_B * 6, "猫に小判です", "親の連荘だ"]
    shot = screenshot(
        processes, probes(page, h1, texts), tmp_path / "probes", f"900,{len(texts) * PROBE_HEIGHT}"
    )
    tofu_a, tofu_b, koban, renchan = (
        shot[i * PROBE_HEIGHT : (i + 1) * PROBE_HEIGHT, :480] for i in range(len(texts))
    )
    assert ink(tofu_a) > 100  # the boxes are drawn, so their equality means something
    # The check can fail: missing glyphs all look alike.
    assert np.array_equal(tofu_a, tofu_b)
    assert ink(koban) > 300 and ink(renchan) > 300  # not blank
    assert not np.array_equal(koban, tofu_a) and not np.array_equal(renchan, tofu_a)
    assert not np.array_equal(koban, renchan)


@needs_chromium
@needs_cjk_font
def test_japanese_report_is_painted(dqz, tmp_path: Path, processes: Processes) -> None:
    """The whole Japanese page paints: its charts' blue and plenty of text."""
    rgb = screenshot(processes, page_of(dqz, "ja"), tmp_path / "p", "1200,3000")
    accent = int((np.abs(rgb - (0x2F, 0x6F, 0xB0)).max(axis=2) < 12).sum())
    assert accent > 20_000 and ink(rgb) > 20_000


def test_a_flagged_seat_advantage_is_said_in_words(dqz) -> None:
    from balancer.report.figures import SeatAdvantage

    shares = [0.32, 0.20, 0.23, 0.25]  # 4 seats, 25% even: seat 0 is 7 points over
    seats = tuple(replace(s, win_share=w) for s, w in zip(dqz.seats, shares, strict=True))
    adv = SeatAdvantage(test="Hotelling T²", statistic=14.0, df=(3, 100), p_value=0.0031)
    report = replace(dqz, seats=seats, seat_advantage=adv)
    page = report_html.render_html(report)
    assert "Seat advantage: the seats&#x27; win shares differ more than chance" in page
    assert "seat 0 wins 32.0% where 25.0% is even: a first-player edge, p = 0.0031" in page
    assert "先手（最初のプレイヤー）が有利" in report_html.render_html(report, "ja")
