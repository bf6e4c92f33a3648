"""A report of a designer's game file, read after the file changed, went, or became
something no reader may open (issue 36): every command reads the copy the report kept,
or says in one line why not, and summary.md shows the file's words as written.

Each command runs in a process of its own, as a designer runs it: one that never read
the game file, so the report alone must give it its game. A timeout on each is a guard
against a hang (a FIFO opened), never a measure of speed.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from balancer import games
from balancer.analysis import diff_render
from balancer.analysis.diff_render import HEADER_CHARS
from balancer.cli import main
from balancer.games.roles import gamefile
from tests.helpers import SAFETY_TIMEOUT, balancer_command, subprocess_env

# Markdown and HTML in an event's meaning: summary.md must show them, not act on them.
MARKUP = "a <b>block</b> **card** [x](http://e.com) resolved"


def balancer(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        balancer_command(*args),
        cwd=cwd,
        env=subprocess_env(),
        capture_output=True,
        text=True,
        timeout=SAFETY_TIMEOUT,
        check=False,
    )


def race_file() -> str:
    """MEGA RACER under a name of its own, one event's meaning full of markup."""
    text = gamefile.shipped_path("mega-racer").read_text(encoding="utf-8")  # type: ignore[union-attr]
    for old, new in (
        ("name: mega-racer", "name: kept-racer"),
        ("short: mr", "short: kr"),
        ("meaning: a block card resolved", f'meaning: "{MARKUP}"'),
    ):
        assert old in text
        text = text.replace(old, new)
    return text


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder with the game file, a variant on it, and its report `r` of 60 games."""
    folder = tmp_path_factory.mktemp("kept")
    (folder / "race.yaml").write_text(race_file(), encoding="utf-8")
    (folder / "v.yaml").write_text("game: ./race.yaml\nplayers: 3\nbots: random\ngames: 60\n")
    done = balancer("run", "-q", "v.yaml", "-o", "r", cwd=folder)
    assert done.returncode == 0, done.stderr
    return folder


@pytest.fixture()
def gone(played: Path, tmp_path: Path) -> Iterator[Path]:
    """`played`'s report with its game file moved away (put back after the test)."""
    aside = tmp_path / "race.yaml"
    shutil.move(played / "race.yaml", aside)
    try:
        yield played / "r"
    finally:
        shutil.move(aside, played / "race.yaml")


def test_summary_md_shows_a_game_files_words_as_written(played: Path) -> None:
    summary = (played / "r" / "summary.md").read_text(encoding="utf-8")
    assert "<b>" not in summary and "**card**" not in summary and "[x](" not in summary
    assert r"a \<b\>block\</b\> \*\*card\*\* \[x\](http://e.com) resolved" in summary
    # The control: the words are there, and an identifier's own underscores left alone.
    assert "| neko_ni_koban |" in summary and "cards_cancelled" in summary


