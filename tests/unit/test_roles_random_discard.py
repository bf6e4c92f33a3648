"""A discard at random (`discard: {at_random: true, count: N, target: T}`), played by hand
on the Python interpreter: situations whose outcome is worked out from
docs/new-game.md's words and the chance stream's first draws, said below.

The game, SHAKE: the cards played are red and numbered apart, so none is cancelled
and the highest number resolves first (docs/rules.md); the blue ones stay in hands
and bags. Its cards: colours red 0, blue 1; roles purge 0, raid 1, sack 2, wary 3,
rest 4; numbers 1..4; card = (colour * 5 + role) * 4 + number - 1 (the engine's
encoding), a deck of 40. `State.arranged` puts every card not laid out in the
discard; each situation sets the chance stream the game goes on from.

A random discard draws its cards one by one, each `chance.below(cards left)`, the
index into the hand (or zone) in its order (primitives/discard.py). The streams'
first draws, which the situations' hand-work reads (checked by
`test_the_streams_draw_as_the_situations_say`):

- Stream(7, 0, CHANCE): below(3) = 2, then below(2) = 1;
- Stream(3, 0, CHANCE): below(3) = 2, then below(2) = 0;
- Stream(4, 0, CHANCE): below(2) = 1, then below(1) = 0, below(1) = 0.

tests/kernels/test_roles_random_discard_kernel.py plays the same situations on the
compiled kernel, position for position with the interpreter.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pytest

from balancer import knobs
from balancer.games.roles import check_file, load_file, narrate
from balancer.games.roles.definition import game_knobs
from balancer.games.roles.engine import CHOICE, State
from balancer.games.roles.model import RoleGame
from balancer.rng import CHANCE, Stream

SHAKE = """\
name: shake
short: sk
players: [2, 6]
deck: {colours: [red, blue], roles: [purge, raid, sack, wary, rest], numbers: [1, 4], copies: 1}
hand_size: 1
zones:
  bag: {face: down}
roles:
  purge:
    - discard: {at_random: true, count: 2, event: purges}
  raid:
    - discard: {at_random: true, count: number, target: next, event: raids}
  sack:
    - discard: {from: bag, at_random: true, count: 9, target: all_rivals, event: sacks}
  wary:
    - discard: {at_random: true, if: {zone: bag, count_at_least: 1}, event: wary}
  rest:
    - place: {zone: bag}
score:
  - {zone: bag, per_card: 1}
