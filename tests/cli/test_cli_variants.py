"""validate reports every mistake; knobs output pastes; extends treats a knob as one setting;
an unplayable variant blames the line that made it so."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner, Result

from balancer.cli import cli
from balancer.config import variant
from tests.helpers import VARIANTS, variant_file, write_file

FOUR_MISTAKES = """\
game: fdc
players: 9
seed: x
rules:
  hand_sizee: 3
bots: randomm
"""


def invoke(*args: str) -> Result:
    return CliRunner().invoke(cli, list(args))


def test_validate_reports_every_mistake_of_every_file_one_line_each(tmp_path: Path) -> None:
    bad = write_file(tmp_path, FOUR_MISTAKES, "bad.yaml")
    also = write_file(tmp_path, "game: kk\nplayers: 2\nbots: expected\nrounds: 0\n", "also.yaml")
    good = str(VARIANTS / "fdc-5p.yaml")
    result = invoke("validate", str(bad), good, str(also))
    assert result.exit_code == 2
    games = variant.load(good).games
    assert result.stdout == f"{good}: ok (fish-dash-cash, 5 players, {games} games)\n"
    lines = result.stderr.splitlines()
    assert len(lines) == 5, result.stderr
    assert lines[0] == f"balancer: error: {bad}:2: players: must be between 2 and 6, got 9"
    assert lines[1] == f"balancer: error: {bad}:3: seed: expected a whole number, got 'x'"
    assert f"{bad}:5: rules.hand_sizee: unknown knob" in lines[2] and "'hand_size'" in lines[2]
    assert f"{bad}:6: bots: unknown bot 'randomm'" in lines[3]
    assert f"{also}:4: rounds: must be at least 1" in lines[4]
    assert "Traceback" not in result.stderr


def test_validate_json_lists_each_file_and_each_error(tmp_path: Path) -> None:
    bad = write_file(tmp_path, FOUR_MISTAKES, "bad.yaml")
    good = str(VARIANTS / "kk-4p.yaml")
    result = invoke("validate", "--json", good, str(bad))
    assert result.exit_code == 2 and result.stderr == ""
    first, second = json.loads(result.stdout)
    assert first == {
        "file": good,
        "ok": True,
        "game": "kimekimera",
        "players": 4,
        "games": 2000,
        "warnings": [],
        "errors": [],
    }
    assert second["ok"] is False and "game" not in second
    assert [(e["line"], e["key"]) for e in second["errors"]] == [
        (2, "players"),
        (3, "seed"),
        (5, "rules.hand_sizee"),
        (6, "bots"),
    ]
    assert all(
        e["file"] == str(bad) and e["message"].startswith(f"{bad}:") for e in second["errors"]
    )
    assert json.loads(invoke("validate", "--json", good).stdout)[0]["ok"] is True


def test_validate_of_a_good_file_exits_0() -> None:
    result = invoke("validate", str(VARIANTS / "dqz-4p.yaml"))
    assert result.exit_code == 0 and result.stderr == ""


def test_what_knobs_prints_pastes_into_a_variant_that_extends_a_base(tmp_path: Path) -> None:
    printed = invoke("knobs", "kk").stdout
    line = next(x for x in printed.splitlines() if x.strip().startswith("colour_bonus:"))
    assert line.split("#")[0].strip() == "colour_bonus: {1: 3, 2: 7}"
    # Change the printed values by hand, as a designer would, and paste.
    pasted = line.replace("{1: 3, 2: 7}", "{1: 4, 2: 9}")
    child = variant_file(tmp_path, "kk-base.yaml", f"scoring:\n{pasted}\n")
    assert dict(variant.load(child).rules["colour_bonus"]) == {1: 4, 2: 9}


def test_the_whole_knobs_output_is_a_valid_variant_fragment(tmp_path: Path) -> None:
    for game in ("fdc", "kk", "dqz"):
        printed = invoke("knobs", game).stdout
        path = variant_file(tmp_path, f"{game}-base.yaml", printed, f"{game}.yaml")
        loaded = variant.load(path)
        assert loaded.rules == variant.load(VARIANTS / f"{game}-base.yaml").rules


def test_json_style_string_keys_merge_with_the_parents_number_keys(tmp_path: Path) -> None:
    # The base writes {1: 3, 2: 7}; JSON (and the old knobs output) wrote "1", "2".
    child = variant_file(tmp_path, "kk-base.yaml", 'scoring:\n  colour_bonus: {"1": 4}\n')
    assert dict(variant.load(child).rules["colour_bonus"]) == {1: 4, 2: 7}


def test_a_knob_moves_between_rules_and_scoring_under_extends(tmp_path: Path) -> None:
    # kk-base has rounds under rules: and colour_bonus under scoring:.
    text = "scoring:\n  rounds: 3\nrules:\n  colour_bonus: {1: 1, 2: 2}\n"
    loaded = variant.load(variant_file(tmp_path, "kk-base.yaml", text))
    assert loaded.rules["rounds"] == 3
    assert dict(loaded.rules["colour_bonus"]) == {1: 1, 2: 2}
    # At the top level too, and then a grandchild moves it back.
    write_file(tmp_path, f"extends: {VARIANTS / 'kk-base.yaml'}\nrounds: 2\n", "mid.yaml")
    write_file(tmp_path, "extends: mid.yaml\nrules:\n  rounds: 7\n", "leaf.yaml")
    assert variant.load(tmp_path / "mid.yaml").rules["rounds"] == 2
    assert variant.load(tmp_path / "leaf.yaml").rules["rounds"] == 7


def test_one_file_may_still_not_set_a_knob_twice(tmp_path: Path) -> None:
    text = "scoring:\n  rounds: 3\nrules:\n  rounds: 4\n"
    result = invoke("validate", str(variant_file(tmp_path, "kk-base.yaml", text)))
    assert result.exit_code == 2
    assert "v.yaml:5: rules.rounds: set twice (also at scoring.rounds)" in result.stderr


def test_a_hand_too_big_for_the_deck_is_blamed_on_the_hand_size_line(tmp_path: Path) -> None:
    # fdc-5p sets players: 5 (its line 3); 13 cards × 5 players > 60 cards.
    child = variant_file(tmp_path, "fdc-5p.yaml", "rules:\n  hand_size: 13\n")
    result = invoke("validate", str(child))
    assert result.exit_code == 2
    line = result.stderr.strip()
    assert line.startswith(f"balancer: error: {child}:3: rules.hand_size: can't be played:")
    assert "too few to deal 13 to each of 5 players" in line
    assert f"with players at {VARIANTS / 'fdc-5p.yaml'}:3" in line


def test_too_many_players_for_the_parents_hand_is_blamed_on_players(tmp_path: Path) -> None:
    base = write_file(tmp_path, "game: fdc\nplayers: 2\nbots: random\nhand_size: 12\n", "b.yaml")
    child = write_file(tmp_path, f"extends: {base.name}\nplayers: 6\n", "c.yaml")
    result = invoke("validate", str(child))
    assert result.exit_code == 2
    assert f"{child}:2: players: can't be played" in result.stderr
    assert f"with hand_size at {base}:4" in result.stderr


def test_a_rule_no_player_count_can_fix_is_blamed_on_the_knob(tmp_path: Path) -> None:
    base = write_file(tmp_path, "game: dqz\nplayers: 4\nbots: random\n", "b.yaml")
    child = write_file(tmp_path, "extends: b.yaml\nrules:\n  starting_chips: 3\n  bust_at: 3\n")
    result = invoke("validate", str(child))
    assert result.exit_code == 2
    # Either knob back at its default would do; the later line (bust_at) is blamed.
    assert f"{child}:4: rules.bust_at: can't be played: starting_chips (3)" in result.stderr
    assert f"with rules.starting_chips at {child}:3" in result.stderr
    assert base.exists()
