"""A deck written as a list of card groups (roles/deck.py), checked by hand.

The file tests/kernels/deck_groups.yaml deals four groups, and docs/new-game.md
("The file") says how they are numbered: group after group, each as the one-line
deck numbers its cards, ((colour * R + role) * N + number - low) * K + copy, and a
card's kind is its (colour, role, number), numbered as the deck first lists it.
Written out by hand:

    group 0 {roles: [run], colours: [red, blue], numbers: [1, 3]}: 6 cards
        0 red run 1, 1 red run 2, 2 red run 3, 3 blue run 1, 4 blue run 2, 5 blue run 3
    group 1 {roles: [trip], colours: [red], numbers: [2, 2], copies: 2}: 2 cards
        6 red trip 2, 7 red trip 2                     (one kind: two copies)
    group 2 {roles: [run], colours: [red], numbers: [1, 1]}: 1 card
        8 red run 1                                    (card 0's kind: a copy of it)
    group 3 {roles: [trip, run], colours: [green], numbers: [0, 1], copies: 2}: 8 cards
        9, 10 green trip 0; 11, 12 green trip 1; 13, 14 green run 0; 15, 16 green run 1

17 cards, 11 kinds. tests/kernels/test_roles_deck_groups_kernel.py holds the compiled
tables and games to the same.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from balancer import games, knobs
from balancer.cli import cli
from balancer.games.roles import check_file, gamefile, load_file
from balancer.games.roles.deck import cards_for
from balancer.games.roles.definition import build, game_knobs
from balancer.games.roles.engine import State

HERE = Path(__file__).parent.parent / "kernels"
GROUPS = load_file(HERE / "deck_groups.yaml")

BY_HAND = [
    # (card, what it is, its kind)
    (0, "red run 1", 0),
    (1, "red run 2", 1),
    (2, "red run 3", 2),
    (3, "blue run 1", 3),
    (4, "blue run 2", 4),
    (5, "blue run 3", 5),
    (6, "red trip 2", 6),
    (7, "red trip 2", 6),
    (8, "red run 1", 0),
    (9, "green trip 0", 7),
    (10, "green trip 0", 7),
    (11, "green trip 1", 8),
    (12, "green trip 1", 8),
    (13, "green run 0", 9),
    (14, "green run 0", 9),
    (15, "green run 1", 10),
    (16, "green run 1", 10),
]


def rules_of(game: object, **overrides: object) -> dict[str, object]:
    return {**knobs.defaults(game_knobs(game)), **overrides}  # type: ignore[arg-type]


def test_the_group_deck_is_the_card_list_written_out_by_hand() -> None:
    cards = cards_for(rules_of(GROUPS))
    assert cards.size == 17
    assert [(c, cards.describe(c), cards.kind[c]) for c in range(cards.size)] == BY_HAND
    assert cards.copies == 2  # the most copies of one kind
    spec = build(GROUPS).spec
    assert spec.card_kinds is not None and spec.card_roles is not None
    # Card impact's kinds: one name per kind, named by its first card.
    assert spec.card_kinds(rules_of(GROUPS)) == (
        "red run 1", "red run 2", "red run 3", "blue run 1", "blue run 2", "blue run 3",
        "red trip 2", "green trip 0", "green trip 1", "green run 0", "green run 1",
    )  # fmt: skip
    assert spec.card_roles(rules_of(GROUPS)) == ("run",) * 6 + ("trip",) * 3 + ("run",) * 2


@pytest.mark.parametrize("copies", [1, 2, 3])
def test_a_one_line_deck_keeps_its_numbering_and_is_one_group(copies: int) -> None:
    """MEGA RACER's one-line deck (colours red, blue; roles speed, accident, block;
    numbers 1..6) numbers card ((colour * 3 + role) * 6 + number - 1) * K + copy, kind
    card // K, as before groups; the same deck written as one group is the same cards."""
    racer = load_file(gamefile.shipped_path("mega-racer"))  # type: ignore[arg-type]
    line = {"colours": ["red", "blue"], "roles": ["speed", "accident", "block"]}
    line |= {"numbers": [1, 6], "copies": copies}
    cards = cards_for(rules_of(racer, deck=line))
    expected = []
    for colour in ("red", "blue"):
        for role in ("speed", "accident", "block"):
            for number in range(1, 7):
                expected += [f"{colour} {role} {number}"] * copies
    assert [cards.describe(c) for c in range(cards.size)] == expected
    assert list(cards.kind) == [c // copies for c in range(cards.size)]
    assert cards_for({"deck": [line]}) == cards


def test_copies_apart_in_the_deck_are_one_move() -> None:
    """A hand of red run 1 (card 0), red run 1 (card 8), red trip 2 twice (6, 7) and
    red run 2 (1): three kinds, so three moves, each kind's first card in the hand's
    order: 0, 6, 1. (Were a kind card // 2, cards 0 and 1 would be one move and 8
    another.)"""
    state = State.arranged(GROUPS, rules_of(GROUPS), [[0, 8, 6, 7, 1], [2]])
    assert state.legal_actions() == [0, 6, 1]


def test_the_kinds_dealt_are_the_deck_kinds() -> None:
    """The record's held kinds (card impact) are the kinds of the cards dealt: a
    seat's bits are exactly its hand's kinds, 11 kinds in one word per seat."""
    from balancer.rng import CHANCE, Stream

    state = State(GROUPS, rules_of(GROUPS), 3, Stream(5, 0, CHANCE))
    cards = state.cards
    for seat, hand in enumerate(state.hands):
        bits = {k for k in range(11) if state.opening_held[seat] >> k & 1}
        assert bits == {cards.kind[c] for c in hand}


# -- validate: one line per mistake, at its file, line and key --------------------------

GAME = """\
name: groups
short: gr
players: [2, 4]
deck:
  - {roles: [run], colours: [red, blue], numbers: [1, 3]}
  - {roles: [trip], colours: [red], numbers: [2, 2], copies: 2}
hand_size: 2
counters:
  distance: {min: 0, max: 50}
roles:
  run: [{add: {counter: distance, by: number}}]
  trip: [{add: {counter: distance, by: -2, target: {top: distance}}}]
score:
  - {counter: distance}
"""
FIRST = "{roles: [run], colours: [red, blue], numbers: [1, 3]}"
SECOND = "{roles: [trip], colours: [red], numbers: [2, 2], copies: 2}"

# (text replaced in GAME, its replacement, line, key, a piece of the message)
MISTAKES = [
    (SECOND, SECOND + "\n  - {}", 7, "deck[2]", "an empty group"),
    (SECOND, "trip", 6, "deck[1]", "expected a group {roles, colours, numbers"),
    ("[trip], colours", "[trap], colours", 6, "deck[1].roles[0]", "role 'trap' has no definition"),
    (FIRST, "{roles: [run], colours: [red, blue]}", 5, "deck[0]", "missing key 'numbers'"),
    ("numbers: [2, 2]", "numbers: [3, 2]", 6, "deck[1].numbers", "high <= 1000000000, got [3, 2]"),
    ("copies: 2}", "copies: 0}", 6, "deck[1].copies", "expected a whole number in 1..10000"),
    ("copies: 2}", "copies: 2, number: 1}", 6, "deck[1].number", "unknown key"),
    ("colours: [red]", "colours: [red, red]", 6, "deck[1].colours[1]", "listed twice"),
    (
        "  trip: [",
        "  jump: [{add: {counter: distance, by: 1}}]\n  trip: [",
        12,
        "roles.jump",
        "role 'jump' is in no group of the deck",
    ),
    (
        "hand_size: 2",
        "hand_size: 3",
        7,
        "hand_size",
        "the deck holds 8 cards, too few to deal 3 to each of 4 players (players: 2..4)",
    ),
]


def write(folder: Path, text: str, name: str = "groups.yaml") -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize("old, new, line, key, piece", MISTAKES)
def test_a_bad_group_deck_is_one_line_at_its_key(
    tmp_path: Path, old: str, new: str, line: int, key: str, piece: str
) -> None:
    assert old in GAME
    path = write(tmp_path, GAME.replace(old, new, 1))
    game, problems = check_file(path)
    assert game is None
    assert [(p.line, p.key) for p in problems] == [(line, key)], problems
    assert problems[0].message.startswith(f"{path}:{line}: {key}: ")
    assert piece in problems[0].message


def test_the_group_game_itself_is_valid(tmp_path: Path) -> None:
    """The control of the test above: the file unchanged has no problem, 8 cards (6
    runs, 2 trips) dealt 2 each to at most 4 players."""
    game, problems = check_file(write(tmp_path, GAME))
    assert problems == [] and game is not None
    assert cards_for(rules_of(game)).size == 8


def test_validate_refuses_a_bad_group_in_one_line_exit_2(tmp_path: Path) -> None:
    path = write(tmp_path, GAME.replace("[trip], colours", "[trap], colours"))
    result = CliRunner().invoke(cli, ["validate", str(path)])
    assert result.exit_code == 2 and "Traceback" not in result.stderr
    assert result.stderr.strip().splitlines() == [
        f"balancer: error: {path}:6: deck[1].roles[0]: role 'trap' has no definition "
        "under roles: (did you mean 'trip'?)"
    ]


# -- a variant's deck ------------------------------------------------------------------


def deck_knob(game: object) -> knobs.Knob:
    return next(k for k in game_knobs(game) if k.name == "deck")  # type: ignore[arg-type]


def test_a_variants_deck_of_groups_replaces_the_files_whole() -> None:
    knob = deck_knob(GROUPS)
    given = [{"roles": ["run"], "colours": ["red"], "numbers": [1, 4]}]
    # copies filled in; the file's trip role left out is the variant's choice
    assert knob.check(given) == [
        {"roles": ["run"], "colours": ["red"], "numbers": [1, 4], "copies": 1}
    ]


@pytest.mark.parametrize(
    "value, said",
    [
        ({"copies": 2}, "this game's deck is a list of card groups"),
        ([{"roles": ["jump"], "colours": ["red"], "numbers": [1, 1]}], "deck[0].roles[0]: role"),
        ([{}], "deck[0]: an empty group"),
        ([], "deck: expected a non-empty list of card groups"),
    ],
)
def test_a_variants_bad_group_deck_says_where(value: object, said: str) -> None:
    with pytest.raises(ValueError, match=None) as caught:
        deck_knob(GROUPS).check(value)
    assert said in str(caught.value)


def test_a_one_line_game_keeps_a_one_line_variant_deck() -> None:
    """A one-line file's variant deck is one line (merged into the file's): card
    groups there are refused, as Fish! Dash! Cash!'s heuristic reads a one-line deck."""
    racer = load_file(gamefile.shipped_path("mega-racer"))  # type: ignore[arg-type]
    knob = deck_knob(racer)
    assert knob.check({"copies": 2})["copies"] == 2  # the control: one line is fine
    with pytest.raises(ValueError, match="this game's deck is one line"):
        knob.check([{"roles": ["speed"], "colours": ["red"], "numbers": [1, 6]}])


def test_a_variant_of_the_group_game_runs_and_validates(tmp_path: Path) -> None:
    """A variant on the group file validates (exit 0); one whose deck names a role the
    file has not is one line, exit 2, naming the variant's file and key."""
    write(tmp_path, GAME)
    good = write(tmp_path, "game: ./groups.yaml\nplayers: 3\nbots: random\n", "v.yaml")
    bad_deck = "rules:\n  deck:\n    - {roles: [jump], colours: [red], numbers: [1, 2]}\n"
    bad = write(tmp_path, f"game: ./groups.yaml\nplayers: 3\nbots: random\n{bad_deck}", "w.yaml")
    try:
        result = CliRunner().invoke(cli, ["validate", str(good)])
        assert result.exit_code == 0, result.output
        result = CliRunner().invoke(cli, ["validate", str(bad)])
        assert result.exit_code == 2 and "Traceback" not in result.stderr
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1 and f"{bad}:5: rules.deck" in lines[0], lines
        assert "deck[0].roles[0]: role 'jump' has no definition" in lines[0]
    finally:  # the registry is the process's: leave it as other tests expect it
        if games.registered("groups"):
            games.unregister("groups")


def test_fdc_heuristic_sits_only_at_a_one_line_deck(tmp_path: Path) -> None:
    """Fish! Dash! Cash!'s heuristic reads its views through a one-line deck
    (fdc_heuristic.py): a file of its roles with the deck as card groups has no
    heuristic; the control, the same file with a one-line deck, has it."""
    from balancer.games.roles.fdc_heuristic import plays_fdc_roles

    head = "extends: fish-dash-cash-roles\nname: fish-groups\nshort: fg\n"
    one_line = "deck: {colours: [red, blue, green], roles: [fish, dash, cash], numbers: [1, 9]}\n"
    groups = (
        "deck:\n"
        "  - {roles: [fish, dash, cash], colours: [red, blue], numbers: [1, 9]}\n"
        "  - {roles: [fish], colours: [green], numbers: [1, 9], copies: 2}\n"
        "  - {roles: [dash, cash], colours: [green], numbers: [1, 9]}\n"
    )
    assert plays_fdc_roles(load_file(write(tmp_path, head + one_line, "a.yaml")))
    assert not plays_fdc_roles(load_file(write(tmp_path, head + groups, "b.yaml")))


@pytest.mark.parametrize("goal, problem", [(16, None), (17, "at most 16")])
def test_an_end_goal_is_held_to_what_the_groups_can_bring(
    tmp_path: Path, goal: int, problem: str | None
) -> None:
    """GAME with runs in its second group too: the runs add their number, red and blue
    1, 2, 3 once each (2 × 6 = 12) and red 2 twice (4); the trips add nothing to their
    owner. So distance can reach 16 (the control), never 17."""
    text = GAME.replace("[trip], colours", "[trip, run], colours")
    text += f"end:\n  - {{counter: distance, reaches: {goal}}}\n"
    _, problems = check_file(write(tmp_path, text))
    assert [p.key for p in problems] == ([] if problem is None else ["end[0].reaches"])
    assert problem is None or problem in problems[0].message


def test_a_zone_terms_bound_counts_every_group() -> None:
    """A zone term paying 1 a card and 1 a number over deck_groups.yaml's 17 cards,
    whose numbers sum to 2 × (1 + 2 + 3) + 2 × 2 + 1 + 4 × (0 + 1) = 21: 17 + 21 = 38."""
    from balancer.games.roles.bounds import term_most
    from balancer.games.roles.model import Term

    term = Term(zone="anything", per_card=("int", 1), per_number=("int", 1))
    assert term_most(term, GROUPS.deck, GROUPS.counters, GROUPS.knobs) == 38
