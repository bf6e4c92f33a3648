"""The search bot's options: `candidates` (top-k by the scripted bot), `horizon: deal`
(Da Qi Zi) and `method: ismcts`, and their one-line errors in a variant file."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from balancer import games, knobs
from balancer.bots.search import MonteCarloSearch
from balancer.games.daqizi import kernel as DQ
from balancer.games.daqizi.bots import Heuristic
from balancer.rng import CHANCE, Stream

SCRIPTED = {"fish-dash-cash": "heuristic", "kimekimera": "expected", "da-qi-zi": "heuristic"}
TABLES = {"fish-dash-cash": 5, "kimekimera": 4, "da-qi-zi": 4}


def _played(game: str, seed: int, until: Any) -> Any:
    """A game of `seed` played by the scripted bot in every seat up to the first
    position where `until(state)` holds (None if the game ends first)."""
    spec = games.get(game)
    rules = knobs.freeze(knobs.defaults(spec.knobs))
    bot_spec = games.definition(game).bots()[SCRIPTED[game]]
    bot = bot_spec.factory()
    state = spec.new_state(rules, TABLES[game], Stream(seed, 0, CHANCE))
    while state.current_player() >= 0:
        if until(state):
            return state
        legal = state.legal_actions()
        seat = state.current_player()
        move = legal[0] if len(legal) == 1 else bot.act(state.view(seat), legal, Stream(0, 0, 1))
        state.apply_action(move)
    return None


def _many_moves(state: Any) -> bool:
    return len(state.legal_actions()) >= 12


# -- candidates ----------------------------------------------------------------


def test_candidates_limit_the_moves_searched_to_the_scripted_bots_top_k() -> None:
    """A Da Qi Zi follow with 26 legal moves (discards): with candidates 3 only three
    are searched, the heuristic's choice first, then its choice among those left."""
    state = _played("da-qi-zi", 0, _many_moves)
    seat = state.current_player()
    view, legal = state.view(seat), state.legal_actions()
    assert len(legal) == 26
    values = MonteCarloSearch("da-qi-zi", samples=2, candidates=3).evaluate(
        view, legal, Stream(7, 0, 1)
    )
    heuristic = Heuristic()
    first = heuristic.act(view, legal, Stream(0, 0, 0))
    second = heuristic.act(view, [m for m in legal if m != first], Stream(0, 0, 0))
    assert len(values.moves) == 3 == len(set(values.moves))
    assert set(values.moves) <= set(legal)
    assert values.moves[:2] == (first, second)
    # The control: without candidates every legal move is searched, in legal order.
    everything = MonteCarloSearch("da-qi-zi", samples=2).evaluate(view, legal, Stream(7, 0, 1))
    assert everything.moves == tuple(legal)


def test_as_many_candidates_as_legal_moves_searches_them_all_in_legal_order() -> None:
    """The Da Qi Zi follow of 26 discards with candidates 26: nothing to leave out, so
    every legal move in the game's order, the heuristic never asked; with 25 (the
    control) the heuristic's ranking, which is not the legal order."""
    state = _played("da-qi-zi", 0, _many_moves)
    view, legal = state.view(state.current_player()), state.legal_actions()
    assert len(legal) == 26
    search = MonteCarloSearch("da-qi-zi", samples=1, candidates=26)
    assert search.ranked(view, legal, Stream(7, 0, 1)) == tuple(legal)
    search.candidates = 25
    ranked = search.ranked(view, legal, Stream(7, 0, 1))
    assert set(ranked) < set(legal) and ranked != tuple(legal[:25])


@pytest.mark.parametrize("game", sorted(TABLES))
def test_one_candidate_plays_the_scripted_bots_move(game: str) -> None:
    """candidates 1 is the scripted bot: the same move at every decision of a game;
    the full search (the control) departs from it somewhere in the same decisions."""
    bot_spec = games.definition(game).bots()[SCRIPTED[game]]
    scripted = bot_spec.factory()
    one = MonteCarloSearch(game, samples=4, candidates=1)
    full = MonteCarloSearch(game, samples=4)
    decisions = differ = 0
    spec = games.get(game)
    rules = knobs.freeze(knobs.defaults(spec.knobs))
    for seed in range(3):
        state = spec.new_state(rules, TABLES[game], Stream(seed, 0, CHANCE))
        while state.current_player() >= 0 and decisions < 40:
            legal = state.legal_actions()
            seat = state.current_player()
            move = legal[0]
            if len(legal) > 1:
                view = state.view(seat)
                move = scripted.act(view, legal, Stream(0, 0, 1))
                assert one.act(view, legal, Stream(5, 0, 1)) == move
                differ += full.act(view, legal, Stream(5, 0, 1)) != move
                decisions += 1
            state.apply_action(move)
    assert decisions >= 20
    assert differ > 0


