"""How a diff reads: the header's knobs and bots, the 100-column table, the HTML page."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from balancer.analysis import diff_setup
from balancer.analysis.diff import DiffTable, compare
from balancer.analysis.diff_render import WIDTH, decimals, interval_text, render, section_of
from balancer.config import variant
from balancer.report.build import from_run
from balancer.report.model import Report
from balancer.sim import runner
from balancer.stats.compare import Row
from tests.cli.test_html import needs_chromium  # skipped without chromium, required in CI
from tests.helpers import VARIANTS, Processes

# About reports, the command line and diffs, not the engine: runs play as a user's do
# (compiled where they can), not step by step as the suite's forced --check would.
pytestmark = pytest.mark.usefixtures("engine_unchecked")

# --- the header: knobs and bots that differ -----------------------------------


def test_a_changed_knob_is_named_with_both_values() -> None:
    a = {"rules": {"hand_size": 5, "deck": {"copies": 1}}, "scoring": {"cash_value": "count"}}
    b = {"rules": {"hand_size": 6, "deck": {"copies": 2}}, "scoring": {"cash_value": "count"}}
    changes = diff_setup.knob_changes(a, b)
    assert [c.text() for c in changes] == [
        "rules.hand_size: 5 → 6",
        "rules.deck: {copies: 1} → {copies: 2}",
    ]


def test_a_knob_is_one_setting_whichever_section_holds_it() -> None:
    a = {"rules": {"hand_size": 5}, "scoring": {}}
    b = {"rules": {}, "scoring": {"hand_size": 5}}
    assert diff_setup.knob_changes(a, b) == []
    # Set on one side only: the other side shows '-'.
    only_b = diff_setup.knob_changes({"rules": {}}, {"rules": {"neko_ni_koban": False}})
    assert [c.text() for c in only_b] == ["rules.neko_ni_koban: - → false"]


def test_bots_match_by_name_and_a_parameter_change_is_said_so() -> None:
    a = [{"bot": "cautious", "params": {}}, {"bot": "random", "params": {}}]
    b = [{"bot": "cautious", "params": {"rank": 1}}, {"bot": "expected", "params": {}}]
    changes = diff_setup.bot_changes(a, b)
    assert [c.text() for c in changes] == [
        "seat 0 cautious parameters: {} → {rank: 1}",
        "seat 1: random → expected",
    ]
    assert diff_setup.bot_changes(a, a) == []


def test_the_same_change_at_every_seat_is_one_line() -> None:
    a = [{"bot": "heuristic", "params": {}}] * 5
    b = [{"bot": "random", "params": {}}] * 5
    assert [c.text() for c in diff_setup.bot_changes(a, b)] == ["every seat: heuristic → random"]
    # Four of five seats changed: each is named.
    mixed = [*b[:4], a[4]]
    assert len(diff_setup.bot_changes(a, mixed)) == 4


def test_header_lines_say_what_differs_and_what_does_not() -> None:
    side_a = diff_setup.Side("reports/x", "x", 300, 7, "rules v2, balancer 0.1.0")
    side_b = diff_setup.Side("reports/y", "y", 300, 7, "rules v2, balancer 0.1.0")
    seats = [{"bot": "heuristic", "params": {}}] * 3
    a = {"seats": seats, "seat_rotation": False, "rules": {"neko_ni_koban": True}}
    b = {"seats": seats, "seat_rotation": True, "rules": {"neko_ni_koban": False}}
    lines = diff_setup.setup(a, b, side_a, side_b, "fish-dash-cash, 3 players").lines()
    assert lines == [
        "A: reports/x (x, 300 games, seed 7, rules v2, balancer 0.1.0)",
        "B: reports/y (y, 300 games, seed 7, rules v2, balancer 0.1.0)",
        "knobs that differ (1):",
        "  rules.neko_ni_koban: true → false",
        "bots: the same in A and B (heuristic at every seat)",
        "seat_rotation: false → true",
    ]
    same = diff_setup.setup(a, a, side_a, side_a).lines()
    assert "knobs: the same in A and B" in same


# --- the terminal table -------------------------------------------------------


def _row(change: float, low: float, high: float, a: float = 0.2) -> Row:
    return Row(
        "seat_win_share.0", "win", a, a + change, change, (low, high), "paired t",
        0.5, 0.5, "", True, 100, 100,
    )  # fmt: skip


def test_numbers_show_the_digits_the_interval_backs() -> None:
    # Width 0.085 (one digit, hundredths): two decimals.
    row = _row(0.0183, -0.024, 0.061, a=0.19792)
    assert decimals(row) == 2
    assert interval_text(row) == "[-0.02, +0.06]"
    # Width 0.25 leads with a 2, so two digits of it (0.25): two decimals, not one.
    assert interval_text(_row(0.0183, -0.11, 0.14)) == "[-0.11, +0.14]"
    assert interval_text(_row(0.0183, -0.41, 0.44)) == "[-0.4, +0.4]"  # width 0.85: one
    # Width 7: no decimals.
    assert decimals(_row(1.0, -2.5, 4.5)) == 0
    # No variation: no interval to show.
    flat = _row(0.0, 0.0, 0.0)
    assert decimals(flat) is None and interval_text(flat) == "no variation"


def test_figures_group_into_sections() -> None:
    # Each section is headed by the pattern of the names under it (the names of
    # expect:, tune --target and sweep --figure); a row's label is what varies.
    assert section_of("seat_win_share.3") == ("seat_win_share.<seat>", "3")
    assert section_of("bots.cautious(rank=1).win_share") == (
        "bots.<bot>.win_share",
        "cautious(rank=1)",
    )
    assert section_of("seat_score_mean.0") == ("seat_score_mean.<seat>", "0")
    assert section_of("events.neko_ni_koban.per_game") == (
        "events.<event>.per_game",
        "neko_ni_koban",
    )
    assert section_of("events.steals.share_of_games") == (
        "events.<event>.share_of_games",
        "steals",
    )
    assert section_of("length.mean") == ("game", "length.mean")
    # A name of no family is its own label: not swallowed by a pattern it only resembles.
    assert section_of("seat_win_share.x") == ("game", "seat_win_share.x")


# The shipped variants that change one thing about a shipped table, against it.
SHIPPED_DIFFS = {
    "fish-dash-cash": ("fdc-5p", ["fdc-5p-no-neko", "fdc-5p-face", "fdc-5p-vs-random"]),
    "kimekimera": (
        "kk-4p",
        ["kk-4p-robot-after-scoring", "kk-4p-bonus-2-5", "kk-4p-bots", "kk-4p-no-reshuffle"],
    ),
    "da-qi-zi": ("dqz-4p", ["dqz-4p-may-discard", "dqz-4p-mixed-pairs", "dqz-4p-vs-random"]),
}


def _report(name: str, games: int = 20) -> Report:
    loaded = variant.load(VARIANTS / f"{name}.yaml").with_overrides(games=games, seed=None)
    report = from_run(runner.run(loaded))
    return Report.from_json(
        report.to_json(), name, games=report.games, folder=Path("reports") / name
    )


@pytest.fixture(scope="module")
def shipped() -> dict[str, list[DiffTable]]:
    from dataclasses import replace

    from balancer.cli.diff import scratch_place

    tables: dict[str, list[DiffTable]] = {}
    for game, (base, others) in SHIPPED_DIFFS.items():
        a = _report(base)
        tables[game] = []
        for other in others:
            # Where `balancer diff A.yaml B.yaml` puts them: the longest folder names it writes.
            scratch = scratch_place(base, other)
            pair = replace(a, folder=scratch / "a"), replace(_report(other), folder=scratch / "b")
            tables[game].append(compare(*pair))
    return tables


@pytest.mark.parametrize("game", sorted(SHIPPED_DIFFS))
def test_every_line_fits_100_columns(shipped: dict[str, list[DiffTable]], game: str) -> None:
    for table in shipped[game]:
        text = render(table, "table")
        too_wide = [line for line in text.splitlines() if len(line) > WIDTH]
        assert too_wide == [], f"{table.b}:\n" + "\n".join(too_wide)
        # Every row is there, once, in a section.
        lines = text.splitlines()
        start = next(i for i, line in enumerate(lines) if line.startswith("----"))
        body = lines[start + 1 : lines.index("", start)]
        assert len([line for line in body if line.startswith("  ")]) == len(table.rows)


def test_the_shipped_examples_name_what_they_change(shipped: dict[str, list[DiffTable]]) -> None:
    fdc_neko, fdc_face, fdc_random = shipped["fish-dash-cash"]
    assert "  rules.neko_ni_koban: true → false" in render(fdc_neko, "table").splitlines()
    text = render(fdc_random, "table")
    assert "bots that differ" in text and "heuristic → random" in text
    kk_robot = shipped["kimekimera"][0]
    assert "rules.robot_replacement: at_next_breeding → after_scoring" in render(kk_robot, "table")
    dqz_discard = shipped["da-qi-zi"][0]
    md = render(dqz_discard, "md")
    assert "- ` rules.may_discard_when_able: false → true `" in md
    document = json.loads(render(dqz_discard, "json"))
    assert {"what": "rules.may_discard_when_able", "a": "false", "b": "true"} in document["setup"][
        "knobs"
    ]
    # The JSON contract is as it was.
    assert {"changed", "stopped_at", "rows"} <= set(document)
    contract = {"figure", "a", "b", "change", "ci95", "test", "p_value", "p_adjusted", "verdict"}
    assert all(contract <= set(record) for record in document["rows"])


def test_a_long_bot_label_is_cut_to_fit() -> None:
    from tests.unit.test_diff import in_memory, make_games

    long = "plugins.my_module:" + "VeryCareful" * 8 + "Bot(depth=12,lookahead=true)"
    a = make_games(100, noise_seed=1, deal_seed=1, labels=(long, "random"))
    b = make_games(100, noise_seed=2, deal_seed=1, labels=(long, "random"))
    text = render(compare(in_memory(a, 5), in_memory(b, 5)), "table")
    assert max(len(line) for line in text.splitlines()) <= WIDTH
    assert "  plugins.my_module:VeryCareful" in text and "…  0." in text
    # The full name is in the details.
    name = long.split("(")[0]
    assert f"| bots.{name}.win_share |" in render(compare(in_memory(a, 5), in_memory(b, 5)), "md")


# --- where a diff of variant files runs them ----------------------------------


def test_a_diff_of_variant_files_never_replaces_a_run_report(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from balancer.cli import main

    monkeypatch.chdir(tmp_path)
    a, b = str(VARIANTS / "fdc-5p.yaml"), str(VARIANTS / "fdc-5p-no-neko.yaml")
    # The user's long run of A, where `balancer run` puts it.
    assert main(["run", "-q", a, "-n", "40"]) == 0
    mine = (tmp_path / "reports" / "fdc-5p" / "report.json").read_bytes()
    capsys.readouterr()
    assert main(["diff", "-q", "-n", "20", a, b]) == 0
    err = capsys.readouterr().err
    assert (tmp_path / "reports" / "fdc-5p" / "report.json").read_bytes() == mine
    scratch = Path("reports") / "diff" / "fdc-5p-vs-fdc-5p-no-neko"
    assert f"balancer: A was run into {scratch}/a/\n" in err
    assert f"balancer: B was run into {scratch}/b/\n" in err
    assert json.loads((tmp_path / scratch / "a" / "report.json").read_text())["games"] == 20
    # Run again: the previous diff's runs are replaced, and it says so.
    assert main(["diff", "-q", "-n", "20", a, b]) == 0
    assert "a/ (the previous diff's run there replaced)" in capsys.readouterr().err


# --- the diff page ------------------------------------------------------------


def _synthetic_pair(label: str = "careful") -> tuple[Report, Report]:
    from tests.unit.test_diff import in_memory, make_games

    a = make_games(600, noise_seed=1, deal_seed=2, labels=(label, "random"))
    b = make_games(600, noise_seed=3, deal_seed=4, shift=3, labels=(label, "random"))
    return in_memory(a, 1, name="reports/a"), in_memory(b, 2, name="reports/b")


def test_row_chart_places_the_change_and_its_interval_around_zero() -> None:
    import re

    from balancer.analysis import diff_html

    # Change +0.5 in [+0.25, +0.75]: the scale reaches 0.75 * 1.05 either side of zero.
    row = _row(0.5, 0.25, 0.75)
    svg = diff_html.row_chart(row)
    half = diff_html.CHART_W / 2
    x = [float(v) for v in re.findall(r'x1="([\d.]+)"', svg)]
    assert x[0] == half  # the zero line at the centre
    scale = 0.75 * 1.05
    assert x[1] == pytest.approx(half + 0.25 / scale * (half - 10), abs=0.01)  # interval's low end
    cx = float(re.search(r'cx="([\d.]+)"', svg).group(1))  # type: ignore[union-attr]
    assert cx == pytest.approx(half + 0.5 / scale * (half - 10), abs=0.01)
    assert diff_html.MUTED in svg and "<rect" not in svg  # no verdict, no tolerance
    changed = Row(**{**row.__dict__, "verdict": "changed", "tolerance": 0.1})
    drawn = diff_html.row_chart(changed)
    assert diff_html.ACCENT in drawn and "<rect" in drawn


def test_rows_of_a_kind_share_one_scale_so_their_lengths_compare() -> None:
    import re

    from balancer.analysis import diff_html

    small = _row(0.01, 0.005, 0.015)  # a win share moving by 1 point
    big = _row(0.2, 0.15, 0.25)  # another by 20
    score = Row(**{**_row(5.2, 4.0, 6.4).__dict__, "kind": "score", "figure": "seat_score_mean.0"})
    reaches = diff_html.kind_reaches([small, big, score])
    assert reaches == {"win": 0.25, "score": 6.4}

    def half_length(svg: str) -> float:
        x = [float(v) for v in re.findall(r'x1="([\d.]+)"', svg)]
        return x[3] - x[2]  # the caps at the interval's ends (after the zero line and bar)

    shared = [half_length(diff_html.row_chart(r, reaches["win"])) for r in (small, big)]
    # On one scale the bars keep their ratio (0.01 wide against 0.1 wide: ten times)...
    assert shared[1] / shared[0] == pytest.approx(10, rel=0.02)
    # ...where each on its own scale, the ten times wider interval drew shorter (0.6 times).
    own = [half_length(diff_html.row_chart(r)) for r in (small, big)]
    assert own[1] / own[0] == pytest.approx((0.1 / 0.25) / (0.01 / 0.015), rel=0.02)
    assert "±0.26" in diff_html.row_chart(small, reaches["win"])  # the scale is written


def test_the_page_is_self_contained_and_escapes_names(tmp_path: Path) -> None:
    from balancer.analysis import diff_html

    a, b = _synthetic_pair(label='<script>alert("x")</script>')
    table = compare(a, b)
    page = diff_html.render_html(table)
    assert "<script" not in page and "&lt;script&gt;" in page
    for external in ("http://", "https://", "<link", "<img", "@import", "url("):
        assert external not in page.replace('xmlns="http://www.w3.org/2000/svg"', ""), external
    assert "default-src 'none'" in page
    # One row per figure, each with its chart.
    assert page.count("<tr ") == len(table.rows)
    assert page.count("<svg") >= len(table.rows)
    assert diff_html.render_html(table) == page  # same diff, same bytes


def test_the_page_replaces_only_its_own_file(tmp_path: Path) -> None:
    from balancer.analysis import diff_html
    from balancer.errors import UserError

    table = compare(*_synthetic_pair())
    target = tmp_path / "diff.html"
    diff_html.write_html(table, target)
    diff_html.write_html(table, target)  # its own page: replaced
    mine = tmp_path / "notes.html"
    mine.write_text("<html>my notes</html>")
    with pytest.raises(UserError, match="left alone"):
        diff_html.write_html(table, mine)
    assert mine.read_text() == "<html>my notes</html>"
    with pytest.raises(UserError, match="is a folder"):
        diff_html.write_html(table, tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["diff.html", "notes.html"]


def test_diff_html_option_keeps_stdout_for_the_diff(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from balancer.cli.diff import diff_command
    from tests.unit.test_diff import make_games, write_report

    a = write_report(tmp_path / "a", make_games(300, noise_seed=1, deal_seed=2), seed=1)
    b = write_report(tmp_path / "b", make_games(300, noise_seed=3, deal_seed=4, shift=3), seed=2)
    page = tmp_path / "d.html"
    result = CliRunner().invoke(
        diff_command, [str(a), str(b), "--format", "json", "--html", str(page)]
    )
    assert result.exit_code == 0, result.output
    json.loads(result.stdout)
    assert result.stderr == f"balancer: diff page: {page}\n"
    assert "<h1>" in page.read_text(encoding="utf-8")


@pytest.fixture()
def page(tmp_path: Path) -> Path:
    from balancer.analysis import diff_html

    return diff_html.write_html(compare(*_synthetic_pair()), tmp_path / "diff.html")


@needs_chromium
def test_the_page_loads_cleanly_in_chromium(
    page: Path, tmp_path: Path, processes: Processes
) -> None:
    from tests.cli.test_html import load_in_browser

    dom, problems = load_in_browser(processes, page, tmp_path / "profile")
    assert problems == []
    assert "<h1>" in dom and dom.count("<svg") >= 16


@needs_chromium
def test_the_page_is_painted_in_chromium(page: Path, tmp_path: Path, processes: Processes) -> None:
    """A screenshot that is not blank: the changed rows' accent is drawn, the text is there."""
    import numpy as np
    from PIL import Image

    from balancer.analysis import diff_html
    from tests.cli.test_html import chromium

    shot = tmp_path / "shot.png"
    chromium(
        processes, page, tmp_path / "profile", f"--screenshot={shot}", "--window-size=1100,2400"
    )
    with Image.open(shot) as image:
        rgb = np.asarray(image.convert("RGB"), dtype=int)
    accent = tuple(int(diff_html.ACCENT[i : i + 2], 16) for i in (1, 3, 5))
    painted = int((np.abs(rgb - accent).max(axis=2) < 16).sum())
    dark = int((rgb.max(axis=2) < 90).sum())  # the text
    # Five changed rows: dots, bars and verdict words in the accent (1,891 px measured).
    assert painted > 1_000, painted
    assert dark > 5_000, dark


