"""`draw` and `discard`, played by hand on the Python interpreter: situations whose
outcome is worked out from docs/new-game.md's words.

The game, TOPUP: all red cards but the ones laid in the pile or held back, numbers
apart, so no card is cancelled and the highest number resolves first (docs/rules.md).
Its cards: colours red 0, blue 1; roles fetch 0, dump 1, hoard 2, toss 3, rest 4;
numbers 1..4; card = (colour * 5 + role) * 4 + number - 1 (the engine's encoding), a
deck of 40. `State.arranged` lays the pile top card first.

tests/kernels/test_roles_draw_discard_kernel.py plays the same situations on the
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

TOPUP = """\
name: topup
short: tu
players: [2, 4]
deck: {colours: [red, blue], roles: [fetch, dump, hoard, toss, rest], numbers: [1, 4], copies: 1}
hand_size: 1
zones:
  bag: {face: down}
roles:
  fetch:
    - draw: {count: 2, event: draws}
  dump:
    - discard: {event: dumps}
  hoard:
    - draw: {count: number, target: all_rivals, event: gifts}
  toss:
    - discard: {from: bag, event: tosses}
  rest:
    - place: {zone: bag}
score:
  - {zone: bag, per_card: 1}
events:
  draws: {meaning: a fetch drew}
  dumps: {meaning: a card dumped from a hand}
  gifts: {meaning: the rivals drew}
  tosses: {meaning: a card tossed from the bag}
