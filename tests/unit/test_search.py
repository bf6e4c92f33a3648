"""The search bot never peeks: what it decides is a function of its seat's view and its stream.

Two true states that differ only in cards the seat can't see (another world
consistent with the same view, or the hidden cards stacked adversarially: every
high card to one rival) must give bit-identical per-candidate values and the same
choice from the same bot stream. A search that skips determinize and plays out the
true state (the peeking control) fails the same test, so the test has power.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from balancer import games, knobs
from balancer.bots.search import MonteCarloSearch
from balancer.games.kernel_api import Position
from balancer.rng import CHANCE, Stream

GAMES = [("fish-dash-cash", 5), ("kimekimera", 4), ("da-qi-zi", 4)]
METHODS = ("flat", "ismcts")
# Role games (games/roles/): searched through the role kernel, worlds drawn from the
# view by roles/determinize.py and dealt again by the kernel's.
GAMES += [("fish-dash-cash-roles", 5), ("mega-racer", 4), ("zodiac-race", 5)]


def _decision(game: str, players: int, seed: int) -> Any:
    """A state of `game` some moves in, at a decision of two or more moves."""
    spec = games.get(game)
    rules = knobs.freeze(knobs.defaults(spec.knobs))
    state = spec.new_state(rules, players, Stream(seed, 0, CHANCE))
    chooser = Stream(seed, 0, 99)
    decisions = 0
    while True:
        legal = state.legal_actions()
        if len(legal) > 1:
            decisions += 1
            if decisions > 3:
                return state
        state.apply_action(legal[chooser.below(len(legal))])


class PeekingSearch(MonteCarloSearch):
    """The control: plays out the true state instead of worlds drawn from the view."""

    true_state: Any = None

    def _world(self, view: Any, rng: Stream) -> Any:
        return self.true_state.clone()

    def _redeal(self, first: Position, seat: int, key: Any, world: Position) -> int:
        world.state[:] = first.state  # the true deal, not dealt again
        return 0


def _values(bot: MonteCarloSearch, state: Any) -> tuple[Any, ...]:
    """Each candidate's value, and the move chosen."""
    seat = state.current_player()
    found = bot.evaluate(state.view(seat), state.legal_actions(), Stream(7, 0, 1))
    return (*found.values, found.best)


def _twin(state: Any, game: str) -> Any:
    """A true state the seat can't tell from `state`: the hidden cards dealt anew."""
    spec = games.get(game)
    seat = state.current_player()
    twin = spec.determinize(state.view(seat), Stream(123, 4, 5))
    assert twin.view(seat) == state.view(seat)
    return twin


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize(("game", "players"), GAMES)
def test_two_states_alike_to_the_seat_get_the_same_search(
    game: str, players: int, method: str
) -> None:
    state = _decision(game, players, seed=3)
    twin = _twin(state, game)
    bot = MonteCarloSearch(game, samples=8, method=method)
    assert _values(bot, state) == _values(bot, twin)


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize(("game", "players"), GAMES)
def test_a_search_that_peeks_fails_the_same_test(game: str, players: int, method: str) -> None:
    """The control: reading the true state, the values follow the hidden cards."""
    differ = 0
    for seed in range(3, 9):
        state = _decision(game, players, seed)
        twin = _twin(state, game)
        peeking = PeekingSearch(game, samples=8, method=method)
        peeking.true_state = state
        first = _values(peeking, state)
        peeking.true_state = twin
        differ += first != _values(peeking, twin)
    assert differ > 0


@pytest.mark.parametrize("method", METHODS)
def test_fdc_hidden_cards_stacked_on_one_rival_change_nothing(method: str) -> None:
    """Every high card the seat can't see goes to one rival's hand: the search sees the
    same view, so it must give the same values."""
    game, players = "fish-dash-cash", 5
    state = _decision(game, players, seed=5)
    seat = state.current_player()
    stacked = state.clone()
    rivals = [s for s in range(players) if s != seat]
    hidden = sorted(
        [card for s in rivals for card in stacked.hands[s]] + list(stacked.pile),
        key=lambda card: -stacked.deck.number[card],
    )
    at = 0
    for s in rivals:
        n = len(stacked.hands[s])
        stacked.hands[s] = hidden[at : at + n]
        at += n
    stacked.pile = hidden[at:]
    stacked.check_invariants()
    assert stacked.view(seat) == state.view(seat)
    assert stacked.hands != state.hands  # the stacking moved cards
    bot = MonteCarloSearch(game, samples=8, method=method)
    assert _values(bot, state) == _values(bot, stacked)
    peeking = PeekingSearch(game, samples=8, method=method)
    peeking.true_state = stacked
    stacked_values = _values(peeking, stacked)
    peeking.true_state = state
    assert stacked_values != _values(peeking, state)


