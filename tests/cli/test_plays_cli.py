"""`balancer plays`: its table and JSON, and a bad flag refused in one line with exit 2."""

from __future__ import annotations

import json

import pytest

from balancer.cli import main
from tests import plays_games
from tests.helpers import one_error_line


def _sum_variant() -> str:
    return str(plays_games.variant(plays_games.SUM).path)


@pytest.mark.parametrize(
    ("flags", "said"),
    [
        (["--deals", "1"], "--deals: duplicate play needs at least 2 deals (0: none)"),
        (["--search-budget", "1"], "--search-budget: must be 0 (no search) or at least 2 worlds"),
        (["--margin", "1"], "'--margin'"),
        (["--threshold", "0"], "'--threshold'"),
        (["--games", "0"], "'--games'"),
    ],
)
def test_a_bad_flag_is_one_line_and_exit_2(
    flags: list[str], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["plays", "-q", _sum_variant(), *flags]) == 2
    assert said in one_error_line(capsys)


def test_a_missing_variant_is_one_line_and_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["plays", "-q", "no-such-variant.yaml"]) == 2
    assert "no-such-variant.yaml" in one_error_line(capsys)


def test_json_has_every_figure_with_its_interval(capsys: pytest.CaptureFixture[str]) -> None:
    """SUM: 2 choices in 3 turns for each seat, no real decision, the deal decides."""
    argv = ["plays", "-q", _sum_variant(), "-n", "2", "--deals", "2", "--search-budget", "2"]
    assert main([*argv, "--format", "json"]) == 0
    got = json.loads(capsys.readouterr().out)
    every = got["decisions"]["seats"][-1]
    assert every["seat"] == "all" and every["turns"] == 12
    assert every["choice_share"]["estimate"] == pytest.approx(2 / 3)
    assert every["real_decision_share"]["estimate"] == 0.0
    assert got["kingmaking"]["moves"] == 0
    assert got["luck"]["deal_share"]["estimate"] == 1.0
    assert got["luck"]["bots"] == ["search", "lookahead", "random"]
    assert set(got["luck"]["search_over"]) == {"lookahead", "random"}


def test_the_table_in_japanese(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["plays", "-q", _sum_variant(), "-n", "1", "--deals", "0", "--search-budget", "0"]
    assert main([*argv, "--lang", "ja"]) == 0
    out = capsys.readouterr().out
    assert "手番" in out and "66.7%" in out
    assert "search の見積もりなし" in out
    assert "デュプリケート" not in out  # --deals 0: no duplicate play
