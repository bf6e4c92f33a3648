"""`skip_turn: {target: T, tricks: N, unless: F}`: each target plays no card in the
next N tricks (its hand waits); skipped on a target whose flag F is set.

It changed something (and counts its event) when N > 0. Its op row: A tricks.
Its trace event: ("skip_turn", seat, target, tricks).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from balancer.games.definition import LogEntry
from balancer.games.roles.primitives.base import (
    EVENT_PARAM,
    FLAG,
    INT,
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
    return (names.constant(params.get("tricks") or ("int", 1)),)


def act(state: State, params: Mapping[str, Any], seat: int, card: int, target: int, _: int) -> bool:
    tricks = state._amount(params["tricks"], seat, card)
    state.skip[target] += tricks
    state._note("skip_turn", seat, target, tricks)
    return tricks > 0


def kernel_act() -> Callable[..., bool]:
    from balancer.games.roles.kernel.layout import R_A, X_SKIP, inlined
    from balancer.games.roles.kernel.regions import directory, role_base

    @inlined
    def skip_turn(
        state: np.ndarray, tables: np.ndarray, row: int, seat: int, card: int, t: int, taken: int
    ) -> bool:
        state[role_base(state) + directory(tables, X_SKIP) + t] += tables[row + R_A]
        return tables[row + R_A] > 0

    return skip_turn


WORDS: Words = {
    "en": {"skip_turn": "  seat {seat} makes seat {target} sit out {tricks} trick(s)"},
    "ja": {"skip_turn": "  席 {seat} が席 {target} を {tricks} トリック休ませる"},
}


def tell(event: tuple[Any, ...], cards: Cards, lang: str) -> list[LogEntry]:
    _, seat, target, tricks = event
    line = say(WORDS, lang)["skip_turn"]
    return [line.format(seat=seat, target=target, tricks=tricks)]


SPEC = Primitive(
    name="skip_turn",
    params=(
        param("target", TARGET, required=True),
        param("tricks", INT, 1),
        param("unless", FLAG),
        EVENT_PARAM,
    ),
    targeted=True,
    encode=encode,
    act=act,
    kernel_act=kernel_act,
    tells={"skip_turn": tell},
    words=WORDS,
)
