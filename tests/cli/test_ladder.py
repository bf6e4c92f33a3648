"""The skill ladder: its design (lineups), its arithmetic on hand-made games, and real runs."""

from __future__ import annotations

import csv
import json
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from balancer.analysis import ladder
from balancer.analysis.plays import Games
from balancer.cli import main
from balancer.sim.runner import CHECK_ENV
from tests.helpers import one_error_line


@pytest.fixture(autouse=True)
def compiled_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    # The suite forces --check (step by step); the ladder's runs here play compiled.
    monkeypatch.delenv(CHECK_ENV, raising=False)


def test_lineups_are_every_seat_assignment_but_one_bot_tables() -> None:
    found = ladder.lineups(["a", "b"], 3)
    # 2^3 = 8 assignments, less aaa and bbb.
    assert len(found) == 6 and ("a", "a", "a") not in found and ("b", "b", "b") not in found
    # Balanced: each bot sits in each seat 3 times of 6.
    for seat in range(3):
        assert Counter(lineup[seat] for lineup in found) == {"a": 3, "b": 3}
    assert len(ladder.lineups(["a", "b", "c"], 4)) == 3**4 - 3


def fake_results(the_plan: ladder.Plan, winner_order: list[str], deals: int) -> list[Games]:
    """Games where, at every table, the bot earliest in `winner_order` wins (its seats split)."""
    out = []
    for lineup in the_plan.lineups:
        best = min(lineup, key=winner_order.index)
        row = np.array([1.0 if b == best else 0.0 for b in lineup])
        row = row / row.sum()
        players = len(lineup)
        out.append(
            Games(
                0,
                np.tile(row, (deals, 1)),
                np.tile(row, (deals, 1)),
                np.tile(np.array(lineup, dtype=str), (deals, 1)),
                np.full(deals, 5.0),
                {},
            )
        )
        assert out[-1].wins.shape == (deals, players)
    return out


def test_a_strict_pecking_order_gives_the_shares_worked_out_by_hand() -> None:
    variant = ladder.game_variant("fdc", 2, seed=1)
    the_plan = ladder.Plan(
        variant, ["a", "b", "random"], ladder.lineups(["a", "b", "random"], 2), 40
    )
    result = ladder.analyse(the_plan, fake_results(the_plan, ["a", "b", "random"], 40))
    # Two seats, lineups ab ba a-random random-a b-random random-b:
    # a wins its 4 seat-games of every deal, b 2 of 4, random none.
    assert result.bots == ["a", "b", "random"]
    assert result.shares["a"].estimate == 1.0
    assert result.shares["b"].estimate == 0.5
    assert result.shares["random"].estimate == 0.0
    assert result.head_to_head["b"]["a"].estimate == 0.0
    assert result.head_to_head["b"]["random"].estimate == 1.0
    assert result.head_to_head["a"]["b"].estimate == 1.0
    # No noise at all: the skill gap is exactly a's 1 − random's 0.
    assert result.best == "a"
    gap = result.skill_gap
    assert gap is not None and (gap.estimate, gap.low, gap.high) == (1.0, 1.0, 1.0)
    assert result.seat_games == {"a": 160, "b": 160, "random": 160}


def test_split_ties_count_as_their_shares() -> None:
    # Three seats, bots x and random: x wins alone where it sits once, and where
    # it holds two seats its two seats tie (1/2 each), so x wins every table.
    variant = ladder.game_variant("fdc", 3, seed=1)
    the_plan = ladder.Plan(variant, ["x", "random"], ladder.lineups(["x", "random"], 3), 30)
    result = ladder.analyse(the_plan, fake_results(the_plan, ["x", "random"], 30))
    # x holds 1+1+1+2+2+2 = 9 seats of the 6 lineups, wins 6 tables: 6/9 per seat-game.
    assert result.shares["x"].estimate == pytest.approx(6 / 9)
    assert result.shares["random"].estimate == 0.0
    assert result.skill_gap is not None
    assert result.skill_gap.estimate == pytest.approx(6 / 9)


def test_unknown_and_plugin_bots_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["ladder", "fdc", "-p", "3", "--bots", "heuristic,smart"]) == 2
    assert "unknown bot 'smart'" in one_error_line(capsys)
    code = main(["ladder", "fdc", "-p", "3", "--bots", "random,tests.plugins:FirstLegal"])
    assert code == 2
    assert "--allow-plugins" in one_error_line(capsys)
    assert main(["ladder", "fdc", "-p", "9"]) == 2
    assert "--players" in one_error_line(capsys)


def test_fdc_ladder_runs_compiled_and_writes_its_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "lad"
    args = ["ladder", "fdc", "-p", "3", "-n", "1200", "-w", "1", "-q", "-s", "7"]
    assert main([*args, "--json", "-o", str(out)]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["lineups"] == 6 and data["deals_per_lineup"] == 200 and data["games"] == 1200
    shares = {b["bot"]: b for b in data["bots"]}
    # Every game hands out one win in all: Σ share × seat-games = games.
    total = sum(b["win_share"]["estimate"] * b["seat_games"] for b in data["bots"])
    assert total == pytest.approx(1200)
    assert shares["heuristic"]["seat_games"] == shares["random"]["seat_games"] == 1800
    gap = data["skill_gap"]
    low, high = gap["ci95"]
    assert gap["best"] == "heuristic" and low <= gap["estimate"] <= high
    assert gap["estimate"] == pytest.approx(
        shares["heuristic"]["win_share"]["estimate"] - shares["random"]["win_share"]["estimate"]
    )
    with open(out / "ladder.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    assert [r["kind"] for r in rows] == ["bot", "bot", "skill_gap"]
    page = (out / "ladder.html").read_text()
    assert "<script" not in page and "http" not in page.replace("http-equiv", "")
    # report.html's look: its stylesheet, its cards; an interval bar per bot on one axis.
    from balancer.report.html import CSS

    assert CSS in page and page.count("<section>") >= 2 and "<main>" in page
    assert page.count('class="ci"') == len(data["bots"])
    # The same seed plays the same games: the same ladder.
    assert main([*args, "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == data


def test_a_users_folder_is_refused_before_any_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "mine"
    out.mkdir()
    (out / "notes.txt").write_text("my notes")
    assert main(["ladder", "dqz", "-p", "4", "-n", "100", "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert "playing" not in err and len(err.strip().splitlines()) == 1
    assert [p.name for p in out.iterdir()] == ["notes.txt"]


def test_a_log_gets_one_start_line(capsys: pytest.CaptureFixture[str]) -> None:
    # Not a terminal: no bar, one line saying the games started (cli/progress.py).
    assert main(["ladder", "dqz", "-p", "4", "-n", "100", "-w", "1"]) == 0
    err = capsys.readouterr().err.strip().splitlines()
    assert err == ["balancer: playing 420 games of ladder da-qi-zi 4p on 1 worker"]


@given(bots=st.integers(2, 4), players=st.integers(2, 5))
def test_every_design_is_balanced(bots: int, players: int) -> None:
    names = [f"b{i}" for i in range(bots)]
    found = ladder.lineups(names, players)
    assert len(found) == bots**players - bots == len(set(found))
    for seat in range(players):
        counts = Counter(lineup[seat] for lineup in found)
        assert set(counts.values()) == {len(found) // bots}
    # Every bot meets every other bot at some table.
    for a in names:
        for b in names:
            assert any(a in lineup and b in lineup for lineup in found)
