"""`guard: {flag: F, target: T}`: set flag F on each target seat.

It changed something (and counts its event) only on a seat whose flag was not set.
Its op row: A the flag. Its trace event: ("guard", seat, flag, target).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from balancer.games.definition import LogEntry
from balancer.games.roles.primitives.base import (
    EVENT_PARAM,
    FLAG,
    TARGET,
    Encoding,
    Primitive,
    Words,
    param,
    say,
)

if TYPE_CHECKING:
    import numpy as np

    from balancer.games.roles.engine import Cards, State


def encode(params: Mapping[str, Any], names: Encoding) -> Sequence[int]:
    return (names.flag(params["flag"]),)


def act(state: State, params: Mapping[str, Any], seat: int, card: int, target: int, _: int) -> bool:
    flags = state.flags[params["flag"]]
    was = flags[target]
    flags[target] = True
    state._note("guard", seat, params["flag"], target)
    return not was


def kernel_act() -> Callable[..., bool]:
    from balancer.games.roles.kernel.layout import R_A, inlined
    from balancer.games.roles.kernel.regions import flag_at

    @inlined
    def guard(
        state: np.ndarray, tables: np.ndarray, row: int, seat: int, card: int, t: int, taken: int
    ) -> bool:
        at = flag_at(state, tables, tables[row + R_A], t)
        was = state[at]
        state[at] = 1
        return was == 0

    return guard


WORDS: Words = {
    "en": {"guard": "  seat {seat} sets {flag} on seat {target}"},
    "ja": {"guard": "  席 {seat} が席 {target} に {flag} を付ける"},
}


def tell(event: tuple[Any, ...], cards: Cards, lang: str) -> list[LogEntry]:
    _, seat, flag, target = event
    return [say(WORDS, lang)["guard"].format(seat=seat, flag=flag, target=target)]


SPEC = Primitive(
    name="guard",
    params=(param("flag", FLAG, required=True), param("target", TARGET, "self"), EVENT_PARAM),
    targeted=True,
    encode=encode,
    act=act,
    kernel_act=kernel_act,
    tells={"guard": tell},
    words=WORDS,
)
