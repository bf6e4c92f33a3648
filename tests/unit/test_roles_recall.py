"""Perfect recall of face-down zones in role games (issue 36, Deliver 3), by hand.

A card that goes into a face-down zone was face up just before (in the trick,
or in a face-up zone), so every seat saw it go in: the view lists it
(`View.recalled`), and a world drawn from the view (roles/determinize.py)
keeps it there, never dealing it back into a hand or the pile. Only a steal
from one face-down zone into another hides which card moved: that card and
those left in the zone it came from are then unsure to every seat, until one
comes face up again.

fish-dash-cash-roles' cards: colours red 0, blue 1; roles fish 0, dash 1, cash 2;
numbers 0..9: card = (colour * 3 + role) * 10 + number. recall.yaml's: roles
stash 0, pinch 1, grab 2, flip 3; numbers 0..3: card = (colour * 4 + role) * 4 + number.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

from balancer import knobs
from balancer.games.roles import gamefile, load_file
from balancer.games.roles.definition import game_knobs
from balancer.games.roles.determinize import determinize
from balancer.games.roles.engine import State, View
from balancer.games.roles.model import RoleGame
from balancer.rng import Stream

FDC = load_file(gamefile.shipped_path("fish-dash-cash-roles"))  # type: ignore[arg-type]
RECALL = load_file(Path(__file__).parents[1] / "kernels" / "recall.yaml")
RED, BLUE = 0, 1


def fdc_card(colour: int, role: int, number: int) -> int:
    return (colour * 3 + role) * 10 + number


def recall_card(colour: int, role: int, number: int) -> int:
    return (colour * 4 + role) * 4 + number


FISH, DASH, CASH = 0, 1, 2
STASH, PINCH, GRAB, FLIP = 0, 1, 2, 3


def rules_of(game: RoleGame) -> dict[str, Any]:
    return knobs.defaults(game_knobs(game))


def play(state: State, *moves: int) -> None:
    for move in moves:
        assert move in state.legal_actions(), (move, state.legal_actions())
        state.apply_action(move)
        state.check_invariants()


def forgetful(view: View) -> View:
    """The view with nothing recalled: what determinize read before recall (the control)."""
    players = len(view.hand_sizes)
    return dataclasses.replace(view, recalled={name: ((),) * players for name in view.recalled})


def cashed_fish() -> State:
    """Seat 1 cashes the red fish 4 of its territory: red fish 2 (seat 0), cash 7
    (seat 1), fish 5 (seat 2); the cash resolves first (highest number), turning
    seat 1's territory, the fish 4, face down into its bank."""
    hands = [
        [fdc_card(RED, FISH, 2), fdc_card(BLUE, FISH, 9)],
        [fdc_card(RED, CASH, 7), fdc_card(BLUE, DASH, 8)],
        [fdc_card(RED, FISH, 5), fdc_card(BLUE, CASH, 6)],
    ]
    pile = [fdc_card(RED, DASH, n) for n in range(4)]
    state = State.arranged(FDC, rules_of(FDC), hands, pile=pile, zones={"territory": [[], [4], []]})
    play(state, fdc_card(RED, FISH, 2), fdc_card(RED, CASH, 7), fdc_card(RED, FISH, 5))
    assert state.zones["bank"] == [[], [4], []]
    return state


def test_every_seat_recalls_the_fish_a_rival_cashed() -> None:
    state = cashed_fish()
    for seat in (0, 2):
        view = state.view(seat)
        assert view.zones["bank"][1] == 1  # face down: a count
        assert view.recalled["bank"] == ((), (4,), ())
    assert state.view(1).recalled["bank"] == ((), (4,), ())  # its own: the others know it


def test_a_world_keeps_the_cashed_fish_in_the_rivals_bank() -> None:
    state = cashed_fish()
    view = state.view(0)
    for n in range(40):
        world = determinize(FDC, view, Stream(5, n, 1))
        world.check_invariants()
        assert world.view(0) == view
        assert world.zones["bank"][1] == [4]
        assert all(4 not in hand for hand in world.hands) and 4 not in world.pile


