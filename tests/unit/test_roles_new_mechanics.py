"""`clear`, `{bottom: COUNTER}` and `all`, played by hand on the Python interpreter:
situations whose outcome is worked out from docs/new-game.md's words.

The game, TIDE: one trick of one card each, all red with numbers apart, so no card is
cancelled and the highest number resolves first (docs/rules.md). Its cards: colours
red 0, blue 1; roles raise 0, wipe 1, tag 2, lift 3, rest 4; numbers 1..4;
card = (colour * 5 + role) * 4 + number - 1 (the engine's encoding).

tests/kernels/test_roles_new_mechanics_kernel.py plays the same situations on the
compiled kernel and holds it to the same outcomes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pytest

from balancer import knobs
from balancer.games.roles import check_file, load_file, narrate
from balancer.games.roles.definition import game_knobs
from balancer.games.roles.engine import State
from balancer.games.roles.model import RoleGame

TIDE = """\
name: tide
short: td
players: [2, 4]
deck: {colours: [red, blue], roles: [raise, wipe, tag, lift, rest], numbers: [1, 4], copies: 1}
hand_size: 1
counters:
  height: {min: 0, max: 20}
flags:
  tagged: {lasts: game}
roles:
  raise:
    - add: {counter: height, by: 1, target: all, event: rises}
  wipe:
    - clear: {flag: tagged, target: all_rivals, event: wipes}
  tag:
    - guard: {flag: tagged, target: all}
  lift:
    - add: {counter: height, by: number, target: {bottom: height}, unless: tagged, event: lifts}
  rest: []
score:
  - {counter: height}
