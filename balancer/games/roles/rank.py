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
(the score after each trick, a lead_changes or at_end event, the end). Its reading,
value, bound, row and compiled value are its module's (scores/rank.py); here are the
places it is counted by and the replay's words for them. Each point is a whole
number or a knob (`-knob` too); the term's bound is its largest point in magnitude.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from balancer.games.roles.primitives.base import Words, say

if TYPE_CHECKING:
    pass


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
