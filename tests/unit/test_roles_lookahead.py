"""The `lookahead` bot of role games on hand-made positions, its choice worked out by hand.

value = own score - best rival's + goal_weight * (own progress - best rival's)
        + win_bonus * own win share when the game ends in the trick
(balancer/games/roles/lookahead.py; defaults goal_weight 4, win_bonus 100).

MEGA RACER's cards: (colour * 3 + role) * 6 + number - 1, colours red 0, blue 1,
roles speed 0, accident 1, block 2.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from balancer import knobs
from balancer.bots import registry
from balancer.games.roles import gamefile, load_file
from balancer.games.roles.definition import game_knobs
from balancer.games.roles.engine import State
from balancer.games.roles.lookahead import Lookahead
from balancer.games.roles.model import RoleGame
from balancer.rng import Stream

RACER = load_file(gamefile.shipped_path("mega-racer"))  # type: ignore[arg-type]
SPEED, ACCIDENT = 0, 1
RED = 0


def racer(colour: int, role: int, number: int) -> int:
    return (colour * 3 + role) * 6 + number - 1


def rules_of(game: RoleGame, **overrides: Any) -> dict[str, Any]:
    return {**knobs.defaults(game_knobs(game)), **overrides}


def goal_or_accident() -> State:
    # Seat 0 at 17 leads alone (seat 1 holds nothing, the pile is empty), seat 1 at
    # 15; goal 20, accident_loss 4. Speed 3 reaches 20: the race ends, 20 to 15, seat
    # 0 wins: 5 + 4 * (20/20 - 15/20) + 100 = 106. The accident throws seat 1 back to
    # 11 and the race goes on: 6 + 4 * (17/20 - 11/20) = 7.2.
    hands = [[racer(RED, ACCIDENT, 1), racer(RED, SPEED, 3)], []]
    rules = rules_of(RACER, goal=20, accident_loss=4)
    return State.arranged(RACER, rules, hands, counters={"position": [17, 15]})


def test_lookahead_takes_the_speed_card_that_wins_the_race() -> None:
    state = goal_or_accident()
    bot = Lookahead(RACER)
    legal = state.legal_actions()
    values = bot.values(state.view(0), legal, Stream(1, 0, 0))
    assert values == pytest.approx([7.2, 106.0])
    assert bot.act(state.view(0), legal, Stream(1, 0, 0)) == racer(RED, SPEED, 3)


def test_without_the_win_bonus_the_bigger_margin_wins() -> None:
    # The control: the accident's margin (6 + 1.2) beats the speed's (5 + 1) when
    # ending the race with a win is worth nothing more.
    state = goal_or_accident()
    bot = Lookahead(RACER, win_bonus=0)
    legal = state.legal_actions()
    assert bot.values(state.view(0), legal, Stream(1, 0, 0)) == pytest.approx([7.2, 6.0])
    assert bot.act(state.view(0), legal, Stream(1, 0, 0)) == racer(RED, ACCIDENT, 1)


def test_a_speed_that_reaches_the_goal_beats_one_that_does_not() -> None:
    # Seat 0 at 5, seat 1 at 0, goal 8. Speed 3 reaches 8 and wins: 8 + 4 + 100;
    # speed 2 gets to 7: 7 + 4 * 7/8 = 10.5. Speed 3 listed second so the first
    # move (what a tie would give) is the wrong one.
    hands = [[racer(RED, SPEED, 2), racer(RED, SPEED, 3)], []]
    state = State.arranged(RACER, rules_of(RACER, goal=8), hands, counters={"position": [5, 0]})
    bot = Lookahead(RACER)
    values = bot.values(state.view(0), state.legal_actions(), Stream(2, 0, 0))
    assert values == pytest.approx([10.5, 112.0])


POKE = """\
name: poke
short: pk
players: [2, 4]
deck: {colours: [red, blue], roles: [run, poke], numbers: [0, 3], copies: 1}
hand_size: 1
counters:
  dist: {}
roles:
  run:
    - add: {counter: dist, by: 1}
  poke:
    - choose:
        - add: {counter: dist, by: -3, target: rival}
        - add: {counter: dist, by: 1}
score:
  - {counter: dist}
