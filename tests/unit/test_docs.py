"""The README stays a README, and no link in it or in docs/ leads nowhere.

The README is the page a designer reads first: at most 250 lines, its
sections in the order a newcomer needs them, a link to every page of docs/.
Measurement diaries (times of day of single runs, load averages) belong
nowhere: a page says how a figure was measured, not when. Every relative
link, with its #anchor, must land on a file and a heading that exist, as
GitHub renders them.
"""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

import pytest

from tests.helpers import ROOT

README = ROOT / "README.md"
PAGES = sorted([README, *(ROOT / "docs").glob("*.md")])

FENCE = re.compile(r"^(```|~~~).*?^\1[^\n]*$", re.MULTILINE | re.DOTALL)
INLINE_CODE = re.compile(r"`[^`\n]*`")
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
HEADING = re.compile(r"^#{1,6}\s+(.*?)\s*#*\s*$", re.MULTILINE)


def _prose(markdown: str) -> str:
    """The text outside fenced code blocks: a `# comment` in a YAML block is no heading."""
    return FENCE.sub("", markdown)


def slug(heading: str) -> str:
    """The anchor GitHub gives a heading: its text, lower case, punctuation dropped, spaces to -."""
    text = re.sub(r"`([^`]*)`", r"\1", heading)
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text).strip().lower()
    kept = "".join(c for c in text if c in " -_" or unicodedata.category(c)[0] in "LNM")
    return kept.replace(" ", "-")


def anchors(markdown: str) -> set[str]:
    """Every heading's anchor; a repeated heading gets -1, -2, ... as on GitHub."""
    seen: dict[str, int] = {}
    found = set()
    for heading in HEADING.findall(_prose(markdown)):
        base = slug(heading)
        count = seen.get(base, 0)
        seen[base] = count + 1
        found.add(base if count == 0 else f"{base}-{count}")
    return found


def relative_links(markdown: str) -> list[str]:
    """Every link target outside code that is not a web address or a mail link."""
    text = INLINE_CODE.sub("", _prose(markdown))
    return [t for t in LINK.findall(text) if not re.match(r"[a-z][a-z0-9+.-]*:", t)]


def broken_links(page: Path) -> list[str]:
    """The links of `page` whose file or #anchor does not exist, each as written."""
    broken = []
    for target in relative_links(page.read_text(encoding="utf-8")):
        path_part, _, anchor = target.partition("#")
        file = (page.parent / path_part).resolve() if path_part else page
        missing_file = not file.exists()
        anchored = bool(anchor) and not missing_file and file.suffix == ".md"
        if missing_file or (anchored and anchor not in anchors(file.read_text("utf-8"))):
            broken.append(target)
    return broken


def test_the_link_check_finds_a_missing_file_and_a_missing_anchor(tmp_path: Path) -> None:
    # Control: the check below can fail. Worked out by hand: other.md exists
    # with the heading "Fish! Dash! Cash! (`fdc`)", whose anchor is fish-dash-cash-fdc.
    (tmp_path / "other.md").write_text("# Fish! Dash! Cash! (`fdc`)\n\n## Seats\n", "utf-8")
    page = tmp_path / "page.md"
    page.write_text(
        "# Top\n"
        "[good](other.md) [good anchor](other.md#fish-dash-cash-fdc) [here](#top)\n"
        "[no file](missing.md) [no anchor](other.md#seat) [no local anchor](#bottom)\n"
        "[web](https://example.com/x.md) `[in code](nowhere.md)`\n"
        "```\n[in a block](nowhere.md)\n```\n",
        "utf-8",
    )
    assert broken_links(page) == ["missing.md", "other.md#seat", "#bottom"]


def test_github_anchors_of_headings_worked_out_by_hand() -> None:
    assert slug("2. キメキメラ Kimekimera (`kimekimera`, short `kk`)") == (
        "2-キメキメラ-kimekimera-kimekimera-short-kk"
    )
    assert slug("Where a run's time goes") == "where-a-runs-time-goes"
    assert anchors("# A\n## A\n```\n# not a heading\n```\n") == {"a", "a-1"}


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_every_relative_link_resolves(page: Path) -> None:
    assert broken_links(page) == [], f"{page.relative_to(ROOT)}: broken links"


def test_the_readme_is_at_most_250_lines() -> None:
    lines = README.read_text(encoding="utf-8").count("\n")
    assert lines <= 250, f"README.md has {lines} lines: move detail into docs/"


def test_the_readme_sections_come_in_a_newcomers_order() -> None:
    headings = HEADING.findall(_prose(README.read_text(encoding="utf-8")))
    wanted = [
        "What balancer does",
        "Getting started",
        "Commands",
        "Variant files",
        "The report folder",
        "The library",
        "Where to read more",
    ]
    level_two = [h for h in headings if h in wanted]
    assert level_two == wanted


def test_the_readme_links_every_docs_page() -> None:
    linked = {
        (ROOT / target.partition("#")[0]).resolve()
        for target in relative_links(README.read_text(encoding="utf-8"))
    }
    for page in (ROOT / "docs").glob("*.md"):
        assert page.resolve() in linked, f"README.md does not link docs/{page.name}"


# A time of day ("06:49 UTC", "06:49–06:58"), a load average, a dated run: a lab notebook's marks.
DIARY = re.compile(r"\b\d{1,2}:\d{2}\b|load average|\b20\d\d-\d\d-\d\d\b", re.IGNORECASE)


def diary_marks(markdown: str) -> list[str]:
    return DIARY.findall(markdown)


def test_the_diary_check_finds_a_timestamp_and_a_load_average() -> None:
    # Control: a sentence from the old README's speed section is caught, a plain figure is not.
    old = "Measured on 2026-12-02 06:49–06:58 UTC (load average 0.5 at the start)"
    assert diary_marks(old) == ["2026-12-02", "06:49", "06:58", "load average"]
    assert diary_marks("fdc random 47× the straightforward implementation, 1:1 odds") == []


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_no_page_keeps_a_measurement_diary(page: Path) -> None:
    assert diary_marks(page.read_text(encoding="utf-8")) == [], page.name
