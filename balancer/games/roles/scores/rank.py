"""`{rank: {counter: C, points: [5, 3, 1], order: highest}}`: the seats ranked by
counter C, place p scoring points[p - 1], 0 past them (roles/rank.py says how
places are counted, ties sharing the best, and tells the places in the replay).
Its row (kernel/layout.py M_*): the counter, 1 when the fewest rank first, then
where its points start in the points table (X_POINTS) and how many."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from balancer.games.roles import vocabulary as voc
from balancer.games.roles.model import Term
from balancer.games.roles.rank import place
from balancer.games.roles.scores.base import ScoreTerm, Span, TermEncoding, TermReader

if TYPE_CHECKING:
    from balancer.games.roles.engine import State
    from balancer.games.roles.gamefile import KeyPath

KEYS = ("counter", "points", "order")
ORDERS = ("highest", "lowest")


def holds(term: Term) -> bool:
    return term.rank is not None


def read(
    reader: TermReader, keypath: KeyPath, value: dict[str, Any], in_score: bool
) -> Term | None:
    """`{rank: {counter, points, order}}` as a Term, or None with each problem recorded."""
    reader.known_keys(keypath, value, ("rank",))
    where = (*keypath, "rank")
    spec = value["rank"]
    if not isinstance(spec, dict):
        reader.fail(where, "expected {counter: C, points: [first, second, ...]}")
        return None
    reader.known_keys(where, spec, KEYS)
    counter = None
    if not reader.absent(where, spec, "counter", "the counter the seats are ranked by"):
        counter = reader.use(voc.COUNTER, (*where, "counter"), spec["counter"])
    points: list[Any] = []
    ok = True
    if not reader.absent(where, spec, "points", "a list: what place 1, 2, ... score"):
        given = spec["points"]
        if not isinstance(given, list) or not given:
            reader.fail((*where, "points"), "expected a list: what place 1, 2, ... score")
            ok = False
        else:
            for index, item in enumerate(given):
                point = reader.amount((*where, "points", index), item, numbers=False)
                ok = ok and point is not None
                points.append(point)
    order = spec.get("order", "highest")
    if order not in ORDERS:
        reader.fail((*where, "order"), f"expected highest or lowest, got {order!r}")
        ok = False
    if counter is None or not points or not ok:
        return None
    return Term(rank=counter, points=tuple(points), lowest=order == "lowest")


def value(state: State, term: Term, seat: int) -> int:
    at = place(state.counters[term.rank or ""], seat, term.lowest)
    return state._amount(term.points[at - 1], seat, -1) if at <= len(term.points) else 0


def most(term: Term, span: Span) -> int:
    """One of its points (a place past them scores 0)."""
    return max(span.amount(point) for point in term.points)


def row(term: Term, encoding: TermEncoding) -> list[int]:
    first = encoding.points([encoding.constant(point) for point in term.points])
    return [encoding.counter(term.rank or ""), int(term.lowest), first, len(term.points)]


def kernel_value() -> Callable[..., int]:
    from balancer.games.roles.kernel.layout import (
        M_FIRST_POINT,
        M_INDEX,
        M_LOWEST,
        M_POINTS,
        T_PLAYERS,
        X_POINTS,
        inlined,
    )
    from balancer.games.roles.kernel.regions import counter_at, directory

    @inlined
    def rank_value(state: Any, tables: Any, row: int, seat: int) -> int:
        # roles/rank.py place: 1 + the seats strictly ahead of `seat` on the counter.
        counter, lowest = tables[row + M_INDEX], tables[row + M_LOWEST]
        mine = state[counter_at(state, tables, counter, seat)]
        at = 1
        for s in range(tables[T_PLAYERS]):
            other = state[counter_at(state, tables, counter, s)]
            if (lowest == 0 and other > mine) or (lowest != 0 and other < mine):
                at += 1
        if at <= tables[row + M_POINTS]:
            return tables[directory(tables, X_POINTS) + tables[row + M_FIRST_POINT] + at - 1]
        return 0

    return rank_value


SPEC = ScoreTerm(
    name="rank", holds=holds, read=read, value=value, most=most, row=row,
    kernel_value=kernel_value,
)  # fmt: skip
