"""`catch_up: {counter: C, target: T, offset: K}`: raise each target's counter C to
the best rival's less K, when it is below that (never down; within C's declared
maximum).

It changed something (and counts its event) on a seat it raised. As it follows
the other seats, it leaves no static bound on C (bounds.most_reached). Its op row:
A the counter, B the offset. Its trace event: ("counter", seat, counter, target,
old, new), as add's.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from balancer.games.roles.primitives.base import (
    COUNTER,
    COUNTER_WORDS,
    EVENT_PARAM,
    INT,
    TARGET,
    Encoding,
    Primitive,
    param,
    tell_counter,
)

if TYPE_CHECKING:
    import numpy as np

    from balancer.games.roles.engine import State


def encode(params: Mapping[str, Any], names: Encoding) -> Sequence[int]:
    return (
        names.counter(params["counter"]),
        names.constant(params.get("offset") or ("int", 0)),
    )


def act(state: State, params: Mapping[str, Any], seat: int, card: int, target: int, _: int) -> bool:
    decl = next(c for c in state.game.counters if c.name == params["counter"])
    values = state.counters[decl.name]
    best = max(values[(target + k) % state.players] for k in range(1, state.players))
    goal = min(best - state._amount(params["offset"], seat, card), decl.high)
    if values[target] < goal:
        state._note("counter", seat, decl.name, target, values[target], goal)
        values[target] = goal
        return True
    return False


def kernel_act() -> Callable[..., bool]:
    from balancer.games.roles.kernel.layout import R_A, R_B, T_PLAYERS, X_CDECL, inlined
    from balancer.games.roles.kernel.regions import counter_at, directory
    from balancer.games.trick.kernel.lists import seat_after

    @inlined
    def catch_up(
        state: np.ndarray, tables: np.ndarray, row: int, seat: int, card: int, t: int, taken: int
    ) -> bool:
        players = tables[T_PLAYERS]
        c = tables[row + R_A]
        cdecl = directory(tables, X_CDECL) + 3 * c
        at = counter_at(state, tables, c, t)
        best = state[counter_at(state, tables, c, seat_after(t, 1, players))]
        for k in range(2, players):
            best = max(best, state[counter_at(state, tables, c, seat_after(t, k, players))])
        goal = min(best - tables[row + R_B], tables[cdecl + 2])
        if state[at] < goal:
            state[at] = goal
            return True
        return False

    return catch_up


def gain(
    params: Mapping[str, Any], name: str, kind: str, number: int, defaults: Mapping[str, int]
) -> int | None:
    return None if params["counter"] == name else 0


SPEC = Primitive(
    name="catch_up",
    params=(
        param("counter", COUNTER, required=True),
        param("target", TARGET, "self"),
        param("offset", INT, 0),
        EVENT_PARAM,
    ),
    targeted=True,
    encode=encode,
    act=act,
    kernel_act=kernel_act,
    tells={"counter": tell_counter},
    words=COUNTER_WORDS,
    gain=gain,
)