events:
  rises: {meaning: every seat rose}
  wipes: {meaning: a rival's tag wiped}
  lifts: {meaning: the lowest rival lifted}
"""
RAISE, WIPE, TAG, LIFT, REST = range(5)


def red(role: int, number: int) -> int:
    return role * 4 + number - 1


def tide(folder: Path) -> RoleGame:
    path = folder / "tide.yaml"
    path.write_text(TIDE, encoding="utf-8")
    return load_file(path)


@dataclass(frozen=True)
class Situation:
    """A trick laid out by hand (each seat's one card, in play order from `leader`),
    the heights and tags before it, and what it leaves, worked out by hand."""

    cards: tuple[int, ...]  # seat by seat
    leader: int
    height: tuple[int, ...]
    tagged: tuple[bool, ...]
    after_height: tuple[int, ...]
    after_tagged: tuple[bool, ...]
    events: dict[str, int] = field(default_factory=dict)

    def state(self, game: RoleGame) -> State:
        rules = knobs.defaults(game_knobs(game))
        hands = [[card] for card in self.cards]
        state = State.arranged(
            game, rules, hands, leader=self.leader, counters={"height": list(self.height)}
        )
        state.flags["tagged"] = list(self.tagged)
        return state

    def moves(self) -> list[int]:
        players = len(self.cards)
        return [self.cards[(self.leader + k) % players] for k in range(players)]

    def expected_events(self) -> dict[str, int]:
        return {"rises": 0, "wipes": 0, "lifts": 0, **self.events}


SITUATIONS = {
    # Seat 0's wipe 4 resolves first: it clears `tagged` on every rival, seat 1 (not
    # tagged: nothing to clear) then seat 2 (tagged: cleared); its own tag stays, as
    # all_rivals is not the owner. It changed seat 2: one wipe. Then raise 2 and
    # raise 1 each add 1 to every seat: 0 -> 2 everywhere, two rises.
    "wipe-clears-a-tagged-rival": Situation(
        cards=(red(WIPE, 4), red(RAISE, 2), red(RAISE, 1)),
        leader=0,
        height=(0, 0, 0),
        tagged=(True, False, True),
        after_height=(2, 2, 2),
        after_tagged=(True, False, False),
        events={"rises": 2, "wipes": 1},
    ),
    # The control: no rival tagged. The wipe acts on seats 1 and 2 and changes
    # neither: it counts no wipe (docs/new-game.md, "When an event counts").
    "wipe-finds-no-tagged-rival": Situation(
        cards=(red(WIPE, 4), red(RAISE, 2), red(RAISE, 1)),
        leader=0,
        height=(0, 0, 0),
        tagged=(True, False, False),
        after_height=(2, 2, 2),
        after_tagged=(True, False, False),
        events={"rises": 2},
    ),
    # Seat 2 leads lift 4; the rests do nothing. Its rivals from its left are seats 3,
    # 0, 1 at heights 3, 5, 3: the fewest is 3, seats 3 and 1 tie, and the first from
    # the owner's left is seat 3: 3 + 4 = 7. Seat 2 itself, at 0, is no rival.
    "lift-goes-to-the-first-lowest-rival-from-the-left": Situation(
        cards=(red(REST, 2), red(REST, 1), red(LIFT, 4), red(REST, 3)),
        leader=2,
        height=(5, 3, 0, 3),
        tagged=(False, False, False, False),
        after_height=(5, 3, 0, 7),
        after_tagged=(False, False, False, False),
        events={"lifts": 1},
    ),
    # The same with seat 3 tagged: the lowest rival is still seat 3, and `unless:
    # tagged` stops the lift there (as `top` and `unless` do for MEGA RACER's
    # accident): nothing moves, no lift counted.
    "lift-stopped-by-the-lowest-rivals-tag": Situation(
        cards=(red(REST, 2), red(REST, 1), red(LIFT, 4), red(REST, 3)),
        leader=2,
        height=(5, 3, 0, 3),
        tagged=(False, False, False, True),
        after_height=(5, 3, 0, 3),
        after_tagged=(False, False, False, True),
    ),
    # Seat 1 leads raise 4: every seat, the owner too, goes up by 1 (one rise: one
    # step). Then seat 0's tag 1 (after the rest 2) tags every seat.
    "raise-lifts-every-seat-and-tag-tags-every-seat": Situation(
        cards=(red(TAG, 1), red(RAISE, 4), red(REST, 2)),
        leader=1,
        height=(4, 0, 2),
        tagged=(False, False, False),
        after_height=(5, 1, 3),
        after_tagged=(True, True, True),
        events={"rises": 1},
    ),
}


def played(situation: Situation, game: RoleGame) -> State:
    state = situation.state(game)
    for move in situation.moves():
        assert state.legal_actions() == [move]  # one card each: no decision
        state.apply_action(move)
        state.check_invariants()
    return state


@pytest.mark.parametrize("name", list(SITUATIONS))
def test_each_situation_ends_as_worked_out(tmp_path: Path, name: str) -> None:
    situation = SITUATIONS[name]
    state = played(situation, tide(tmp_path))
    assert state.is_terminal()
    assert tuple(state.counters["height"]) == situation.after_height
    assert tuple(state.flags["tagged"]) == situation.after_tagged
    record = state.record()
    assert record.events == situation.expected_events()
    assert record.scores == tuple(float(h) for h in situation.after_height)


def test_the_replay_tells_a_clear_and_every_seat_from_the_owner(tmp_path: Path) -> None:
    """The wipe's lines say which rival lost the tag and which had none; a raise on
    `all` tells every seat in order from its owner (seat 1, 2, then 0)."""
    game = tide(tmp_path)
    rules = knobs.defaults(game_knobs(game))
    state = SITUATIONS["wipe-clears-a-tagged-rival"].state(game)
    state.trace = []
    for move in SITUATIONS["wipe-clears-a-tagged-rival"].moves():
        state.apply_action(move)
    told = [line for line in narrate.lines(state.trace or [], rules) if isinstance(line, str)]
    assert told[2:4] == [
        "  seat 0 clears tagged on seat 1 (it was not set)",
        "  seat 0 clears tagged on seat 2",
    ]
    state = SITUATIONS["raise-lifts-every-seat-and-tag-tags-every-seat"].state(game)
    state.trace = []
    for move in SITUATIONS["raise-lifts-every-seat-and-tag-tags-every-seat"].moves():
        state.apply_action(move)
    told = [line for line in narrate.lines(state.trace or [], rules) if isinstance(line, str)]
    assert told[2:5] == [
        "  seat 1: seat 1's height 0 -> 1",
        "  seat 1: seat 2's height 2 -> 3",
        "  seat 1: seat 0's height 4 -> 5",
    ]


# (text replaced in TIDE, its line, key, a piece of the message): what validate says.
MISTAKES = [
    (
        "clear: {flag: tagged, target: all_rivals, event: wipes}",
        "clear: {flag: taged, target: all_rivals, event: wipes}",
        14,
        "roles.wipe[0].clear.flag",
        "unknown flag 'taged' (did you mean 'tagged'?)",
    ),
    (
        "clear: {flag: tagged, target: all_rivals, event: wipes}",
        "clear: {target: all_rivals, event: wipes}",
        14,
        "roles.wipe[0].clear",
        "clear needs 'flag'",
    ),
    (
        "clear: {flag: tagged, target: all_rivals, event: wipes}",
        "clear: {flag: tagged, counter: height, event: wipes}",
        14,
        "roles.wipe[0].clear.counter",
        "unknown parameter of clear",
    ),
    (
        "target: {bottom: height}",
        "target: {bottom: tagged}",
        18,
        "roles.lift[0].add.target.bottom",
        "unknown counter 'tagged'",
    ),
    (
        "target: all, event: rises",
        "target: every, event: rises",
        12,
        "roles.raise[0].add.target",
        "unknown target 'every'",
    ),
]


@pytest.mark.parametrize("old, new, line, key, piece", MISTAKES)
def test_a_bad_parameter_is_one_line_at_its_key(
    tmp_path: Path, old: str, new: str, line: int, key: str, piece: str
) -> None:
    assert old in TIDE
    path = tmp_path / "tide.yaml"
    path.write_text(TIDE.replace(old, new), encoding="utf-8")
    game, problems = check_file(path)
    assert game is None
    assert [(p.line, p.key) for p in problems] == [(line, key)], problems
    assert problems[0].message.startswith(f"{path}:{line}: {key}: ")
    assert piece in problems[0].message


def test_tide_itself_is_valid(tmp_path: Path) -> None:
    """The control of the test above: the file unchanged has no problem."""
    path = tmp_path / "tide.yaml"
    path.write_text(TIDE, encoding="utf-8")
    game, problems = check_file(path)
    assert problems == [] and game is not None
