"""Bots for Fish! Dash! Cash!: `random` (RULES.md §4) and `heuristic`.

The heuristic plays as a careful player would, one trick ahead. For each card
in hand it foresees the trick as played so far plus that card (later players
unknown), using the game's own cancelling rule (`fdc.sort_out`), and values
the outcome as its own gain minus the best rival's gain, where money counts 1
and an uncashed fish counts `fish_weight` of its money (it still needs a cash
and can be stolen). So it cashes when its territory is worth it, spoils a
rival's cash or dash by matching its colour and number, steals from the
richest territory, protects when a later rival dash threatens, and dumps its
least useful card when nothing good can resolve. Leading, it assumes the lead
resolves with probability `lead_resolves`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from balancer import knobs
from balancer.bot import RANDOM, BotSpec
from balancer.games.fdc.engine import CASH, DASH, FISH, PLAY, PROTECT, View, sort_out
from balancer.rng import Stream

PARAMS = (
    knobs.custom(
        "fish_weight",
        "params",
        0.5,
        "an uncashed fish's worth, as a share of its money",
        lambda v: _share(v, "fish_weight"),
        "number 0..1",
    ),
    knobs.custom(
        "rival_weight",
        "params",
        0.6,
        "how much a rival's gain counts against the bot's own",
        lambda v: _share(v, "rival_weight"),
        "number 0..1",
    ),
    knobs.custom(
        "lead_resolves",
        "params",
        0.6,
        "chance the bot expects its lead card to resolve",
        lambda v: _share(v, "lead_resolves"),
        "number 0..1",
    ),
    knobs.integer(
        "cash_at",
        "params",
        2,
        "least money its uncashed fish must be worth before it spends a cash card",
        low=0,
    ),
)


def _share(value: Any, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= 1:
        raise ValueError(f"{name} must be a number from 0 to 1, got {value!r}")
    return float(value)


# What losing a card to cancellation costs, by role: cash cards are the scarce
# way to bank fish, so the bot would rather dump a fish or a dash.
DISCARD_COST = {FISH: 0.2, DASH: 0.25, CASH: 0.4}


class Heuristic:
    def __init__(
        self,
        fish_weight: float = 0.5,
        rival_weight: float = 0.6,
        lead_resolves: float = 0.6,
        cash_at: int = 2,
    ) -> None:
        self.fish_weight = fish_weight
        self.rival_weight = rival_weight
        self.lead_resolves = lead_resolves
        self.cash_at = cash_at

    def act(self, view: View, legal: Sequence[int], rng: Stream) -> int:
        if view.phase == PLAY:
            return self._play(view, legal, view.money)
        return self._dash(view, legal, view.money)

    # -- choosing a card ----------------------------------------------------

    def _play(self, view: View, legal: Sequence[int], money: tuple[int, ...]) -> int:
        best, best_value = legal[0], float("-inf")
        for card in legal:
            value = self._card_value(view, card, money)
            if value > best_value:
                best, best_value = card, value
        return best

    def _card_value(self, view: View, card: int, money: tuple[int, ...]) -> float:
        deck = view.deck
        plays = [*view.trick, (view.seat, card)]
        survivors, cancelled, _ = sort_out(plays, view.rules, deck)
        mine_survives = any(c == card for _, c in survivors)
        gains = self._foresee(view, survivors, money)
        rivals = [g for s, g in enumerate(gains) if s != view.seat]
        value = gains[view.seat] - self.rival_weight * (max(rivals) if rivals else 0.0)
        if not view.trick:
            value *= self.lead_resolves
        if not mine_survives:
            value -= DISCARD_COST[deck.role[card]]
        elif deck.role[card] == CASH:
            worth = sum(money[f] for f in view.territories[view.seat])
            if worth < self.cash_at:
                value -= DISCARD_COST[CASH]  # too early: keep it for a fuller territory
        return value

    def _foresee(
        self, view: View, survivors: list[tuple[int, int]], money: tuple[int, ...]
    ) -> list[float]:
        """Each seat's gain if exactly these cards resolve, in this order."""
        role = view.deck.role
        weight = self.fish_weight
        territories = [list(t) for t in view.territories]
        played = {c for _, c in view.trick} | {c for _, c in survivors}
        protected = set(view.protected)
        gains = [0.0] * len(territories)
        for seat, card in survivors:
            kind = role[card]
            if kind == FISH:
                territories[seat].append(card)
                gains[seat] += weight * money[card]
            elif kind == CASH:
                gains[seat] += (1 - weight) * sum(money[f] for f in territories[seat])
                territories[seat] = []
            else:
                target = _richest_fish(seat, territories, protected, played, money)
                if target is None:
                    protected.add(seat)
                    continue
                victim, fish = target
                territories[victim].remove(fish)
                territories[seat].append(fish)
                gains[seat] += weight * money[fish]
                gains[victim] -= weight * money[fish]
        return gains

    # -- a dash: steal or protect -------------------------------------------

    def _dash(self, view: View, legal: Sequence[int], money: tuple[int, ...]) -> int:
        seat = view.seat
        territories = [list(t) for t in view.territories]
        steal = _richest_fish(
            seat, territories, set(view.protected), set(view.played_this_trick), money
        )
        steal_worth = money[steal[1]] if steal else 0
        mine = sum(money[f] for f in territories[seat] if f not in view.played_this_trick)
        role = view.deck.role
        threatened = any(s != seat and role[c] == DASH for s, c in view.to_resolve)
        if steal is None or (threatened and mine > steal_worth):
            return PROTECT
        return steal[1] if steal[1] in legal else PROTECT


def _richest_fish(
    seat: int,
    territories: list[list[int]],
    protected: set[int],
    played: set[int],
    money: tuple[int, ...],
) -> tuple[int, int] | None:
    """The most valuable stealable fish, from the territory worth most.

    Victims are looked at from the next seat on, so ties fall relative to the
    bot's own seat: a fixed order (seat 0 first) would rob the low seats more
    and show up as a seat advantage the game doesn't have.
    """
    best = None
    best_key = (-1, -1)
    players = len(territories)
    for k in range(1, players):
        victim = (seat + k) % players
        if victim in protected:
            continue
        fish = territories[victim]
        worth = sum(money[f] for f in fish)
        for f in fish:
            if f in played:
                continue
            key = (worth, money[f])
            if key > best_key:
                best, best_key = (victim, f), key
    return best


BOTS = {
    "random": RANDOM,
    "heuristic": BotSpec(
        "heuristic",
        "one-trick lookahead: cashes full territories, spoils rivals, steals from the richest",
        Heuristic,
        PARAMS,
    ),
}
