"""Secret goals (roles/goals.py), worked out by hand from docs/new-game.md's words: "each
seat is dealt `deal` goal cards at setup, face down, after the hands; `{goals: true}`
adds the terms of the goals the seat holds; a rival's goals show as a count until the
game is over; a world sampled from a view deals the rivals' goals again from the goal
cards the seat has not seen".

The game, GOALS: red bank 1..3 (cards 0..2) go to the owner's face-up bank; red push
1..3 (cards 3..5) choose: the next seat's position +2 (decision -1), or the owner's
own position + the card's number (decision -2). Goals: hoarder (0) scores 2 a bank
card, racer (1) 3 a position, idler (2) -1 a position. The score: 1 a bank card, plus
the seat's goals.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

import balancer
from balancer import games, knobs
from balancer.bots.search import can_search
from balancer.games.roles import check_file, load_file, narrate
from balancer.games.roles.definition import game_knobs
from balancer.games.roles.determinize import determinize
from balancer.games.roles.engine import CHOICE, State, View, resample_hidden
from balancer.games.roles.engine import bounds as score_bounds
from balancer.games.roles.lookahead import Lookahead
from balancer.games.roles.model import RoleGame
from balancer.rng import CHANCE, Stream
from balancer.sim import plan
from balancer.sim.conformance import check_game

GOALS = """\
name: secret-goals
short: sg
players: [2, 3]
deck: {colours: [red], roles: [bank, push], numbers: [1, 3], copies: 1}
hand_size: 2
zones:
  bank: {face: up}
counters:
  position: {min: 0, max: 50}
roles:
  bank: [{place: {zone: bank}}]
  push:
    - choose:
        - add: {counter: position, by: 2, target: next}
        - add: {counter: position, by: number}
goals:
  deal: 1
  cards:
    hoarder: [{zone: bank, per_card: 2}]
    racer: [{counter: position, times: 3}]
    idler: [{counter: position, times: -1}]
score:
  - {zone: bank, per_card: 1}
  - {goals: true}
"""
HOARDER, RACER, IDLER = 0, 1, 2
PUSH_NEXT, PUSH_SELF = -1, -2


def goals_game(folder: Path, text: str = GOALS) -> RoleGame:
    path = folder / "secret-goals.yaml"
    path.write_text(text, encoding="utf-8")
    return load_file(path)


def rules_of(game: RoleGame) -> dict[str, object]:
    return dict(knobs.defaults(game_knobs(game)))


def test_a_seat_scores_its_goals_terms_as_worked_out(tmp_path: Path) -> None:
    """Seat 0 holds hoarder, bank [bank 2, bank 3], position 1; seat 1 racer, position
    4: seat 0 scores 2 bank cards + hoarder 2 × 2 = 6, seat 1 0 + racer 3 × 4 = 12.
    Seat 0 plays bank 1 (to its bank), seat 1 push 2 and takes its own +2: seat 0
    3 + 2 × 3 = 9, seat 1 3 × 6 = 18. The replay tells each seat its goals as dealt,
    and every seat's at the end."""
    game = goals_game(tmp_path)
    rules = rules_of(game)
    state = State.arranged(
        game,
        rules,
        [[0], [4]],
        zones={"bank": [[1, 2], []]},
        counters={"position": [1, 4]},
        goals=[[HOARDER], [RACER]],
    )
    assert state.scores() == [6.0, 12.0]
    state.trace = []
    state.apply_action(0)
    state.apply_action(4)
    assert state.phase == CHOICE and state.current_player() == 1
    state.apply_action(PUSH_SELF)
    assert state.is_terminal()
    assert state.counters["position"] == [1, 6]
    assert state.record().scores == (9.0, 18.0)
    lines = narrate.lines(state.trace or [], rules)
    # As dealt, each seat's goals are told to it alone (a (seat, text) line).
    assert lines[:2] == [
        (0, "  seat 0's secret goals: hoarder"),
        (1, "  seat 1's secret goals: racer"),
    ]
    told = [line for line in lines if isinstance(line, str)]
    assert not any("goals" in line for line in told[:-3])
    assert told[-3:] == [
        "  seat 0's secret goals: hoarder (+6)",
        "  seat 1's secret goals: racer (+18)",
        "Game over after 1 tricks: scores seat 0 9, seat 1 18",
    ]


