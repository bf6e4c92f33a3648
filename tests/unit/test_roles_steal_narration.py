"""A role game's steal in the play-by-play (the engine's trace told by narrate.py, as
`balancer replay` shows it): the thief is the seat that takes, the victim the seat taken
from, never the other way round."""

from __future__ import annotations

from pathlib import Path

import pytest

from balancer import knobs
from balancer.games.roles import load_file, narrate
from balancer.games.roles.definition import game_knobs
from balancer.games.roles.engine import State

# One colour, two roles, numbers 1-3: card = role * 3 + number - 1 (keep 0-2, grab 3-5).
SNATCH = """\
name: snatch
short: sn
players: [2, 3]
deck: {colours: [red], roles: [keep, grab], numbers: [1, 3], copies: 1}
hand_size: 1
zones:
  stash: {face: up}
roles:
  keep:
    - place: {zone: stash}
  grab:
    - steal: {from: stash, to: stash}
    - place: {zone: stash}
score:
  - {zone: stash}
"""
KEEP_1, KEEP_3, GRAB_3 = 0, 2, 5


@pytest.mark.parametrize("thief", [0, 1])
def test_the_steal_line_names_thief_and_victim_the_right_way_round(
    tmp_path: Path, thief: int
) -> None:
    """The thief holds grab 3, the victim keep 1 and has keep 3 in its stash. The thief
    leads, so grab 3 resolves first: it takes keep 3 from the victim's stash, then goes to
    its own stash; keep 1 goes to the victim's. Stashes: the thief 2 cards, the victim 1.
    Both ways round, so a line that always names seat 0 first cannot pass."""
    victim = 1 - thief
    path = tmp_path / "snatch.yaml"
    path.write_text(SNATCH, encoding="utf-8")
    game = load_file(path)
    rules = knobs.defaults(game_knobs(game))
    hands = [[GRAB_3], [KEEP_1]] if thief == 0 else [[KEEP_1], [GRAB_3]]
    stash = [[], []]
    stash[victim] = [KEEP_3]
    state = State.arranged(game, rules, hands, zones={"stash": stash}, leader=thief)
    state.trace = []
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    assert sorted(state.zones["stash"][thief]) == [KEEP_3, GRAB_3]
    assert state.zones["stash"][victim] == [KEEP_1]
    told = [entry for entry in narrate.lines(state.trace or [], rules) if isinstance(entry, str)]
    steals = [line for line in told if " takes " in line]
    assert steals == [f"  seat {thief} takes red keep 3 from seat {victim}'s stash to its stash"]
