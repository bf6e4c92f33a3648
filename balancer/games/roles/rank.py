"""The rank score term: the seats ranked by a counter, place p scoring points[p - 1].

    score:
      - {rank: {counter: position, points: [5, 3, 1]}}            # the most first
      - {rank: {counter: debt, points: [4, 2], order: lowest}}      # the fewest first

A seat's place is 1 + the number of seats strictly ahead of it on the counter, so
tied seats share the best place they tie for and the places after them are
skipped, as in a sports table and as the place term does (1, 2, 2, 4). Place p
scores points[p - 1]; a place past the list scores 0. With points [5, 3, 1]:

- counters 7, 7, 2, 0 (a two-way tie): places 1, 1, 3, 4, scores 5, 5, 1, 0;
- counters 4, 4, 4, 1 (a three-way tie): places 1, 1, 1, 4, scores 5, 5, 5, 0.

Not the average of the places a tie spans: a score is a whole number (the compiled
game counts in int64) and the average of 5 and 4 is not; and the best shared
place is what the place term and the win (ties share the win) already do.

The term holds no state: it is worked out from the counters whenever the score is
(the score after each trick, a lead_changes or at_end event, the end), and the
compiled twin is kernel/scoring.py's `_rank_place`. Each point is a whole number or a
knob (`-knob` too); the term's bound is its largest point in magnitude (bounds.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from balancer.games.roles import vocabulary as voc
from balancer.games.roles.model import Term
from balancer.games.roles.primitives.base import Words, say

if TYPE_CHECKING:
    from balancer.games.roles.gamefile import KeyPath
    from balancer.games.roles.reader import Reader

KEYS = ("counter", "points", "order")
ORDERS = ("highest", "lowest")


def read(reader: Reader, keypath: KeyPath, value: dict[str, Any]) -> Term | None:
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


def place(values: Sequence[int], seat: int, lowest: bool) -> int:
    """`seat`'s place on counter values `values`: 1 + the seats strictly ahead."""
    mine = values[seat]
    if lowest:
        return 1 + sum(1 for v in values if v < mine)
    return 1 + sum(1 for v in values if v > mine)


WORDS: Words = {
    "en": {
        "ranked": "  ranked by {counter}, the {order} first: {places}",
        "most": "most",
        "fewest": "fewest",
        "placed": "seat {seat} place {place} ({score:+d})",
        "sep": ", ",
    },
    "ja": {
        "ranked": "  {counter} の{order}順に順位: {places}",
        "most": "多い",
        "fewest": "少ない",
        "placed": "席 {seat} {place} 位（{score:+d}）",
        "sep": "、",
    },
}


def told(event: tuple[Any, ...], _: Any, lang: str) -> list[Any]:
    """("ranked", counter, lowest, places, scores): each seat's place and what it scored."""
    _, counter, lowest, places, scores = event
    words = say(WORDS, lang)
    seats = sorted(range(len(places)), key=lambda s: (places[s], s))
    shown = words["sep"].join(
        words["placed"].format(seat=s, place=places[s], score=scores[s]) for s in seats
    )
    order = words["fewest" if lowest else "most"]
    return [words["ranked"].format(counter=counter, order=order, places=shown)]
