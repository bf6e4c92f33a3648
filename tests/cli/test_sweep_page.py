"""A sweep's index.html as a reader sees it in Chromium at 1280 and 1920 px wide.

The page has no script (its Content-Security-Policy forbids one), so each check
renders a copy with the policy taken out and a measuring script put in, which
writes what the browser laid out into an attribute that --dump-dom prints.
"""

from __future__ import annotations

import html
import json
import re
from pathlib import Path
from typing import Any

import polars as pl
import pytest

from balancer.analysis.figure_names import HIGH, LOW
from balancer.analysis.sweep_html import PLAY_COLUMNS, render_index
from tests.cli.test_html import chromium, needs_chromium
from tests.helpers import Processes

WIDTHS = (1280, 1920)
SCROLLBAR_PX = 10  # .table-wrap::-webkit-scrollbar in report/html.py

# Where each table's wrapper, its card and its cells sit, read after layout.
_MEASURE = """<script>
const found = [];
for (const wrap of document.querySelectorAll('.table-wrap')) {
  const card = wrap.closest('section').getBoundingClientRect();
  const box = wrap.getBoundingClientRect();
  found.push({
    card: [card.left, card.right],
    wrap: [box.left, box.right],
    client: wrap.clientWidth,
    scroll: wrap.scrollWidth,
    bar: wrap.offsetHeight - wrap.clientHeight,
    links: [...wrap.querySelectorAll('a')].map(a => {
      const r = a.getBoundingClientRect(); return [r.left, r.right]; }),
    heads: [...wrap.querySelectorAll('th')].map(th => {
      const r = th.getBoundingClientRect(); return [th.textContent, r.left, r.right]; }),
  });
}
document.body.setAttribute('data-measured', JSON.stringify(found));
</script></body>"""


def laid_out(page: str, width: int, folder: Path, processes: Processes) -> dict[str, Any]:
    """The points' table as Chromium lays out `page` in a window `width` px wide."""
    page = re.sub(r'<meta http-equiv="Content-Security-Policy"[^>]*>', "", page)
    target = folder / f"measured-{width}.html"
    target.write_text(page.replace("</body>", _MEASURE), encoding="utf-8")
    size = f"--window-size={width},900"
    done = chromium(processes, target, folder / "profile", size, "--dump-dom", scrollbars=True)
    found = re.search(r'data-measured="([^"]*)"', done.stdout)
    assert found, done.stderr[-2000:]
    (table,) = json.loads(html.unescape(found.group(1)))
    return dict(table)


def sweep_table(knobs: dict[str, list[Any]], figures: list[str]) -> pl.DataFrame:
    """A sweep table as sweep.csv holds it: each knob, then each figure and its interval."""
    points = len(next(iter(knobs.values())))
    columns: dict[str, list[Any]] = dict(knobs)
    for figure in figures:
        columns[figure] = [0.412] * points
        columns[figure + LOW] = [0.398] * points
        columns[figure + HIGH] = [0.426] * points
    return pl.DataFrame(columns)


def page_of(knobs: dict[str, list[Any]], figures: list[str]) -> str:
    table = sweep_table(knobs, figures)
    points = len(next(iter(knobs.values())))
    folders = [f"{i:03d}-point" for i in range(points)]
    # Every figure moves by as much as the next, so all four are shown: make them move.
    for i, figure in enumerate(figures[1:]):
        table = table.with_columns(pl.Series(figure, [0.1 * (p + i) for p in range(points)]))
    return render_index("fdc-3p", table, figures[0], list(knobs), folders, "<svg></svg>")


# Two knobs and the charted figure with the three most moved, as `sweep --set hand_size=3,4
# --set neko_ni_koban=true,false` shows them: the table of issue 37.
TWO_KNOBS = {"hand_size": [3, 3, 4, 4], "neko_ni_koban": ["true", "false", "true", "false"]}
FOUR_FIGURES = [
    "margin.mean",
    "events.neko_ni_koban.share_of_games",
    "events.neko_ni_koban.per_game",
    "events.cards_cancelled.per_game",
]


def inside(span: list[float], outer: list[float]) -> bool:
    return outer[0] - 0.5 <= span[0] and span[1] <= outer[1] + 0.5


