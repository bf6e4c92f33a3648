"""Conditions on steps (`if:`) and amounts as small expressions, played by hand on the
Python interpreter: situations whose outcome is worked out from docs/new-game.md's
words ("Conditions", "Values").

The game, LADDER: one trick of one card each, all red with numbers apart, so no card
is cancelled and the highest number resolves first (docs/rules.md); a blue card
among red ones is cancelled (off-colour). Its cards: colours red 0, blue 1; roles
push 0, sprint 1, pick 2, drop 3, rest 4; numbers 1..4;
card = (colour * 5 + role) * 4 + number - 1 (the engine's encoding).

tests/kernels/test_roles_conditions_kernel.py plays the same situations on the
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

LADDER = """\
name: ladder
short: ld
players: [2, 4]
deck: {colours: [red, blue], roles: [push, sprint, pick, drop, rest], numbers: [1, 4], copies: 1}
hand_size: 1
zones:
  bag: {face: up}
counters:
  pos: {min: -50, max: 50}
flags:
  shield: {lasts: game}
  star: {lasts: game}
knobs:
  last_at: {default: 3, range: [0, 20], meaning: a seat at most this far is last}
  twice: {default: 2, range: [0, 9], meaning: what a sprint multiplies its number by}
roles:
  push:
    - add: {counter: pos, by: 1, event: moves}
    - add: {counter: pos, by: 2, if: {counter: pos, at_most: last_at}, event: extra}
  sprint:
    - add: {counter: pos, by: number * twice, if: {flag: shield, of: next}, event: sprints}
    - add: {counter: pos, by: -number, target: next, if: {flag: shield, of: next}}
  pick:
    - choose:
        - add: {counter: pos, by: {value: bag}, if: {zone: bag, count_at_least: 2}}
        - add: {counter: pos, by: -number * twice}
  drop:
    - add: {counter: pos, by: {counter: pos}, target: prev,
            if: {counter: pos, at_least: 1, of: {top: pos}}}
    - place: {zone: bag}
  rest:
    resolve: []
    on_cancelled: [{add: {counter: pos, by: -1, if: {counter: pos, at_least: 1}, event: slips}}]
hooks:
  on_trick_end:
    - add: {counter: pos, by: 10, if: {flag: star}, event: stars}
    - guard: {flag: star, if: {counter: pos, at_least: 40}}
score:
  - {counter: pos}
  - {zone: bag}
