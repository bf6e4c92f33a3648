"""Variant files: loading, extends, and every kind of mistake as one line, exit 2."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from balancer.cli import cli, main
from balancer.config import variant
from tests.helpers import VARIANTS, one_error_line, write_file

GOOD = """\
game: fish-dash-cash
players: 4
games: 10
seed: 3
bots: random
"""
HUGE = "1" + "0" * 400  # 10**400: past what a float holds


def fails(path: Path, capsys: pytest.CaptureFixture[str]) -> str:
    """Validate through the real entry point; return the one error line."""
    code = main(["validate", str(path)])
    assert code == 2, capsys.readouterr()
    return one_error_line(capsys)


def test_every_shipped_variant_validates() -> None:
    paths = sorted(VARIANTS.glob("*.yaml"))
    assert len(paths) >= 10
    for path in paths:
        v = variant.load(path)
        assert v.players >= 1 and v.games >= 1


def test_extends_merges_and_the_child_wins() -> None:
    face = variant.load(VARIANTS / "fdc-5p-face.yaml")
    assert face.name == "fdc-5p-face"
    assert face.rules["cash_value"] == "face"
    assert face.rules["neko_ni_koban"] is True
    assert face.players == 5
    no_neko = variant.load(VARIANTS / "fdc-5p-no-neko.yaml")
    assert no_neko.rules["neko_ni_koban"] is False
    assert no_neko.rules["cash_value"] == "count"


def test_seats_in_child_replace_bots_in_parent() -> None:
    v = variant.load(VARIANTS / "fdc-5p-vs-random.yaml")
    assert [s.bot for s in v.seats] == ["heuristic", "random", "random", "random", "random"]
    assert v.seat_rotation
    assert [v.bot_slot(seat, 1) for seat in range(5)] == [1, 2, 3, 4, 0]


def test_resolved_variant_lists_every_knob(tmp_path: Path) -> None:
    v = variant.load(write_file(tmp_path, GOOD))
    resolved = v.resolved()
    assert set(resolved["rules"]) == {
        "deck",
        "hand_size",
        "first_leader",
        "neko_ni_koban",
        "neko_min_followers",
        "neko_cancel_duplicates",
        "leader_if_nothing_resolves",
    }
    assert resolved["scoring"] == {"cash_value": "count", "uncashed_value": 0}
    assert resolved["name"] == "v"


def test_a_comeback_margin_is_read_and_kept_only_when_said(tmp_path: Path) -> None:
    said = variant.load(write_file(tmp_path, GOOD + "comeback_margin: 4\n"))
    assert (said.comeback_margin, said.margin) == (4, 4)
    assert said.resolved()["comeback_margin"] == 4
    edge = variant.load(write_file(tmp_path, GOOD + f"comeback_margin: {2**62}\n"))
    assert edge.margin == 2**62
    unsaid = variant.load(write_file(tmp_path, GOOD))
    # Not said: last only (NO_MARGIN), and a report's variant as it always was.
    assert unsaid.comeback_margin is None and unsaid.margin == 2**63 - 1
    assert "comeback_margin" not in unsaid.resolved()


def test_bot_params_from_yaml(tmp_path: Path) -> None:
    text = GOOD.replace("bots: random", "bots: {bot: heuristic, params: {cash_at: 4}}")
    v = variant.load(write_file(tmp_path, text))
    assert v.seats[0].params == {"cash_at": 4}
    assert v.seats[0].label == "heuristic(cash_at=4)"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            GOOD + "rules:\n  neko_ni_kobann: true\n",
            ["v.yaml:7", "rules.neko_ni_kobann", "neko_ni_koban"],
        ),
        (GOOD + "seeed: 4\n", ["v.yaml:6", "seeed", "did you mean 'seed'"]),
        (GOOD.replace("players: 4", "players: four"), ["v.yaml:2", "players", "whole number"]),
        (GOOD.replace("players: 4", "players: 7"), ["v.yaml:2", "players", "between 2 and 6"]),
        (GOOD.replace("games: 10", "games: -5"), ["v.yaml:3", "games"]),
        (GOOD + "scoring:\n  cash_value: double\n", ["v.yaml:7", "scoring.cash_value", "count"]),
        (GOOD + "rules:\n  hand_size: 0\n", ["v.yaml:7", "hand_size", "at least 1"]),
        (GOOD + "rules:\n  neko_ni_koban: maybe\n", ["v.yaml:7", "true or false"]),
        (GOOD.replace("fish-dash-cash", "fish-dash-cassh"), ["v.yaml:1", "game", "fish-dash-cash"]),
        (GOOD.replace("bots: random", "bots: randomm"), ["v.yaml:5", "bots", "'random'"]),
        (
            GOOD.replace("bots: random", "seats: [random, random]"),
            ["v.yaml:5", "seats", "2 bots for 4"],
        ),
        (GOOD + "rules:\n  hand_size: 16\n", ["v.yaml", "players", "too few to deal"]),
        (
            GOOD.replace("bots: random", "bots: {bot: heuristic, params: {cash_att: 1}}"),
            ["v.yaml:5", "cash_at"],
        ),
        # validate checks a plugin's name for form without importing it (issue 13);
        # `validate --import` imports it (tests/cli/test_hostile_inputs.py).
        (GOOD.replace("bots: random", "bots: no-such.module:Bot"), ["v.yaml:5", "module:Factory"]),
        (GOOD + "rules: [1, 2]\n", ["v.yaml:6", "rules", "mapping"]),
        (GOOD + "rules:\n  deck: {colours: []}\n", ["v.yaml:7", "deck.colours"]),
        ("players: 4\n", ["v.yaml", "missing key 'game'"]),
        (GOOD.replace("bots: random\n", ""), ["v.yaml", "missing key 'bots'"]),
        ("", ["v.yaml", "empty"]),
        ("- just\n- a list\n", ["v.yaml", "mapping"]),
        (GOOD + "players: 5\n", ["v.yaml:6", "players"]),  # duplicate key
        (GOOD + "rules:\n\thand_size: 3\n", ["v.yaml:7"]),  # a tab
        (GOOD + "rules: {hand_size: 3\n", ["v.yaml"]),  # unclosed flow mapping
        (b"game: fish-dash-cash\nname: caf\xe9\n", ["v.yaml:2", "UTF-8"]),
        # Integer knobs have a range even where the game gives no bound: a
        # number too large for a float never reaches the engine.
        (
            GOOD + f"scoring:\n  uncashed_value: {HUGE}\n",
            ["v.yaml:7", "scoring.uncashed_value", "-1000..1000000000", "about 401 digits"],
        ),
        (
            GOOD + "scoring:\n  uncashed_value: -1001\n",
            ["v.yaml:7", "scoring.uncashed_value", "at least -1000", "-1000..1000000000"],
        ),
        (
            GOOD.replace("bots: random", f"bots: {{bot: heuristic, params: {{cash_at: {HUGE}}}}}"),
            ["v.yaml:5", "cash_at", "0..1000000000"],
        ),
        (
            GOOD + f"rules:\n  deck: {{numbers: [{HUGE}, {HUGE}], copies: 10}}\n",
            ["v.yaml:7", "rules.deck", "high <= 1000000000"],
        ),
        # A name is a folder and heads one-line messages: printable UTF-8 only.
        *(
            (GOOD + f'name: "a{escape}b"\n', ["v.yaml:6", "name", "control characters"])
            for escape in ("\\t", "\\0", "\\n", "\\e", "\\x7f", "\\x85", "\\u2028")
        ),
        (GOOD + 'name: "a\\ud800b"\n', ["v.yaml:6", "name", "lone surrogate"]),
        # The comeback margin: a whole number of score points, 0 to 2**62.
        (GOOD + "comeback_margin: -1\n", ["v.yaml:6", "comeback_margin", "between 0 and"]),
        (GOOD + "comeback_margin: 1.5\n", ["v.yaml:6", "comeback_margin", "whole number"]),
        (GOOD + f"comeback_margin: {HUGE}\n", ["v.yaml:6", "comeback_margin"]),
        (GOOD + "comeback_margin: yes\n", ["v.yaml:6", "comeback_margin", "whole number"]),
        (GOOD + f"comeback_margin: {2**62 + 1}\n", ["v.yaml:6", "comeback_margin"]),
        (
            'a: &a ["x","x","x","x","x","x","x","x","x"]\n'
            + "".join(
                f"{chr(98 + i)}: &{chr(98 + i)} [{','.join(['*' + chr(97 + i)] * 9)}]\n"
                for i in range(8)
            )
            + GOOD,
            ["v.yaml"],
        ),
    ],
)
def test_a_mistake_is_one_line_naming_file_line_and_key(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str | bytes, expected: list[str]
) -> None:
    line = fails(write_file(tmp_path, text), capsys)
    for part in expected:
        assert part in line, line


def test_missing_and_cyclic_extends(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    line = fails(write_file(tmp_path, "extends: nowhere.yaml\n" + GOOD), capsys)
    assert "v.yaml:1" in line and "extends" in line and "nowhere.yaml" in line
    write_file(tmp_path, "extends: b.yaml\n" + GOOD, "a.yaml")
    write_file(tmp_path, "extends: a.yaml\n", "b.yaml")
    line = fails(tmp_path / "a.yaml", capsys)
    assert "cycle" in line and "a.yaml -> b.yaml -> a.yaml" in line


def test_error_in_a_parent_names_the_parent(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_file(tmp_path, GOOD + "rules:\n  hand_size: many\n", "base.yaml")
    line = fails(write_file(tmp_path, "extends: base.yaml\nplayers: 3\n", "child.yaml"), capsys)
    assert "base.yaml:7" in line and "rules.hand_size" in line


def test_missing_file_and_directory(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert "no-such.yaml" in fails(tmp_path / "no-such.yaml", capsys)
    (tmp_path / "dir.yaml").mkdir()
    assert "dir.yaml" in fails(tmp_path / "dir.yaml", capsys)


def test_validate_and_knobs_commands() -> None:
    runner = CliRunner()
    result = runner.invoke(cli, ["validate", str(VARIANTS / "fdc-5p.yaml")])
    assert result.exit_code == 0 and "ok" in result.output
    result = runner.invoke(cli, ["knobs", "fish-dash-cash"])
    assert result.exit_code == 0
    for knob in ("deck", "hand_size", "neko_min_followers", "cash_value", "uncashed_value"):
        assert knob in result.output
    assert "heuristic" in result.output and "cash_at" in result.output
