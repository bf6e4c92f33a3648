"""The role world sampler (roles/determinize.py) deals what the seat can't see at random:
two streams give two different worlds, and over many worlds each unseen card lands in
each hidden place as often as the place's share of the unseen cards says. A sampler that
never shuffles passes every other test (the search bot's kernel deals each world again),
but `lookahead` would then play all its samples on one deal.

The position is set up by hand on a designer's game with a face-down zone, so nothing
recalls where a rival's face-down cards came from: seat 0 holds 3 cards; seats 1-3 hold
3 each; seat 1's vault holds 2 cards face down, seat 2's 1; the pile 6; the other 9 cards
were played (the discard). Seat 0 can't see 3 + 3 + 3 + 2 + 1 + 6 = 18 cards, in six
places.
"""

from __future__ import annotations

from collections.abc import Callable, MutableSequence
from pathlib import Path
from typing import TypeVar

import numpy as np
import pytest
from scipy import stats

from balancer import knobs
from balancer.games.roles import load_file
from balancer.games.roles.definition import game_knobs
from balancer.games.roles.determinize import determinize
from balancer.games.roles.engine import State
from balancer.games.roles.model import RoleGame
from balancer.rng import Stream
from tests.unit.test_roles_no_peek import VAULT

T = TypeVar("T")

DRAWS = 3000
# Family-wise: a sampler that deals uniformly fails this seeded test with probability at
# most 1e-6 (Bonferroni over the 18 cards, each a χ² test on 6 places, 5 degrees of
# freedom). The smallest expected count is 3000 · 1/18 ≈ 167, far above χ²'s 5.
ALPHA = 1e-6

# (place, seat or None, size): where seat 0's unseen cards lie.
PLACES = [("hand", 1, 3), ("hand", 2, 3), ("hand", 3, 3), ("vault", 1, 2), ("vault", 2, 1)]
PLACES += [("pile", None, 6)]


@pytest.fixture(scope="module")
def position(tmp_path_factory: pytest.TempPathFactory) -> tuple[RoleGame, State]:
    path: Path = tmp_path_factory.mktemp("designer") / "hidden-vault.yaml"
    path.write_text(VAULT, encoding="utf-8")
    game = load_file(path)
    deck = list(range(30))  # 2 colours x 3 roles x numbers 1-5
    hands = [deck[0:3], deck[3:6], deck[6:9], deck[9:12]]
    vaults = [[], deck[12:14], deck[14:15], []]
    pile = deck[15:21]
    state = State.arranged(
        game, knobs.defaults(game_knobs(game)), hands, pile=pile, zones={"vault": vaults}
    )
    # Placed by hand, the vaults' cards went in unseen (as after a steal between face-down
    # zones): nobody recalls them, so a world deals them again (else they stay: recall).
    state.unsure.update(c for vault in vaults for c in vault)
    return game, state


def where(world: State, card: int) -> int:
    """The index in PLACES of the place holding `card` in `world`."""
    for index, (kind, seat, _) in enumerate(PLACES):
        if kind == "pile":
            held = world.pile
        elif kind == "hand":
            held = world.hands[seat or 0]
        else:
            held = world.zones["vault"][seat or 0]
        if card in held:
            return index
    raise AssertionError(f"card {card} left the hidden places")


Sampler = Callable[[Stream], State]


def spread(sample: Sampler, unseen: list[int]) -> np.ndarray:
    """counts[card, place] over DRAWS worlds, each from its own stream."""
    counts = np.zeros((len(unseen), len(PLACES)), dtype=np.int64)
    for draw in range(DRAWS):
        world = sample(Stream(31, draw, 2))
        for row, card in enumerate(unseen):
            counts[row, where(world, card)] += 1
    return counts


def smallest_p(counts: np.ndarray) -> float:
    sizes = np.array([size for _, _, size in PLACES], dtype=float)
    expected = counts.sum(axis=1, keepdims=True) * sizes / sizes.sum()
    return float(
        min(stats.chisquare(row, exp).pvalue for row, exp in zip(counts, expected, strict=True))
    )


def unseen_by_seat_0(state: State) -> list[int]:
    return sorted(
        [*state.hands[1], *state.hands[2], *state.hands[3], *state.pile]
        + [c for vault in state.zones["vault"][1:] for c in vault]
    )


def test_the_hidden_places_are_the_ones_described(position: tuple[RoleGame, State]) -> None:
    _, state = position
    view = state.view(0)
    assert view.hand_sizes == (3, 3, 3, 3) and view.pile_size == 6
    assert view.zones["vault"] == ((), 2, 1, 0)
    assert len(unseen_by_seat_0(state)) == 18


def test_two_streams_give_two_worlds(position: tuple[RoleGame, State]) -> None:
    """Two uniform deals of 18 cards into places of 3, 3, 3, 2, 1 and 6 coincide with
    probability 3!3!3!2!1!6! / 18! < 1e-9: every pair of 20 streams differs."""
    game, state = position
    view = state.view(0)
    deals = set()
    for n in range(20):
        world = determinize(game, view, Stream(40, n, 2))
        assert world.view(0) == view
        deals.add((tuple(map(tuple, world.hands)), tuple(world.pile), str(world.zones)))
    assert len(deals) == 20


def test_each_unseen_card_lands_in_each_place_evenly(position: tuple[RoleGame, State]) -> None:
    game, state = position
    view = state.view(0)
    counts = spread(lambda rng: determinize(game, view, rng), unseen_by_seat_0(state))
    assert smallest_p(counts) >= ALPHA / len(counts)


class _Unshuffled(Stream):
    """A stream whose shuffles leave the list as it is: the sampler that never shuffles."""

    def shuffle(self, values: MutableSequence[T]) -> None:
        pass


def test_the_control_a_sampler_that_never_shuffles_fails(
    position: tuple[RoleGame, State],
) -> None:
    game, state = position
    view = state.view(0)

    def frozen(rng: Stream) -> State:
        return determinize(game, view, _Unshuffled(31, 0, 2))

    counts = spread(frozen, unseen_by_seat_0(state))
    assert smallest_p(counts) < ALPHA / len(counts)
