"""The new games' shipped variants end to end: run with the lookahead bot, replay in
the game's words, and a bad bot parameter refused in one line before any game."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from balancer.cli import main
from tests.helpers import one_error_line


def test_a_zodiac_variant_runs_with_lookahead_and_replays_its_arrivals(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "zr"
    assert main(["run", "zodiac-race-2p", "-n", "6", "-q", "-w", "1", "-o", str(out)]) == 0
    report = json.loads((out / "report.json").read_text(encoding="utf-8"))
    assert report["game"] == "zodiac-race"
    assert "lookahead" in json.dumps(report["variant"])
    capsys.readouterr()
    told = []
    for index in range(6):
        assert main(["replay", str(out), "-g", str(index)]) == 0
        told.append(capsys.readouterr().out)
    # Some game of six at 2 players has an animal at the gate (the control: the
    # narration's other lines are there in every game).
    assert all("Trick 1: seat" in text for text in told)
    assert any("arrives" in text for text in told)


def test_a_bad_lookahead_parameter_is_one_line_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    variant = tmp_path / "v.yaml"
    variant.write_text(
        "game: mega-racer\nplayers: 2\ngames: 2\n"
        "seats: [{bot: lookahead, params: {samples: 0}}, random]\n",
        encoding="utf-8",
    )
    assert main(["run", str(variant), "-q", "-o", str(tmp_path / "out")]) == 2
    line = one_error_line(capsys)
    assert "samples" in line and "at least 1" in line
    assert not (tmp_path / "out").exists()


def test_diff_compares_a_designers_two_versions_of_a_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # Two game files (the zodiac race and a copy named otherwise, its gate at 18),
    # each under a variant: diff plays both and compares them as one game.
    monkeypatch.chdir(tmp_path)
    assert main(["init", "--from", "zodiac-race", "zr-a.yaml"]) == 0
    assert main(["init", "--from", "zodiac-race", "zr-b.yaml"]) == 0
    b = (tmp_path / "zr-b.yaml").read_text(encoding="utf-8")
    assert "default: 22" in b
    (tmp_path / "zr-b.yaml").write_text(b.replace("default: 22", "default: 18"), encoding="utf-8")
    for side in "ab":
        (tmp_path / f"v{side}.yaml").write_text(
            f"game: ./zr-{side}.yaml\nplayers: 3\ngames: 40\nbots: random\n", encoding="utf-8"
        )
    capsys.readouterr()
    assert main(["diff", "va.yaml", "vb.yaml", "-w", "1", "-q"]) == 0
    out = capsys.readouterr().out
    assert "rules.gate: 22 → 18" in out and "arrivals" in out
    # The control: a game file against a hand-written game is still nothing to compare.
    (tmp_path / "vf.yaml").write_text(
        "game: fish-dash-cash\nplayers: 3\ngames: 40\nbots: random\n", encoding="utf-8"
    )
    assert main(["diff", "va.yaml", "vf.yaml", "-w", "1", "-q"]) == 2
    assert "nothing to compare" in one_error_line(capsys)