def test_two_goals_each_add_up(tmp_path: Path) -> None:
    """deal: 2 of 6 goal cards: seat 0 holds racer and idler, position 5, bank empty:
    3 × 5 - 5 = 10; seat 1 hoarder and `a` (1 a position), position 0, bank empty: 0."""
    text = GOALS.replace("deal: 1", "deal: 2").replace(
        "    idler: [{counter: position, times: -1}]\n",
        "    idler: [{counter: position, times: -1}]\n"
        "    a: [{counter: position}]\n    b: [{counter: position}]\n"
        "    c: [{counter: position}]\n",
    )
    game = goals_game(tmp_path, text)
    state = State.arranged(
        game, rules_of(game), [[0], [4]], counters={"position": [5, 0]},
        goals=[[RACER, IDLER], [HOARDER, 3]],
    )  # fmt: skip
    assert state.scores() == [10.0, 0.0]


def test_the_goals_are_dealt_after_the_hands(tmp_path: Path) -> None:
    """The same seed deals the same hands and first leader with goals as without (a
    file without goals draws nothing more), and over seeds every goal card is dealt,
    never one to two seats."""
    with_goals = goals_game(tmp_path)
    (tmp_path / "plain").mkdir()
    plain_text = GOALS.split("goals:\n  deal")[0] + "score:\n  - {zone: bank, per_card: 1}\n"
    plain = goals_game(tmp_path / "plain", plain_text)
    rules = {**rules_of(with_goals), "first_leader": "random"}
    dealt: set[int] = set()
    for index in range(40):
        one = State(with_goals, rules, 2, Stream(5, index, CHANCE))
        two = State(plain, rules, 2, Stream(5, index, CHANCE))
        assert (one.hands, one.leader) == (two.hands, two.leader)
        assert two.goals == []
        assert len({g for held in one.goals for g in held}) == 2
        dealt.update(g for held in one.goals for g in held)
    assert dealt == {HOARDER, RACER, IDLER}


def test_the_bounds_take_each_seats_best_and_worst_goal(tmp_path: Path) -> None:
    """Bank: 6 cards at 1 = 6; the best goal racer 3 × 50 = 150 (hoarder 2 × 6 = 12),
    the worst idler -50: scores within -50..156."""
    game = goals_game(tmp_path)
    assert score_bounds(game, rules_of(game), 2).score == (-50.0, 156.0)


# -- what a seat sees of its rivals' goals ---------------------------------------------


def two_worlds(folder: Path) -> tuple[State, State]:
    """Seat 0 (hoarder) leads push 2, seat 1 plays bank 1: seat 0 then chooses where its
    push goes. The two worlds differ only in seat 1's goal: racer or idler."""
    game = goals_game(folder)
    worlds = []
    for rival in (RACER, IDLER):
        state = State.arranged(
            game, rules_of(game), [[4], [0]], counters={"position": [0, 3]},
            goals=[[HOARDER], [rival]],
        )  # fmt: skip
        state.apply_action(4)
        state.apply_action(0)
        assert state.phase == CHOICE and state.current_player() == 0
        worlds.append(state)
    return worlds[0], worlds[1]


def _peeking_view(state: State, seat: int) -> View:
    """The control's leak: every rival's goals shown, as at the end."""
    view = _HONEST_VIEW(state, seat)
    return dataclasses.replace(view, goals=tuple(tuple(g) for g in state.goals))


_HONEST_VIEW = State.view


