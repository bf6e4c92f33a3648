"""What a bot is handed can't change the game: the rules in a view are read-only."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from balancer.config import variant
from balancer.rng import CHANCE
from balancer.sim.play import derive_rng

VARIANTS = Path(__file__).parent.parent / "variants"

# For each game, a knob holding a mapping, to try the nested rules too.
GAMES = [
    ("fdc-3p.yaml", "deck"),
    ("kk-4p.yaml", "colour_bonus"),
    ("dqz-4p.yaml", None),
]


def _first_view(name: str) -> Any:
    v = variant.load(VARIANTS / name)
    state = v.spec.new_state(v.rules, v.players, derive_rng(v.seed, 0, CHANCE))
    return state.view(state.current_player())


@pytest.mark.parametrize(("name", "nested"), GAMES)
def test_a_bot_cannot_rewrite_the_rules_through_its_view(name: str, nested: str | None) -> None:
    rules = _first_view(name).rules
    key = next(iter(rules))
    before = dict(rules)
    for change in (
        lambda: rules.__setitem__(key, 0),
        lambda: rules.__delitem__(key),
        lambda: rules.update({key: 0}),
        lambda: rules.pop(key),
        lambda: rules.clear(),
    ):
        with pytest.raises(TypeError):
            change()
    if nested is not None:
        inner = rules[nested]
        with pytest.raises(TypeError):
            inner[next(iter(inner))] = 0
    assert dict(rules) == before
