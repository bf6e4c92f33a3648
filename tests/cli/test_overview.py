"""reports/index.html: every run, sweep and diff written into reports/, newest first."""

from __future__ import annotations

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
    assert links.hrefs == [
        "diff/fdc-3p-vs-fdc-3p/a/report.html",
        "fdc-3p-sweep-hand_size/index.html",
        "fdc-3p/report.html",
    ]
    for href in links.hrefs:
        assert (tmp_path / "reports" / href).is_file(), href
    assert "2 points: hand_size=3,4" in page and "seat win shares" in page


def test_a_users_index_html_is_left_alone(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "reports").mkdir()
    mine = tmp_path / "reports" / "index.html"
    mine.write_text("<p>my notes</p>\n")
    assert main(["run", "-q", str(VARIANTS / "fdc-3p.yaml"), "-n", "10"]) == 0
    assert mine.read_text() == "<p>my notes</p>\n"
    assert overview.refresh(tmp_path / "reports") is None
    # Outside reports/ nothing is written there at all.
    other = tmp_path / "elsewhere"
    assert main(["run", "-q", str(VARIANTS / "fdc-3p.yaml"), "-n", "10", "-o", str(other)]) == 0
    assert not (tmp_path / "elsewhere.html").exists() and not (other / "index.html").exists()
