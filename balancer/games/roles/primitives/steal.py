"""`steal: {from: Z1, to: Z2, fresh_only: B, unless: F}`: one card from a rival's zone
Z1 into the owner's Z2. The owner picks the card (and so the rival): each card it
may take is one way, copies of a card one way (RULES.md §4). `fresh_only`: not a
card played this trick; `unless`: not from a rival whose flag F is set.

It always acts once chosen. Taken from face down into face down, the others saw
a card go but not which (engine.py State._recall_steal). Its op row: A from, B to,
C fresh_only. Its trace event: ("steal", seat, card, victim, from, to).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from balancer.games.definition import LogEntry
from balancer.games.roles.primitives.base import (
    BOOL,
    EVENT_PARAM,
    FLAG,
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
    return (names.zone(params["from"]), names.zone(params["to"]), int(bool(params["fresh_only"])))


def card_ways(state: State, params: Mapping[str, Any], seat: int) -> list[tuple[int, int]]:
    """(-1, card) for each card `seat` may take, rivals in seat order from it."""
    unless = state.flags[params["unless"]] if params.get("unless") else None
    found = []
    for k in range(1, state.players):
        victim = (seat + k) % state.players
        if unless is not None and unless[victim]:
            continue
        cards = state.zones[params["from"]][victim]
        if params["fresh_only"]:
            cards = [c for c in cards if c not in state.played]
        found += [(-1, c) for c in state.one_per_kind(cards)]
    return found


def act(state: State, params: Mapping[str, Any], seat: int, card: int, _: int, taken: int) -> bool:
    for victim in range(state.players):
        zone = state.zones[params["from"]][victim]
        if victim != seat and taken in zone:
            zone.remove(taken)
            state.zones[params["to"]][seat].append(taken)
            state._recall_steal(params["from"], params["to"], zone, taken)
            state._note("steal", seat, taken, victim, params["from"], params["to"])
            break
    return True


def kernel_act() -> Callable[..., bool]:
    from balancer.games.roles.kernel.layout import R_A, R_B, T_PLAYERS, inlined
    from balancer.games.roles.kernel.recall import after_steal
    from balancer.games.roles.kernel.regions import zone_at, zone_len
    from balancer.games.trick.kernel.lists import index_of, remove_at

    @inlined
    def steal(
        state: np.ndarray, tables: np.ndarray, row: int, seat: int, card: int, t: int, taken: int
    ) -> bool:
        source, goal = tables[row + R_A], tables[row + R_B]
        for victim in range(tables[T_PLAYERS]):
            if victim == seat:
                continue
            at = zone_len(state, tables, source, victim)
            base = zone_at(state, tables, source, victim)
            i = index_of(state, base, state[at], taken)
            if i >= 0:
                remove_at(state, base, state[at], i)
                state[at] -= 1
                to = zone_len(state, tables, goal, seat)
                state[zone_at(state, tables, goal, seat) + state[to]] = taken
                state[to] += 1
                after_steal(state, tables, source, goal, base, state[at], taken)
                break
        return True

    return steal


def kernel_ways() -> Callable[..., tuple[int, int, bool]]:
    """Builds the compiled `card_ways` (kernel/acts.py _ways calls it for a steal's row):
    ways(state, tables, row, seat, first_action, m, out, write, match, want, counting)
    -> (m, card, stop). Each card's action is first_action + card; `m` ways came
    before. `card`: the way's card when it is the one wanted (`match`) or the step's
    first way (m was 0), else -1; `stop`: the caller has its answer (two ways when
    only counting, or the match: kernel/ways.py `offer`, which discard's shares)."""
    from balancer.games.roles.kernel.layout import (
        KIND,
        PCARD,
        R_A,
        R_C,
        R_UNLESS,
        T_CARDS,
        T_COPIES,
        T_DECK,
        T_PLAYERS,
        TURN,
        inlined,
    )
    from balancer.games.roles.kernel.regions import flag_at, zone_at, zone_len
    from balancer.games.roles.kernel.ways import offer
    from balancer.games.trick.kernel.lists import in_plays, seat_after

    @inlined
    def kind_taken(
        state: np.ndarray,
        tables: np.ndarray,
        base: int,
        upto: int,
        card: int,
        fresh: int,
        turn: int,
    ) -> bool:
        """Whether a copy of `card` comes earlier in the zone at base (among the cards a
        steal may take): copies are one way (engine.py _distinct)."""
        kinds = T_CARDS + KIND * tables[T_DECK]
        kind = tables[kinds + card]
        for j in range(upto):
            other = state[base + j]
            if fresh != 0 and in_plays(state, PCARD, turn, other):
                continue
            if tables[kinds + other] == kind:
                return True
        return False

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
        players = tables[T_PLAYERS]
        copies = tables[T_COPIES]
        turn = state[TURN]
        unless = tables[row + R_UNLESS]
        zone, fresh = tables[row + R_A], tables[row + R_C]
        found = -1
        for k in range(1, players):
            victim = seat_after(seat, k, players)
            if unless >= 0 and state[flag_at(state, tables, unless, victim)] != 0:
                continue
            base = zone_at(state, tables, zone, victim)
            for i in range(state[zone_len(state, tables, zone, victim)]):
                c = state[base + i]
                if fresh != 0 and in_plays(state, PCARD, turn, c):
                    continue
                if copies > 1 and kind_taken(state, tables, base, i, c, fresh, turn):
                    continue
                m, found, stop = offer(
                    out, m, found, first_action + c, c, write, match, want, counting
                )
                if stop:
                    return m, found, True
        return m, found, False

    return ways


def unseen_choice(faces: Mapping[str, str], params: Mapping[str, Any]) -> bool:
    """From a face-down zone, its options are cards the view does not show."""
    return faces[params["from"]] == "down"


WORDS: Words = {
    "en": {"steal": "  seat {seat} takes {card} from seat {victim}'s {source} to its {goal}"},
    "ja": {
        "steal": "  席 {seat} が席 {victim} の {source} から {card} を取り、自分の {goal} に加える"
    },
}


def tell(event: tuple[Any, ...], cards: Cards, lang: str) -> list[LogEntry]:
    _, seat, card, victim, source, goal = event
    line = say(WORDS, lang)["steal"]
    return [
        line.format(seat=seat, card=cards.describe(card), victim=victim, source=source, goal=goal)
    ]


SPEC = Primitive(
    name="steal",
    params=(
        param("from", ZONE, required=True),
        param("to", ZONE, required=True),
        param("fresh_only", BOOL, False),
        param("unless", FLAG),
        EVENT_PARAM,
    ),
    targeted=False,
    encode=encode,
    act=act,
    kernel_act=kernel_act,
    tells={"steal": tell},
    words=WORDS,
    fills=("to",),
    moves=("from", "to"),
    card_ways=card_ways,
    unseen_choice=unseen_choice,
)