def test_a_bad_html_target_is_one_line_before_any_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import importlib

    from balancer.cli import main
    from tests.helpers import one_error_line

    cli_diff = importlib.import_module("balancer.cli.diff")

    def no_games(*args: object, **kwargs: object) -> None:
        raise AssertionError("a game was played before --html was checked")

    monkeypatch.setattr(cli_diff, "simulate", no_games)
    monkeypatch.chdir(tmp_path)
    a, b = str(VARIANTS / "fdc-5p.yaml"), str(VARIANTS / "fdc-5p-no-neko.yaml")
    mine = tmp_path / "mine.html"
    mine.write_text("<p>mine</p>")
    for target, says in (
        (mine, "left alone"),
        (tmp_path / "no" / "d.html", "there is no folder"),
        (tmp_path, "is a directory"),  # click says it
    ):
        assert main(["diff", "-q", a, b, "--html", str(target)]) == 2
        assert says in one_error_line(capsys)
    assert mine.read_text() == "<p>mine</p>" and not (tmp_path / "reports").exists()


def test_a_bot_name_cannot_rewrite_the_terminal() -> None:
    from tests.unit.test_diff import in_memory, make_games

    hostile = "evil\x1b[2J\u202ebot"
    a = make_games(60, noise_seed=1, deal_seed=1, labels=(hostile, "random"))
    b = make_games(60, noise_seed=2, deal_seed=1, labels=("random", "careful"))
    text = render(compare(in_memory(a, 5), in_memory(b, 5)), "table")
    assert "\x1b" not in text and "\u202e" not in text
    assert "evil\\x1b[2J\\u202ebot" in text
