"""balancer sweep: flags checked before any game, a grid drawn as a grid, an index page."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import polars as pl
import pytest

from balancer.analysis import sweep
from balancer.cli import main
from balancer.config import variant
from balancer.errors import UserError
from balancer.report.build import from_run
from balancer.report.model import Report
from balancer.sim import runner
from tests.helpers import VARIANTS, one_error_line

# About reports, the command line and diffs, not the engine: runs play as a user's do
# (compiled where they can), not step by step as the suite's forced --check would.
pytestmark = pytest.mark.usefixtures("engine_unchecked")


@pytest.mark.parametrize("name", ["fdc-5p.yaml", "kk-4p-bots.yaml", "dqz-4p.yaml"])
def test_expected_columns_are_the_columns_a_point_gets(name: str) -> None:
    loaded = variant.load(VARIANTS / name).with_overrides(games=4, seed=None)
    report = from_run(runner.run(loaded))
    knobs = {"hand_size": 5} if name.startswith("fdc") else {}
    row = sweep.headline_row(knobs, report)
    assert sweep.expected_columns(loaded, list(knobs)) == list(row)


def test_a_misspelled_figure_is_one_line_before_any_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import importlib

    cli_sweep = importlib.import_module("balancer.cli.sweep")

    def no_games(*args: object, **kwargs: object) -> None:
        raise AssertionError("a game was played before --figure was checked")

    monkeypatch.setattr(cli_sweep, "simulate", no_games)
    out = tmp_path / "s"
    base = ["sweep", "-q", str(VARIANTS / "fdc-3p.yaml"), "-n", "5", "-o", str(out)]
    assert main([*base, "--set", "hand_size=3,4", "--figure", "seat_win_shar.0"]) == 2
    line = one_error_line(capsys)
    assert line.startswith("balancer: error: --figure: no figure 'seat_win_shar.0'")
    assert "(did you mean 'seat_win_share.0'?)" in line
    # The old spelling of sweep.csv's columns is not a second name: the one name is offered.
    assert main([*base, "--set", "hand_size=3,4", "--figure", "seat0_win_share"]) == 2
    assert "(did you mean 'seat_win_share.0'?)" in one_error_line(capsys)
    assert main([*base, "--set", "hand_size=3,4", "--figure", "hand_size"]) == 2
    assert "is a knob, not a figure" in one_error_line(capsys)
    assert not out.exists()


def _table() -> pl.DataFrame:
    # Two knobs, 3 x 2 points, in grid order (first knob slowest), as grid() makes them.
    return pl.DataFrame(
        {
            "hand_size": ["4", "4", "5", "5", "6", "6"],
            "neko": ["true", "false", "true", "false", "true", "false"],
            "margin.mean": [1.0, 2.0, 3.0, 4.0, 5.0, 6.0],
        }
    )


def test_two_knobs_make_one_grid_of_cells() -> None:
    [(title, xs, ys, cells)] = sweep.heatmap_grid(_table(), "margin.mean", ["hand_size", "neko"])
    assert title == "" and xs == ["4", "5", "6"] and ys == ["true", "false"]
    # cells[y][x]: neko=true is the first row.
    assert cells == [[1.0, 3.0, 5.0], [2.0, 4.0, 6.0]]


def test_three_knobs_make_small_multiples() -> None:
    table = pl.concat(
        [
            _table().with_columns(pl.lit(r).alias("rounds"), pl.col("margin.mean") + 10 * i)
            for i, r in enumerate(["3", "4"])
        ]
    )
    panels = sweep.heatmap_grid(table, "margin.mean", ["hand_size", "neko", "rounds"])
    assert [p[0] for p in panels] == ["rounds=3", "rounds=4"]
    assert panels[1][3][0] == [11.0, 13.0, 15.0]


def test_a_grid_is_drawn_as_a_heatmap_and_one_knob_as_a_line(tmp_path: Path) -> None:
    drawn = sweep.heatmaps(_table(), "margin.mean", ["hand_size", "neko"]).render()
    assert drawn.count('class="cell"') == 6
    assert "<polyline" not in drawn and 'class="point' not in drawn  # no line joins the points
    texts = sorted(re.findall(r'class="cell-text">([^<]*)</text>', drawn))
    assert texts == ["1", "2", "3", "4", "5", "6"]
    one = sweep.line_chart(_table().head(3), "margin.mean", "hand_size").render()
    assert one.count("<polyline") == 1 and 'class="cell"' not in one
    sweep.chart(_table(), "margin.mean", ["hand_size", "neko"], tmp_path / "s.svg")
    written = (tmp_path / "s.svg").read_text()
    assert written.startswith("<?xml") and 'xmlns="http://www.w3.org/2000/svg"' in written
    assert written.count('class="cell"') == 6


class Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.hrefs: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "a":
            self.hrefs.append(dict(attrs)["href"] or "")


def test_a_two_knob_sweep_writes_a_heatmap_and_an_index(tmp_path: Path) -> None:
    out = tmp_path / "sweep"
    args = ["sweep", "-q", str(VARIANTS / "fdc-3p.yaml"), "-n", "6", "-o", str(out)]
    args += ["--set", "hand_size=3,4", "--set", "neko_ni_koban=true,false"]
    args += ["--figure", "seat_win_share.0"]
    assert main(args) == 0
    assert (out / "sweep.svg").read_text().count('class="cell"') == 4
    page = (out / "index.html").read_text(encoding="utf-8")
    links = Links()
    links.feed(page)
    table = pl.read_csv(out / "sweep.csv")
    assert len(links.hrefs) == table.height == 4
    from urllib.parse import unquote

    for href in links.hrefs:
        assert (out / unquote(href)).is_file(), href  # each point's report.html, relative
    # Each point's figure, with its interval, beside its link.
    from balancer.analysis.sweep_table import cell, column_places

    places = column_places(table, "seat_win_share.0")
    for row in table.iter_rows(named=True):
        shown = cell(row, "seat_win_share.0", places)
        assert re.search(r"\[", shown) and f">{shown}<" in page, shown
    assert "default-src 'none'" in page and "<svg" in page


def test_check_figure_accepts_every_figure_and_nothing_else() -> None:
    loaded = variant.load(VARIANTS / "kk-4p-bots.yaml")
    columns = sweep.expected_columns(loaded, ["rounds"])
    figures = [c for c in columns if c != "rounds" and not c.endswith((".ci95_low", ".ci95_high"))]
    assert "bots.expected.win_share" in figures and "length.mean" in figures
    for figure in figures:
        sweep.check_figure(figure, loaded, ["rounds"])
    # An interval's column is not a figure to chart.
    with pytest.raises(UserError, match="no figure 'length.mean.ci95_low'"):
        sweep.check_figure("length.mean.ci95_low", loaded, ["rounds"])
    with pytest.raises(UserError, match="did you mean 'bots.expected.win_share'"):
        sweep.check_figure("bots.expect.win_share", loaded, ["rounds"])


def test_every_figure_a_sweep_charts_is_one_expect_and_tune_know() -> None:
    """One vocabulary: a name sweep.csv uses means the same figure in expect: and tune."""
    from balancer.analysis import expect

    for name in ("fdc-5p.yaml", "kk-4p-bots.yaml", "dqz-4p.yaml"):
        loaded = variant.load(VARIANTS / name)
        for figure in sweep.expected_columns(loaded, []):
            if figure.endswith((".ci95_low", ".ci95_high")):
                continue
            if figure in ("margin.sd", "seat_advantage.p_value"):
                # Not a mean of per-game values: no test to hold it to.
                with pytest.raises(ValueError, match="no mean of per-game values"):
                    expect.resolve(figure, loaded)
                continue
            assert expect.resolve(figure, loaded).name == figure


def test_a_win_share_cell_says_its_interval() -> None:
    table = _table().with_columns(
        pl.Series("seat_win_share.0", [0.2, 0.25, 0.3, 0.35, 0.4, 0.45]),
        pl.Series("seat_win_share.0.ci95_low", [0.1, 0.15, 0.2, 0.25, 0.3, 0.35]),
        pl.Series("seat_win_share.0.ci95_high", [0.3, 0.35, 0.4, 0.45, 0.5, 0.55]),
    )
    drawn = sweep.heatmaps(table, "seat_win_share.0", ["hand_size", "neko"]).render()
    texts = {
        re.sub(r"<tspan[^>]*>", "\n", t).replace("</tspan>", "")
        for t in re.findall(r'class="cell-text">(.*?)</text>', drawn)
    }
    assert "0.20\n[0.10, 0.30]" in texts and "0.45\n[0.35, 0.55]" in texts


def test_the_default_folder_names_what_was_swept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    args = ["sweep", "-q", str(VARIANTS / "fdc-3p.yaml"), "-n", "4", "--set", "hand_size=3,4"]
    assert main(args) == 0
    assert main([*args[:5], "--set", "neko_ni_koban=true,false"]) == 0
    # Two sweeps of other knobs of one variant: side by side, neither replaced.
    assert sorted(p.name for p in (tmp_path / "reports").iterdir() if p.is_dir()) == [
        "fdc-3p-sweep-hand_size",
        "fdc-3p-sweep-neko_ni_koban",
    ]


def test_a_different_sweep_is_not_replaced_without_force(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "s"
    base = ["sweep", "-q", str(VARIANTS / "fdc-3p.yaml"), "-n", "4", "-o", str(out)]
    assert main([*base, "--set", "hand_size=3,4"]) == 0
    first = (out / "sweep.csv").read_bytes()
    # The same sweep again is a rerun: it replaces itself.
    assert main([*base, "--set", "hand_size=3,4"]) == 0
    capsys.readouterr()
    assert main([*base, "--set", "hand_size=4,5"]) == 2
    line = one_error_line(capsys)
    assert "holds another sweep (fdc-3p: hand_size=3,4)" in line and "--force" in line
    assert (out / "sweep.csv").read_bytes() == first
    assert main([*base, "--set", "hand_size=4,5", "--force"]) == 0
    assert pl.read_csv(out / "sweep.csv")["hand_size"].to_list() == [4, 5]


def test_a_point_report_names_its_point_and_links_its_sweep(tmp_path: Path) -> None:
    import json

    out = tmp_path / "s"
    args = ["sweep", "-q", str(VARIANTS / "fdc-3p.yaml"), "-n", "4", "-o", str(out)]
    assert main([*args, "--set", "hand_size=3,4"]) == 0
    points = sorted(p for p in out.iterdir() if p.is_dir())
    assert len(points) == 2
    second = json.loads((points[1] / "report.json").read_text())["sweep_point"]
    assert second == {"sweep": "fdc-3p", "point": "hand_size=4", "index": 2, "points": 2}
    page = (points[1] / "report.html").read_text(encoding="utf-8")
    assert "point 2 of 2 of the sweep of fdc-3p: hand_size=4" in page
    links = Links()
    links.feed(page)
    assert "../index.html" in links.hrefs and (points[1] / "../index.html").is_file()
    assert "point 2 of 2" in (points[1] / "summary.md").read_text(encoding="utf-8")
    # A report that is no sweep's point says nothing of the kind (the control).
    read = Report.open(points[1]).sweep_point  # read back from report.json
    assert read is not None and (read.point, read.index) == ("hand_size=4", 2)
    plain = from_run(runner.run(variant.load(VARIANTS / "fdc-3p.yaml").with_overrides(
        games=4, seed=None)))  # fmt: skip
    assert plain.sweep_point is None and "sweep_point" not in plain.to_json()
