"""`place: {zone: Z}`: the resolved card goes to its owner's zone Z.

Only a role's resolve steps have a card to place (a cancelled card is already
discarded), so validate refuses it elsewhere; it always acts. Its op row: A the
zone. Its trace event: ("place", seat, card, zone).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from balancer.games.definition import LogEntry
from balancer.games.roles.primitives.base import (
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


def refuse(params: Mapping[str, Any], resolving: bool) -> str | None:
    if resolving:
        return None
    return (
        "place puts the resolved card in a zone: only a role's resolve "
        "steps have one (a cancelled card is already discarded)"
    )


def encode(params: Mapping[str, Any], names: Encoding) -> Sequence[int]:
    return (names.zone(params["zone"]),)


def act(state: State, params: Mapping[str, Any], seat: int, card: int, _: int, __: int) -> bool:
    state.zones[params["zone"]][seat].append(card)
    state.in_flight.discard(card)
    state._note("place", seat, card, params["zone"])
    return True


def kernel_act() -> Callable[..., bool]:
    from balancer.games.roles.kernel.layout import R_A, inlined
    from balancer.games.roles.kernel.regions import zone_at, zone_len

    @inlined
    def place(
        state: np.ndarray, tables: np.ndarray, row: int, seat: int, card: int, t: int, taken: int
    ) -> bool:
        zone = tables[row + R_A]
        at = zone_len(state, tables, zone, seat)
        state[zone_at(state, tables, zone, seat) + state[at]] = card
        state[at] += 1
        return True

    return place


WORDS: Words = {
    "en": {"place": "  seat {seat}'s {card} goes to its {zone}"},
    "ja": {"place": "  席 {seat} の {card} が自分の {zone} に置かれる"},
}


def tell(event: tuple[Any, ...], cards: Cards, lang: str) -> list[LogEntry]:
    _, seat, card, zone = event
    line = say(WORDS, lang)["place"]
    return [line.format(seat=seat, card=cards.describe(card), zone=zone)]


SPEC = Primitive(
    name="place",
    params=(param("zone", ZONE, required=True), EVENT_PARAM),
    targeted=False,
    encode=encode,
    act=act,
    kernel_act=kernel_act,
    tells={"place": tell},
    words=WORDS,
    refuse=refuse,
    fills=("zone",),
)