def test_a_rivals_goal_is_a_count_in_the_view(tmp_path: Path) -> None:
    """Seat 0 can't tell the worlds apart; the control: seat 1, who holds the goal that
    differs, can, and so can anyone once the game is over."""
    racer, idler = two_worlds(tmp_path)
    assert racer.view(0) == idler.view(0)
    assert racer.view(0).goals == ((HOARDER,), 1)
    assert racer.view(1) != idler.view(1)
    racer.apply_action(PUSH_SELF)
    idler.apply_action(PUSH_SELF)
    assert racer.is_terminal() and idler.is_terminal()
    assert racer.view(0).goals == ((HOARDER,), (RACER,))
    assert racer.view(0) != idler.view(0)


def test_the_lookahead_cannot_tell_a_rivals_goal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Seat 1 ends the game with position 3 and a bank card, seat 0 (hoarder) with
    nothing but what it decides: its value of a move is 0 - seat 1's score (+ 100 for
    a win, the game ends in this trick). Against a racer keeping the push is 0 - (1 +
    3 × 3) = -10, pushing 0 - (1 + 3 × 5) = -16; against an idler keeping is 0 - (1 -
    3) + 100 = 102, pushing 0 - (1 - 5) + 100 = 104: the best move turns on the goal.
    From the honest view the bot values both worlds alike, bit for bit. The control:
    shown the rival's goal, it values them apart, and pushes only the idler."""
    racer, idler = two_worlds(tmp_path)
    bot = Lookahead(racer.game, samples=8)
    legal = racer.legal_actions()
    assert legal == [PUSH_NEXT, PUSH_SELF] == idler.legal_actions()

    def values(state: State) -> list[float]:
        return bot.values(state.view(0), legal, Stream(7, 0, 1))

    assert values(racer) == values(idler)
    with monkeypatch.context() as patch:
        patch.setattr(State, "view", _peeking_view)
        peeked_racer, peeked_idler = values(racer), values(idler)
    assert peeked_racer != peeked_idler
    assert peeked_racer == [-16.0, -10.0] and peeked_idler == [104.0, 102.0]


def test_determinize_deals_rivals_goals_from_those_unseen(tmp_path: Path) -> None:
    """Seat 0 holds hoarder: a world gives seat 1 racer or idler, never hoarder, both
    over enough worlds, and seat 0 its own. The control: seat 1's world keeps seat 1's
    true goal."""
    racer, _ = two_worlds(tmp_path)
    view = racer.view(0)
    rng = Stream(3, 0, 9)
    given = set()
    for _ in range(30):
        world = determinize(racer.game, view, rng)
        assert world.goals[0] == [HOARDER] and world.view(0) == view
        given.add(world.goals[1][0])
    assert given == {RACER, IDLER}
    assert determinize(racer.game, racer.view(1), rng).goals[1] == [RACER]


def test_resample_hidden_deals_rivals_goals_again(tmp_path: Path) -> None:
    """The search's resampler from the true state (engine.resample_hidden) does as
    determinize does: seat 1 racer or idler, both over enough draws, seat 0 its own,
    seat 0's view kept."""
    racer, _ = two_worlds(tmp_path)
    rng = Stream(4, 0, 9)
    given = set()
    for _ in range(30):
        world = resample_hidden(racer, 0, rng)
        assert world.goals[0] == [HOARDER] and world.view(0) == racer.view(0)
        given.add(world.goals[1][0])
    assert given == {RACER, IDLER}


def test_the_engine_passes_the_conformance_checks(tmp_path: Path) -> None:
    """Random games with every check of sim/conformance.py (views, determinize keeping
    the view, resample_hidden, clones), 3 players."""
    path = tmp_path / "secret-goals.yaml"
    path.write_text(GOALS.replace("hand_size: 2", "hand_size: 1"), encoding="utf-8")
    name = games.register_file(path)
    spec = games.get(name)
    rules = knobs.freeze(knobs.defaults(spec.knobs))
    assert len(check_game(spec, rules, 3, seed=2, games=4)) == 4


