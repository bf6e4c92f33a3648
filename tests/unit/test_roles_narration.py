"""A role game's `place` and `move_all` in the play-by-play (the engine's trace told by
narrate.py, as `balancer replay` shows it): each says whose card went where, in the
file's own zone names. (The steal's line: test_roles_steal_narration.py.)"""

from __future__ import annotations

from pathlib import Path

from balancer import knobs
from balancer.games.roles import load_file, narrate
from balancer.games.roles.definition import game_knobs
from balancer.games.roles.engine import State

# One colour, two roles, numbers 1-3: card = role * 3 + number - 1 (keep 0-2, cash 3-5).
STOW = """\
name: stow
short: stw
players: [2, 3]
deck: {colours: [red], roles: [keep, cash], numbers: [1, 3], copies: 1}
hand_size: 1
zones:
  stash: {face: up}
  vault: {face: down}
roles:
  keep:
    - place: {zone: stash}
  cash:
    - move_all: {from: stash, to: vault}
score:
  - {zone: vault}
"""
KEEP_1, KEEP_2, CASH_3 = 0, 1, 5


def test_place_and_move_all_are_told_with_their_seat_card_and_zones(tmp_path: Path) -> None:
    """Seat 0 leads keep 2, seat 1 follows with cash 3; seat 1's stash holds keep 1.
    Both red, numbers apart: neither is cancelled, and the higher number resolves first.
    Cash 3 moves seat 1's one stashed card to its vault (the cash card itself goes to the
    discard, no place took it), then keep 2 goes to seat 0's stash. Scores: one card in a
    vault, seat 1's: 0 and 1."""
    path = tmp_path / "stow.yaml"
    path.write_text(STOW, encoding="utf-8")
    game = load_file(path)
    rules = knobs.defaults(game_knobs(game))
    state = State.arranged(game, rules, [[KEEP_2], [CASH_3]], zones={"stash": [[], [KEEP_1]]})
    state.trace = []
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    assert state.zones == {"stash": [[KEEP_2], []], "vault": [[], [KEEP_1]]}
    told = [entry for entry in narrate.lines(state.trace or [], rules) if isinstance(entry, str)]
    assert told == [
        "Trick 1: seat 0 leads",
        "  played seat 0: red keep 2, seat 1: red cash 3",
        "  seat 1 moves 1 card(s) from its stash to its vault",
        "  seat 0's red keep 2 goes to its stash",
        "Game over after 1 tricks: scores seat 0 0, seat 1 1",
    ]
