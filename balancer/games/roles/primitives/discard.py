"""`discard: {from: hand | ZONE}`: the owner discards one card of its choice from its
hand (the default) or from its zone ZONE, face up, to the discard (where cancelled
and resolved cards go). Each card it may discard is one way, copies of a card one
way (RULES.md §4), as a steal's; with one card there it is discarded at once, with
none the step does nothing.

It always acts once chosen. The card is seen by every seat from then on (the
discard is public): out of a face-down zone it is no longer unsure (engine.py
State.unsure). A hand discarded from holds one card fewer than the others: the
trick procedure plays on while any hand holds cards, each seat while its own does.

While the owner decides, every seat's view lists the decision's options
(View.resolution): here the cards of the owner's hand. No bot is shown a view
while another seat decides, so none reads them; a view that hid them would need
determinize to work the options out again in each world.

One card, the owner's own, the owner's pick: a discard of several cards, of a
rival's cards, or at random is not built (a random one would need a chance stream
passed down to the acts, and worlds that resample it).

Its op row: A the zone (-1: the hand). Its trace event: ("discard", seat, card,
from).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from balancer.games.definition import LogEntry
from balancer.games.roles.primitives.base import (
    EVENT_PARAM,
    HAND,
    HAND_OR_ZONE,
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
    source = params["from"]
    return (-1 if source == HAND else names.zone(source),)


def _source(state: State, params: Mapping[str, Any], seat: int) -> list[int]:
    source = params["from"]
    return state.hands[seat] if source == HAND else state.zones[source][seat]


def card_ways(state: State, params: Mapping[str, Any], seat: int) -> list[tuple[int, int]]:
    """(-1, card) for each card `seat` may discard, in its hand's (zone's) order."""
    return [(-1, c) for c in state._one_per_kind(_source(state, params, seat))]


def act(state: State, params: Mapping[str, Any], seat: int, card: int, _: int, taken: int) -> bool:
    _source(state, params, seat).remove(taken)
    state.discard.append(taken)
    state.unsure.discard(taken)  # face up in the discard: every seat sees it
    state._note("discard", seat, taken, params["from"])
    return True


def kernel_act() -> Callable[..., bool]:
    from balancer.games.roles.kernel.layout import R_A, inlined
    from balancer.games.roles.kernel.recall import unsure_at
    from balancer.games.trick.kernel.lists import index_of, remove_at

    source_of = kernel_source()

    @inlined
    def discard(
        state: np.ndarray, tables: np.ndarray, row: int, seat: int, card: int, t: int, taken: int
    ) -> bool:
        base, at = source_of(state, tables, tables[row + R_A], seat)
        i = index_of(state, base, state[at], taken)
        if i >= 0:
            remove_at(state, base, state[at], i)
            state[at] -= 1
        state[unsure_at(state, tables) + taken] = 0
        return True

    return discard


def kernel_source() -> Callable[..., tuple[int, int]]:
    """source(state, tables, zone, seat) -> (where the cards start, where their count
    is): `seat`'s hand for zone -1, else its zone."""
    from balancer.games.roles.kernel.layout import HANDS, HCAP, HLEN, inlined
    from balancer.games.roles.kernel.regions import zone_at, zone_len

    @inlined
    def source(state: np.ndarray, tables: np.ndarray, zone: int, seat: int) -> tuple[int, int]:
        if zone < 0:
            return HANDS + seat * state[HCAP], HLEN + seat
        return zone_at(state, tables, zone, seat), zone_len(state, tables, zone, seat)

    return source


def kernel_ways() -> Callable[..., tuple[int, int, bool]]:
    """The compiled `card_ways` (kernel/acts.py _ways calls it for a discard's row), as
    steal.kernel_ways: ways(state, tables, row, seat, first_action, m, out, write,
    match, want, counting) -> (m, card, stop)."""
    from balancer.games.roles.kernel.layout import R_A, T_COPIES, inlined
    from balancer.games.trick.kernel.lists import kind_seen

    source_of = kernel_source()

    @inlined
    def ways(
        state: np.ndarray,
        tables: np.ndarray,
        row: int,
        seat: int,
        first_action: int,
        m: int,
        out: np.ndarray,
        write: bool,
        match: bool,
        want: int,
        counting: bool,
    ) -> tuple[int, int, bool]:
        base, at = source_of(state, tables, tables[row + R_A], seat)
        copies = tables[T_COPIES]
        found = -1
        for i in range(state[at]):
            c = state[base + i]
            if copies > 1 and kind_seen(tables, state, base, i, c):
                continue  # a copy of a card listed before it: the same way
            action = first_action + c
            if write:
                out[m] = action
            if (match and action == want) or (not match and m == 0):
                found = c
            m += 1
            if (counting and m > 1) or (match and found >= 0):
                return m, found, True
        return m, found, False

    return ways


WORDS: Words = {
    "en": {"discard": "  seat {seat} discards {card} from its {where}", "hand": "hand"},
    "ja": {"discard": "  席 {seat} が {where} から {card} を捨てる", "hand": "手札"},
}


def tell(event: tuple[Any, ...], cards: Cards, lang: str) -> list[LogEntry]:
    _, seat, card, source = event
    words = say(WORDS, lang)
    where = words["hand"] if source == HAND else source
    return [words["discard"].format(seat=seat, card=cards.describe(card), where=where)]


SPEC = Primitive(
    name="discard",
    params=(param("from", HAND_OR_ZONE, HAND), EVENT_PARAM),
    targeted=False,
    encode=encode,
    act=act,
    kernel_act=kernel_act,
    tells={"discard": tell},
    words=WORDS,
    card_ways=card_ways,
)
