"""A role game's world drawn from one seat's view (roles/engine.py determinize).

At decisions of random games of both shipped files (plays and a dash's choices),
the world shows the seat exactly its view, keeps every card once, and offers the
same moves; it redeals only what the seat can't see (the other hands, the other
seats' face-down zones, the pile). A control: a world drawn from another seat's
view is told apart by this seat.
"""

from __future__ import annotations

from typing import Any

import pytest

from balancer import games, knobs
from balancer.rng import CHANCE, Stream


def decisions(game: str, players: int, count: int) -> list[Any]:
    """Positions at decisions (two moves or more) of random games."""
    spec = games.get(game)
    rules = knobs.freeze(knobs.defaults(spec.knobs))
    found = []
    index = 0
    while len(found) < count:
        state = spec.new_state(rules, players, Stream(8, index, CHANCE))
        pick = Stream(8, index, 99)
        while not state.is_terminal():
            legal = state.legal_actions()
            if len(legal) > 1 and len(found) < count:
                found.append(state.clone())
            state.apply_action(legal[pick.below(len(legal))])
        index += 1
    return found


@pytest.mark.parametrize(("game", "players"), [("fish-dash-cash-roles", 5), ("mega-racer", 3)])
def test_a_world_shows_the_seat_its_own_view(game: str, players: int) -> None:
    spec = games.get(game)
    assert spec.determinize is not None
    choices = moved = 0
    for n, state in enumerate(decisions(game, players, 150)):
        seat = state.current_player()
        world = spec.determinize(state.view(seat), Stream(3, n, 1))
        world.check_invariants()
        assert world.view(seat) == state.view(seat)
        assert world.legal_actions() == state.legal_actions()
        assert world.hands[seat] == state.hands[seat]
        choices += state.phase == 1
        moved += world.hands != state.hands or world.pile != state.pile
    assert moved > 100  # the hidden cards were dealt again
    if game == "fish-dash-cash-roles":
        assert choices > 0  # some worlds were drawn while a dash waited


def test_a_world_from_another_seats_view_is_told_apart() -> None:
    spec = games.get("mega-racer")
    assert spec.determinize is not None
    told = 0
    for n, state in enumerate(decisions("mega-racer", 3, 40)):
        seat = state.current_player()
        other = (seat + 1) % 3
        world = spec.determinize(state.view(other), Stream(3, n, 1))
        told += world.view(seat) != state.view(seat)
    assert told > 30
