"""A variant's `plays:` key (config/plays_sample.py): read with `balancer plays`'s defaults,
kept in the resolved variant, and every bad value refused in one line naming file, line and
key, exit 2, before any game is played."""

from __future__ import annotations

from pathlib import Path

import pytest

from balancer.cli import main
from balancer.config.plays_sample import PlaysSample
from balancer.config.variant import load
from tests import plays_games
from tests.helpers import one_error_line

ROOT = Path(__file__).parents[2]


def _with_plays(lines: str, name: str = "with-plays") -> Path:
    """A variant of the hand-made SUM game (tests/plays_games.py) with `lines` appended."""
    folder = plays_games.game_file(plays_games.SUM).parent
    path = folder / f"{name}.yaml"
    path.write_text(
        "game: ./hp-sum.yaml\nplayers: 2\ngames: 4\nseed: 7\nbots: random\n" + lines,
        encoding="utf-8",
    )
    return path


def test_the_defaults_are_the_plays_commands() -> None:
    variant = load(_with_plays("plays:\n"))
    assert variant.plays == PlaysSample(20, 40, 30, 0.1, 0.05)
    # The command's help shows the same defaults (cli/plays.py reads them from here).
    from balancer.cli import plays as command

    assert command.DEFAULT_GAMES == 20 and command.DEFAULT_DEALS == 40


def test_values_given_are_kept_and_written_into_the_resolved_variant() -> None:
    text = "plays: {games: 3, deals: 2, search_budget: 4, margin: 0.2, threshold: 0.1}\n"
    variant = load(_with_plays(text))
    assert variant.plays == PlaysSample(3, 2, 4, 0.2, 0.1)
    assert variant.resolved()["plays"] == {
        "games": 3,
        "deals": 2,
        "search_budget": 4,
        "margin": 0.2,
        "threshold": 0.1,
    }


def test_a_variant_without_the_key_has_none_and_its_resolved_form_is_as_before() -> None:
    variant = load(_with_plays(""))
    assert variant.plays is None
    assert "plays" not in variant.resolved()


@pytest.mark.parametrize(
    ("lines", "key", "said"),
    [
        ("plays: 5\n", "plays", "expected a mapping of games, deals"),
        ("plays: {game: 3}\n", "plays.game", "unknown key (did you mean 'games'?)"),
        ("plays: {games: 0}\n", "plays.games", "must be between 1 and 1000000, got 0"),
        ("plays: {games: 2.5}\n", "plays.games", "expected a whole number, got 2.5"),
        ("plays: {deals: 1}\n", "plays.deals", "at least 2 deals (0: none)"),
        ("plays: {deals: -2}\n", "plays.deals", "must be between 0 and 1000000"),
        ("plays: {search_budget: 1}\n", "plays.search_budget", "0 (no search) or at least 2"),
        ("plays: {margin: 1}\n", "plays.margin", "must be at least 0, below 1, got 1"),
        ("plays: {margin: x}\n", "plays.margin", "expected a number between 0 and 1, got 'x'"),
        ("plays: {threshold: 0}\n", "plays.threshold", "must be above 0, below 1, got 0"),
        ("plays: {threshold: true}\n", "plays.threshold", "expected a number between 0 and 1"),
    ],
)
def test_a_bad_value_is_one_line_naming_file_line_and_key(
    lines: str, key: str, said: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = _with_plays(lines, "bad-plays")
    assert main(["run", "-q", str(path), "--out", str(tmp_path / "out")]) == 2
    line = one_error_line(capsys)
    assert f"{path}:6" in line and key in line and said in line, line
    assert not (tmp_path / "out").exists()  # refused before any game was played


def test_duplicate_play_with_one_player_is_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "kk-1p-plays.yaml"
    base = ROOT / "balancer" / "variants" / "kk-base.yaml"
    path.write_text(
        f"extends: {base}\nplayers: 1\nbots: expected\nplays: {{deals: 2}}\n", encoding="utf-8"
    )
    assert main(["validate", str(path)]) == 2
    line = one_error_line(capsys)
    assert f"{path}:4" in line and "plays.deals" in line and "at least 2 players" in line