def test_csv_writes_cards_and_roles_from_the_kept_copy_when_the_file_is_gone(
    gone: Path, tmp_path: Path
) -> None:
    done = balancer("csv", str(gone), "-o", str(tmp_path / "out"), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "not written" not in done.stderr
    for name in ("cards.csv", "roles.csv"):
        assert (tmp_path / "out" / name).read_bytes() == (gone / name).read_bytes()


def test_cards_and_diff_read_the_kept_copy_when_the_file_is_gone(
    gone: Path, tmp_path: Path
) -> None:
    copy = tmp_path / "copy"
    shutil.copytree(gone, copy)  # cards rewrites its report's cards.csv: on a copy
    done = balancer("cards", str(copy), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "By role" in done.stdout and "speed" in done.stdout
    done = balancer("diff", str(gone), str(copy), cwd=tmp_path)
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize("command", ["csv", "cards", "diff", "replay"])
@pytest.mark.parametrize("what", ["fifo", "folder", "loop", "zero"])
def test_a_report_whose_game_file_is_no_file_is_one_line(
    played: Path, tmp_path: Path, command: str, what: str
) -> None:
    """Where the game file was: a FIFO (an open would hang), a folder, a loop of links,
    /dev/zero (a read would never end). One line, exit 2, the file left as it is."""
    folder = tmp_path / "f"
    folder.mkdir()
    shutil.copytree(played / "r", folder / "r")
    race = folder / "race.yaml"
    document = json.loads((folder / "r" / "report.json").read_text(encoding="utf-8"))
    document["game_file"]["path"] = document["variant"]["game"] = str(race)
    (folder / "r" / "report.json").write_text(json.dumps(document), encoding="utf-8")
    if what == "fifo":
        os.mkfifo(race)
    elif what == "folder":
        race.mkdir()
    elif what == "loop":
        race.symlink_to(race)
    else:
        race.symlink_to("/dev/zero")
    args = {
        "csv": ["csv", "r", "-o", "out"],
        "cards": ["cards", "r"],
        "diff": ["diff", "r", "r"],
        "replay": ["replay", "r", "-g", "0"],
    }[command]
    done = balancer(*args, cwd=folder)
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in done.stderr, done.stderr
    assert "r/report.json: game_file.path: " in lines[0], lines[0]
    assert not (folder / "out").exists()


@pytest.mark.parametrize("command", ["knobs", "events", "validate"])
@pytest.mark.parametrize("what", ["fifo", "folder", "loop", "zero"])
def test_a_game_file_path_that_is_no_file_is_one_line(
    tmp_path: Path, command: str, what: str
) -> None:
    race = tmp_path / "race.yaml"
    if what == "fifo":
        os.mkfifo(race)
    elif what == "folder":
        race.mkdir()
    elif what == "loop":
        race.symlink_to(race)
    else:
        race.symlink_to("/dev/zero")
    done = balancer(command, "./race.yaml", cwd=tmp_path)
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in done.stderr, done.stderr
    assert lines[0].startswith("balancer: error: ") and "race.yaml: " in lines[0], lines[0]


def test_a_kept_copy_that_is_not_a_mapping_is_one_line(played: Path, tmp_path: Path) -> None:
    shutil.copytree(played / "r", tmp_path / "r")
    document = json.loads((tmp_path / "r" / "report.json").read_text(encoding="utf-8"))
    document["game_file"]["content"] = ["name", "short"]
    (tmp_path / "r" / "report.json").write_text(json.dumps(document), encoding="utf-8")
    done = balancer("diff", str(played / "r"), "r", cwd=tmp_path)
    assert done.returncode == 2, done.stderr
    assert done.stderr.strip().splitlines() == [
        "balancer: error: r/report.json: game_file.content: the kept copy of the game file "
        "should be a mapping of its keys, not ['name', 'short']"
    ]


def test_diff_wraps_no_line_longer_than_its_cut_however_long_a_kept_value(
    played: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two kept copies whose one value differs, 3 MB of it on each side: wrapping a word
    is quadratic in its length, so the work is counted by the longest line wrapped."""
    sides = []
    for side, letter in (("a", "y"), ("b", "z")):
        shutil.copytree(played / "r", tmp_path / side)
        path = tmp_path / side / "report.json"
        document = json.loads(path.read_text(encoding="utf-8"))
        document["game_file"]["content"]["events"]["blocks"]["meaning"] = letter * 3_000_000
        path.write_text(json.dumps(document), encoding="utf-8")
        sides.append(str(tmp_path / side))
    wrapped: list[int] = []
    wrap = diff_render._wrapped

    def counted(text: str, *args: object, **kwargs: object) -> list[str]:
        wrapped.append(len(text))
        return wrap(text, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(diff_render, "_wrapped", counted)
    try:
        assert main(["diff", *sides]) == 0
    finally:
        if games.registered("kept-racer"):
            games.unregister("kept-racer")
    # The control: the value's line was there to wrap, cut to its ends.
    assert HEADER_CHARS // 2 < max(wrapped) <= HEADER_CHARS + 100, wrapped
