"""The shape every target kind's module fills in: `TargetKind`.

A target kind says which seats an op with a `target:` acts on. As a primitive
(primitives/base.py says why a frozen dataclass), a kind keeps everything about
it in its module: its word, whether it takes an argument (`top: COUNTER`),
whether the owner picks the seat (a decision) or it names every rival, its
Python seats and its compiled seat, built on the kernel's first import.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from balancer.games.roles.engine import State


@dataclass(frozen=True)
class TargetKind:
    # The word a file writes (`target: next`), or the key of its one-key mapping
    # (`target: {top: position}`) when it takes an argument.
    name: str
    # The seats it names for `seat`'s op, in the order they are acted on: (state,
    # seat, chosen, argument) with `chosen` the rival a decision picked (-1 none).
    seats: Callable[[State, int, int, str | None], list[int]]
    # Builds the compiled seat (kernel/acts.py calls it once): numba's njit function
    # seat(state, tables, row, seat, chosen, j) -> the j-th seat it names.
    kernel_seat: Callable[[], Callable[..., int]]
    # What its argument names (a parameter kind of primitives/base.py), None: a word.
    argument: str | None = None
    # The owner picks the seat among the rivals (those not shielded by `unless`):
    # each rival is one way of the op, and the op waits for the decision.
    chosen: bool = False
    # It names every rival, from the owner's left (j = 0 .. players - 2).
    every_rival: bool = False
    # It names every seat, the owner first (j = 0 .. players - 1).
    every_seat: bool = False


def extreme_rival(state: State, seat: int, argument: str | None, most: bool) -> int:
    """The rival with the most (`most`) or the fewest of counter `argument`; on a tie
    the first from the owner's left (`top` and `bottom`'s Python seat)."""
    counter = state.counters[argument or ""]
    best = (seat + 1) % state.players
    for k in range(2, state.players):
        r = (seat + k) % state.players
        if (counter[r] > counter[best]) if most else (counter[r] < counter[best]):
            best = r  # strictly better: on a tie the rival met first stays
    return best


def kernel_extreme_rival(most: bool) -> Callable[..., int]:
    """`extreme_rival` compiled, as a kind's compiled seat (its op row's R_TARGET_ARG is
    the counter); `most` is a constant of the function numba compiles."""
    from balancer.games.roles.kernel.layout import R_TARGET_ARG, T_PLAYERS, inlined
    from balancer.games.roles.kernel.regions import counter_at
    from balancer.games.trick.kernel.lists import seat_after

    @inlined
    def extreme(state: Any, tables: Any, row: int, seat: int, chosen: int, j: int) -> int:
        players = tables[T_PLAYERS]
        counter = tables[row + R_TARGET_ARG]
        best = seat_after(seat, 1, players)
        for k in range(2, players):
            r = seat_after(seat, k, players)
            here = state[counter_at(state, tables, counter, r)]
            there = state[counter_at(state, tables, counter, best)]
            if (here > there) if most else (here < there):
                best = r  # strictly better: on a tie the rival met first stays
        return best

    return extreme
