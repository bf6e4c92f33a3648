"""`move_all: {from: Z1, to: Z2, cards_event: E}`: every card of the owner's zone Z1
moves to its zone Z2; `cards_event` counts the cards moved.

It changed something (and counts its event) when a card moved. Cards that come
face up are seen by every seat again (engine.py State.unsure). Its op row: A from,
B to, C cards_event (-1 none). Its trace event: ("move_all", seat, from, to, moved).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from balancer.games.definition import LogEntry
from balancer.games.roles.primitives.base import (
    EVENT,
    EVENT_PARAM,
    ZONE,
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
    return (
        names.zone(params["from"]),
        names.zone(params["to"]),
        names.event(params.get("cards_event")),
    )


def act(state: State, params: Mapping[str, Any], seat: int, card: int, _: int, __: int) -> bool:
    source, goal = state.zones[params["from"]][seat], state.zones[params["to"]][seat]
    moved = len(source)
    if state.game.zones[params["to"]] == "up":
        state.unsure.difference_update(source)  # face up now: everyone sees them
    goal.extend(source)
    source.clear()
    if params.get("cards_event"):
        state.events[params["cards_event"]] += moved
    state._note("move_all", seat, params["from"], params["to"], moved)
    return moved > 0


def kernel_act() -> Callable[..., bool]:
    from balancer.games.roles.kernel.layout import R_A, R_B, R_C, inlined
    from balancer.games.roles.kernel.recall import after_move_all
    from balancer.games.roles.kernel.regions import event_at, zone_at, zone_len

    @inlined
    def move_all(
        state: np.ndarray, tables: np.ndarray, row: int, seat: int, card: int, t: int, taken: int
    ) -> bool:
        source, goal = tables[row + R_A], tables[row + R_B]
        src_len = zone_len(state, tables, source, seat)
        dst_len = zone_len(state, tables, goal, seat)
        moved = state[src_len]
        src = zone_at(state, tables, source, seat)
        dst = zone_at(state, tables, goal, seat) + state[dst_len]
        for j in range(moved):
            state[dst + j] = state[src + j]
        after_move_all(state, tables, goal, dst, moved)
        state[dst_len] += moved
        state[src_len] = 0
        if tables[row + R_C] >= 0:
            state[event_at(state, tables, tables[row + R_C])] += moved
        return moved > 0

    return move_all


WORDS: Words = {
    "en": {"move_all": "  seat {seat} moves {moved} card(s) from its {source} to its {goal}"},
    "ja": {"move_all": "  席 {seat} が自分の {source} から {goal} へカードを {moved} 枚移す"},
}


def tell(event: tuple[Any, ...], cards: Cards, lang: str) -> list[LogEntry]:
    _, seat, source, goal, moved = event
    line = say(WORDS, lang)["move_all"]
    return [line.format(seat=seat, moved=moved, source=source, goal=goal)]


SPEC = Primitive(
    name="move_all",
    params=(
        param("from", ZONE, required=True),
        param("to", ZONE, required=True),
        EVENT_PARAM,
        param("cards_event", EVENT),
    ),
    targeted=False,
    encode=encode,
    act=act,
    kernel_act=kernel_act,
    tells={"move_all": tell},
    words=WORDS,
    fills=("to",),
    moves=("from", "to"),
)