events:
  moves: {meaning: a push moved}
  extra: {meaning: a push moved 2 more (its owner last)}
  sprints: {meaning: a sprint past a shielded next seat}
  stars: {meaning: a starred seat's bonus}
  slips: {meaning: a cancelled rest's owner slipped back}
"""
PUSH, SPRINT, PICK, DROP, REST = range(5)


def red(role: int, number: int) -> int:
    return role * 4 + number - 1


def blue(role: int, number: int) -> int:
    return (5 + role) * 4 + number - 1


def ladder(folder: Path, text: str = LADDER) -> RoleGame:
    path = folder / "ladder.yaml"
    path.write_text(text, encoding="utf-8")
    return load_file(path)


@dataclass(frozen=True)
class Situation:
    """A trick laid out by hand (each seat's one card, in play order from seat 0), the
    positions, flags and bags before it, the decision taken (None: none asked), and
    the positions and events it leaves, worked out by hand."""

    cards: tuple[int, ...]  # seat by seat
    pos: tuple[int, ...]
    after_pos: tuple[int, ...]
    shield: tuple[bool, ...] = ()
    star: tuple[bool, ...] = ()
    bag: tuple[tuple[int, ...], ...] = ()
    decision: tuple[list[int], int] | None = None  # (the legal options, the one taken)
    events: dict[str, int] = field(default_factory=dict)

    def state(self, game: RoleGame) -> State:
        rules = knobs.defaults(game_knobs(game))
        players = len(self.cards)
        bag = [list(b) for b in self.bag] or [[] for _ in range(players)]
        state = State.arranged(
            game,
            rules,
            [[card] for card in self.cards],
            zones={"bag": bag},
            counters={"pos": list(self.pos)},
        )
        state.flags["shield"] = list(self.shield or [False] * players)
        state.flags["star"] = list(self.star or [False] * players)
        return state

    def moves(self) -> list[int]:
        out = list(self.cards)
        if self.decision is not None:
            out.append(self.decision[1])
        return out

    def expected_events(self) -> dict[str, int]:
        return {"moves": 0, "extra": 0, "sprints": 0, "stars": 0, "slips": 0, **self.events}


SITUATIONS = {
    # "If you are last, move 2 more": seat 0's push 4 adds 1 (2 -> 3), then its second
    # step reads pos again: 3 <= last_at 3, so 2 more: 3 -> 5. Two events.
    "push-last-moves-two-more": Situation(
        cards=(red(PUSH, 4), red(REST, 1)),
        pos=(2, 7),
        after_pos=(5, 7),
        events={"moves": 1, "extra": 1},
    ),
    # The control: from 3 the first step brings it to 4 > 3: the second does nothing
    # and counts no `extra`.
    "push-not-last-moves-one": Situation(
        cards=(red(PUSH, 4), red(REST, 1)),
        pos=(3, 7),
        after_pos=(4, 7),
        events={"moves": 1},
    ),
    # Seat 0's sprint 3, its next seat (1) shielded: 0 + 3 * twice 2 = 6 for seat 0,
    # and seat 1 loses the number: 5 - 3 = 2 (`-number`, on the target `next`).
    "sprint-past-a-shielded-next-seat": Situation(
        cards=(red(SPRINT, 3), red(REST, 1), red(REST, 2)),
        pos=(0, 5, 0),
        shield=(False, True, False),
        after_pos=(6, 2, 0),
        events={"sprints": 1},
    ),
    # The control: the shield is on seat 2, not on seat 0's next seat: neither step
    # acts (the condition reads seat 1 for both), no sprint counted.
    "sprint-stopped-when-next-is-unshielded": Situation(
        cards=(red(SPRINT, 3), red(REST, 1), red(REST, 2)),
        pos=(0, 5, 0),
        shield=(False, False, True),
        after_pos=(0, 5, 0),
    ),
    # Seat 0's pick 4 with two cards in its bag (rest 2 and rest 3): both options
    # stand, a decision [-1, -2]; it takes the first, {value: bag} = 2 + 3 = 5.
    # Its bag scores 2 cards: score 5 + 2 (the score reads pos, then the bag's cards).
    "pick-with-a-full-bag-asks": Situation(
        cards=(red(PICK, 4), red(REST, 1)),
        pos=(0, 0),
        bag=((red(REST, 2), red(REST, 3)), ()),
        decision=([-1, -2], -1),
        after_pos=(5, 0),
    ),
    # One card in the bag: the first option's condition (count_at_least 2) is false,
    # it drops out, and the lone second one applies with no decision: -number * twice
    # = -(4 * 2) = -8.
    "pick-with-one-card-applies-the-other-option": Situation(
        cards=(red(PICK, 4), red(REST, 1)),
        pos=(0, 0),
        bag=((red(REST, 2),), ()),
        after_pos=(-8, 0),
    ),
    # Seat 1's drop 4 on 3 seats: its rivals from its left, seats 2 and 0, at 0 and 2:
    # the top is seat 0 at 2 >= 1, so its previous seat (0) gets {counter: pos} of the
    # owner (seat 1, 5): 2 + 5 = 7.
    "drop-gives-the-previous-seat-the-owners-pos": Situation(
        cards=(red(REST, 1), red(DROP, 4), red(REST, 2)),
        pos=(2, 5, 0),
        after_pos=(7, 5, 0),
    ),
    # The control: rivals at 0 and 0, the top (seat 2, first from the left) has 0 < 1:
    # nothing moves (the drop still goes to the bag: its second step has no `if`).
    "drop-stopped-when-the-top-rival-has-none": Situation(
        cards=(red(REST, 1), red(DROP, 4), red(REST, 2)),
        pos=(0, 5, 0),
        after_pos=(0, 5, 0),
    ),
    # Seat 1's blue rest 2 is off the lead's colour: cancelled, its on_cancelled step
    # runs for seat 1, at 3 >= 1: it slips back, 3 -> 2.
    "a-cancelled-rest-slips-back": Situation(
        cards=(red(REST, 4), blue(REST, 2)),
        pos=(0, 3),
        after_pos=(0, 2),
        events={"slips": 1},
    ),
    # The control: seat 1 at 0 < 1 does not slip (to -1, which its range allows).
    "a-cancelled-rest-at-zero-stays": Situation(
        cards=(red(REST, 4), blue(REST, 2)),
        pos=(0, 0),
        after_pos=(0, 0),
    ),
    # The hook, for each seat from the leader at the trick's end: seat 1 is starred,
    # 10 more (30 -> 40), then its guard's condition (pos >= 40) holds: star set again
    # (it was: no change). Seat 0, at 39 and not starred, gets neither.
    "the-hook-rewards-a-starred-seat": Situation(
        cards=(red(REST, 4), red(REST, 1)),
        pos=(39, 30),
        star=(False, True),
        after_pos=(39, 40),
        events={"stars": 1},
    ),
}


def played(situation: Situation, game: RoleGame) -> State:
    state = situation.state(game)
    for move in situation.cards:
        assert move in state.legal_actions()
        state.apply_action(move)
        state.check_invariants()
    if situation.decision is not None:
        options, taken = situation.decision
        assert state.legal_actions() == options
        state.apply_action(taken)
    return state


@pytest.mark.parametrize("name", list(SITUATIONS))
def test_each_situation_ends_as_worked_out(tmp_path: Path, name: str) -> None:
    situation = SITUATIONS[name]
    state = played(situation, ladder(tmp_path))
    assert state.is_terminal()  # one card each, no decision left unasked
    assert tuple(state.counters["pos"]) == situation.after_pos
    assert state.record().events == situation.expected_events()


def told(game: RoleGame, name: str) -> list[str]:
    """The public lines of situation `name`'s replay."""
    state = SITUATIONS[name].state(game)
    state.trace = []
    for move in SITUATIONS[name].moves():
        state.apply_action(move)
    rules = knobs.defaults(game_knobs(game))
    return [line for line in narrate.lines(state.trace or [], rules) if isinstance(line, str)]


@pytest.mark.parametrize(
    ("name", "line"),
    [
        ("push-not-last-moves-one", "seat 0's add does nothing: seat 0's pos at most 3 is not so"),
        (
            "sprint-stopped-when-next-is-unshielded",
            "seat 0's add does nothing: seat 1's shield set is not so",
        ),
        (
            "pick-with-one-card-applies-the-other-option",
            "seat 0's add does nothing: seat 0's bag holding at least 2 cards is not so",
        ),
        (
            "drop-stopped-when-the-top-rival-has-none",
            "seat 1's add does nothing: seat 2's pos at least 1 is not so",
        ),
    ],
)
def test_the_replay_tells_a_step_its_condition_stopped(
    tmp_path: Path, name: str, line: str
) -> None:
    """A stopped step says which seat's value it read and what it asked."""
    assert f"  {line}" in told(ladder(tmp_path), name)


def test_the_replay_tells_no_stop_for_a_met_condition(tmp_path: Path) -> None:
    """The control: the push's second step, met, tells its change and no stop (the
    hook's steps, unmet for every seat, still tell theirs)."""
    lines = told(ladder(tmp_path), "push-last-moves-two-more")
    assert not [line for line in lines if "pos at most" in line]
    assert "  seat 0: seat 0's pos 3 -> 5" in lines
    assert "  seat 0's add does nothing: seat 0's star set is not so" in lines


# -- validate: each bad condition or amount, one line naming its key ---------------------


def problems_of(tmp_path: Path, old: str, new: str) -> list[str]:
    assert old in LADDER
    path = tmp_path / "bad.yaml"
    path.write_text(LADDER.replace(old, new), encoding="utf-8")
    game, problems = check_file(path)
    assert game is None
    return [str(p) for p in problems]


PUSH_IF = "if: {counter: pos, at_most: last_at}"


@pytest.mark.parametrize(
    ("old", "new", "said"),
    [
        (
            PUSH_IF,
            "if: {counter: place, at_most: 3}",
            "push[1].add.if.counter: unknown counter",
        ),
        (PUSH_IF, "if: {counter: pos}", "needs 'at_least' or 'at_most', or both"),
        (
            PUSH_IF,
            "if: {counter: pos, at_most: far}",
            "push[1].add.if.at_most: expected a whole",
        ),
        (
            PUSH_IF,
            "if: {flag: shield, of: rival}",
            "reads one seat, and 'rival' is not",
        ),
        (PUSH_IF, "if: {flag: shield, of: all}", "a condition reads one seat, and 'all' is not"),
        (PUSH_IF, "if: {flag: shield, at_least: 1}", "push[1].add.if.at_least: unknown key"),
        (PUSH_IF, "if: {counter: pos, flag: shield, at_most: 1}", "names more than one of"),
        (PUSH_IF, "if: 3", "expected a condition"),
        (PUSH_IF, "if: {zone: bag, at_most: 1}", "push[1].add.if.at_most: unknown key"),
        (
            "by: number * twice",
            "by: number * thrice",
            "'thrice' is neither a whole number nor",
        ),
        ("by: number * twice", "by: number * 1000000001", "must be within -1000000000..1000000000"),
        (
            "by: {value: bag}",
            "by: {value: sack}",
            "choose[0].add.by.value: unknown zone",
        ),
        (
            "by: {counter: pos}",
            "by: {counter: place}",
            "drop[0].add.by.counter: unknown counter",
        ),
    ],
)
def test_a_bad_condition_or_amount_is_one_line_naming_its_key(
    tmp_path: Path, old: str, new: str, said: str
) -> None:
    found = problems_of(tmp_path, old, new)
    assert len(found) == 1, found
    assert "bad.yaml:" in found[0] and said in found[0], found


def test_every_old_spelling_still_reads(tmp_path: Path) -> None:
    """The control for the refusals above: the file as written reads, and the old
    amounts (a number, number, a knob, -knob, {count: Z}) still do beside the new."""
    text = LADDER.replace("by: {value: bag}", "by: {count: bag}").replace(
        "by: -number * twice", "by: -twice"
    )
    game = ladder(tmp_path, text)
    pick = game.roles["pick"].resolve[0]
    assert [op.params["by"] for op in pick.options] == [("count", "bag"), ("minus_knob", "twice")]
    assert game.roles["push"].resolve[0].when is None


# -- bounds: what an amount can add, worked out by hand ------------------------------------

SPRINTS = """\
name: sprints
short: sp
players: [2, 3]
deck: {colours: [red], roles: [sprint], numbers: [1, 3], copies: 1}
hand_size: 1
counters:
  pos: {min: -50, max: 50}
roles:
  sprint:
    - add: {counter: pos, by: BY}
score:
  - {counter: pos}
end:
  - {counter: pos, reaches: GOAL}
"""


@pytest.mark.parametrize(
    ("by", "most"),
    [
        # Cards 1, 2, 3, each once: 2 * (1 + 2 + 3) = 12.
        ("number * 2", 12),
        # -number adds nothing upward: the counter's start, 0.
        ("-number", 0),
        # A counter's value depends on play: no bound from the effects, so the
        # counter's own maximum, 50.
        ("{counter: pos}", 50),
    ],
)
def test_an_amounts_reach_bounds_an_end_goal(tmp_path: Path, by: str, most: int) -> None:
    path = tmp_path / "sprints.yaml"
    path.write_text(SPRINTS.replace("BY", by).replace("GOAL", str(most)), encoding="utf-8")
    assert check_file(path)[1] == []  # the goal at the most reachable: fine
    path.write_text(SPRINTS.replace("BY", by).replace("GOAL", str(most + 1)), encoding="utf-8")
    _, problems = check_file(path)
    assert [str(p).split(": ", 1)[1] for p in problems] == [
        f"end[0].reaches: the deck can never bring pos to {most + 1} (at most {most})"
    ]


# The largest numbers the ranges allow: a card numbered 10**9 times a knob at 10**9 is
# 10**18, within int64 (about 9.2 * 10**18), added to a counter at its bound (10**9):
# no sum the kernel makes can wrap, so validate has none to refuse; clamped to the
# counter's range as any add.
HUGE = """\
name: huge
short: hg
players: [2, 2]
deck: {colours: [red], roles: [up, down], numbers: [999999999, 1000000000], copies: 1}
hand_size: 2
counters:
  pos: {min: -1000000000, max: 1000000000}
knobs:
  k: {default: 1000000000, range: [-1000000000, 1000000000], meaning: a factor}
roles:
  up:
    - add: {counter: pos, by: number * k}
  down:
    - add: {counter: pos, by: -number * k}
score:
  - {counter: pos}
"""


def huge(tmp_path: Path) -> RoleGame:
    path = tmp_path / "huge.yaml"
    path.write_text(HUGE, encoding="utf-8")
    return load_file(path)


def huge_state(game: RoleGame) -> State:
    # Cards: role * 2 + number - 999999999: up 10**9 is 1, down 10**9 - 1 is 2 (numbers
    # apart: no cancel). Seat 0 at the top plays up 10**9 (adds 10**18, clamped at
    # 10**9); seat 1 at the bottom down 10**9 - 1 (subtracts 10**18 - 10**9, clamped at
    # -10**9). A wrap would land past the other bound and clamp there instead.
    rules = knobs.defaults(game_knobs(game))
    return State.arranged(game, rules, [[1], [2]], counters={"pos": [10**9, -(10**9)]})


def test_the_largest_amounts_clamp_and_never_wrap(tmp_path: Path) -> None:
    state = huge_state(huge(tmp_path))
    for move in (1, 2):
        state.apply_action(move)
    assert state.counters["pos"] == [10**9, -(10**9)]
