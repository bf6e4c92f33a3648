"""Golden playthroughs: a seeded game of each game, word for word.

Any change of behaviour — a rule, a bot, the order of random draws — changes
one of these texts and shows up in review as a diff of a readable game. When
a change is intended, regenerate them with BALANCER_UPDATE_GOLDEN=1 and bump
the game's rules_version if the rules moved.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from balancer.config.variant import load
from balancer.sim.replay import replay_text

ROOT = Path(__file__).parents[2]
GOLDEN = Path(__file__).parent
# The shipped game files too (lookahead against random, seats rotating), so a change
# to the role engine or vocabulary is checked move by move, not only by figures.
CASES = [
    "fdc-5p-vs-random",
    "kk-4p-bots",
    "dqz-4p-vs-random",
    "mega-racer-4p-vs-random",
    "zodiac-race-5p-vs-random",
    "fish-market-4p-vs-random",
]


@pytest.mark.parametrize("name", CASES)
def test_playthrough_matches_golden(name: str) -> None:
    variant = load(ROOT / "variants" / f"{name}.yaml").with_overrides(seed=2026)
    text = replay_text(variant, 1) + "\n"
    path = GOLDEN / f"{name}.txt"
    if os.environ.get("BALANCER_UPDATE_GOLDEN"):
        path.write_text(text)
    assert path.read_text() == text
