"""A step counts its event only when it changes something, on every primitive, in the
Python interpreter (roles/engine.py) and the role kernel alike (docs/new-game.md).

A hand-made game whose every card is one primitive counting one event, played
trick by trick from hands set by hand; each primitive both changes something
(counted) and changes nothing (not counted) somewhere in it. The counts are
worked out below; the kernel, converted from the same position, plays the same
game to the same record.
"""

from __future__ import annotations

from pathlib import Path

from balancer.games.roles import load_file
from balancer.games.roles.engine import State
from tests.kernels.test_roles_kernel import kernel_record, rules_of

STILL = """\
name: still-steps
short: ss
players: [2, 3]
deck: {colours: [red], roles: [push, pin, nap, bank, keep, crowd], numbers: [0, 3], copies: 1}
hand_size: 6
zones:
  hold: {face: up}
  vault: {face: down}
counters:
  gain: {start: 0, min: 0, max: 5}
flags:
  pinned: {lasts: game}
globals:
  crowd: {start: 0, min: 0, max: 4}
knobs:
  nap_tricks: {default: 0, range: [0, 3], meaning: tricks a nap makes the next seat sit out}
roles:
  push: [{add: {counter: gain, by: number, event: pushes}}]
  pin: [{guard: {flag: pinned, target: self, event: pins}}]
  nap: [{skip_turn: {target: next, tricks: nap_tricks, event: naps}}]
  bank: [{move_all: {from: hold, to: vault, event: banks}}]
  keep: [{place: {zone: hold}}]
  crowd: [{add_global: {counter: crowd, by: number, event: crowds}}]
score:
  - {counter: gain}
  - {zone: vault, per_card: 1}
win: highest
events:
  pushes: {meaning: a push that moved the gain}
  pins: {meaning: a pin that pinned}
  naps: {meaning: a nap that made a seat sit out}
  banks: {meaning: a bank that moved cards}
  crowds: {meaning: a crowd that raised the global}
"""
PUSH, PIN, NAP, BANK, KEEP, CROWD = range(6)


def card(role: int, number: int) -> int:
    return role * 4 + number  # one colour, numbers 0..3, one copy


def test_a_step_that_changes_nothing_is_not_counted_on_any_primitive(tmp_path: Path) -> None:
    path = tmp_path / "still.yaml"
    path.write_text(STILL, encoding="utf-8")
    game = load_file(path)
    # Each trick: (seat 0's card, seat 1's card); the higher number resolves first
    # and its owner leads the next trick.
    tricks = [
        # 1 (seat 0 leads): push 2 takes seat 1's gain 0 -> 2 (counted); push 0
        # adds nothing to seat 0's (not counted).
        (card(PUSH, 0), card(PUSH, 2)),
        # 2 (seat 1 leads): pin 1 pins seat 1 (counted); bank 0 finds seat 0's hold
        # empty (not counted).
        (card(BANK, 0), card(PIN, 1)),
        # 3 (seat 1): pin 2 on a seat pinned for the game (not counted); nap 0 makes
        # seat 1 sit out nap_tricks = 0 tricks (not counted).
        (card(NAP, 0), card(PIN, 2)),
        # 4 (seat 1): crowd 2 takes the global 0 -> 2 (counted), crowd 0 (not).
        (card(CROWD, 2), card(CROWD, 0)),
        # 5 (seat 0): push 3 takes seat 1's gain 2 -> 5 (counted); keep 1 puts the
        # card in seat 0's hold.
        (card(KEEP, 1), card(PUSH, 3)),
        # 6 (seat 1): nap 3 (0 tricks, not counted); bank 2 moves seat 0's one held
        # card to its vault (counted).
        (card(BANK, 2), card(NAP, 3)),
    ]
    hands = [[t[0] for t in tricks], [t[1] for t in tricks]]
    state = State.arranged(game, rules_of(game), hands)
    start = state.clone()
    for seat0, seat1 in tricks:
        by_seat = {0: seat0, 1: seat1}
        for _ in range(2):
            state.apply_action(by_seat[state.current_player()])
    assert state.is_terminal() and state.tricks == 6
    assert state.counters["gain"] == [0, 5] and state.zones["vault"] == [[card(KEEP, 1)], []]
    expected = {"pushes": 2, "pins": 1, "naps": 0, "banks": 1, "crowds": 1}
    assert state.record().events == expected
    # The kernel, from the same hands, plays the same moves to the same record.
    scores, length, events = kernel_record(start)
    assert (scores, length, events) == ((1.0, 5.0), 6, expected)


def test_a_nap_of_some_tricks_is_counted(tmp_path: Path) -> None:
    """The control for `naps`: a nap that does make a seat sit out is counted."""
    path = tmp_path / "still.yaml"
    text = STILL.replace("still-steps", "still-naps").replace("ss\n", "sn\n")
    path.write_text(text, encoding="utf-8")
    game = load_file(path)
    hands = [[card(NAP, 2), card(PUSH, 1)], [card(PUSH, 0), card(PUSH, 3)]]
    state = State.arranged(game, rules_of(game, nap_tricks=1), hands)
    start = state.clone()
    state.apply_action(card(NAP, 2))
    state.apply_action(card(PUSH, 0))  # nap 2 resolves first: seat 1 sits out trick 2
    assert state.order == [0]
    state.apply_action(card(PUSH, 1))
    state.apply_action(card(PUSH, 3))  # trick 3: seat 1 plays alone
    assert state.is_terminal()
    assert state.record().events == {"pushes": 2, "pins": 0, "naps": 1, "banks": 0, "crowds": 0}
    assert kernel_record(start)[2]["naps"] == 1