"""
FETCH, DUMP, HOARD, TOSS, REST = range(5)


def red(role: int, number: int) -> int:
    return role * 4 + number - 1


def blue(role: int, number: int) -> int:
    return 20 + role * 4 + number - 1


def topup(folder: Path) -> RoleGame:
    path = folder / "topup.yaml"
    path.write_text(TOPUP, encoding="utf-8")
    return load_file(path)


@dataclass(frozen=True)
class Situation:
    """A table laid out by hand, the moves played on it (a trick's cards from the
    leader, then any decision), and what it leaves, worked out by hand."""

    hands: tuple[tuple[int, ...], ...]
    pile: tuple[int, ...]  # top card first
    moves: tuple[int, ...]
    after_hands: tuple[tuple[int, ...], ...]
    after_pile: tuple[int, ...] = ()
    bag: tuple[tuple[int, ...], ...] = ()
    after_bag: tuple[tuple[int, ...], ...] = ()
    discarded: tuple[int, ...] = ()  # the last cards to reach the discard, in order
    events: dict[str, int] = field(default_factory=dict)

    def state(self, game: RoleGame) -> State:
        rules = knobs.defaults(game_knobs(game))
        hands = [list(h) for h in self.hands]
        bag = [list(b) for b in self.bag] or [[] for _ in hands]
        return State.arranged(game, rules, hands, pile=list(self.pile), zones={"bag": bag})

    def expected_events(self) -> dict[str, int]:
        return {"draws": 0, "dumps": 0, "gifts": 0, "tosses": 0, **self.events}


SITUATIONS = {
    # Seat 0's fetch 4 resolves first and draws 2 from a pile of 3: the top card, then
    # the next (blue rest 1, blue rest 2), into its hand in that order; one draw. Seat
    # 1's rest 3 goes to its bag. The trick's round of draws starts from seat 0 (its
    # card resolved first): seat 0 draws the last card, blue rest 3; seat 1 none.
    "fetch-draws-the-top-two": Situation(
        hands=((red(FETCH, 4),), (red(REST, 3),)),
        pile=(blue(REST, 1), blue(REST, 2), blue(REST, 3)),
        moves=(red(FETCH, 4), red(REST, 3)),
        after_hands=((blue(REST, 1), blue(REST, 2), blue(REST, 3)), ()),
        after_bag=((), (red(REST, 3),)),
        events={"draws": 1},
    ),
    # A draw of 2 when the pile has 1: seat 0 draws that one (still a draw: a card
    # moved), and the round of draws finds the pile empty.
    "fetch-draws-what-the-pile-has": Situation(
        hands=((red(FETCH, 4),), (red(REST, 3),)),
        pile=(blue(REST, 1),),
        moves=(red(FETCH, 4), red(REST, 3)),
        after_hands=((blue(REST, 1),), ()),
        after_bag=((), (red(REST, 3),)),
        events={"draws": 1},
    ),
    # The control: an empty pile. The fetch draws nothing and counts no draw; every
    # hand is empty after the trick, so the game is over.
    "fetch-from-an-empty-pile-draws-nothing": Situation(
        hands=((red(FETCH, 4),), (red(REST, 3),)),
        pile=(),
        moves=(red(FETCH, 4), red(REST, 3)),
        after_hands=((), ()),
        after_bag=((), (red(REST, 3),)),
    ),
    # Seat 0's hoard 3 gives each rival 3 cards (its number), from its left: seat 1
    # draws the top three, seat 2 the two left (the pile runs short); one gift. The
    # rests go to the bags; the round of draws finds the pile empty. Hands are unequal
    # now: seat 0 holds none, and the next trick is seat 1's and seat 2's.
    "hoard-gives-each-rival-its-number": Situation(
        hands=((red(HOARD, 3),), (red(REST, 1),), (red(REST, 2),)),
        pile=(blue(REST, 1), blue(REST, 2), blue(REST, 3), blue(REST, 4), blue(DUMP, 1)),
        moves=(red(HOARD, 3), red(REST, 1), red(REST, 2)),
        after_hands=(
            (),
            (blue(REST, 1), blue(REST, 2), blue(REST, 3)),
            (blue(REST, 4), blue(DUMP, 1)),
        ),
        after_bag=((), (red(REST, 1),), (red(REST, 2),)),
        events={"gifts": 1},
    ),
    # Seat 0's dump 4 resolves: it holds blue rest 1 and blue rest 3, two ways (its
    # decision, the cards' numbers as actions), and it picks blue rest 3: to the
    # discard, then the dump 4 itself once resolved. Seat 1's rest 2 to its bag.
    "dump-discards-the-card-its-owner-picks": Situation(
        hands=((red(DUMP, 4), blue(REST, 1), blue(REST, 3)), (red(REST, 2),)),
        pile=(),
        moves=(red(DUMP, 4), red(REST, 2), blue(REST, 3)),
        after_hands=((blue(REST, 1),), ()),
        after_bag=((), (red(REST, 2),)),
        discarded=(blue(REST, 3), red(DUMP, 4)),
        events={"dumps": 1},
    ),
    # Seat 0's toss 2: its bag holds one card, discarded at once (no decision): one
    # toss. Seat 1's rest 1 goes to its bag after.
    "toss-discards-the-one-card-in-the-bag": Situation(
        hands=((red(TOSS, 2), blue(REST, 4)), (red(REST, 1), blue(REST, 2))),
        pile=(),
        bag=((blue(DUMP, 3),), ()),
        moves=(red(TOSS, 2), red(REST, 1)),
        after_hands=((blue(REST, 4),), (blue(REST, 2),)),
        after_bag=((), (red(REST, 1),)),
        discarded=(blue(DUMP, 3), red(TOSS, 2)),
        events={"tosses": 1},
    ),
    # The control: an empty bag. The toss has no way to act: nothing discarded, no
    # toss counted.
    "toss-from-an-empty-bag-does-nothing": Situation(
        hands=((red(TOSS, 2), blue(REST, 4)), (red(REST, 1), blue(REST, 2))),
        pile=(),
        moves=(red(TOSS, 2), red(REST, 1)),
        after_hands=((blue(REST, 4),), (blue(REST, 2),)),
        after_bag=((), (red(REST, 1),)),
        discarded=(red(TOSS, 2),),
    ),
}


def played(situation: Situation, game: RoleGame) -> State:
    state = situation.state(game)
    for move in situation.moves:
        assert move in state.legal_actions()
        state.apply_action(move)
        state.check_invariants()
    return state


@pytest.mark.parametrize("name", list(SITUATIONS))
def test_each_situation_leaves_what_was_worked_out(tmp_path: Path, name: str) -> None:
    situation = SITUATIONS[name]
    state = played(situation, topup(tmp_path))
    assert state.phase != CHOICE
    assert tuple(map(tuple, state.hands)) == situation.after_hands
    assert tuple(reversed(state.pile)) == situation.after_pile
    assert tuple(map(tuple, state.zones["bag"])) == situation.after_bag
    if situation.discarded:
        assert tuple(state.discard[-len(situation.discarded) :]) == situation.discarded
    assert state.events == situation.expected_events()


def test_the_dump_asks_its_owner_which_card(tmp_path: Path) -> None:
    """At the dump, seat 0 decides between the two cards in its hand: one way each,
    its action the card (no option taking a card comes before it)."""
    state = SITUATIONS["dump-discards-the-card-its-owner-picks"].state(topup(tmp_path))
    state.apply_action(red(DUMP, 4))
    state.apply_action(red(REST, 2))
    assert state.phase == CHOICE and state.current_player() == 0
    assert state.legal_actions() == [blue(REST, 1), blue(REST, 3)]


def test_copies_are_one_way_to_discard(tmp_path: Path) -> None:
    """Two copies of a card in the hand are one way (RULES.md §4), as for a steal: with
    copies: 2, a hand of both copies of blue rest 1 and one blue rest 3 gives two ways."""
    two = TOPUP.replace("copies: 1", "copies: 2")
    path = tmp_path / "topup2.yaml"
    path.write_text(two, encoding="utf-8")
    game = load_file(path)
    rules = knobs.defaults(game_knobs(game))

    def card(colour: int, role: int, number: int, copy: int) -> int:
        return ((colour * 5 + role) * 4 + number - 1) * 2 + copy

    rest1, rest1b, rest3 = card(1, REST, 1, 0), card(1, REST, 1, 1), card(1, REST, 3, 0)
    hands = [[card(0, DUMP, 4, 0), rest1, rest1b, rest3], [card(0, REST, 2, 0)]]
    state = State.arranged(game, rules, hands)
    state.apply_action(card(0, DUMP, 4, 0))
    state.apply_action(card(0, REST, 2, 0))
    assert state.legal_actions() == [rest1, rest3]


def test_a_card_discarded_from_face_down_is_seen_again(tmp_path: Path) -> None:
    """The toss's card lay in the face-down bag where the rival could not tell it was
    (unsure, as after a steal between face-down zones); discarded, it is face up: sure
    again, and in every seat's view of the discard. The control: before, seat 1's view
    of seat 0's bag recalls nothing."""
    situation = SITUATIONS["toss-discards-the-one-card-in-the-bag"]
    state = situation.state(topup(tmp_path))
    state.unsure = {blue(DUMP, 3)}
    assert state.view(1).recalled["bag"][0] == ()
    for move in situation.moves:
        state.apply_action(move)
    assert state.unsure == set()
    assert blue(DUMP, 3) in state.view(1).discard


