"""A game file's deck numbers the wrong way round, `numbers: [5, 2]` (low above high), is
refused: one line naming the file, the line and `deck.numbers`, exit 2, no report."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from balancer.cli import cli
from balancer.games.roles import check_file, gamefile

NUMBERS_LINE = "  numbers: [1, 6]"


def racer_with_numbers(tmp_path: Path, numbers: str) -> tuple[Path, int]:
    """MEGA RACER with its deck's numbers replaced; the file and the numbers' line."""
    text = gamefile.shipped_path("mega-racer").read_text(encoding="utf-8")  # type: ignore[union-attr]
    lines = text.splitlines()
    at = lines.index(NUMBERS_LINE)
    lines[at] = f"  numbers: {numbers}"
    # A name of its own: a copy keeping MEGA RACER's is refused for that (gamefile edges).
    lines[lines.index("name: mega-racer")] = "name: numbered-racer"
    lines[lines.index("short: mr")] = "short: numr"
    path = tmp_path / "racer.yaml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path, at + 1


def test_low_above_high_is_the_one_problem(tmp_path: Path) -> None:
    path, line = racer_with_numbers(tmp_path, "[5, 2]")
    game, problems = check_file(path)
    assert game is None
    assert [(p.line, p.key) for p in problems] == [(line, "deck.numbers")]
    assert "low <= high" in problems[0].message and "[5, 2]" in problems[0].message


@pytest.mark.parametrize("numbers", ["[2, 7]", "[0, 5]"])
def test_the_control_low_up_to_high_is_a_deck(tmp_path: Path, numbers: str) -> None:
    """The control: the same file with other numbers in order (enough cards to deal six
    hands of 5) is valid, so
    the refusal above is of the order, not of the file."""
    path, _ = racer_with_numbers(tmp_path, numbers)
    game, problems = check_file(path)
    assert problems == [] and game is not None


def test_validate_and_run_refuse_it_in_one_line_exit_2(tmp_path: Path) -> None:
    path, line = racer_with_numbers(tmp_path, "[5, 2]")
    result = CliRunner().invoke(cli, ["validate", str(path)])
    assert result.exit_code == 2 and "Traceback" not in result.stderr
    assert result.stderr.strip().splitlines() == [
        f"balancer: error: {path}:{line}: deck.numbers: "
        "expected [low, high], 0 <= low <= high <= 1000000000, got [5, 2]"
    ]
    variant = tmp_path / "v.yaml"
    variant.write_text("game: ./racer.yaml\nplayers: 3\nbots: random\n", encoding="utf-8")
    out = tmp_path / "out"
    result = CliRunner().invoke(cli, ["run", "-q", "-w", "1", str(variant), "-o", str(out)])
    assert result.exit_code == 2 and len(result.stderr.strip().splitlines()) == 1
    assert f"{path}:{line}: deck.numbers" in result.stderr
    assert not out.exists()


def test_a_number_past_the_limit_is_refused_naming_the_limit(tmp_path: Path) -> None:
    """A high end past 10^9 (each number must stay an exact float when summed) is refused
    in one line that says how high a number may go, not only that it is not [low, high]."""
    path, line = racer_with_numbers(tmp_path, "[1, 1000000001]")
    result = CliRunner().invoke(cli, ["validate", str(path)])
    assert result.exit_code == 2
    assert result.stderr.strip().splitlines() == [
        f"balancer: error: {path}:{line}: deck.numbers: "
        "expected [low, high], 0 <= low <= high <= 1000000000, got [1, 1000000001]"
    ]
