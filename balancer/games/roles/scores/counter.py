"""`{counter: C, times: A}`: A times the seat's counter C (times 1 when not written).
Its row: the counter, then the three amounts a zone term's row holds (base.py
`amount_words`), of which it reads times."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from balancer.games.roles import vocabulary as voc
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
    return term.counter is not None and term.place is None  # a place term reads one too


def read(
    reader: TermReader, keypath: KeyPath, value: dict[str, Any], in_score: bool
) -> Term | None:
    reader.known_keys(keypath, value, voc.COUNTER_TERM_KEYS)
    counter = reader.use(voc.COUNTER, (*keypath, "counter"), value["counter"])
    times = reader.amount((*keypath, "times"), value.get("times", 1), numbers=False)
    if counter is None or times is None:
        return None
    return Term(counter=counter, times=times)


def value(state: State, term: Term, seat: int) -> int:
    return state._amount(term.times, seat, -1) * state.counters[term.counter or ""][seat]


def most(term: Term, span: Span) -> int:
    """The counter at its further declared bound."""
    decl = next(c for c in span.counters if c.name == term.counter)
    return span.amount(term.times) * max(abs(decl.low), abs(decl.high))


def row(term: Term, encoding: TermEncoding) -> list[int]:
    return [encoding.counter(term.counter or ""), *amount_words(term, encoding)]


def kernel_value() -> Callable[..., int]:
    from balancer.games.roles.kernel.amounts import amount
    from balancer.games.roles.kernel.layout import inlined
    from balancer.games.roles.kernel.regions import counter_at

    @inlined
    def counter_value(state: Any, tables: Any, row: int, seat: int) -> int:
        times = amount(state, tables, tables[row + 6], tables[row + 7], seat, -1)
        return times * state[counter_at(state, tables, tables[row + 1], seat)]

    return counter_value


SPEC = ScoreTerm(
    name="counter", holds=holds, read=read, value=value, most=most, row=row,
    kernel_value=kernel_value,
)  # fmt: skip
