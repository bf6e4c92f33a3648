"""Bots for Kimekimera: `random` (RULES.md §4), `expected` and `cautious`.

Both scripted bots look one breeding ahead with the exact odds of
`balancer.games.kimekimera.odds`: a choice is a lottery over 6 equally likely new chimeras,
scored against the theme on the table. `expected` takes the lowest mean;
`cautious` the lowest `rank`-th worst outcome (rank 1: the worst case; by
default rank 2, the 2nd-worst, which ignores the single unluckiest pick).
Ties are broken by the other figure (the worst case for `expected`, the mean
for `cautious`), then by the order of the legal moves, so play is
deterministic. Neither looks at later rounds or at rivals.

A robot's turn (`REPLACE`, its only legal move) is never a decision: the
engine doesn't ask, and a bot asked anyway with one legal move returns it.
"""

from __future__ import annotations

from collections.abc import Sequence

from balancer import knobs
from balancer.bot import RANDOM, BotSpec
from balancer.games.kimekimera.engine import (
    KEEP,
    View,
    deck_for,
    lottery,
    pair_score,
    theme_rows,
)
from balancer.rng import Stream


def lotteries(view: View, legal: Sequence[int]) -> list[list[int]]:
    """Each legal move's 6 equally likely round scores, in the order of `legal`.

    The same figures as `balancer.games.kimekimera.odds.odds`, through the game's tables.
    """
    theme = view.theme
    deck = deck_for(view.rules)
    rows = theme_rows(theme[0], theme[1], view.bonus, view.grey_blocks_colour_bonus, deck)
    floor = view.floor_at_zero
    seat, mine, free = view.seat, view.mine, view.free
    m0, m1 = mine[2 * seat], mine[2 * seat + 1]
    out = []
    for action in legal:
        if action == KEEP:
            out.append([pair_score(rows, m0, m1, floor, deck)] * 6)
        else:
            cards = (m0, m1, free[2 * action], free[2 * action + 1])
            out.append(lottery(rows, cards, floor, deck))
    return out


class Expected:
    """The lowest exact expected round score."""

    def act(self, view: View, legal: Sequence[int], rng: Stream) -> int:
        if len(legal) == 1:
            return legal[0]  # forced (a robot's REPLACE has no lottery)
        best, best_key = legal[0], None
        for action, scores in zip(legal, lotteries(view, legal), strict=True):
            key = (sum(scores), max(scores))
            if best_key is None or key < best_key:
                best, best_key = action, key
        return best


class Cautious:
    """The lowest `rank`-th worst outcome of the 6 (1: the worst case)."""

    def __init__(self, rank: int = 2) -> None:
        self.rank = rank

    def act(self, view: View, legal: Sequence[int], rng: Stream) -> int:
        if len(legal) == 1:
            return legal[0]  # forced (a robot's REPLACE has no lottery)
        at = self.rank - 1
        best, best_key = legal[0], None
        for action, scores in zip(legal, lotteries(view, legal), strict=True):
            scores.sort(reverse=True)
            key = (scores[at], sum(scores))
            if best_key is None or key < best_key:
                best, best_key = action, key
        return best


PARAMS = (
    knobs.integer(
        "rank",
        "params",
        2,
        "which bad case to minimise: 1 the worst of the 6 outcomes, 2 the 2nd-worst, ...",
        low=1,
        high=6,
    ),
)

BOTS = {
    "random": RANDOM,
    "expected": BotSpec(
        "expected", "the breeding with the lowest exact expected round score", Expected
    ),
    "cautious": BotSpec(
        "cautious",
        "the breeding whose rank-th worst outcome (of 6) is lowest: a bad case made good",
        Cautious,
        PARAMS,
    ),
}