@pytest.mark.parametrize("game", sorted(TABLES))
def test_a_ranking_is_distinct_legal_moves_led_by_the_scripted_choice(game: str) -> None:
    """All but one of the legal moves ranked, at every decision of five games: the
    scripted bot's answers run out in places (fdc's heuristic answers `protect` at a
    dash whether or not it is still among the moves left) and the ranking is still
    distinct legal moves."""
    spec = games.get(game)
    rules = knobs.freeze(knobs.defaults(spec.knobs))
    scripted = games.definition(game).bots()[SCRIPTED[game]].factory()
    search = MonteCarloSearch(game, samples=1)
    ranked = 0
    for seed in range(5):
        state = spec.new_state(rules, TABLES[game], Stream(seed, 0, CHANCE))
        while state.current_player() >= 0:
            legal = state.legal_actions()
            move = legal[0]
            if len(legal) > 2:
                view = state.view(state.current_player())
                move = scripted.act(view, legal, Stream(0, 0, 1))
                search.candidates = len(legal) - 1
                moves = search.ranked(view, legal, Stream(0, 0, 1))
                assert len(set(moves)) == len(moves) == len(legal) - 1
                assert set(moves) <= set(legal) and moves[0] == move
                ranked += 1
            state.apply_action(move)
    assert ranked >= 20


# A game file's own scripted bot ranks its candidates (issue 36): the heuristic where
# the file plays Fish! Dash! Cash!'s roles, else its lookahead; once `random` did.
GAME_FILES = {
    "mega-racer": ("lookahead", 4),
    "zodiac-race": ("lookahead", 5),
    "fish-dash-cash-roles": ("heuristic", 5),
}


@pytest.mark.parametrize("game", sorted(GAME_FILES))
def test_on_a_game_file_one_candidate_plays_the_files_scripted_bot(game: str) -> None:
    """candidates 1 plays the file's scripted bot's move from the same stream, at every
    decision of games played at random; the `random` bot's move from that stream (the
    control) departs from it somewhere in the same decisions."""
    name, players = GAME_FILES[game]
    scripted = games.definition(game).bots()[name].factory()
    one = MonteCarloSearch(game, samples=2, candidates=1)
    spec = games.get(game)
    rules = knobs.freeze(knobs.defaults(spec.knobs))
    decisions = differ = 0
    for seed in range(2):
        state = spec.new_state(rules, players, Stream(seed, 0, CHANCE))
        while state.current_player() >= 0 and decisions < 30:
            legal = state.legal_actions()
            if len(legal) > 1:
                view = state.view(state.current_player())
                expected = scripted.act(view, legal, Stream(seed, decisions, 1))
                rng = Stream(seed, decisions, 1)
                assert one.act(view, legal, rng) == expected
                assert rng.counter == 0  # the ranker drew from a copy
                differ += legal[Stream(seed, decisions, 1).below(len(legal))] != expected
                decisions += 1
            state.apply_action(legal[Stream(seed, decisions, 2).below(len(legal))])
    assert decisions >= 20
    assert differ > 0


# -- horizon: deal -------------------------------------------------------------


def _last_trick_with_the_red_general() -> Any:
    """Seed 6, played by four heuristics: deal 1's last trick, every hand one card,
    seat 3 to lead holding the red general (kind 13, which nothing beats); captured
    so far 1, 2, 1, 3 cards; multiplier 1; chips 20 each."""
    state = _played(
        "da-qi-zi", 6, lambda s: s.deal == 1 and s.best < 0 and all(n == 1 for n in s.sizes)
    )
    assert state.to_act == 3 and state.hands[3][13] == 1
    assert list(state.n_captured) == [1, 2, 1, 3] and state.multiplier == 1
    assert list(state.chips) == [20] * 4
    return state