events:
  purges: {meaning: a purge discarded}
  raids: {meaning: a raid discarded from the next seat}
  sacks: {meaning: a sack emptied a rival's bag}
  wary: {meaning: a wary discard}
"""
PURGE, RAID, SACK, WARY, REST = range(5)


def red(role: int, number: int) -> int:
    return role * 4 + number - 1


def blue(role: int, number: int) -> int:
    return 20 + role * 4 + number - 1


def shake(folder: Path) -> RoleGame:
    path = folder / "shake.yaml"
    path.write_text(SHAKE, encoding="utf-8")
    return load_file(path)


@dataclass(frozen=True)
class Situation:
    """A table laid out by hand, the chance stream it goes on from (Stream(key, 0,
    CHANCE)), the trick's cards from the leader, and what it leaves, worked out by hand."""

    hands: tuple[tuple[int, ...], ...]
    chance: int
    moves: tuple[int, ...]
    after_hands: tuple[tuple[int, ...], ...]
    bag: tuple[tuple[int, ...], ...] = ()
    after_bag: tuple[tuple[int, ...], ...] = ()
    discarded: tuple[int, ...] = ()  # the last cards to reach the discard, in order
    events: dict[str, int] = field(default_factory=dict)
    draws: bool = True  # whether the chance stream is drawn from

    def state(self, game: RoleGame) -> State:
        rules = knobs.defaults(game_knobs(game))
        hands = [list(h) for h in self.hands]
        bag = [list(b) for b in self.bag] or [[] for _ in hands]
        state = State.arranged(game, rules, hands, zones={"bag": bag})
        state.chance = Stream(self.chance, 0, CHANCE)
        return state

    def expected_events(self) -> dict[str, int]:
        return {"purges": 0, "raids": 0, "sacks": 0, "wary": 0, **self.events}


SITUATIONS = {
    # Seat 0's purge 4 resolves first: its hand is then blue rest 1, 2, 3; stream 7
    # draws index 2 (blue rest 3), then index 1 of the two left (blue rest 2). Then the
    # purge itself is discarded; seat 1's rest 1 goes to its bag.
    "purge-discards-two-at-random": Situation(
        hands=((red(PURGE, 4), blue(REST, 1), blue(REST, 2), blue(REST, 3)), (red(REST, 1),)),
        chance=7,
        moves=(red(PURGE, 4), red(REST, 1)),
        after_hands=((blue(REST, 1),), ()),
        after_bag=((), (red(REST, 1),)),
        discarded=(blue(REST, 3), blue(REST, 2), red(PURGE, 4)),
        events={"purges": 1},
    ),
    # Two asked, one there: the purge discards blue rest 2 (below(1) is 0 whatever
    # the stream) and stops; still a purge (a card went).
    "purge-of-more-than-the-hand-takes-what-is-there": Situation(
        hands=((red(PURGE, 4), blue(REST, 2)), (red(REST, 1),)),
        chance=7,
        moves=(red(PURGE, 4), red(REST, 1)),
        after_hands=((), ()),
        after_bag=((), (red(REST, 1),)),
        discarded=(blue(REST, 2), red(PURGE, 4)),
        events={"purges": 1},
    ),
    # Seat 0's raid 2 discards 2 (its number) from the next seat's hand, seat 1's, which
    # after its rest 1 is blue rest 1, 3, 4: stream 3 draws index 2 (blue rest 4), then
    # index 0 (blue rest 1). Seat 0's own blue rest 2 is untouched.
    "raid-discards-from-the-next-seat": Situation(
        hands=(
            (red(RAID, 2), blue(REST, 2)),
            (red(REST, 1), blue(REST, 1), blue(REST, 3), blue(REST, 4)),
        ),
        chance=3,
        moves=(red(RAID, 2), red(REST, 1)),
        after_hands=((blue(REST, 2),), (blue(REST, 3),)),
        after_bag=((), (red(REST, 1),)),
        discarded=(blue(REST, 4), blue(REST, 1), red(RAID, 2)),
        events={"raids": 1},
    ),
    # The control of a target: seat 1's hand is empty once it played its rest 1, so the
    # raid has nothing to take: nothing discarded, no raid counted, no draw.
    "raid-on-an-empty-hand-does-nothing": Situation(
        hands=((red(RAID, 2), blue(REST, 2)), (red(REST, 1),)),
        chance=3,
        moves=(red(RAID, 2), red(REST, 1)),
        after_hands=((blue(REST, 2),), ()),
        after_bag=((), (red(REST, 1),)),
        discarded=(red(RAID, 2),),
        draws=False,
    ),
    # Seat 0's sack 4 empties every rival's bag (9 asked, fewer there), rivals from its
    # left: seat 1's bag blue rest 1, 2: stream 4 draws index 1 (blue rest 2), then 0
    # (blue rest 1); seat 2's bag blue rest 3: index 0. The rests played (3 and 2)
    # resolve after the sack, into the bags it emptied. One sack (counted once a step).
    "sack-empties-every-rivals-bag": Situation(
        hands=((red(SACK, 4),), (red(REST, 3),), (red(REST, 2),)),
        chance=4,
        bag=((blue(REST, 4),), (blue(REST, 1), blue(REST, 2)), (blue(REST, 3),)),
        moves=(red(SACK, 4), red(REST, 3), red(REST, 2)),
        after_hands=((), (), ()),
        after_bag=((blue(REST, 4),), (red(REST, 3),), (red(REST, 2),)),
        discarded=(blue(REST, 2), blue(REST, 1), blue(REST, 3), red(SACK, 4)),
        events={"sacks": 1},
    ),
    # Seat 0's wary 4 acts only if its bag holds a card: it holds none, so the step does
    # nothing (no draw from chance either) and blue rest 1 stays in its hand.
    "wary-with-its-condition-false-does-nothing": Situation(
        hands=((red(WARY, 4), blue(REST, 1)), (red(REST, 1),)),
        chance=7,
        moves=(red(WARY, 4), red(REST, 1)),
        after_hands=((blue(REST, 1),), ()),
        after_bag=((), (red(REST, 1),)),
        discarded=(red(WARY, 4),),
        draws=False,
    ),
    # The control: with a card in its bag the wary discards one at random, the only
    # card in its hand, blue rest 1.
    "wary-with-its-condition-true-discards": Situation(
        hands=((red(WARY, 4), blue(REST, 1)), (red(REST, 1),)),
        chance=7,
        bag=((blue(REST, 4),), ()),
        moves=(red(WARY, 4), red(REST, 1)),
        after_hands=((), ()),
        after_bag=((blue(REST, 4),), (red(REST, 1),)),
        discarded=(blue(REST, 1), red(WARY, 4)),
        events={"wary": 1},
    ),
}


def played(situation: Situation, game: RoleGame) -> State:
    state = situation.state(game)
    for move in situation.moves:
        assert move in state.legal_actions()
        state.apply_action(move)
        state.check_invariants()
    return state


def test_the_streams_draw_as_the_situations_say() -> None:
    """The draws the situations' hand-work reads (the module docstring)."""
    seven, three, four = (Stream(k, 0, CHANCE) for k in (7, 3, 4))
    assert (seven.below(3), seven.below(2)) == (2, 1)
    assert (three.below(3), three.below(2)) == (2, 0)
    assert (four.below(2), four.below(1), four.below(1)) == (1, 0, 0)


@pytest.mark.parametrize("name", list(SITUATIONS))
def test_each_situation_leaves_what_was_worked_out(tmp_path: Path, name: str) -> None:
    situation = SITUATIONS[name]
    state = played(situation, shake(tmp_path))
    assert state.phase != CHOICE  # a random discard asks nobody
    assert tuple(map(tuple, state.hands)) == situation.after_hands
    assert tuple(map(tuple, state.zones["bag"])) == situation.after_bag
    assert tuple(state.discard[-len(situation.discarded) :]) == situation.discarded
    assert state.events == situation.expected_events()
    assert (state.chance.counter > 0) == situation.draws


def test_a_random_discard_is_no_decision(tmp_path: Path) -> None:
    """With three cards to pick from, the purge still asks nothing: after the trick's
    two cards it is seat 0's turn to lead again, never a CHOICE (the control: a chosen
    discard of the same hand would stop for its owner, test_roles_draw_discard.py)."""
    state = SITUATIONS["purge-discards-two-at-random"].state(shake(tmp_path))
    state.apply_action(red(PURGE, 4))
    state.apply_action(red(REST, 1))
    assert state.phase != CHOICE and state.current_player() == 0


def test_the_cards_drawn_follow_the_stream(tmp_path: Path) -> None:
    """The control of the situations: the same table on another stream (stream 3: index
    2, then 0) discards other cards (blue rest 3 and blue rest 1), so the outcome above
    is the stream's, not a fixed pick."""
    situation = SITUATIONS["purge-discards-two-at-random"]
    state = situation.state(shake(tmp_path))
    state.chance = Stream(3, 0, CHANCE)
    for move in situation.moves:
        state.apply_action(move)
    assert state.hands[0] == [blue(REST, 2)]
    assert state.discard[-3:] == [blue(REST, 3), blue(REST, 1), red(PURGE, 4)]


def test_a_card_discarded_at_random_from_face_down_is_seen_again(tmp_path: Path) -> None:
    """Seat 1's bag cards lay face down where seat 2 could not tell they were (unsure);
    sacked, they are face up: sure again, and in every seat's view of the discard. The
    control: before, seat 2's view of seat 1's bag recalls nothing."""
    situation = SITUATIONS["sack-empties-every-rivals-bag"]
    state = situation.state(shake(tmp_path))
    state.unsure = {blue(REST, 1), blue(REST, 2)}
    assert state.view(2).recalled["bag"][1] == ()
    for move in situation.moves:
        state.apply_action(move)
    assert state.unsure == set()
    assert {blue(REST, 1), blue(REST, 2)} <= set(state.view(2).discard)


def test_the_world_chance_is_a_copy_in_a_clone(tmp_path: Path) -> None:
    """A clone draws what its original would, independently: a lookahead's trials start
    from their world's chance, every move alike (roles/lookahead.py)."""
    state = SITUATIONS["purge-discards-two-at-random"].state(shake(tmp_path))
    other = state.clone()
    assert other.chance.below(1000) == state.chance.below(1000)
    assert other.chance is not state.chance


def told(name: str, game: RoleGame, lang: str) -> list[object]:
    situation = SITUATIONS[name]
    state = situation.state(game)
    state.trace = []
    for move in situation.moves:
        state.apply_action(move)
    return narrate.lines(state.trace or [], knobs.defaults(game_knobs(game)), lang)


def test_the_replay_tells_a_random_discard(tmp_path: Path) -> None:
    """Every seat is told which cards went (face up, to the discard), whose, and how many
    were asked for when fewer were there."""
    game = shake(tmp_path)
    said = told("purge-discards-two-at-random", game, "en")
    assert "  seat 0 discards 2 cards at random from its hand: blue rest 3, blue rest 2" in said
    said = told("purge-of-more-than-the-hand-takes-what-is-there", game, "en")
    assert "  seat 0 discards 2 cards at random from its hand (it had 1): blue rest 2" in said
    said = told("sack-empties-every-rivals-bag", game, "en")
    line = "  seat 0 makes seat 1 discard 9 cards at random from its bag (it had 2): "
    assert line + "blue rest 2, blue rest 1" in said
    said = told("raid-on-an-empty-hand-does-nothing", game, "en")
    assert "  seat 0 makes seat 1 discard 2 cards at random from its hand (it had 0)" in said


def test_the_replay_tells_a_random_discard_in_japanese(tmp_path: Path) -> None:
    game = shake(tmp_path)
    said = told("raid-discards-from-the-next-seat", game, "ja")
    assert any(
        isinstance(line, str)
        and line.startswith("  席 0 が席 1 の 手札 から無作為に 2 枚捨てさせる")
        for line in said
    ), said
    said = told("purge-of-more-than-the-hand-takes-what-is-there", game, "ja")
    assert any(
        isinstance(line, str) and "無作為に 2 枚捨てる（1 枚だけ）" in line for line in said
    ), said


# (text replaced in SHAKE, its line, key, a piece of the message): what validate says.
MISTAKES = [
    (
        "discard: {at_random: true, count: 2, event: purges}",
        "discard: {at_random: maybe, count: 2, event: purges}",
        10,
        "roles.purge[0].discard.at_random",
        "expected true or false",
    ),
    (
        "discard: {at_random: true, count: 2, event: purges}",
        "discard: {at_random: true, count: lots, event: purges}",
        10,
        "roles.purge[0].discard.count",
        "expected a whole number, number, number * K",
    ),
    (
        "count: number, target: next, event: raids}",
        "count: number, target: nxt, event: raids}",
        12,
        "roles.raid[0].discard.target",
        "nxt",
    ),
    (
        "discard: {at_random: true, count: number, target: next, event: raids}",
        "discard: {target: next, event: raids}",
        12,
        "roles.raid[0].discard",
        "a chosen discard is of the owner's own cards: `target` needs `at_random: true`",
    ),
    (
        "discard: {at_random: true, count: 2, event: purges}",
        "discard: {at_random: true, count: 2, cards: 3, event: purges}",
        10,
        "roles.purge[0].discard.cards",
        "unknown parameter of discard",
    ),
]


@pytest.mark.parametrize("old, new, line, key, piece", MISTAKES)
def test_a_bad_parameter_is_one_line_at_its_key(
    tmp_path: Path, old: str, new: str, line: int, key: str, piece: str
) -> None:
    assert old in SHAKE
    path = tmp_path / "shake.yaml"
    path.write_text(SHAKE.replace(old, new), encoding="utf-8")
    game, problems = check_file(path)
    assert game is None
    assert [(p.line, p.key) for p in problems] == [(line, key)], problems
    assert problems[0].message.startswith(f"{path}:{line}: {key}: ")
    assert piece in problems[0].message


def test_shake_itself_is_valid(tmp_path: Path) -> None:
    """The control of the test above: the file unchanged has no problem, and neither has
    a random discard's target written as `self`."""
    path = tmp_path / "shake.yaml"
    path.write_text(SHAKE.replace("count: 2, event", "count: 2, target: self, event"), "utf-8")
    game, problems = check_file(path)
    assert problems == [] and game is not None
