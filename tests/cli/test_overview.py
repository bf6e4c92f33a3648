"""reports/index.html: every run, sweep and diff written into reports/, newest first."""

from __future__ import annotations

import html
import json
import os
from html.parser import HTMLParser
from pathlib import Path

import pytest

from balancer.analysis import overview
from balancer.cli import main
from tests.helpers import VARIANTS

pytestmark = pytest.mark.usefixtures("engine_unchecked")


class Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.hrefs: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "a":
            self.hrefs.append(dict(attrs)["href"] or "")


def test_every_command_writing_into_reports_lists_itself_newest_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["run", "-q", str(VARIANTS / "fdc-3p.yaml"), "-n", "10"]) == 0
    index = tmp_path / "reports" / "index.html"
    assert "fdc-3p" in index.read_text()
    os.utime(tmp_path / "reports/fdc-3p/report.json", (1, 1))  # the run is the oldest
    args = ["sweep", "-q", str(VARIANTS / "fdc-3p.yaml"), "-n", "5", "--set", "hand_size=3,4"]
    assert main(args) == 0
    diff = ["diff", "-q", str(VARIANTS / "fdc-3p.yaml"), str(VARIANTS / "fdc-3p.yaml"), "-n", "5"]
    assert main(diff) == 0
    page = index.read_text()
    links = Links()
    links.feed(page)
    # Newest first: the diff, the sweep, then the run; every link leads to its page.
    # The diff of variant files wrote its own page beside its runs, and the index links it.
    assert links.hrefs == [
        "diff/fdc-3p-vs-fdc-3p/diff.html",
        "fdc-3p-sweep-hand_size/index.html",
        "fdc-3p/report.html",
    ]
    for href in links.hrefs:
        assert (tmp_path / "reports" / href).is_file(), href
    assert "2 points: hand_size=3,4" in page and "seat win shares" in page
    # The diff's headline, from its page: 24 figures and how it plays's 7.
    assert "of 32 figures changed" in page
    # A diff of two report folders has no folder of its own: it writes no page unasked.
    pages = sorted(tmp_path.rglob("diff.html"))
    assert main(["diff", str(tmp_path / "reports/fdc-3p"), str(tmp_path / "reports/fdc-3p")]) == 0
    assert sorted(tmp_path.rglob("diff.html")) == pages


def test_a_users_index_html_is_kept_and_the_overview_written_beside_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "reports").mkdir()
    mine = tmp_path / "reports" / "index.html"
    mine.write_text("<p>my notes</p>\n")
    assert main(["run", "-q", str(VARIANTS / "fdc-3p.yaml"), "-n", "10"]) == 0
    assert mine.read_text() == "<p>my notes</p>\n"
    beside = tmp_path / "reports" / "index.balancer.html"
    assert "fdc-3p/report.html" in beside.read_text()
    assert "reports/index.html was edited (or is not balancer's), so it is kept" in (
        capsys.readouterr().err
    )
    # Outside reports/ nothing is written there at all.
    other = tmp_path / "elsewhere"
    assert main(["run", "-q", str(VARIANTS / "fdc-3p.yaml"), "-n", "10", "-o", str(other)]) == 0
    assert not (tmp_path / "elsewhere.html").exists() and not (other / "index.html").exists()


def test_an_edit_of_balancers_own_index_is_kept_too(tmp_path: Path) -> None:
    reports = tmp_path / "reports"
    (reports / "a-run").mkdir(parents=True)
    (reports / "a-run" / "report.json").write_text('{"game": "fdc"}')
    said: list[str] = []
    index = reports / "index.html"
    # Control: balancer's own page, unedited, is rewritten in place (the check can fail).
    assert overview.refresh(reports, said.append) == index
    (reports / "b-run").mkdir()
    (reports / "b-run" / "report.json").write_text('{"game": "fdc"}')
    assert overview.refresh(reports, said.append) == index and said == []
    assert "b-run/report.html" in index.read_text()
    # Edited by hand (the generator mark still there): kept, the overview goes beside it.
    edited = index.read_text().replace("What has been tried", "What I tried, with notes")
    index.write_text(edited)
    beside = reports / overview.BESIDE
    assert overview.refresh(reports, said.append) == beside
    assert index.read_text() == edited and "b-run/report.html" in beside.read_text()
    assert len(said) == 1 and str(beside) in said[0]
    # The user's page deleted: the overview is index.html again.
    index.unlink()
    assert overview.refresh(reports, said.append) == index