def test_hoard_leaves_hands_unequal_and_the_trick_goes_on(tmp_path: Path) -> None:
    """After the hoard, seat 0 (the next leader: its card resolved first) holds no
    card: the trick is led by the first seat from it that holds one, seat 1."""
    state = played(SITUATIONS["hoard-gives-each-rival-its-number"], topup(tmp_path))
    assert state.order == [1, 2] and state.current_player() == 1
    assert not state.is_terminal()


def test_a_drawn_card_is_hidden_from_the_rivals(tmp_path: Path) -> None:
    """Seat 1's view shows seat 0's three cards as a count, never the cards; seat 0's
    own view shows them (the control: the view can show them)."""
    state = played(SITUATIONS["fetch-draws-the-top-two"], topup(tmp_path))
    drawn = {blue(REST, 1), blue(REST, 2), blue(REST, 3)}
    rival = state.view(1)
    assert rival.hand_sizes[0] == 3
    shown = set(rival.hand) | set(rival.discard) | {c for _, c in rival.trick}
    shown |= {c for zone in rival.zones.values() for z in zone if not isinstance(z, int) for c in z}
    assert not shown & drawn
    assert set(state.view(0).hand) == drawn


def test_the_replay_tells_draws_and_discards(tmp_path: Path) -> None:
    """A draw says to all how many cards and who made whom draw, and to the drawer which
    cards; a discard which card."""
    game = topup(tmp_path)
    rules = knobs.defaults(game_knobs(game))
    state = SITUATIONS["fetch-draws-what-the-pile-has"].state(game)
    state.trace = []
    for move in SITUATIONS["fetch-draws-what-the-pile-has"].moves:
        state.apply_action(move)
    told = narrate.lines(state.trace or [], rules)
    assert "  seat 0 draws 2 cards (the pile had 1)" in told
    assert (0, "  seat 0 draws blue rest 1") in told
    state = SITUATIONS["hoard-gives-each-rival-its-number"].state(game)
    state.trace = []
    for move in SITUATIONS["hoard-gives-each-rival-its-number"].moves:
        state.apply_action(move)
    told = narrate.lines(state.trace or [], rules)
    assert "  seat 0 makes seat 1 draw 3 cards" in told
    assert "  seat 0 makes seat 2 draw 3 cards (the pile had 2)" in told
    assert (2, "  seat 2 draws blue rest 4, blue dump 1") in told
    state = SITUATIONS["dump-discards-the-card-its-owner-picks"].state(game)
    state.trace = []
    for move in SITUATIONS["dump-discards-the-card-its-owner-picks"].moves:
        state.apply_action(move)
    assert "  seat 0 discards blue rest 3 from its hand" in narrate.lines(state.trace or [], rules)