def test_a_file_with_goals_plays_compiled(tmp_path: Path) -> None:
    """The compiled tables hold the goal deck: a run of such a file, every seat a
    compiled bot, plays on the kernel, and search sits at it, as at the same file
    without its goals (tests/kernels/test_roles_goals_kernel.py: the same games)."""
    variants = []
    for name, text in (
        ("with-goals", GOALS),
        ("without-goals", GOALS.split("goals:\n  deal")[0] + "score:\n  - {zone: bank}\n"),
    ):
        text = text.replace("secret-goals", f"secret-{name}").replace("short: sg", f"short: {name}")
        (tmp_path / f"{name}.yaml").write_text(text, encoding="utf-8")
        variant = tmp_path / f"{name}-v.yaml"
        variant.write_text(f"game: ./{name}.yaml\nplayers: 2\nbots: lookahead\n", "utf-8")
        variants.append(balancer.load_variant(variant))
    for variant in variants:
        assert games.definition(variant.game).kernel() is not None
        assert can_search(variant.game)
        assert plan.decide(variant).path is plan.PlayPath.COMPILED


# -- mistakes ------------------------------------------------------------------------

# (text replaced in GOALS, its replacement, line, key, a piece of the message)
MISTAKES = [
    ("hoarder: [{zone: bank, per_card: 2}]", "hoarder: [{zone: bank, per_card: 2}, {pile: 1}]",
     19, "goals.cards.hoarder[1]", "a term needs zone:, counter:, rank: or place:"),
    ("racer: [{counter: position", "racer: [{counter: positon", 20,
     "goals.cards.racer[0].counter", "unknown counter 'positon'"),
    ("deal: 1", "deal: 2", 17, "goals.deal", "3 goal cards are too few to deal 2 to each of 3"),
    ("deal: 1", "deal: 0", 17, "goals.deal", "must be in 1..1000"),
    ("  - {goals: true}", "  - {goals: yes please}", 24, "score[1].goals", "expected true"),
    ("racer: [{counter: position, times: 3}]", "racer: [{goals: true}]", 20,
     "goals.cards.racer[0].goals", "a goal's terms don't hold its goals"),
]  # fmt: skip


@pytest.mark.parametrize("old, new, line, key, piece", MISTAKES)
def test_a_bad_goal_is_one_line_at_its_key(
    tmp_path: Path, old: str, new: str, line: int, key: str, piece: str
) -> None:
    assert old in GOALS
    path = tmp_path / "secret-goals.yaml"
    path.write_text(GOALS.replace(old, new), encoding="utf-8")
    game, problems = check_file(path)
    assert game is None
    assert [(p.line, p.key) for p in problems] == [(line, key)], problems
    assert problems[0].message.startswith(f"{path}:{line}: {key}: ")
    assert piece in problems[0].message


def test_too_many_goals_dealt_is_one_line_where_only_a_goal_scores_a_zone(
    tmp_path: Path,
) -> None:
    """The bank scored by the hoarder goal alone: a deal too large is blamed at
    goals.deal, and the bank is not also called unscored."""
    text = GOALS.replace("deal: 1", "deal: 2").replace("  - {zone: bank, per_card: 1}\n", "")
    path = tmp_path / "secret-goals.yaml"
    path.write_text(text, encoding="utf-8")
    game, problems = check_file(path)
    assert game is None
    assert [(p.line, p.key) for p in problems] == [(17, "goals.deal")], problems


def test_goals_in_the_score_without_goals_is_one_line(tmp_path: Path) -> None:
    text = GOALS.split("goals:\n  deal")[0] + "score:\n  - {zone: bank}\n  - {goals: true}\n"
    path = tmp_path / "secret-goals.yaml"
    path.write_text(text, encoding="utf-8")
    game, problems = check_file(path)
    assert game is None
    assert [(p.line, p.key) for p in problems] == [(18, "score[1].goals")], problems
    assert "no goals: are declared" in problems[0].message


def test_the_goals_game_itself_is_valid(tmp_path: Path) -> None:
    """The control of the mistakes above."""
    path = tmp_path / "secret-goals.yaml"
    path.write_text(GOALS, encoding="utf-8")
    game, problems = check_file(path)
    assert problems == [] and game is not None and game.goals is not None
