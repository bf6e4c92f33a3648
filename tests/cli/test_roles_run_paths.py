"""A role game's run takes the compiled path by default and the step path on request.

A variant with `game: mega-racer` (or the zodiac race, whose places the kernel
hands out too) and `random` or `lookahead` in every seat plays on the role
kernel (sim/compiled.py: every seat's bot is compiled); `--check` plays it
step by step on the Python interpreter. At a fixed seed both write the same
report, file for file.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import balancer
from balancer.cli import cli
from balancer.config.shipped import shipped_dir
from balancer.config.variant import SeatSpec
from balancer.sim import compiled, runner

VARIANT = """\
game: mega-racer
players: 4
bots: random
games: 400
seed: 29
"""
# The zodiac race: its score is the places its place term hands out as tricks end.
ZODIAC = VARIANT.replace("mega-racer", "zodiac-race").replace("players: 4", "players: 5")
# Shipped variants seating `lookahead` (issue 36): in every seat, beside `random`, and
# in the zodiac race; a few games each, --check playing them in Python.
LOOKAHEAD_VARIANTS = ("mega-racer-4p", "mega-racer-4p-vs-random", "zodiac-race-5p")


@pytest.mark.parametrize("text", [VARIANT, ZODIAC], ids=["mega-racer", "zodiac-race"])
def test_a_role_game_with_random_bots_plays_compiled(tmp_path: Path, text: str) -> None:
    path = tmp_path / "race.yaml"
    path.write_text(text, encoding="utf-8")
    variant = balancer.load_variant(path)
    assert compiled.can_compile(variant)
    # A plugin in a seat is what still sends a role game step by step.
    plugin = replace(variant, seats=(SeatSpec("tests.plugins:UniformLegal"), *variant.seats[1:]))
    assert not compiled.can_compile(plugin)


@pytest.mark.parametrize("text", [VARIANT, ZODIAC], ids=["mega-racer", "zodiac-race"])
def test_both_paths_write_the_same_report(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, text: str
) -> None:
    path = tmp_path / "race.yaml"
    path.write_text(text, encoding="utf-8")
    assert_both_paths_write_the_same_report(tmp_path, monkeypatch, [str(path)], 400)


@pytest.mark.parametrize("name", LOOKAHEAD_VARIANTS)
def test_a_shipped_variant_with_lookahead_plays_compiled(name: str) -> None:
    variant = balancer.load_variant(shipped_dir() / f"{name}.yaml")
    assert "lookahead" in {s.bot for s in variant.seats}
    assert compiled.can_compile(variant)


@pytest.mark.parametrize("name", LOOKAHEAD_VARIANTS)
def test_a_shipped_variant_with_lookahead_writes_the_same_report_both_ways(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    assert_both_paths_write_the_same_report(tmp_path, monkeypatch, [name, "-n", "24"], 24)


def assert_both_paths_write_the_same_report(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, run_args: list[str], games: int
) -> None:
    """`run` compiled (every game on the kernel) and `run --check` (none) write the
    same report, file for file."""
    monkeypatch.setenv(runner.CHECK_ENV, "0")  # the suite forces --check (conftest.py)
    played = compiled.play_columns
    calls: list[int] = []

    def counted(variant: Any, start: int, stop: int, *plan: Any) -> Any:
        calls.append(stop - start)
        return played(variant, start, stop, *plan)

    monkeypatch.setattr(compiled, "play_columns", counted)
    outs = {}
    games_compiled = {}
    for name, extra in (("compiled", []), ("step", ["--check"])):
        out = tmp_path / name
        calls.clear()
        args = ["run", *run_args, "-q", "-w", "1", "-o", str(out), *extra]
        result = CliRunner().invoke(cli, args)
        assert result.exit_code == 0, result.output
        outs[name] = out
        games_compiled[name] = sum(calls)
    # Every game on the kernel by default (and a first one to warm it), none with --check.
    assert games_compiled["compiled"] >= games and games_compiled["step"] == 0
    files = sorted(
        p.relative_to(outs["compiled"]) for p in outs["compiled"].rglob("*") if p.is_file()
    )
    assert files == sorted(
        p.relative_to(outs["step"]) for p in outs["step"].rglob("*") if p.is_file()
    )
    differ = [
        f for f in files if (outs["compiled"] / f).read_bytes() != (outs["step"] / f).read_bytes()
    ]
    assert differ == []
