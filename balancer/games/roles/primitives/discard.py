"""`discard: {from: hand | ZONE}`: the owner discards one card of its choice from its
hand (the default) or from its zone ZONE, face up, to the discard (where cancelled
and resolved cards go). Each card it may discard is one way, copies of a card one
way (RULES.md §4), as a steal's; with one card there it is discarded at once, with
none the step does nothing.

`discard: {from: hand | ZONE, at_random: true, count: N, target: T}`: each target
seat (T as draw's, default the owner) discards N cards drawn at random from its hand
or zone ZONE (fewer when fewer are there, none for N <= 0; N an amount as draw's).
Nobody chooses: it is one way (a `rival` target: one per rival, the owner's pick).
The cards are drawn one by one, each uniformly among the cards left there in their
order, `below(len)` from the game's chance stream (rng.CHANCE), going on from where
the deal left it: the engine's State.chance, the kernel's streams[CHANCE] (its act
takes the streams after the tables). So a bot's world must not keep the true stream
(it would know the outcome): determinize gives each world a chance of its own, drawn
from the bot's stream (`draws_chance`).

It always acts once chosen (a random one when a card went). Each card is seen by
every seat from then on (the discard is public): out of a face-down zone it is no
longer unsure (engine.py State.unsure). A hand discarded from holds fewer cards than
the others: the trick procedure plays on while any hand holds cards, each seat while
its own does.

While the owner decides, every seat's view lists the decision's options
(View.resolution): here the cards of the owner's hand. No bot is shown a view
while another seat decides, so none reads them; a view that hid them would need
determinize to work the options out again in each world.

A chosen discard is of one card, the owner's own: `count` and a target other than
`self` need `at_random` (validate says so).

Its op row: A the zone (-1: the hand), B 1 at random, C/D `count` as an amount. Its
trace events: ("discard", seat, card, from), ("discard_random", seat, target, cards,
from, count asked).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from balancer.games.definition import LogEntry
from balancer.games.roles.primitives.base import (
    AMOUNT,
    BOOL,
    EVENT_PARAM,
    HAND,
    HAND_OR_ZONE,
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

ONE = ("int", 1)  # a random discard's count when the file gives none


def encode(params: Mapping[str, Any], names: Encoding) -> Sequence[int]:
    source = params["from"]
    zone = -1 if source == HAND else names.zone(source)
    return (zone, int(at_random(params)), *names.amount(params.get("count", ONE)))


def at_random(params: Mapping[str, Any]) -> bool:
    return bool(params.get("at_random"))


def chosen(params: Mapping[str, Any]) -> bool:
    """A chosen discard takes a card, the owner's pick (Primitive.picks)."""
    return not at_random(params)


def refuse(params: Mapping[str, Any], resolving: bool) -> str | None:
    if at_random(params):
        return None
    if "count" in params:
        return "a chosen discard is of one card: `count` needs `at_random: true`"
    from balancer.games.roles.targets import DEFAULT_TARGET  # targets import primitives

    if tuple(params.get("target", (DEFAULT_TARGET,))) != (DEFAULT_TARGET,):
        return "a chosen discard is of the owner's own cards: `target` needs `at_random: true`"
    return None


def _source(state: State, params: Mapping[str, Any], seat: int) -> list[int]:
    source = params["from"]
    return state.hands[seat] if source == HAND else state.zones[source][seat]


def card_ways(state: State, params: Mapping[str, Any], seat: int) -> list[tuple[int, int]]:
    """(-1, card) for each card `seat` may discard, in its hand's (zone's) order."""
    return [(-1, c) for c in state.one_per_kind(_source(state, params, seat))]


def act(
    state: State, params: Mapping[str, Any], seat: int, card: int, target: int, taken: int
) -> bool:
    cards = _source(state, params, target)
    if not at_random(params):  # the owner's own card (target: the owner), its pick
        cards.remove(taken)
        state.discard.append(taken)
        state.unsure.discard(taken)  # face up in the discard: every seat sees it
        state._note("discard", seat, taken, params["from"])
        return True
    wanted = state._amount(params.get("count", ONE), seat, card)
    gone: list[int] = []
    while len(gone) < wanted and cards:
        gone.append(cards.pop(state.chance.below(len(cards))))
    state.discard.extend(gone)
    state.unsure.difference_update(gone)
    state._note("discard_random", seat, target, tuple(gone), params["from"], wanted)
    return bool(gone)