def hand_made_reports(reports: Path) -> None:
    """One folder of each kind, each file written by hand, each made at a known time."""
    ladder = reports / "lad"
    ladder.mkdir(parents=True)
    (ladder / "ladder.csv").write_text(
        "kind,bot,win_share,win_share.ci95_low,win_share.ci95_high,seat_games\n"
        "bot,heuristic,0.412,0.398,0.426,1800\n"
        "bot,random,0.255,0.241,0.269,1800\n"
        "skill_gap,heuristic - random,0.157,0.13,0.18,\n"
    )
    tune = reports / "tn"
    tune.mkdir()
    (tune / "tune.csv").write_text(
        "rounds,games,reused_games,last_round,estimate,estimate.ci95_low,estimate.ci95_high,"
        "best,not_ruled_out\n"
        "6,400,0,2,6.52,6.31,6.73,False,False\n"
        "7,400,0,2,7.04,6.81,7.27,True,True\n"
    )
    diff = reports / "diff" / "a-vs-b"
    diff.mkdir(parents=True)
    (diff / "diff.html").write_text(
        '<!DOCTYPE html><html><head><meta name="generator" content="balancer diff">'
        '<meta name="description" content="1 of 9 figures changed (margin.mean), 2 equivalent">'
        "</head></html>"
    )
    run = reports / "fdc-3p"
    run.mkdir()
    seats = [
        {"win_share": 0.199, "win_ci95": [0.17, 0.23]},
        {"win_share": 0.301, "win_ci95": [0.27, 0.33]},
        {"win_share": 0.5, "win_ci95": [0.47, 0.53]},
    ]
    document = {"game": "fish-dash-cash", "players": 3, "games": 1000, "seats": seats,
                "seat_advantage": {"p_value": 0.0123}, "variant": {"name": "fdc-3p"}}  # fmt: skip
    (run / "report.json").write_text(json.dumps(document))
    damaged = reports / "damaged"
    damaged.mkdir()
    (damaged / "report.json").write_text('{"game": "fdc", "players": 3, "games": 9, "seats": [1]}')
    for when, path in enumerate(
        (ladder / "ladder.csv", tune / "tune.csv", diff / "diff.html", run / "report.json"),
        start=1,
    ):
        os.utime(path, (when * 86400.0, when * 86400.0))  # 1970-01-02, -03, -04 00:00 UTC


def test_every_row_has_a_headline_and_when_it_was_made(tmp_path: Path) -> None:
    reports = tmp_path / "reports"
    hand_made_reports(reports)
    found = {e.kind: e for e in overview.entries(reports)}
    # Worked by hand (numbers.py's rule): the best bot's interval is 2.8 points wide, a
    # leading 2, so two digits of it: tenths of a percent; the tune's best candidate's is
    # 0.46 wide, a leading 4, so one digit: tenths.
    assert found["ladder"].headline == "2 bots; best heuristic, win share 41.2% [39.8%, 42.6%]"
    assert found["tune"].headline == "2 candidates; best rounds=7: 7.0 [6.8, 7.3]"
    assert found["diff"].headline == "1 of 9 figures changed (margin.mean), 2 equivalent"
    assert found["diff"].link == "diff/a-vs-b/diff.html"
    # Every interval 6 points wide: whole percents, as report.html's seat table has them.
    run = next(e for e in overview.entries(reports) if e.name == "fdc-3p")
    assert run.headline == (
        "fish-dash-cash, 3 players, 1,000 games; seat win shares 20%–50%; seat advantage p = 0.012"
    )
    # A damaged report.json gives what it can, never a traceback after a command succeeded.
    damaged = next(e for e in overview.entries(reports) if e.name == "damaged")
    assert damaged.headline == "fdc, 3 players, 9 games"
    page = overview.render(overview.entries(reports))
    made = (("lad", "02"), ("tn", "03"), ("a-vs-b", "04"), ("fdc-3p", "05"))
    for entry, (name, day) in zip(overview.entries(reports)[1:], reversed(made), strict=True):
        row = next(r for r in page.split("<tr>") if f">{name}</a>" in r)
        assert entry.name == name  # newest first, the damaged run (made now) ahead of them
        assert f"1970-01-{day} 00:00 UTC" in row and entry.headline in html.unescape(row)


def test_a_design_search_is_listed_with_its_answer(tmp_path: Path) -> None:
    reports = tmp_path / "reports"
    for name, document in (
        ("mr-design", {"answer": "best", "settings": [{"point": {"goal": 8, "hand_size": 5}}],
                       "trials": [{}, {}, {}]}),
        ("kk-design", {"answer": "front", "settings": [{"point": {}}, {"point": {}}],
                       "trials": [{}]}),
    ):  # fmt: skip
        (reports / name).mkdir(parents=True)
        (reports / name / "design.json").write_text(json.dumps(document))
    found = {e.name: e for e in overview.entries(reports)}
    assert found["mr-design"].kind == "design"
    assert found["mr-design"].headline == "best: goal=8 hand_size=5 (3 trials)"
    assert found["mr-design"].link == "mr-design/design.html"
    assert found["kk-design"].headline == (
        "a front of 2 settings the games can't tell apart (1 trial)"
    )