@needs_chromium
@pytest.mark.parametrize("width", WIDTHS)
def test_a_two_knob_table_fits_its_card_whole(
    width: int, tmp_path: Path, processes: Processes
) -> None:
    table = laid_out(page_of(TWO_KNOBS, FOUR_FIGURES), width, tmp_path, processes)
    assert table["scroll"] <= table["client"], table  # nothing hidden to the right
    names = [name for name, _, _ in table["heads"]]
    assert names == ["report", *TWO_KNOBS, *FOUR_FIGURES]
    for name, left, right in table["heads"]:
        assert inside([left, right], table["card"]), (name, table)
    assert len(table["links"]) == 4
    for link in table["links"]:
        assert inside(link, table["card"]), table


@needs_chromium
@pytest.mark.parametrize("width", WIDTHS)
def test_a_table_too_wide_scrolls_with_a_bar_and_keeps_its_links_in_the_card(
    width: int, tmp_path: Path, processes: Processes
) -> None:
    # Six knobs with long names and values: no window shows this table whole.
    knobs = {f"a_rather_long_knob_name_{k}": ["a_long_value_" * 2] * 2 for k in range(6)}
    table = laid_out(page_of(knobs, FOUR_FIGURES), width, tmp_path, processes)
    assert table["scroll"] > table["client"], table  # it does scroll: the check can fail
    # A bar is drawn under it, by the page's own style (10 px): a platform's bar may be an
    # overlay that shows only while scrolling (macOS), so the page does not leave it to one.
    # (Linux's headless Chromium draws a 15 px bar of its own when the page says nothing.)
    assert table["bar"] == SCROLLBAR_PX, table
    assert len(table["links"]) == 2
    for link in table["links"]:
        assert inside(link, table["card"]), table


# -- how it plays -----------------------------------------------------------------------


def play_page(with_play: list[str], lang: str | None = None, null: str | None = None) -> str:
    """A two-point sweep page whose table holds the how-it-plays columns `with_play`, point
    i's value 0.1 + i/10 in [value - 0.05, value + 0.05]; `null`: one column left empty."""
    knobs = {"hand_size": [3, 4]}
    table = sweep_table(knobs, ["margin.mean"])
    for figure in with_play:
        values: list[float | None] = [0.1, 0.2] if figure != null else [None, None]
        table = table.with_columns(
            pl.Series(figure, values, dtype=pl.Float64),
            pl.Series(figure + LOW, [v - 0.05 if v is not None else None for v in values]),
            pl.Series(figure + HIGH, [v + 0.05 if v is not None else None for v in values]),
        )
    folders = ["000-hand_size=3", "001-hand_size=4"]
    return render_index("fdc-3p", table, "margin.mean", list(knobs), folders, "<svg></svg>", lang)


def play_section(page: str) -> str:
    start = page.find('<section class="how-it-plays">')
    return page[start : page.index("</section>", start)] if start >= 0 else ""


def test_a_sweep_page_shows_how_each_point_played_with_its_interval() -> None:
    section = play_section(play_page(list(PLAY_COLUMNS)))
    heads = re.findall(r"<th>([^<]*)</th>", section)
    assert heads == [
        "hand_size", "Lead changes", "Decided at", "Comebacks", "Drama", "Leader at 50% wins",
        "Decisions",
    ]  # fmt: skip
    rows = section.split("<tr>")[2:]
    assert len(rows) == 2
    # Each point's own values after its knobs, in the figures' order, with their intervals.
    assert rows[0].startswith("<td><code>3</code></td>")
    assert re.findall(r'class="num">([^<]*)<', rows[0]) == ["0.10 [0.05, 0.15]"] * 6
    assert re.findall(r'class="num">([^<]*)<', rows[1]) == ["0.20 [0.15, 0.25]"] * 6


def test_a_sweep_page_without_how_it_plays_has_no_such_section() -> None:
    # The control: the same page with the figures has it.
    assert play_section(play_page(["how_it_plays.comeback.share"]))
    assert not play_section(play_page([]))
    # A column the points' reports lack (null) is left out, not shown as empty.
    section = play_section(play_page(list(PLAY_COLUMNS), null="how_it_plays.drama.mean"))
    assert "Drama" not in section and "Comebacks" in section


def test_a_sweep_pages_how_it_plays_speaks_japanese() -> None:
    section = play_section(play_page(list(PLAY_COLUMNS), lang="ja"))
    assert "ゲームの展開" in section and "逆転率" in section and "50%時点の首位が勝つ率" in section
    assert "Comebacks" not in section