def test_successive_decisions_draw_different_worlds() -> None:
    """The bot's stream moves on: the same view searched twice in a row (one stream)
    plays different worlds, so it gives different values."""
    state = _decision("fish-dash-cash", 5, seed=3)
    seat = state.current_player()
    bot = MonteCarloSearch("fish-dash-cash", samples=8)
    rng = Stream(7, 0, 1)
    first = bot.evaluate(state.view(seat), state.legal_actions(), rng).values
    second = bot.evaluate(state.view(seat), state.legal_actions(), rng).values
    assert first != second


def test_a_search_bot_needs_at_least_one_sample() -> None:
    with pytest.raises(ValueError, match="samples"):
        MonteCarloSearch("fish-dash-cash", samples=0)


def test_a_python_built_in_bot_sits_beside_compiled_ones(tmp_path: Path) -> None:
    """`search` is built in but not compiled: a run seats it beside compiled bots (the
    kernels assert nothing about which built-in bots they compile) and plays it."""
    from balancer.cli import main
    from tests.helpers import load_report, variant_file

    path = variant_file(
        tmp_path,
        "fdc-base.yaml",
        "players: 3\ngames: 2\nseats: [heuristic, {bot: search, params: {samples: 2}}, random]\n",
    )
    assert main(["run", "-q", str(path), "-o", str(tmp_path / "r"), "-w", "1"]) == 0
    seats = load_report(tmp_path / "r")["seats"]
    assert [seat["bot"] for seat in seats] == ["heuristic", "search(samples=2)", "random"]


@pytest.mark.parametrize("game", ["mega-racer", "zodiac-race"])
def test_a_search_seat_plays_a_role_game_to_the_end(tmp_path: Path, game: str) -> None:
    """A game file's game is searched through the role kernel: a run with a search seat
    plays every game to its end, and the seat's bot is the search (the zodiac race's
    places handed out on the kernel too)."""
    from balancer.cli import main
    from tests.helpers import load_report

    path = tmp_path / "race.yaml"
    path.write_text(
        f"game: {game}\nplayers: 4\ngames: 3\nseed: 3\n"
        "seats: [{bot: search, params: {samples: 4}}, random, random, random]\n",
        encoding="utf-8",
    )
    assert main(["run", "-q", str(path), "-o", str(tmp_path / "r"), "-w", "1"]) == 0
    report = load_report(tmp_path / "r")
    assert [seat["bot"] for seat in report["seats"]][0] == "search(samples=4)"
    assert report["games"] == 3


class CountsWorlds(MonteCarloSearch):
    """The search, counting the worlds it draws from the view in Python."""

    drawn = 0

    def _world(self, view: Any, rng: Stream) -> Any:
        self.drawn += 1
        return super()._world(view, rng)


class GivesUpEveryWorld(CountsWorlds):
    """The kernel's deal said to give up a constraint in every world (Da Qi Zi's, rarely):
    each world is then drawn from the view in Python."""

    def _redeal(self, first: Position, seat: int, key: Any, world: Position) -> int:
        super()._redeal(first, seat, key, world)
        return 1


@pytest.mark.parametrize(("game", "players"), [("da-qi-zi", 4), ("fish-dash-cash", 5)])
def test_a_world_whose_deal_gave_up_a_constraint_is_drawn_from_the_view(
    game: str, players: int
) -> None:
    """8 samples: the first world and each of the 8 drawn from the view (9 draws), and
    the search still never peeks (twins alike); the kernel's deal keeping every
    constraint (the control) draws the first world alone."""
    state = _decision(game, players, seed=3)
    giving_up = GivesUpEveryWorld(game, samples=8)
    values = _values(giving_up, state)
    assert giving_up.drawn == 9
    assert values == _values(giving_up, _twin(state, game))
    keeping = CountsWorlds(game, samples=8)
    _values(keeping, state)
    assert keeping.drawn == 1
