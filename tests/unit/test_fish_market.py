"""The fish market (朝の魚河岸) played by hand: situations laid out, outcomes worked out
from docs/games/fish-market.md, on the Python interpreter and the compiled kernel.

Cards (a deck of five groups, numbered group after group; inside a group colour by
colour, each number's copies together):

    catch red 1..4 x2: 0-7 (red catch n: 2(n-1), 2(n-1)+1); blue 1..4 x2: 8-15
    catch red 7, 8, 9: 16-18; blue 7, 8, 9: 19-21
    sell red 1..6: 22-27; blue 1..6: 28-33
    poach red 2, 3, 4: 34-36; blue 2, 3, 4: 37-39
    storm red 5, 6: 40, 41; blue 5, 6: 42, 43

Defaults: crate 2, storm_factor 2, top_supplier 3. Resolution is highest number
first; with one card in each hand a game is over after its first trick.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest

from balancer import knobs
from balancer.games.roles import gamefile, load_file
from balancer.games.roles import kernel as K
from balancer.games.roles.definition import game_knobs
from balancer.games.roles.engine import State

MARKET_FILE = gamefile.shipped_path("fish-market")
assert MARKET_FILE is not None
MARKET = load_file(MARKET_FILE)
RED, BLUE = 0, 1
FIRST = {"catch": 0, "big": 16, "sell": 22, "poach": 34, "storm": 40}


def small(colour: int, number: int, copy: int = 0) -> int:
    return colour * 8 + (number - 1) * 2 + copy


def big(colour: int, number: int) -> int:
    return FIRST["big"] + colour * 3 + number - 7


def sell(colour: int, number: int) -> int:
    return FIRST["sell"] + colour * 6 + number - 1


def poach(colour: int, number: int) -> int:
    return FIRST["poach"] + colour * 3 + number - 2


def storm(colour: int, number: int) -> int:
    return FIRST["storm"] + colour * 2 + number - 5


def test_the_card_numbers_above_are_the_decks() -> None:
    # Read from the game's own card table, so a situation below lays the cards it says.
    cards = State.arranged(MARKET, knobs.defaults(game_knobs(MARKET)), [[0], [1]]).cards
    assert cards.size == 44
    assert [cards.describe(c) for c in (small(RED, 1, 1), small(BLUE, 3, 1), big(RED, 9))] == [
        "red catch 1", "blue catch 3", "red catch 9",
    ]  # fmt: skip
    assert [cards.describe(c) for c in (sell(BLUE, 1), poach(RED, 4), storm(BLUE, 6))] == [
        "blue sell 1", "red poach 4", "blue storm 6",
    ]  # fmt: skip
    assert cards.describe(big(BLUE, 9)) == "blue catch 9" and big(BLUE, 9) == FIRST["sell"] - 1


@dataclass(frozen=True)
class Situation:
    """Hands of one card each, played in seat order from seat 0; what is laid before
    (holds, counters, boats in port) and the outcome worked out by hand."""

    cards: tuple[int, ...]
    coins: tuple[int, ...]
    landed: tuple[int, ...]
    in_port: tuple[bool, ...]
    scores: tuple[int, ...]
    events: dict[str, int]
    holds: tuple[tuple[int, ...], ...] = ((), (), ())
    landed_before: tuple[int, ...] = (0, 0, 0)
    port_before: tuple[int, ...] = ()
    decision: tuple[list[int], int] | None = None
    rules: dict[str, Any] = field(default_factory=dict)

    def state(self) -> State:
        rules = {**knobs.defaults(game_knobs(MARKET)), **self.rules}
        hands = [[c] for c in self.cards]
        zones = {"hold": [list(h) for h in self.holds]}
        state = State.arranged(
            MARKET, rules, hands, zones=zones, counters={"landed": list(self.landed_before)}
        )
        for seat in self.port_before:
            state.flags["in_port"][seat] = True
        return state

    def moves(self) -> list[tuple[int, list[int] | None]]:
        """Each move with the legal moves it is taken from, when they are known by hand
        (the poach's choice); a card played is only checked to be legal."""
        played: list[tuple[int, list[int] | None]] = [(card, None) for card in self.cards]
        if self.decision is not None:
            options, taken = self.decision
            played.append((taken, options))
        return played


def check_legal(move: int, legal: list[int], options: list[int] | None) -> None:
    assert move in legal, (move, legal)
    if options is not None:
        assert sorted(legal) == sorted(options)


SITUATIONS = {
    # Seat 0's hold: red catch 2, blue catch 3, red catch 9 (3 fish, 14). Its sell 4
    # resolves first: a full crate (3 >= crate 2) pays 14 in coins beside the 14 sold;
    # landed 0 + 3 = 3 ties seat 1's 3 for the most: both take top_supplier 3. Seat 0
    # is in port. Catch 2 and 1 go into seats 2's and 1's holds, unsold at the end (worth
    # their numbers). Seat 0: 14 + 14 + 3 = 31; seat 1: 1 + 3 = 4; seat 2 (landed 1): 2.
    "full-crate": Situation(
        cards=(sell(RED, 4), small(RED, 1), small(RED, 2)),
        holds=((small(RED, 2, 1), small(BLUE, 3), big(RED, 9)), (), ()),
        landed_before=(0, 3, 1),
        coins=(14, 0, 0), landed=(3, 3, 1), in_port=(True, False, False),
        scores=(31, 4, 2),
        events={"sales": 1, "fish_sold": 3, "premiums": 1, "catches": 2, "fish_unsold": 2},
    ),
    # The control: red catch 9 alone (1 fish, 9): short of a crate, no premium; landed
    # 1 is behind seat 1's 3, which alone takes the 3. Scores 9, 1 + 3, 2.
    "short-crate": Situation(
        cards=(sell(RED, 4), small(RED, 1), small(RED, 2)),
        holds=((big(RED, 9),), (), ()),
        landed_before=(0, 3, 1),
        coins=(0, 0, 0), landed=(1, 3, 1), in_port=(True, False, False),
        scores=(9, 4, 2),
        events={"sales": 1, "fish_sold": 1, "premiums": 0, "catches": 2, "fish_unsold": 2},
    ),
    # Seat 1 is in port. Storm 6 resolves first: every boat at sea pays 6 x 2, seat 0's
    # own too; seat 1 is spared. Then seat 1's catch 3 takes it to sea (too late for the
    # storm), and seat 2's sell 1 sells an empty hold (no sale counted) and puts it in
    # port. Nobody landed a fish: all three tie for the most and take 3.
    # Scores: -12 + 3 = -9, 3 (the catch in its hold) + 3 = 6, -12 + 3 = -9.
    "storm-spares-port": Situation(
        cards=(storm(RED, 6), small(RED, 3), sell(RED, 1)),
        port_before=(1,),
        coins=(-12, 0, -12), landed=(0, 0, 0), in_port=(False, False, True),
        scores=(-9, 6, -9),
        events={"storm_damage": 1, "catches": 1, "sales": 0, "fish_unsold": 1},
    ),
    # The same with catch 7: it resolves before the storm, and its catch clears seat
    # 1's port: the storm finds three boats at sea, each pays 12. Scores -9, 7 - 12 + 3,
    # -9.
    "catch-leaves-port": Situation(
        cards=(storm(RED, 6), big(RED, 7), sell(RED, 1)),
        port_before=(1,),
        coins=(-12, -12, -12), landed=(0, 0, 0), in_port=(False, False, True),
        scores=(-9, -2, -9),
        events={"storm_damage": 1, "catches": 1, "sales": 0, "fish_unsold": 1},
    ),
    # storm_factor 3: storm 5 costs each boat at sea 5 x 3 = 15 (seat 2's sell 1 comes
    # after it). Scores: -15 + 3, 3 - 15 + 3, -15 + 3.
    "storm-factor": Situation(
        cards=(storm(RED, 5), small(RED, 3), sell(RED, 1)),
        coins=(-15, -15, -15), landed=(0, 0, 0), in_port=(False, False, True),
        scores=(-12, -9, -12),
        events={"storm_damage": 1, "catches": 1, "sales": 0, "fish_unsold": 1},
        rules={"storm_factor": 3},
    ),
    # Seat 0's poach 4 resolves first. Seat 1 (in port) holds red catch 9, seat 2 (at
    # sea) red catch 1 and blue catch 2: only seat 2's two fish may be taken. Seat 0
    # takes blue catch 2. Then catch 2 (seat 2) and catch 1 (seat 1, which leaves port).
    # Nothing sold: 3 each, and the holds at face: 2 + 3, 9 + 1 + 3, 1 + 2 + 3;
    # fish_unsold: 1 + 2 + 2 = 5.
    "poach-not-in-port": Situation(
        cards=(poach(RED, 4), small(RED, 1, 1), small(RED, 2)),
        holds=((), (big(RED, 9),), (small(RED, 1), small(BLUE, 2))),
        port_before=(1,),
        decision=([small(RED, 1), small(BLUE, 2)], small(BLUE, 2)),
        coins=(0, 0, 0), landed=(0, 0, 0), in_port=(False, False, False),
        scores=(5, 13, 6),
        events={"poaches": 1, "catches": 2, "fish_unsold": 5},
    ),
    # The control: seat 1 at sea too; its red catch 9 may be taken as well, and is:
    # holds 9, 1 and 1 + 2 + 2, plus 3 each.
    "poach-at-sea": Situation(
        cards=(poach(RED, 4), small(RED, 1, 1), small(RED, 2)),
        holds=((), (big(RED, 9),), (small(RED, 1), small(BLUE, 2))),
        decision=([big(RED, 9), small(RED, 1), small(BLUE, 2)], big(RED, 9)),
        coins=(0, 0, 0), landed=(0, 0, 0), in_port=(False, False, False),
        scores=(12, 4, 8),
        events={"poaches": 1, "catches": 2, "fish_unsold": 5},
    ),
}  # fmt: skip


def expected_events(situation: Situation) -> dict[str, float]:
    every = dict.fromkeys((e.name for e in MARKET.events), 0.0)
    return {**every, **{k: float(v) for k, v in situation.events.items()}}


@pytest.mark.parametrize("name", list(SITUATIONS))
def test_each_situation_ends_as_worked_out(name: str) -> None:
    situation = SITUATIONS[name]
    state = situation.state()
    for move, options in situation.moves():
        check_legal(move, state.legal_actions(), options)
        state.apply_action(move)
        state.check_invariants()
    assert state.is_terminal()
    assert tuple(state.counters["coins"]) == situation.coins
    assert tuple(state.counters["landed"]) == situation.landed
    assert tuple(state.flags["in_port"]) == situation.in_port
    record = state.record()
    assert record.scores == tuple(float(s) for s in situation.scores)
    assert record.events == expected_events(situation)


@pytest.mark.parametrize("name", list(SITUATIONS))
def test_each_situation_ends_as_worked_out_compiled(name: str) -> None:
    situation = SITUATIONS[name]
    arrays, tables = K.from_state(situation.state())
    streams = K.new_streams(len(situation.cards))
    buffer = K.new_legal(arrays, tables)
    for move, options in situation.moves():
        check_legal(move, buffer[: K.legal(arrays, tables, buffer)].tolist(), options)
        K.apply(arrays, tables, streams, move)
    assert K.legal(arrays, tables, buffer) == 0  # over: one card each
    snapshot = K.snapshot(arrays, tables, MARKET)
    assert tuple(snapshot["counters"]["coins"]) == situation.coins
    assert tuple(snapshot["counters"]["landed"]) == situation.landed
    assert tuple(bool(f) for f in snapshot["flags"]["in_port"]) == situation.in_port
    record = K.record(arrays, tables, MARKET)
    assert record.scores == tuple(float(s) for s in situation.scores)
    assert record.events == expected_events(situation)