"""


def poke_card(role: int, number: int) -> int:  # red cards: role * 4 + number
    return role * 4 + number


def poke_position(tmp_path: Path, dist: list[int]) -> tuple[RoleGame, State]:
    path = tmp_path / "poke.yaml"
    path.write_text(POKE, encoding="utf-8")
    game = load_file(path)
    hands = [[poke_card(1, 3)], [poke_card(0, 1)], [poke_card(0, 0)]]
    state = State.arranged(game, rules_of(game), hands, counters={"dist": dist})
    for seat in range(3):
        state.apply_action(hands[seat][0])
    # Poke 3 resolves first and waits for seat 0's choice; runs 1 and 0 (+1 to
    # seats 1 and 2) resolve after it; then every hand is empty.
    assert state.current_player() == 0 and state.legal_actions() == [-4, -5, -2]
    return game, state


def test_lookahead_pokes_the_rival_in_front(tmp_path: Path) -> None:
    # dist [2, 4, 0]. Poke seat 1 (-4): 4 - 3 + 1 = 2 against seat 0's 2, seat 2 at 1:
    # margin 0 and a shared win, + 50. Poke seat 2 (-5): seat 1 ends at 5, margin -3.
    # Run +1 (-2): 3 against 5, margin -2. No counter goal: no pull.
    game, state = poke_position(tmp_path, [2, 4, 0])
    bot = Lookahead(game)
    values = bot.values(state.view(0), state.legal_actions(), Stream(3, 0, 0))
    assert values == pytest.approx([50.0, -3.0, -2.0])
    assert bot.act(state.view(0), state.legal_actions(), Stream(3, 0, 0)) == -4


def test_lookahead_pokes_the_other_rival_when_it_is_in_front(tmp_path: Path) -> None:
    # The control: dist [2, 0, 4]: now seat 2 is in front and the poke goes to it.
    game, state = poke_position(tmp_path, [2, 0, 4])
    assert Lookahead(game).act(state.view(0), state.legal_actions(), Stream(3, 0, 0)) == -5


def test_lookahead_reads_only_the_view() -> None:
    # Two tables seat 0 can't tell apart (seat 1's hand and the pile swapped): the same
    # values at the same seed. The replies are sampled: another seed may value the moves
    # otherwise (the control: the values do depend on the worlds drawn).
    mine = [racer(RED, SPEED, 2), racer(RED, ACCIDENT, 5), racer(1, SPEED, 6)]
    one = [racer(RED, SPEED, 6), racer(1, 2, 1)]
    other = [racer(1, ACCIDENT, 6), racer(RED, 2, 4)]
    views = []
    for hand, pile in ((one, other), (other, one)):
        state = State.arranged(RACER, rules_of(RACER), [mine, hand], pile=pile)
        views.append(state.view(0))
    assert views[0] == views[1]
    bot = Lookahead(RACER, samples=4)
    first = bot.values(views[0], list(mine), Stream(4, 0, 0))
    assert first == bot.values(views[1], list(mine), Stream(4, 0, 0))
    others = [bot.values(views[0], list(mine), Stream(seed, 0, 0)) for seed in range(5, 15)]
    assert any(values != first for values in others)


@pytest.mark.parametrize("name", ["mega-racer", "fish-dash-cash-roles"])
def test_every_role_game_lists_the_lookahead_bot(name: str) -> None:
    from balancer import games

    games.get(name)  # registers the shipped file
    bots = registry.builtin(games.definition(name).name)
    assert set(bots) >= {"random", "lookahead"}
    bot = bots["lookahead"].factory(samples=2)
    assert isinstance(bot, Lookahead)


def test_one_sampled_world_is_a_lookahead_and_none_is_not() -> None:
    """`samples: 1` (the cheapest lookahead) is a valid parameter, `samples: 0` (no world
    to play a move out in) is refused; a one-world lookahead values the race-winning
    speed as the eight-world one does (seat 1 holds nothing: every world is the same)."""
    from balancer.games.roles.lookahead import lookahead_spec

    samples = next(knob for knob in lookahead_spec(RACER).params if knob.name == "samples")
    assert samples.check(1) == 1
    with pytest.raises(ValueError, match=r"at least 1 \(the range is 1\.\.1000\)"):
        samples.check(0)
    state = goal_or_accident()
    values = Lookahead(RACER, samples=1).values(
        state.view(0), state.legal_actions(), Stream(1, 0, 0)
    )
    assert values == pytest.approx([7.2, 106.0])
