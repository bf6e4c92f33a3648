"""`draw: {count: N, target: T}`: each target seat draws N cards from the pile (the
trick procedure's, drawn from its top as the round of draws after a trick is) into
its hand; fewer when the pile runs short, none once it is empty. N: a whole number,
`number`, a knob or `{count: ZONE}` (of the owner's zone); N <= 0 draws nothing.

It changed something (and counts its event) on a seat that drew at least one card.
A hand has room for the whole deck in the compiled state (kernel/tables.py
new_state: HCAP is the deck's size), so no draw can overflow it: a card is in one
place at a time. A drawn card is in a hand like any other: hidden from the rivals,
played in a later trick (a seat that drew holds more cards than the others: the
trick procedure plays on while any hand holds cards, each seat while its own does).

Its op row: A/B `count` as an amount. Its trace event: ("draw", seat, target,
cards drawn, count asked).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from balancer.games.definition import LogEntry
from balancer.games.roles.primitives.base import (
    AMOUNT,
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
    return names.amount(params["count"])


def act(state: State, params: Mapping[str, Any], seat: int, card: int, target: int, _: int) -> bool:
    wanted = state._amount(params["count"], seat, card)
    drawn: list[int] = []
    while len(drawn) < wanted and state.pile:
        drawn.append(state.pile.pop())  # the top card: procedure.deal's pile[-1]
    state.hands[target].extend(drawn)
    state._note("draw", seat, target, tuple(drawn), wanted)
    return bool(drawn)


def kernel_act() -> Callable[..., bool]:
    from balancer.games.roles.kernel.amounts import amount
    from balancer.games.roles.kernel.layout import (
        HANDS,
        HCAP,
        HLEN,
        O_PILE,
        PILE_LEN,
        R_A,
        R_B,
        inlined,
    )

    @inlined
    def draw(
        state: np.ndarray, tables: np.ndarray, row: int, seat: int, card: int, t: int, taken: int
    ) -> bool:
        wanted = amount(state, tables, tables[row + R_A], tables[row + R_B], seat, card)
        pile = state[O_PILE]
        hand = HANDS + t * state[HCAP]
        moved = 0
        while moved < wanted and state[PILE_LEN] > 0:
            top = state[PILE_LEN] - 1
            state[hand + state[HLEN + t]] = state[pile + top]
            state[HLEN + t] += 1
            state[PILE_LEN] = top
            moved += 1
        return moved > 0

    return draw


WORDS: Words = {
    "en": {
        "drew": "  seat {target} draws {how_many}{short}",
        "made_draw": "  seat {seat} makes seat {target} draw {how_many}{short}",
        "one": "{n} card",
        "many": "{n} cards",
        "short": " (the pile had {had})",
        "named": "  seat {target} draws {named}",
    },
    "ja": {
        "drew": "  席 {target} が山札から {how_many}引く{short}",
        "made_draw": "  席 {seat} が席 {target} に山札から {how_many}引かせる{short}",
        "one": "{n} 枚",
        "many": "{n} 枚",
        "short": "（山札は {had} 枚だけ）",
        "named": "  席 {target} が {named} を引く",
    },
}


def tell(event: tuple[Any, ...], cards: Cards, lang: str) -> list[LogEntry]:
    """Everyone sees how many cards a seat drew; only the drawer sees which."""
    _, seat, target, drawn, wanted = event
    words = say(WORDS, lang)
    asked = max(wanted, 0)
    how_many = words["one" if asked == 1 else "many"].format(n=asked)
    short = words["short"].format(had=len(drawn)) if len(drawn) < asked else ""
    said = words["drew" if target == seat else "made_draw"]
    told: list[LogEntry] = [said.format(seat=seat, target=target, how_many=how_many, short=short)]
    if drawn:
        named = ", ".join(cards.describe(c) for c in drawn)
        told.append((target, words["named"].format(target=target, named=named)))
    return told


SPEC = Primitive(
    name="draw",
    params=(
        param("count", AMOUNT, required=True),
        param("target", TARGET, "self"),
        param("unless", FLAG),
        EVENT_PARAM,
    ),
    targeted=True,
    encode=encode,
    act=act,
    kernel_act=kernel_act,
    tells={"draw": tell},
    words=WORDS,
)
