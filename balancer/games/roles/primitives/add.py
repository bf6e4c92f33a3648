"""`add: {counter: C, by: N, target: T, min: LO, max: HI, unless: F}`: add N to each
target's counter C, kept within [LO, HI] (when given) and C's declared range;
skipped on a target whose flag F is set.

It changed something (and counts its event) on a seat whose counter moved. Its op
row: A the counter, B/C `by` as an amount, D min, E max (NO_MIN/NO_MAX when not
given: they never bind). Its trace event: ("counter", seat, counter, target, old, new).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from balancer.games.roles.primitives.base import (
    AMOUNT,
    COUNTER,
    COUNTER_WORDS,
    EVENT_PARAM,
    FLAG,
    INT,
    TARGET,
    Encoding,
    Primitive,
    most_added,
    param,
    tell_counter,
)

if TYPE_CHECKING:
    import numpy as np

    from balancer.games.roles.engine import State

NO_MIN, NO_MAX = -(2**62), 2**62  # an add without `min` / `max`: a bound that never binds


def encode(params: Mapping[str, Any], names: Encoding) -> Sequence[int]:
    low, high = params.get("min"), params.get("max")
    return (
        names.counter(params["counter"]),
        *names.amount(params["by"]),
        NO_MIN if low is None else names.constant(low),
        NO_MAX if high is None else names.constant(high),
    )


def act(state: State, params: Mapping[str, Any], seat: int, card: int, target: int, _: int) -> bool:
    decl = next(c for c in state.game.counters if c.name == params["counter"])
    values = state.counters[decl.name]
    value = values[target] + state._amount(params["by"], seat, card)
    if params.get("min") is not None:
        value = max(value, state._amount(params["min"], seat, card))
    if params.get("max") is not None:
        value = min(value, state._amount(params["max"], seat, card))
    old = values[target]
    values[target] = min(max(value, decl.low), decl.high)
    state._note("counter", seat, decl.name, target, old, values[target])
    return values[target] != old


def kernel_act() -> Callable[..., bool]:
    from balancer.games.roles.kernel.amounts import amount
    from balancer.games.roles.kernel.layout import R_A, R_B, R_C, R_D, R_E, X_CDECL, inlined
    from balancer.games.roles.kernel.regions import counter_at, directory

    @inlined
    def add(
        state: np.ndarray, tables: np.ndarray, row: int, seat: int, card: int, t: int, taken: int
    ) -> bool:
        c = tables[row + R_A]
        cdecl = directory(tables, X_CDECL) + 3 * c
        at = counter_at(state, tables, c, t)
        old = state[at]
        value = old + amount(state, tables, tables[row + R_B], tables[row + R_C], seat, card)
        value = max(value, tables[row + R_D])  # NO_MIN never binds
        if tables[row + R_E] != NO_MAX:
            value = min(value, tables[row + R_E])
        state[at] = min(max(value, tables[cdecl + 1]), tables[cdecl + 2])
        return state[at] != old

    return add


def gain(
    params: Mapping[str, Any], name: str, kind: str, number: int, defaults: Mapping[str, int]
) -> int | None:
    if kind != "counter" or params["counter"] != name:
        return 0
    return most_added(params["by"], number, defaults)


SPEC = Primitive(
    name="add",
    params=(
        param("counter", COUNTER, required=True),
        param("by", AMOUNT, required=True),
        param("target", TARGET, "self"),
        param("min", INT),
        param("max", INT),
        param("unless", FLAG),
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