# (text replaced in TOPUP, its line, key, a piece of the message): what validate says.
MISTAKES = [
    (
        "draw: {count: 2, event: draws}",
        "draw: {event: draws}",
        10,
        "roles.fetch[0].draw",
        "draw needs 'count'",
    ),
    (
        "draw: {count: 2, event: draws}",
        "draw: {count: lots, event: draws}",
        10,
        "roles.fetch[0].draw.count",
        "expected a whole number, number, number * K, {count: ZONE}, {value: ZONE}",
    ),
    (
        "discard: {from: bag, event: tosses}",
        "discard: {from: bga, event: tosses}",
        16,
        "roles.toss[0].discard.from",
        "unknown zone 'bga' (did you mean 'bag'?)",
    ),
    (
        "discard: {event: dumps}",
        "discard: {count: 2, event: dumps}",
        12,
        "roles.dump[0].discard",
        "a chosen discard is of one card: `count` needs `at_random: true`",
    ),
]


@pytest.mark.parametrize("old, new, line, key, piece", MISTAKES)
def test_a_bad_parameter_is_one_line_at_its_key(
    tmp_path: Path, old: str, new: str, line: int, key: str, piece: str
) -> None:
    assert old in TOPUP
    path = tmp_path / "topup.yaml"
    path.write_text(TOPUP.replace(old, new), encoding="utf-8")
    game, problems = check_file(path)
    assert game is None
    assert [(p.line, p.key) for p in problems] == [(line, key)], problems
    assert problems[0].message.startswith(f"{path}:{line}: {key}: ")
    assert piece in problems[0].message


def test_topup_itself_is_valid(tmp_path: Path) -> None:
    """The control of the test above: the file unchanged has no problem, `from: hand`
    spelt out included."""
    path = tmp_path / "topup.yaml"
    path.write_text(
        TOPUP.replace("discard: {event", "discard: {from: hand, event"), encoding="utf-8"
    )
    game, problems = check_file(path)
    assert problems == [] and game is not None
