"""`balancer replay` in the language asked for: `--lang`, else the variant's `lang:`,
else $BALANCER_LANG, else English. A role game's play-by-play speaks Japanese, and so do
the lines around it, and the hand-written games' play-by-play (their narrate.py's `ja`
tables); a narration without words in the language asked falls back to English
(tests/unit/test_narrate.py)."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner, Result

from balancer.cli import cli
from tests.helpers import VARIANTS, variant_file

GOLDEN = Path(__file__).parents[1] / "golden" / "mega-racer-4p-vs-random.txt"
MEGA = str(VARIANTS / "mega-racer-4p-vs-random.yaml")
FIRST_TRICK_JA = "トリック 1: 席 0 がリード"


def replay(*args: str, env_lang: str | None = None) -> Result:
    result = CliRunner().invoke(
        cli, ["replay", *args, "--game", "1", "--seed", "2026"], env={"BALANCER_LANG": env_lang}
    )
    assert result.exit_code == 0, result.output
    return result


def test_english_unless_asked_and_as_the_golden_playthrough() -> None:
    assert replay(MEGA).stdout == GOLDEN.read_text()


def test_lang_ja_tells_the_role_game_in_japanese_line_for_line() -> None:
    english = replay(MEGA, "--lang", "en").stdout.splitlines()
    japanese = replay(MEGA, "--lang", "ja").stdout.splitlines()
    assert FIRST_TRICK_JA in japanese and "Trick 1: seat 0 leads" not in japanese
    assert len(japanese) == len(english)
    # The file's names stay its own: mega-racer's `position` counter, `blocking` flag.
    assert "  席 0: 席 0 の position 0 → 6" in japanese
    assert "  席 1 が席 1 に blocking を付ける" in japanese


def test_the_variant_lang_and_the_environment_choose_and_the_flag_wins(
    tmp_path: Path,
) -> None:
    in_japanese = variant_file(tmp_path, "mega-racer-4p-vs-random.yaml", "lang: ja\n")
    assert FIRST_TRICK_JA in replay(str(in_japanese)).stdout
    assert FIRST_TRICK_JA in replay(MEGA, env_lang="ja").stdout
    assert FIRST_TRICK_JA not in replay(MEGA, "--lang", "en", env_lang="ja").stdout


def test_the_lines_around_the_play_by_play_are_japanese_too() -> None:
    """Game 1 of seed 2026 (the golden's): 5 tricks, seat 3 wins with 8; its title and
    events in the file's Japanese words, its counts and shares as in English."""
    told = replay(MEGA, "--lang", "ja").stdout.splitlines()
    assert told[:2] == [
        "mega-racer-4p-vs-random: シード 2026 のゲーム 1（MEGA RACER）",
        "席: 0=random、1=random、2=random、3=lookahead",
    ]
    assert told[4].startswith("[席 0 だけ]   席 0 の手札: ")  # seen by seat 0 only
    assert told[-4:] == [
        "長さ: 5 トリック",
        "得点: 席 0 6、席 1 2、席 2 0、席 3 8",
        "勝率: 席 0 0、席 1 0、席 2 0、席 3 1",
        "イベント: 猫に小判 1、処理されず捨て札 10、スピード 5、アクシデント 3、ブロック 2、"
        "トップの交代 3",
    ]


def test_a_seat_sees_its_own_hand_in_japanese_and_no_other() -> None:
    seen = replay(MEGA, "--lang", "ja", "--seat", "2").stdout
    assert "（席 2 から見えたものだけ）" in seen.splitlines()
    assert "席 2 の手札" in seen  # the control: what it may see is there
    assert "席 0 の手札" not in seen and "席 3 の手札" not in seen
    assert "だけ]" not in seen  # no line marked as another seat's


def test_a_hand_written_game_is_told_in_japanese_too() -> None:
    fdc = str(VARIANTS / "fdc-5p-vs-random.yaml")
    told = replay(fdc, "--lang", "ja").stdout
    assert "トリック 1: 席" in told and "Trick 1: seat" not in told
    assert "Trick 1: seat" in replay(fdc, "--lang", "en").stdout  # the control
