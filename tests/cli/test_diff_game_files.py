"""`diff` of two game files: two versions of a designer's game compare, and the header
says what changed between the files; a report keeps the game file it was played from."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

import balancer
from balancer import games
from balancer.analysis.diff_setup import Change, game_file_changes
from balancer.cli import main

SHIPPED_RACE = Path(balancer.__file__).parent / "games" / "roles" / "shipped" / "mega-racer.yaml"
CREEP = "    - add: {counter: position, by: 1}\n"  # block's second effect in mega-racer


@pytest.fixture
def two_races(tmp_path: Path) -> Iterator[tuple[Path, Path]]:
    """Two variants of two game files that differ in one number: block creeps 1 or 2."""
    text = SHIPPED_RACE.read_text(encoding="utf-8")
    assert text.count(CREEP) == 1
    variants = []
    for name, creep in (("creep-one", 1), ("creep-two", 2)):
        own = text.replace("name: mega-racer", f"name: {name}")
        own = own.replace("short: mr", f"short: {name}").replace(
            CREEP, CREEP.replace("1", str(creep))
        )
        (tmp_path / f"{name}.yaml").write_text(own, encoding="utf-8")
        variant = tmp_path / f"v-{name}.yaml"
        variant.write_text(f"game: ./{name}.yaml\nplayers: 3\nbots: random\ngames: 300\nseed: 4\n")
        variants.append(variant)
    yield variants[0], variants[1]
    for name in ("creep-one", "creep-two"):
        if games.registered(name):
            games.unregister(name)


def test_two_game_files_diff_and_the_header_names_the_one_change(
    two_races: tuple[Path, Path],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(tmp_path)
    a, b = two_races
    assert main(["diff", str(a), str(b), "--format", "json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["setup"]["game_file"] == [{"what": "roles.block[1].add.by", "a": "1", "b": "2"}]
    assert document["setup"]["knobs"] == []
    # The change is real: a block that creeps twice as far lengthens no race but
    # moves every machine further (the seats' mean scores all rise).
    scores = [r for r in document["rows"] if r["figure"].startswith("seat_score_mean.")]
    assert scores and all(r["b"] > r["a"] for r in scores)


def test_a_report_keeps_the_game_file_it_was_played_from(
    two_races: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a, _ = two_races
    assert main(["run", "-q", str(a), "-o", str(tmp_path / "before")]) == 0
    game_file = tmp_path / "creep-one.yaml"
    game_file.write_text(game_file.read_text().replace(CREEP, CREEP.replace("1", "3")))
    assert main(["run", "-q", str(a), "-o", str(tmp_path / "after")]) == 0
    capsys.readouterr()
    kept = json.loads((tmp_path / "before" / "report.json").read_text())["game_file"]
    assert kept["path"] == str(game_file.resolve())
    assert kept["content"]["roles"]["block"][1] == {"add": {"counter": "position", "by": 1}}
    # The same variant file, played before and after the edit: the diff says what the
    # edit was, read from the two reports (the file itself now holds only the second).
    assert main(["diff", str(tmp_path / "before"), str(tmp_path / "after")]) == 0
    out = capsys.readouterr().out
    assert "game file changes (1):\n  roles.block[1].add.by: 1 → 3\n" in out


def test_a_game_file_and_a_hand_written_game_have_nothing_to_compare(
    two_races: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a, _ = two_races
    fdc = tmp_path / "fdc.yaml"
    fdc.write_text("game: fish-dash-cash\nplayers: 3\nbots: random\ngames: 50\nseed: 4\n")
    assert main(["diff", str(a), str(fdc)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "nothing to compare" in err[0], err


def test_game_file_changes_are_key_paths_a_designer_can_find() -> None:
    a = {
        "name": "race",
        "short": "r",
        "deck": {"copies": 1},
        "knobs": {"goal": {"default": 8, "range": [1, 1000]}},
        "roles": {
            "speed": [{"add": {"counter": "position", "by": "number"}}],
            "block": [{"guard": {"flag": "blocking"}}, {"add": {"by": 1}}],
        },
        "win": "highest",
    }
    b = {
        "name": "race-2",  # the header's game line says so: not a change listed here
        "short": "r2",
        "deck": {"copies": 2},  # a knob's default: the knobs that differ say its value
        "knobs": {"goal": {"default": 5, "range": [1, 50]}},
        "roles": {
            "speed": [{"add": {"counter": "position", "by": "number"}}, {"guard": {"flag": "x"}}],
            "block": [{"guard": {"flag": "blocking"}}, {"add": {"by": 2}}],
            "boost": [{"add": {"by": 3}}],
        },
    }
    assert game_file_changes(a, b) == [
        Change("knobs.goal.range[1]", "1000", "50"),
        Change(
            "roles.speed",
            "[{add: {counter: position, by: number}}]",
            "[{add: {counter: position, by: number}}, {guard: {flag: x}}]",
        ),
        Change("roles.block[1].add.by", "1", "2"),
        Change("roles.boost", "-", "[{add: {by: 3}}]"),
        Change("win", "highest", "-"),
    ]
    assert game_file_changes(a, a) == []


def test_a_report_reads_after_its_game_file_is_gone_and_replay_refuses_an_edited_one(
    two_races: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import subprocess
    import sys

    a, _ = two_races
    report = tmp_path / "r"
    assert main(["run", "-q", str(a), "-n", "40", "-o", str(report)]) == 0
    game_file = tmp_path / "creep-one.yaml"
    original = game_file.read_text()

    def balancer_cli(*args: str) -> subprocess.CompletedProcess[str]:
        # A new process: it knows the game only from the report or the file.
        command = [sys.executable, "-m", "balancer", *args]
        return subprocess.run(command, capture_output=True, text=True, cwd=tmp_path, check=False)

    assert balancer_cli("replay", str(report), "--game", "3").returncode == 0  # control
    game_file.write_text(original.replace(CREEP, CREEP.replace("1", "3")))
    edited = balancer_cli("replay", str(report), "--game", "3")
    assert edited.returncode == 2
    assert edited.stderr.count("\n") == 1 and "changed since the run" in edited.stderr
    assert "roles.block[1].add.by: 1 → 3" in edited.stderr
    game_file.unlink()
    gone = balancer_cli("csv", str(report))
    assert gone.returncode == 0, gone.stderr  # the report's kept game file reads it
    assert (report / "games.csv").is_file()
