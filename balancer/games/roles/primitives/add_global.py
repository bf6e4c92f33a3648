"""`add_global: {counter: G, by: N}`: add N to global counter G, kept within its
declared range.

It changed something (and counts its event) when G moved. Its op row: A the
global, B/C `by` as an amount. Its trace event: ("global", seat, global, old, new).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from balancer.games.definition import LogEntry
from balancer.games.roles.primitives.base import (
    AMOUNT,
    EVENT_PARAM,
    GLOBAL,
    Encoding,
    Primitive,
    Words,
    most_added,
    param,
    say,
)

if TYPE_CHECKING:
    import numpy as np

    from balancer.games.roles.engine import Cards, State


def encode(params: Mapping[str, Any], names: Encoding) -> Sequence[int]:
    return (names.glob(params["counter"]), *names.amount(params["by"]))


def act(state: State, params: Mapping[str, Any], seat: int, card: int, _: int, __: int) -> bool:
    g = next(c for c in state.game.globals if c.name == params["counter"])
    old = state.globals[g.name]
    value = old + state._amount(params["by"], seat, card)
    state.globals[g.name] = min(max(value, g.low), g.high)
    state._note("global", seat, g.name, old, state.globals[g.name])
    return state.globals[g.name] != old


def kernel_act() -> Callable[..., bool]:
    from balancer.games.roles.kernel.amounts import amount
    from balancer.games.roles.kernel.layout import R_A, R_B, R_C, X_GDECL, X_GLB, inlined
    from balancer.games.roles.kernel.regions import directory, role_base

    @inlined
    def add_global(
        state: np.ndarray, tables: np.ndarray, row: int, seat: int, card: int, t: int, taken: int
    ) -> bool:
        g = tables[row + R_A]
        gdecl = directory(tables, X_GDECL) + 3 * g
        at = role_base(state) + directory(tables, X_GLB) + g
        old = state[at]
        value = old + amount(state, tables, tables[row + R_B], tables[row + R_C], seat, card)
        state[at] = min(max(value, tables[gdecl + 1]), tables[gdecl + 2])
        return state[at] != old

    return add_global


def gain(
    params: Mapping[str, Any], name: str, kind: str, number: int, defaults: Mapping[str, int]
) -> int | None:
    if kind != "global" or params["counter"] != name:
        return 0
    return most_added(params["by"], number, defaults)


WORDS: Words = {
    "en": {"global": "  seat {seat}: {counter} {old} -> {new}"},
    "ja": {"global": "  席 {seat}: {counter} {old} → {new}"},
}


def tell(event: tuple[Any, ...], cards: Cards, lang: str) -> list[LogEntry]:
    _, seat, counter, old, new = event
    return [say(WORDS, lang)["global"].format(seat=seat, counter=counter, old=old, new=new)]


SPEC = Primitive(
    name="add_global",
    params=(
        param("counter", GLOBAL, required=True),
        param("by", AMOUNT, required=True),
        EVENT_PARAM,
    ),
    targeted=False,
    encode=encode,
    act=act,
    kernel_act=kernel_act,
    tells={"global": tell},
    words=WORDS,
    gain=gain,
)
