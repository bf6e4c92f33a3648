"""The compiled trick procedure's own kernels (games/trick/kernel/procedure.py) on
hand-made positions, worked out by hand from docs/rules.md §1; the engines' conformance
tests check the same kernels game for game inside fdc's and the role games' kernels."""

from __future__ import annotations

import numpy as np

from balancer.games.trick.kernel import layout as L
from balancer.games.trick.kernel.procedure import cancelled_pass, next_leader, open_trick

RED, BLUE = 0, 1


def _tables(cards: list[tuple[int, int]], leader_next: int = 0) -> np.ndarray:
    """Tables of a deck whose card c is cards[c] = (colour, number)."""
    d = len(cards)
    tables = np.zeros(L.T_CARDS + L.N_COLUMNS * d, np.int64)
    tables[L.T_DECK] = d
    tables[L.T_LEADER_NEXT] = leader_next
    for c, (colour, number) in enumerate(cards):
        tables[L.T_CARDS + L.COLOUR * d + c] = colour
        tables[L.T_CARDS + L.NUMBER * d + c] = number
    return tables


def _state(players: int, plays: list[int], survivors: list[int]) -> np.ndarray:
    state = np.zeros(L.HANDS, np.int64)
    state[L.PLAYERS] = players
    state[L.PCARD : L.PCARD + len(plays)] = plays
    state[L.SURVIVOR_CARD : L.SURVIVOR_CARD + len(survivors)] = survivors
    return state


def test_the_cancelled_cards_come_off_colour_first_then_the_duplicates() -> None:
    """Red 5 leads; blue 3 is off-colour, the second red 5 cancels the lead as a
    duplicate, red 7 survives: blue 3 in the first pass, both red 5s in the second."""
    cards = [(RED, 5), (BLUE, 3), (RED, 5), (RED, 7)]
    tables = _tables(cards)
    state = _state(4, [0, 1, 2, 3], [3])
    passes = [cancelled_pass(state, tables, i, 1, False) for i in range(4)]
    assert passes == [1, 0, 1, -1]


def test_under_neko_the_lead_goes_first_then_the_duplicates() -> None:
    """猫に小判: red 5 leads alone in its colour; the followers blue 3, blue 3 cancel
    each other (duplicates), blue 6 survives: the lead first, then the two 3s."""
    cards = [(RED, 5), (BLUE, 3), (BLUE, 3), (BLUE, 6)]
    tables = _tables(cards)
    state = _state(4, [0, 1, 2, 3], [3])
    passes = [cancelled_pass(state, tables, i, 1, True) for i in range(4)]
    assert passes == [0, 1, 1, -1]


def test_a_trick_opens_at_the_first_waiting_seat_from_the_leader() -> None:
    """Four seats, seat 2 not playing (no cards, or sitting out): led from seat 2, the
    trick opens at seat 3 and goes round to 0 and 1."""
    state = _state(4, [], [])
    open_trick(state, 2, 0b1011)
    assert state[L.LEADER] == 3
    assert state[L.NORDER] == 3
    assert state[L.ORDER : L.ORDER + 3].tolist() == [3, 0, 1]
    assert (state[L.TURN], state[L.PHASE]) == (0, L.PLAY)


def test_the_next_leader_is_the_first_resolved_owner_else_by_the_knob() -> None:
    state = _state(4, [], [])
    state[L.LEADER] = 3
    state[L.NEXT_LEADER] = 1
    assert next_leader(state, _tables([(RED, 1)], leader_next=1)) == 1
    state[L.NEXT_LEADER] = -1  # nothing resolved
    assert next_leader(state, _tables([(RED, 1)], leader_next=0)) == 3  # the same
    assert next_leader(state, _tables([(RED, 1)], leader_next=1)) == 0  # the next, round