def test_a_deal_horizon_values_a_move_by_the_deals_payment() -> None:
    """Seat 3 leads the red general into the last trick: it wins the deal in every
    world and each other seat pays base 4 less its captured cards: 3 + 2 + 3 = 8."""
    state = _last_trick_with_the_red_general()
    view, legal = state.view(3), state.legal_actions()
    deal = MonteCarloSearch("da-qi-zi", samples=5, horizon="deal")
    assert deal.evaluate(view, legal, Stream(7, 0, 1)).values == (8.0,)
    default = MonteCarloSearch("da-qi-zi", samples=5)  # Da Qi Zi's default horizon: the deal
    assert default.evaluate(view, legal, Stream(7, 0, 1)).values == (8.0,)
    tree = MonteCarloSearch("da-qi-zi", samples=5, horizon="deal", method="ismcts")
    assert tree.evaluate(view, legal, Stream(7, 0, 1)).values == (8.0,)
    # The control: to the game's end the same move is worth a win share in [0, 1].
    game = MonteCarloSearch("da-qi-zi", samples=5, horizon="game")
    (share,) = game.evaluate(view, legal, Stream(7, 0, 1)).values
    assert 0.0 <= share <= 1.0


def test_the_kernels_deal_play_out_stops_once_the_deal_is_paid() -> None:
    state = _last_trick_with_the_red_general()
    kernel = games.definition("da-qi-zi").kernel()
    position = kernel.from_state(state, [Stream(1, 0, 1 + s) for s in range(4)])
    bots = kernel.encode_bots([("heuristic", {"reserve_min": 10, "cheap_beat": 7,
                                              "safe_lead": True})] * 4)  # fmt: skip
    deals = DQ.play_deal_out(
        position.state, position.tables, position.streams, bots.plan, bots.flat,
        DQ.new_scratch(position.state), scores := np.zeros(4), 1,
    )  # fmt: skip
    assert deals == 1
    assert scores.tolist() == [17.0, 18.0, 17.0, 28.0]
    assert position.state[DQ.S_DEAL] == 2 and position.state[DQ.S_OVER] == 0
    # Asked for a deal already paid, it plays nothing.
    assert DQ.play_deal_out(
        position.state, position.tables, position.streams, bots.plan, bots.flat,
        DQ.new_scratch(position.state), scores, 1,
    ) == 0  # fmt: skip
    assert position.state[DQ.S_DEAL] == 2


# -- method: ismcts ------------------------------------------------------------


def test_ismcts_is_a_function_of_the_view_and_the_stream() -> None:
    from tests.unit.test_search import _decision

    state = _decision("da-qi-zi", 4, seed=3)
    seat = state.current_player()
    view, legal = state.view(seat), state.legal_actions()
    tree = MonteCarloSearch("da-qi-zi", samples=4, method="ismcts")
    first = tree.evaluate(view, legal, Stream(7, 0, 1))
    assert first == tree.evaluate(view, legal, Stream(7, 0, 1))
    assert first != tree.evaluate(view, legal, Stream(8, 0, 1))  # the control
    assert first.best in first.moves


# -- the variant file ----------------------------------------------------------


@pytest.mark.parametrize(
    ("variant", "params", "message"),
    [
        ("fdc-base.yaml", "{horizon: deal}", "unknown parameter for bot search"),
        ("dqz-base.yaml", "{horizon: trick}", "expected one of game, deal"),
        ("dqz-base.yaml", "{candidates: -1}", "must be at least 0"),
        ("dqz-base.yaml", "{method: uct}", "expected one of flat, ismcts"),
    ],
)
def test_a_bad_search_parameter_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], variant: str, params: str, message: str
) -> None:
    from balancer.cli import main
    from tests.helpers import variant_file

    players = 3 if variant.startswith("fdc") else 4
    seats = ", ".join(["heuristic"] * (players - 1))
    path = variant_file(
        tmp_path,
        variant,
        f"players: {players}\ngames: 2\nseats: [{seats}, {{bot: search, params: {params}}}]\n",
    )
    assert main(["run", "-q", str(path), "-o", str(tmp_path / "r"), "-w", "1"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err and "seats[" in err
    assert not (tmp_path / "r").exists()
