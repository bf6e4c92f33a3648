"""`{place: G, counter: C, reaches: N, places: P, beyond: B}` (vocabulary.py says how
places are handed out): place p of P scores P + 1 - p, a place beyond them B, no
place yet 0. Its row (kernel/layout.py M_*): its global, its counter, reaches,
places and beyond (knobs filled in), its event and beyond_event (-1 none).

The arrivals themselves (who takes which place as a trick ends) stay where the
trick's end runs them, engine.py `_arrive` and kernel/scoring.py `_arrive`: they
change the state, which no other term does, and run at a trick's end, not when a
score is read."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from balancer.games.roles import vocabulary as voc
from balancer.games.roles.model import Term
from balancer.games.roles.reader import where_text
from balancer.games.roles.scores.base import ScoreTerm, Span, TermEncoding, TermReader

if TYPE_CHECKING:
    from balancer.games.roles.engine import State
    from balancer.games.roles.gamefile import KeyPath


def holds(term: Term) -> bool:
    return term.place is not None


def read(
    reader: TermReader, keypath: KeyPath, value: dict[str, Any], in_score: bool
) -> Term | None:
    reader.known_keys(keypath, value, voc.PLACE_TERM_KEYS)
    if not in_score:
        reader.fail(
            (*keypath, "place"),
            "a place term hands out places as the game goes: it belongs in score:",
        )
        return None
    glob = reader.use(voc.GLOBAL, (*keypath, "place"), value["place"])
    if glob is not None and glob in reader.place_globals:
        first = reader.place_globals[glob]
        reader.fail(
            (*keypath, "place"),
            f"global counter {glob!r} already hands out places (at {where_text(first)})",
        )
        glob = None
    elif glob is not None:
        reader.place_globals[glob] = (*keypath, "place")
    parts: dict[str, Any] = {}
    for key in ("counter", "reaches", "places"):
        if key not in value:
            reader.fail(keypath, f"missing key {key!r} (needed by a place term)")
            parts[key] = None
    if "counter" in value:
        parts["counter"] = reader.use(voc.COUNTER, (*keypath, "counter"), value["counter"])
    for key in ("reaches", "places"):
        if key in value:
            parts[key] = reader.amount((*keypath, key), value[key], numbers=False)
    parts["beyond"] = reader.amount((*keypath, "beyond"), value.get("beyond", 0), numbers=False)
    for key in ("event", "beyond_event"):
        if key in value:
            event = reader.use(voc.EVENT, (*keypath, key), value[key])
            if event is not None:
                reader.ops_events.add(event)
                parts[key] = event
    places = parts["places"]
    if places is not None and (places[0] == "minus_knob" or (places[0] == "int" and places[1] < 1)):
        reader.fail((*keypath, "places"), "expected at least 1 place")
        return None
    if glob is None or any(v is None for v in parts.values()):
        return None
    return Term(place=glob, **parts)


def value(state: State, term: Term, seat: int) -> int:
    place = state.places[term.place or ""][seat]
    places = state._amount(term.places, seat, -1)
    if place > places:
        return state._amount(term.beyond, seat, -1)
    return places + 1 - place if place else 0


def most(term: Term, span: Span) -> int:
    """Its first place or `beyond`, whichever is larger."""
    return max(span.amount(term.places), span.amount(term.beyond))


def row(term: Term, encoding: TermEncoding) -> list[int]:
    return [
        encoding.glob(term.place or ""),
        encoding.counter(term.counter or ""),
        encoding.constant(term.reaches),
        encoding.constant(term.places),
        encoding.constant(term.beyond),
        encoding.event(term.event),
        encoding.event(term.beyond_event),
    ]


def kernel_value() -> Callable[..., int]:
    from balancer.games.roles.kernel.layout import M_BEYOND, M_INDEX, M_PLACES, inlined
    from balancer.games.roles.kernel.regions import place_at

    @inlined
    def place_value(state: Any, tables: Any, row: int, seat: int) -> int:
        place = state[place_at(state, tables, tables[row + M_INDEX], seat)]
        places = tables[row + M_PLACES]
        if place > places:
            return tables[row + M_BEYOND]
        if place > 0:
            return places + 1 - place
        return 0

    return place_value


SPEC = ScoreTerm(
    name="place", holds=holds, read=read, value=value, most=most, row=row,
    kernel_value=kernel_value,
)  # fmt: skip
