"""`clear: {flag: F, target: T}`: unset flag F on each target seat (guard's inverse: a
flag that lasts the game goes only when a step clears it).

It changed something (and counts its event) only on a seat whose flag was set. Its
op row: A the flag. Its trace event: ("clear", seat, flag, target, was set).
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
    flags[target] = False
    state._note("clear", seat, params["flag"], target, was)
    return was


def kernel_act() -> Callable[..., bool]:
    from balancer.games.roles.kernel.layout import R_A, inlined
    from balancer.games.roles.kernel.regions import flag_at

    @inlined
    def clear(
        state: np.ndarray, tables: np.ndarray, row: int, seat: int, card: int, t: int, taken: int
    ) -> bool:
        at = flag_at(state, tables, tables[row + R_A], t)
        was = state[at]
        state[at] = 0
        return was != 0

    return clear


WORDS: Words = {
    "en": {
        "clear": "  seat {seat} clears {flag} on seat {target}",
        "clear_unset": "  seat {seat} clears {flag} on seat {target} (it was not set)",
    },
    "ja": {
        "clear": "  席 {seat} が席 {target} の {flag} を外す",
        "clear_unset": "  席 {seat} が席 {target} の {flag} を外す（もともと付いていなかった）",
    },
}


def tell(event: tuple[Any, ...], cards: Cards, lang: str) -> list[LogEntry]:
    _, seat, flag, target, was = event
    # said all the same when it was not set: the card did act, on a seat without the flag
    line = say(WORDS, lang)["clear" if was else "clear_unset"]
    return [line.format(seat=seat, flag=flag, target=target)]


SPEC = Primitive(
    name="clear",
    params=(param("flag", FLAG, required=True), param("target", TARGET, "self"), EVENT_PARAM),
    targeted=True,
    encode=encode,
    act=act,
    kernel_act=kernel_act,
    tells={"clear": tell},
    words=WORDS,
)
