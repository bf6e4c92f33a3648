"""A game file's sharp edges (issue 36): each refused in one line naming file:line: key,
or made to work, with the file that holds it worked out by hand."""

from __future__ import annotations

from pathlib import Path

import pytest

from balancer.config.variant import TOP_KEYS
from balancer.games.roles import check_file, gamefile
from balancer.games.roles.validate import VARIANT_KEYS


def write(tmp_path: Path, text: str, name: str = "game.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def mega_racer() -> str:
    return gamefile.shipped_path("mega-racer").read_text(encoding="utf-8")  # type: ignore[union-attr]


def test_the_validators_variant_keys_are_the_variants_own() -> None:
    assert VARIANT_KEYS == TOP_KEYS


@pytest.mark.parametrize("name", ["seed", "players", "games", "seats", "expect", "lang"])
def test_a_knob_cannot_take_a_variant_keys_name(tmp_path: Path, name: str) -> None:
    text = mega_racer().replace("knobs:\n", f"knobs:\n  {name}: {{default: 3, range: [0, 9]}}\n")
    game, problems = check_file(write(tmp_path, text))
    assert game is None
    assert [(p.line, p.key) for p in problems] == [(30, f"knobs.{name}")]
    assert f"{name!r} is a key of a variant file" in problems[0].message


def test_a_knob_of_another_name_is_taken(tmp_path: Path) -> None:
    """The control: the same knob under a name of its own is a knob of the game."""
    text = mega_racer().replace("knobs:\n", "knobs:\n  seeds: {default: 3, range: [0, 9]}\n")
    game, problems = check_file(write(tmp_path, text))
    assert problems == [] and game is not None and "seeds" in {k.name for k in game.knobs}