def kernel_act() -> Callable[..., bool]:
    from balancer.games.roles.kernel.amounts import amount
    from balancer.games.roles.kernel.layout import R_A, R_B, R_C, R_D, inlined
    from balancer.games.roles.kernel.recall import unsure_at
    from balancer.games.trick.kernel.lists import index_of, remove_at
    from balancer.rng import CHANCE
    from balancer.rng_kernels import below

    source_of = kernel_source()

    @inlined
    def discard(
        state: np.ndarray,
        tables: np.ndarray,
        streams: np.ndarray,
        row: int,
        seat: int,
        card: int,
        t: int,
        taken: int,
    ) -> bool:
        base, at = source_of(state, tables, tables[row + R_A], t)
        unsure = unsure_at(state, tables)
        if tables[row + R_B] == 0:  # the owner's own card, its pick
            i = index_of(state, base, state[at], taken)
            if i >= 0:
                remove_at(state, base, state[at], i)
                state[at] -= 1
            state[unsure + taken] = 0
            return True
        wanted = amount(state, tables, tables[row + R_C], tables[row + R_D], seat, card)
        moved = 0
        while moved < wanted and state[at] > 0:
            i = below(streams, CHANCE, state[at])
            state[unsure + state[base + i]] = 0
            remove_at(state, base, state[at], i)
            state[at] -= 1
            moved += 1
        return moved > 0

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
    """The compiled `card_ways` of a chosen discard (kernel/acts.py _ways calls it for
    its row), as steal.kernel_ways: ways(state, tables, row, seat, first_action, m,
    out, write, match, want, counting) -> (m, card, stop)."""
    from balancer.games.roles.kernel.layout import R_A, T_COPIES, inlined
    from balancer.games.roles.kernel.ways import offer
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
            m, found, stop = offer(out, m, found, first_action + c, c, write, match, want, counting)
            if stop:
                return m, found, True
        return m, found, False

    return ways


WORDS: Words = {
    "en": {
        "discard": "  seat {seat} discards {card} from its {where}",
        "hand": "hand",
        "random": "  seat {target} discards {how_many} at random from its {where}{short}{named}",
        "made_random": (
            "  seat {seat} makes seat {target} discard {how_many} at random from its {where}"
            "{short}{named}"
        ),
        "one": "{n} card",
        "many": "{n} cards",
        "short": " (it had {had})",
        "named": ": {cards}",
    },
    "ja": {
        "discard": "  席 {seat} が {where} から {card} を捨てる",
        "hand": "手札",
        "random": "  席 {target} が {where} から無作為に {how_many}捨てる{short}{named}",
        "made_random": (
            "  席 {seat} が席 {target} の {where} から無作為に {how_many}捨てさせる{short}{named}"
        ),
        "one": "{n} 枚",
        "many": "{n} 枚",
        "short": "（{had} 枚だけ）",
        "named": "：{cards}",
    },
}


def tell(event: tuple[Any, ...], cards: Cards, lang: str) -> list[LogEntry]:
    _, seat, card, source = event
    words = say(WORDS, lang)
    where = words["hand"] if source == HAND else source
    return [words["discard"].format(seat=seat, card=cards.describe(card), where=where)]


def tell_random(event: tuple[Any, ...], cards: Cards, lang: str) -> list[LogEntry]:
    """Every seat sees which cards went (face up, to the discard), and how many were
    asked for when fewer were there."""
    _, seat, target, gone, source, wanted = event
    words = say(WORDS, lang)
    asked = max(wanted, 0)
    how_many = words["one" if asked == 1 else "many"].format(n=asked)
    short = words["short"].format(had=len(gone)) if len(gone) < asked else ""
    named = words["named"].format(cards=", ".join(map(cards.describe, gone))) if gone else ""
    said = words["random" if target == seat else "made_random"]
    where = words["hand"] if source == HAND else source
    return [
        said.format(
            seat=seat, target=target, how_many=how_many, where=where, short=short, named=named
        )
    ]


SPEC = Primitive(
    name="discard",
    params=(
        param("from", HAND_OR_ZONE, HAND),
        param("at_random", BOOL, False),
        param("count", AMOUNT),
        param("target", TARGET, "self"),
        EVENT_PARAM,
    ),
    # Acts on its target's cards (a chosen discard's target is the owner: `refuse`).
    targeted=True,
    encode=encode,
    act=act,
    kernel_act=kernel_act,
    tells={"discard": tell, "discard_random": tell_random},
    words=WORDS,
    refuse=refuse,
    card_ways=card_ways,
    picks=chosen,
    draws_chance=at_random,
)
