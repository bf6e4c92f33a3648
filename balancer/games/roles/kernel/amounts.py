"""An amount compiled (engine.py `_amount`): the one kernel function the primitives'
compiled acts, the score terms' compiled values and the kernel's own scoring all
read amounts with. A module of its own, importing no registry, so that the
registries' compiled parts (games/roles/primitives/, scores/) import it without a
circle through kernel/scoring.py, which imports the score terms."""

from __future__ import annotations

import numpy as np

from balancer.games.roles.kernel.layout import (
    AMT_CONST,
    AMT_COUNTER,
    AMT_NUMBER,
    AMT_VALUE,
    NUMBER,
    T_CARDS,
    T_DECK,
    inlined,
)
from balancer.games.roles.kernel.regions import counter_at, zone_at, zone_len


@inlined
def amount(
    state: np.ndarray, tables: np.ndarray, kind: int, value: int, seat: int, card: int
) -> int:
    """engine.py _amount, knobs already filled in: a constant, the card's number times
    `value` (0 for no card), `seat`'s counter `value`, the sum of the numbers of its
    cards in zone `value`, or how many cards it holds there."""
    if kind == AMT_CONST:
        return value
    if kind == AMT_NUMBER:
        if card < 0:
            return 0
        return value * tables[T_CARDS + NUMBER * tables[T_DECK] + card]
    if kind == AMT_COUNTER:
        return state[counter_at(state, tables, value, seat)]
    if kind == AMT_VALUE:
        base = zone_at(state, tables, value, seat)
        total = 0
        for j in range(state[zone_len(state, tables, value, seat)]):
            total += tables[T_CARDS + NUMBER * tables[T_DECK] + state[base + j]]
        return total
    return state[zone_len(state, tables, value, seat)]
