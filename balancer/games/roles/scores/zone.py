"""`{zone: Z, per_card: A, per_number: B}`: A per card the seat holds in zone Z, and
B per point of their numbers (per_card 1, per_number 0 when not written). Its row:
the zone, then per_card's, per_number's and times's amounts as (kind, value)
(base.py `amount_words`; times is a counter term's, left at its default here)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from balancer.games.roles import vocabulary as voc
from balancer.games.roles.deck import groups
from balancer.games.roles.model import Term
from balancer.games.roles.scores.base import (
    ScoreTerm,
    Span,
    TermEncoding,
    TermReader,
    amount_words,
)

if TYPE_CHECKING:
    from balancer.games.roles.engine import State
    from balancer.games.roles.gamefile import KeyPath


def holds(term: Term) -> bool:
    return term.zone is not None


def read(
    reader: TermReader, keypath: KeyPath, value: dict[str, Any], in_score: bool
) -> Term | None:
    reader.known_keys(keypath, value, voc.ZONE_TERM_KEYS)
    zone = reader.use(voc.ZONE, (*keypath, "zone"), value["zone"])
    per_card = reader.amount((*keypath, "per_card"), value.get("per_card", 1), numbers=False)
    per_number = reader.amount((*keypath, "per_number"), value.get("per_number", 0), numbers=False)
    if zone is None or per_card is None or per_number is None:
        return None
    return Term(zone=zone, per_card=per_card, per_number=per_number)


def value(state: State, term: Term, seat: int) -> int:
    cards = state.zones[term.zone or ""][seat]
    per_card = state._amount(term.per_card, seat, -1)
    per_number = state._amount(term.per_number, seat, -1)
    total = per_card * len(cards)
    if per_number:
        total += per_number * sum(state.cards.number[c] for c in cards)
    return total


def most(term: Term, span: Span) -> int:
    """The zone holding the whole deck (a variant's deck may differ: definition.py)."""
    cards = numbers = 0
    for colours, roles, low, high, copies in groups(span.deck):
        per_number = len(colours) * len(roles) * copies
        cards += per_number * (high - low + 1)
        numbers += per_number * (low + high) * (high - low + 1) // 2  # every card's number
    return span.amount(term.per_card) * cards + span.amount(term.per_number) * numbers


def row(term: Term, encoding: TermEncoding) -> list[int]:
    return [encoding.zone(term.zone or ""), *amount_words(term, encoding)]


def kernel_value() -> Callable[..., int]:
    from balancer.games.roles.kernel.amounts import amount
    from balancer.games.roles.kernel.layout import NUMBER, T_CARDS, T_DECK, inlined
    from balancer.games.roles.kernel.regions import zone_at, zone_len

    @inlined
    def zone_value(state: Any, tables: Any, row: int, seat: int) -> int:
        index = tables[row + 1]
        length = state[zone_len(state, tables, index, seat)]
        per_card = amount(state, tables, tables[row + 2], tables[row + 3], seat, -1)
        per_number = amount(state, tables, tables[row + 4], tables[row + 5], seat, -1)
        total = per_card * length
        if per_number != 0:
            num = T_CARDS + NUMBER * tables[T_DECK]
            base = zone_at(state, tables, index, seat)
            numbers = 0
            for j in range(length):
                numbers += tables[num + state[base + j]]
            total += per_number * numbers
        return total

    return zone_value


SPEC = ScoreTerm(
    name="zone", holds=holds, read=read, value=value, most=most, row=row,
    kernel_value=kernel_value,
)  # fmt: skip
