"""A run of fish-dash-cash-roles with fdc's `heuristic` seated takes the compiled path.

The heuristic plays the file compiled (roles/kernel/fdc_bridge.py): a variant
seating it in every seat, or beside `random` and `lookahead`, plays on the role
kernel (sim/compiled.py: every seat's bot is compiled), and writes the report a
`--check` run (step by step, the Python bot through the file's view) writes, file
for file.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import balancer
from balancer import games
from balancer.games.roles import gamefile
from balancer.sim import compiled
from tests.cli.test_roles_run_paths import assert_both_paths_write_the_same_report

EVERY_SEAT = """\
game: fish-dash-cash-roles
players: 4
bots: heuristic
games: 60
seed: 31
"""
BESIDE_OTHERS = """\
game: fish-dash-cash-roles
players: 3
seats: [heuristic, random, lookahead]
games: 12
seed: 5
"""
VARIANTS = {"every-seat": EVERY_SEAT, "beside-others": BESIDE_OTHERS}


@pytest.mark.parametrize("name", VARIANTS)
def test_a_run_with_the_heuristic_plays_compiled(tmp_path: Path, name: str) -> None:
    path = tmp_path / "fdc-roles.yaml"
    path.write_text(VARIANTS[name], encoding="utf-8")
    assert compiled.can_compile(balancer.load_variant(path))


def test_where_the_file_pays_its_bank_otherwise_the_run_plays_step_by_step(
    tmp_path: Path,
) -> None:
    """The control: a copy of the file whose bank pays a constant keeps its heuristic
    step by step (roles/fdc_heuristic.py heuristic_compiles)."""
    shipped = gamefile.shipped_path("fish-dash-cash-roles")
    assert shipped is not None
    text = shipped.read_text(encoding="utf-8")
    bank = "{zone: bank, per_card: cash_per_card, per_number: cash_per_number}"
    assert f"  - {bank}\n" in text
    text = text.replace(f"  - {bank}\n", "  - {zone: bank, per_card: 2}\n")
    text = text.replace("name: fish-dash-cash-roles", "name: fdc-bank-of-two")
    (tmp_path / "bank-of-two.yaml").write_text(text.replace("short: fdc-roles", "short: fdcb2"))
    path = tmp_path / "variant.yaml"
    path.write_text(EVERY_SEAT.replace("fish-dash-cash-roles", "./bank-of-two.yaml"))
    try:
        assert not compiled.can_compile(balancer.load_variant(path))
    finally:  # the registry is the process's: leave it as other tests expect it
        if games.registered("fdc-bank-of-two"):
            games.unregister("fdc-bank-of-two")


@pytest.mark.parametrize("name", VARIANTS)
def test_both_paths_write_the_same_report(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    path = tmp_path / "fdc-roles.yaml"
    text = VARIANTS[name]
    path.write_text(text, encoding="utf-8")
    count = int(text.split("games: ")[1].split("\n")[0])
    assert_both_paths_write_the_same_report(tmp_path, monkeypatch, [str(path)], count)
