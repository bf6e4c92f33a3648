"""Bots for 打棋子 Da Qi Zi: `random` (RULES.md §4) and `heuristic`.

The heuristic plays from its view only: its hand, the captured cards and the
face-up plays of the deal. A card it has not seen is *unseen* (in another hand
or face down in the discard), and it treats every unseen card as a threat.

- It keeps a *reserve*: its strongest single, when that is at least
  `reserve_min` or nothing unseen beats it, for a last trick that is a single
  (the winner of the last trick wins the deal and is paid by everyone).
- Leading: a combination that empties its hand and nothing unseen beats (that
  takes the deal); else, with `safe_lead`, the largest combination nothing
  unseen beats, sparing the reserve (cards captured, lead kept); else, while it
  has captured nothing, its strongest single but the reserve (a zero-capture
  player pays base + penalty), otherwise its weakest.
- Following: in the last trick, its strongest beat. Otherwise the cheapest beat
  sparing the reserve that is sure to hold (nobody left to play, or nothing
  unseen beats it); else the cheapest sparing beat whose cards are all at most
  `cheap_beat`, or any sparing beat while it has captured nothing; else it
  discards its weakest cards, the reserve last.

Thresholds are card kinds, 0 (black soldier) to 13 (red general): see
`balancer.games.daqizi.combos`; the same bot runs compiled in `kernel.py`.
"""

from __future__ import annotations

from collections.abc import Sequence

from balancer import knobs
from balancer.bot import RANDOM, BotSpec
from balancer.games.daqizi import combos as dc
from balancer.games.daqizi.deck import deck_for
from balancer.games.daqizi.engine import PLAYERS, View
from balancer.rng import Stream

PARAMS = (
    knobs.integer(
        "reserve_min",
        "params",
        10,
        "weakest single kind (0 black soldier .. 13 red general) kept for the last trick",
        low=0,
        high=13,
    ),
    knobs.integer(
        "cheap_beat",
        "params",
        7,
        "strongest kind it spends on a beat that may be overtaken (-1: none)",
        low=-1,
        high=13,
    ),
    knobs.boolean("safe_lead", "params", True, "lead combinations nothing unseen beats first"),
)

RESERVE_COST = 100  # a discard's cost per reserve card: it goes last


class Heuristic:
    """See the module docstring."""

    def __init__(self, reserve_min: int = 10, cheap_beat: int = 7, safe_lead: bool = True) -> None:
        self.reserve_min = reserve_min
        self.cheap_beat = cheap_beat
        self.safe_lead = safe_lead

    def act(self, view: View, legal: Sequence[int], rng: Stream) -> int:
        mixed = bool(view.rules["mixed_suit_combos"])
        hand = view.hand
        # Packed fields never go below zero here, so whole-int subtraction is per kind.
        unseen = deck_for(view.rules).full_deck - dc.pack(hand) - dc.pack(view.public)
        reserve = self._reserve(hand, unseen, mixed)
        if view.best < 0:
            return self._lead(view, legal, unseen, reserve, mixed)
        return self._follow(view, legal, unseen, reserve, mixed)

    def _reserve(self, hand: Sequence[int], unseen: int, mixed: bool) -> int:
        """The single kind kept for the last trick, or -1."""
        for kind in range(dc.N_KINDS - 1, -1, -1):
            if hand[kind]:
                single = dc.SINGLE_OF_KIND[kind]
                if kind >= self.reserve_min or not dc.can_beat_packed(unseen, single, mixed):
                    return kind
                return -1
        return -1

    def _lead(
        self, view: View, legal: Sequence[int], unseen: int, reserve: int, mixed: bool
    ) -> int:
        size = view.hand_sizes[view.seat]
        safe = [c for c in legal if not dc.can_beat_packed(unseen, c, mixed)]
        for c in safe:
            if dc.MOVE_SIZE[c] == size:
                return c
        hand = view.hand
        spare = [c for c in legal if not _uses_reserve(c, hand, reserve)]
        if self.safe_lead:
            sparing_safe = [c for c in safe if not _uses_reserve(c, hand, reserve)]
            if sparing_safe:
                # Most cards (most captured), then the weakest of them.
                return max(sparing_safe, key=lambda c: (dc.MOVE_SIZE[c], -dc.COMBO_STRENGTH[c]))
        pool = spare or list(legal)
        singles = [c for c in pool if dc.COMBO_FORM[c] == dc.SINGLE] or pool
        # Table order is ascending strength within a form.
        return singles[0] if any(view.captured[view.seat]) else singles[-1]

    def _follow(
        self, view: View, legal: Sequence[int], unseen: int, reserve: int, mixed: bool
    ) -> int:
        beats = [a for a in legal if a < dc.DISCARD_BASE]  # weakest first
        if beats:
            if view.last_trick:
                return beats[-1]
            hand = view.hand
            after = PLAYERS - 1 - len(view.trick) - view.trick_discards
            sparing = [c for c in beats if not _uses_reserve(c, hand, reserve)]
            for c in sparing:
                if after == 0 or not dc.can_beat_packed(unseen, c, mixed):
                    return c
            hungry = not any(view.captured[view.seat])
            for c in sparing:
                if hungry or dc.MOVE_KINDS[c][-1] <= self.cheap_beat:
                    return c
            if len(beats) == len(legal):  # must beat: discarding is barred
                return (sparing or beats)[0]
        return min(legal[len(beats) :], key=lambda d: _fodder_cost(d, reserve))


def _uses_reserve(move: int, hand: Sequence[int], reserve: int) -> bool:
    return reserve >= 0 and dc.MOVE_COUNTS[move][reserve] >= hand[reserve]


def _fodder_cost(move: int, reserve: int) -> int:
    return sum(RESERVE_COST if k == reserve else k for k in dc.MOVE_KINDS[move])


BOTS = {
    "random": RANDOM,
    "heuristic": BotSpec(
        "heuristic",
        "keeps a last-trick single, captures cheaply, leads what nothing unseen beats",
        Heuristic,
        PARAMS,
    ),
}
