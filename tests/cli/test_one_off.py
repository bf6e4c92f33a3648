"""One-off runs (`run --set/--players/--bots`) and rules a knob leaves nothing to do."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from balancer.cli import main
from balancer.config import variant
from balancer.config.dead_rules import dead_rules
from balancer.config.one_off import apply, folder_suffix, knobs_set
from balancer.errors import UserError
from tests.helpers import VARIANTS, one_error_line, variant_file

pytestmark = pytest.mark.usefixtures("engine_unchecked")


def test_changes_are_applied_checked_and_kept_as_written() -> None:
    base = variant.load(VARIANTS / "fdc-5p.yaml")
    settings = ("rules.neko_ni_koban=false", "hand_size=4")
    changed, changes = apply(base, settings, players=4, bots="heuristic,random,random,random")
    assert changed.rules["neko_ni_koban"] is False and changed.rules["hand_size"] == 4
    assert changed.players == 4
    assert [s.bot for s in changed.seats] == ["heuristic", "random", "random", "random"]
    assert (changed.name, changed.path, changed.seed) == (base.name, base.path, base.seed)
    assert changes == (
        "rules.neko_ni_koban=false",
        "rules.hand_size=4",
        "players=4",
        "bots=heuristic,random,random,random",
    )
    assert folder_suffix(changes) == (
        "-neko_ni_koban=false-hand_size=4-players=4-bots=heuristic,random,random,random"
    )
    assert knobs_set(changed, changes) == {"neko_ni_koban": False, "hand_size": 4}
    # Nothing asked: the variant itself, no suffix.
    assert apply(base) == (base, ()) and folder_suffix(()) == ""


def test_either_section_names_a_knob_as_in_a_variant_file(tmp_path: Path) -> None:
    base = variant.load(VARIANTS / "fdc-5p.yaml")
    crossed = ("scoring.hand_size=4", "rules.cash_value=face")
    changed, changes = apply(base, crossed)
    assert changes == ("rules.hand_size=4", "scoring.cash_value=face")  # each knob's own
    # The control: a file that puts them under the other section plays the same variant.
    text = "rules:\n  cash_value: face\nscoring:\n  hand_size: 4\n"
    in_file = variant.load(variant_file(tmp_path, "fdc-5p.yaml", text))
    assert changed.rules == in_file.rules
    assert (in_file.rules["hand_size"], in_file.rules["cash_value"]) == (4, "face")


@pytest.mark.parametrize(
    ("settings", "players", "bots", "message"),
    [
        (("rules.neko_ni_kobann=false",), None, None, "did you mean 'neko_ni_koban'"),
        (("hand_size=zero",), None, None, "'zero'"),
        (("hand_size=3", "hand_size=4"), None, None, "set twice"),
        ((), 7, None, "players"),  # fdc seats 2 to 6: checked as a file's players would be
        ((), None, "heuristic,random", "2 bots for 5 players"),
        ((), None, "nobody", "nobody"),
        (("hand_size=13",), None, None, "too few to deal"),  # 5 x 13 > the 60-card deck
    ],
)
def test_a_bad_change_is_one_user_error(
    settings: tuple[str, ...], players: int | None, bots: str | None, message: str
) -> None:
    base = variant.load(VARIANTS / "fdc-5p.yaml")
    with pytest.raises(UserError, match=message):
        apply(base, settings, players, bots)


def test_players_of_a_mixed_table_need_bots() -> None:
    mixed = variant.load(VARIANTS / "fdc-5p-vs-random.yaml")
    with pytest.raises(UserError, match="with --bots"):
        apply(mixed, players=4)
    assert apply(mixed, players=4, bots="random")[0].players == 4


def test_a_one_off_run_is_recorded_and_does_not_replace_the_variants_report(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    fdc = str(VARIANTS / "fdc-4p.yaml")
    assert main(["run", fdc, "-n", "30", "-q"]) == 0
    assert main(["run", fdc, "-n", "30", "-q", "--set", "rules.neko_ni_koban=false"]) == 0
    plain = json.loads((tmp_path / "reports/fdc-4p/report.json").read_text())
    one_off = tmp_path / "reports/fdc-4p-neko_ni_koban=false"
    document = json.loads((one_off / "report.json").read_text())
    assert "command_line" not in plain and plain["variant"]["rules"]["neko_ni_koban"] is True
    assert document["command_line"] == ["rules.neko_ni_koban=false"]
    assert document["variant"]["rules"]["neko_ni_koban"] is False
    assert "for this run only: rules.neko_ni_koban=false" in (one_off / "report.html").read_text()
    capsys.readouterr()
    assert main(["diff", "reports/fdc-4p", str(one_off)]) == 0
    out = capsys.readouterr().out
    assert "fdc-4p with rules.neko_ni_koban=false" in out
    assert "rules.neko_ni_koban: true → false" in out


def test_a_bad_set_on_run_is_one_line_before_any_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "r"
    args = ["run", str(VARIANTS / "fdc-4p.yaml"), "-n", "5", "-q", "-o", str(out)]
    assert main([*args, "--set", "rules.hand_size=-1"]) == 2
    assert "--set rules.hand_size=-1" in one_error_line(capsys)
    assert not out.exists()


def test_a_rule_that_can_never_fire_is_warned_about_and_the_rest_is_quiet(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    four = variant.load(VARIANTS / "fdc-4p.yaml")
    dead = apply(four, ("rules.neko_min_followers=4",))[0]
    [why] = dead_rules(dead)
    assert "neko_min_followers: 4 at 4 players" in why and "at most 3 followers" in why
    # The controls: 3 followers can play at 4 players; with the rule off there's nothing to fire.
    assert dead_rules(apply(four, ("rules.neko_min_followers=3",))[0]) == []
    off = apply(four, ("rules.neko_min_followers=4", "rules.neko_ni_koban=false"))[0]
    assert dead_rules(off) == []
    # At 2 players the printed rule never fires whatever the knob says: the game, not a setting.
    assert dead_rules(variant.load(VARIANTS / "fdc-2p.yaml")) == []
    three = variant.load(VARIANTS / "fdc-3p.yaml")
    assert dead_rules(apply(three, ("rules.neko_min_followers=3",))[0]) != []
    path = variant_file(tmp_path, "fdc-4p.yaml", "rules:\n  neko_min_followers: 4\n")
    assert main(["validate", str(path)]) == 0
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith(f"balancer: warning: {path}: rules.neko_min")
    assert main(["validate", str(VARIANTS / "fdc-4p.yaml")]) == 0
    assert capsys.readouterr().err == ""