def test_a_world_that_forgets_the_cashed_fish_is_told_apart() -> None:
    """The control: drawn as before recall, the fish goes back into the pool, lands in
    a hand or the pile in some worlds, and the world shows the seat another view."""
    state = cashed_fish()
    view = state.view(0)
    worlds = [determinize(FDC, forgetful(view), Stream(5, n, 1)) for n in range(40)]
    assert any(w.zones["bank"][1] != [4] for w in worlds)
    assert all(w.view(0) != view for w in worlds)


def recall_game() -> State:
    """Three seats, seat 0 leading every trick (its card resolves first each time):
    1. red stashes 3, 2, 1: each seat's vault holds its card, face down;
    2. blue flip 3 (seat 0's den: empty), stash 2 (seat 1's vault: red 2, blue 2),
       flip 1 (nothing);
    3. red pinch 3 (seat 0), flips 2 and 1 (nothing): seat 0 steals one of the cards
       of seat 1's or seat 2's vault into its den; it takes blue stash 2."""
    tricks = [
        [recall_card(RED, STASH, 3), recall_card(RED, STASH, 2), recall_card(RED, STASH, 1)],
        [recall_card(BLUE, FLIP, 3), recall_card(BLUE, STASH, 2), recall_card(BLUE, FLIP, 1)],
        [recall_card(RED, PINCH, 3), recall_card(RED, FLIP, 2), recall_card(RED, FLIP, 1)],
        [recall_card(BLUE, FLIP, 0), recall_card(BLUE, STASH, 3), recall_card(BLUE, GRAB, 1)],
    ]
    hands = [[trick[seat] for trick in tricks] for seat in range(3)]
    state = State.arranged(RECALL, rules_of(RECALL), hands)
    play(state, *tricks[0])
    play(state, *tricks[1])
    assert state.view(2).recalled["vault"] == ((3,), (2, 18), (1,))
    play(state, *tricks[2])
    # The pinch waits for seat 0's choice: seat 1's red and blue 2, seat 2's red 1.
    assert state.current_player() == 0 and state.legal_actions() == [2, 18, 1]
    play(state, 18)
    return state


def test_a_steal_between_face_down_zones_leaves_every_other_seat_unsure() -> None:
    state = recall_game()
    assert state.zones["vault"] == [[3], [2], [1]] and state.zones["den"] == [[18], [], []]
    # Seat 2 saw a card go from seat 1's vault to seat 0's den, not which: the red 2
    # left in the vault is as unsure as the card in the den. Seat 0's and its own
    # vault it still recalls.
    for seat in range(3):
        assert state.view(seat).recalled == {"vault": ((3,), (), (1,)), "den": ((), (), ())}
    view = state.view(2)
    assert view.zones["vault"] == (1, 1, (1,)) and view.zones["den"] == (
        1,
        0,
        (),
    )
    pool = {c for s in (0, 1) for c in state.hands[s]} | {2, 18}
    landed = set()
    for n in range(40):
        world = determinize(RECALL, view, Stream(6, n, 1))
        world.check_invariants()
        assert world.view(2) == view
        assert world.zones["vault"][0] == [3] and world.zones["vault"][2] == [1]
        assert world.zones["vault"][1][0] in pool and world.zones["den"][0][0] in pool
        landed.add(world.zones["den"][0][0])
    assert len(landed) > 2  # the den's card is drawn from the whole pool


def test_a_card_face_up_again_or_placed_is_recalled_again() -> None:
    """4. blue flip 0 (seat 0: its den, the blue 2, face up onto its table), stash 3
    (seat 1: into its vault, seen), grab 1 (seat 2 steals from a vault onto its table:
    it takes the unsure red 2). Resolved 3, 1, 0: every card in a vault is sure again."""
    state = recall_game()
    play(state, recall_card(BLUE, FLIP, 0), recall_card(BLUE, STASH, 3), recall_card(BLUE, GRAB, 1))
    assert state.current_player() == 2 and state.legal_actions() == [3, 2, 19]
    play(state, 2)
    assert state.zones["table"] == [[18], [], [2]]
    assert state.view(0).recalled == {"vault": ((3,), (19,), (1,)), "den": ((), (), ())}
    assert state.unsure == set()
