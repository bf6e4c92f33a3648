"""The decision share: of the seats' turns, those that offered more than one legal move.

Worked out by hand on a seesaw (tests/cli/test_trace.py's): two seats, twelve copies of
one card kind, a hand of six. Every trick both seats play a token (one kind in hand:
one legal move, a forced turn), both are cancelled, and in SEESAW_CHOICE each cancelled
token's owner then chooses between two options (two ways: a choice). So every game has
6 tricks × (2 plays + 2 choices) = 24 turns, 12 of them choices: a share of exactly 1/2.
In the plain SEESAW nothing is chosen: 12 turns, none a choice. Both worked out whatever
the deal and the bots, on every path.
"""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pytest

from balancer.cli import main
from balancer.sim import runner
from tests.helpers import write_file

SEESAW = """\
name: seesaw-{name}
short: ss{name}
players: [2, 2]
deck: {{colours: [red], roles: [token], numbers: [1, 1], copies: 12}}
hand_size: 6
trick:
  leader_if_nothing_resolves: next
counters:
  position: {{start: 0, min: 0, max: 1000}}
roles:
  token:
    resolve: [{{add: {{counter: position, by: 1}}}}]
    on_cancelled: [{cancelled}]
hooks:
  on_trick_end: [{{catch_up: {{counter: position, target: trick_leader, offset: -1}}}}]
score:
  - {{counter: position}}
win: highest
"""
ADD = "{add: {counter: position, by: 1}}"
CHOOSE = f"{{choose: [{ADD}, {ADD}]}}"


def _variant(folder: Path, name: str, cancelled: str, seats: str = "[random, random]") -> Path:
    write_file(folder, SEESAW.format(name=name, cancelled=cancelled), f"{name}.yaml")
    text = f"game: {name}.yaml\nplayers: 2\nseats: {seats}\ngames: 12\nseed: 5\n"
    return write_file(folder, text, f"{name}-2p.yaml")


def _run(variant: Path, out: Path) -> dict[str, object]:
    assert main(["run", "-q", "-w", "1", str(variant), "-o", str(out)]) == 0
    block: dict[str, object] = json.loads((out / "report.json").read_text(encoding="utf-8"))[
        "how_it_plays"
    ]
    return block


def _counted(folder: Path) -> tuple[set[int], set[int], float]:
    """A run's turns and choices (each a set over its games) and its decision share."""
    share = json.loads((folder / "report.json").read_text(encoding="utf-8"))["how_it_plays"][
        "decision_share"
    ]["mean"]
    games = pl.read_parquet(folder / "games.parquet")
    return set(games["turns"].to_list()), set(games["choices"].to_list()), share


@pytest.mark.parametrize("check", ["0", "1"], ids=["compiled", "engine"])
def test_the_seesaws_turns_and_choices_as_worked_out(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, check: str
) -> None:
    monkeypatch.setenv(runner.CHECK_ENV, check)
    _run(_variant(tmp_path, f"choice{check}", CHOOSE), tmp_path / "choice")
    assert _counted(tmp_path / "choice") == ({24}, {12}, 0.5)
    # The control: nothing chosen, no choice counted (a loop counting every play, or
    # every turn, as a choice would not give 0).
    _run(_variant(tmp_path, f"plain{check}", ADD), tmp_path / "plain")
    assert _counted(tmp_path / "plain") == ({12}, {0}, 0.0)
    summary = (tmp_path / "choice" / "summary.md").read_text(encoding="utf-8")
    assert "Decisions" in summary and "50%" in summary


def test_a_plugin_seat_counts_its_turns_as_a_compiled_one(tmp_path: Path) -> None:
    variant = _variant(tmp_path, "plugin", CHOOSE, "[tests.plugins:RandomLike, random]")
    share = _run(variant, tmp_path / "r")["decision_share"]
    assert isinstance(share, dict) and (share["mean"], share["se"], share["n"]) == (0.5, 0.0, 12)
    games = pl.read_parquet(tmp_path / "r" / "games.parquet")
    assert games["choices"].to_list() == [12] * 12


def test_expect_and_diff_read_the_decision_share(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    chosen, plain = _variant(tmp_path, "ec", CHOOSE), _variant(tmp_path, "ep", ADD)
    _run(chosen, tmp_path / "c")
    _run(plain, tmp_path / "p")
    capsys.readouterr()
    assert main(["diff", str(tmp_path / "p"), str(tmp_path / "c"), "--format", "csv"]) == 0
    rows = [r for r in capsys.readouterr().out.splitlines() if "decision_share" in r]
    assert len(rows) == 1 and rows[0].startswith("how_it_plays.decision_share.share,")
    # At 40 games a share of exactly 1/2 is surely above 0.25, one of 0 surely below.
    target = "expect:\n  how_it_plays.decision_share.share: {at_least: 0.25}\n"
    good = write_file(tmp_path, f"extends: {chosen}\n{target}", "good.yaml")
    bad = write_file(tmp_path, f"extends: {plain}\n{target}", "bad.yaml")
    assert main(["check", str(good), "-q", "-n", "40"]) == 0
    assert main(["check", str(bad), "-q", "-n", "40"]) == 3
