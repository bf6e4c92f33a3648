"""Luck and skill by duplicate play: the same deals, each seat played by bots of different
strength against the same field.

Deal d is game d of the variant (its seed and rules: the same chance stream, so the
same cards, in every game of the deal). The field is the game's scripted bot in every
seat; in turn each seat r is handed to each measured bot B (`search`, the scripted
bot, `random`), the field keeping the others: y[d, r, B] is seat r's win share in
that game (ties share). The scripted bot's game is one game for every seat (the
field alone). Every seat's bot draws from its seat's stream, so the field plays the
same in each game of a deal until the measured seat's moves differ.

- **the deal's share of the outcome**: the one-way random-effects split of y over
  hands (a seat of a deal: the cards it is dealt and the place it sits) with the
  bots as the repeated outcomes (stats/variance_split.py): the part of a hand's
  outcome that is the hand's, whoever plays it, with a bootstrap interval over
  deals. 1: the deal decides (every bot wins or loses a hand alike).
- **win share in the seat**: each bot's mean y over a deal's seats, averaged over
  deals with its t interval (kept inside [0, 1]).
- **what search buys**: per deal, the mean over its seats of y[search] − y[scripted]
  (and − y[random]): paired by deal, a mean over independent deals with its t
  interval.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from balancer.analysis.duplicate import builtin_seat
from balancer.bots.search import SEARCH
from balancer.config.plays_sample import measured_bots, scripted_bot
from balancer.config.variant import Variant
from balancer.errors import UserError
from balancer.games.api import win_shares
from balancer.sim.play import play_game
from balancer.stats.intervals import Interval, mean_interval
from balancer.stats.variance_split import Split, deal_share


@dataclass(frozen=True)
class LuckFigures:
    """What duplicate play found (the module's docstring)."""

    deals: int
    field: str  # the bot of every other seat
    bots: tuple[str, ...]
    outcomes: np.ndarray  # y [deals, seats, bots]
    deal: Split
    win_share: Mapping[str, Interval]  # each bot's mean win share in the seat it plays
    search_over: Mapping[str, Interval]  # search's paired margin over each other bot


def outcomes(
    variant: Variant,
    deals: int,
    bots: tuple[str, ...],
    samples: int,
    progress: Callable[[int], None] | None = None,
) -> np.ndarray:
    """y [deals, seats, bots]: seat r's win share with bots[b] there and the field (the
    scripted bot) in every other seat, deal by deal."""
    spec, players, game = variant.spec, variant.players, variant.game
    field = scripted_bot(game)
    params: dict[str, Mapping[str, Any]] = {SEARCH: {"samples": samples}}
    y = np.zeros((deals, players, len(bots)))
    for d in range(deals):
        for b, name in enumerate(bots):
            for r in range(1 if name == field else players):
                # Fresh bots each game: a bot keeps nothing between games; a new one is sure.
                table = [builtin_seat(game, field, {}) for _ in range(players)]
                table[r] = builtin_seat(game, name, params.get(name, {}))
                record = play_game(spec, variant.rules, table, variant.seed, d)
                shares = win_shares(record.scores, spec.higher_is_better)
                if name == field:  # the field alone: one game gives every seat's outcome
                    y[d, :, b] = shares
                else:
                    y[d, r, b] = shares[r]
                if progress is not None:
                    progress(1)
    return y


def games_needed(variant: Variant, deals: int, bots: tuple[str, ...]) -> int:
    """Games `outcomes` plays: per deal one for the field's bot, one per seat for the others."""
    field = scripted_bot(variant.game)
    return deals * sum(1 if name == field else variant.players for name in bots)


def luck_figures(
    variant: Variant,
    deals: int,
    samples: int,
    progress: Callable[[int], None] | None = None,
) -> LuckFigures:
    """Play the duplicate deals and split their outcomes (the module's docstring)."""
    if deals < 2:
        raise UserError("duplicate play needs at least 2 deals", key="--deals")
    if variant.players < 2:
        raise UserError("duplicate play needs at least 2 players: one seat has no rival")
    bots = measured_bots(variant.game, samples)
    if len(bots) < 2:
        raise UserError(f"{variant.game} has one bot only: nothing to compare by duplicate play")
    y = outcomes(variant, deals, bots, samples, progress)
    return figures_of(y, bots, scripted_bot(variant.game))


def _within_01(interval: Interval) -> Interval:
    """A win share's t interval kept inside [0, 1], where every win share lies (a few
    deals' t interval can reach past either end)."""
    return replace(interval, low=max(0.0, interval.low), high=min(1.0, interval.high))


def figures_of(
    y: np.ndarray, bots: tuple[str, ...], field: str, level: float = 0.95
) -> LuckFigures:
    """The figures of outcomes y [deals, seats, bots] (bots[b] measured in column b), with
    `level` intervals (95% unless told)."""
    deals, players, k = y.shape
    hands = y.reshape(deals * players, k)
    split = deal_share(hands, clusters=np.repeat(np.arange(deals), players), level=level)
    per_deal = y.mean(axis=1)  # [deals, bots]: each bot's mean over the deal's seats
    win_share = {
        name: _within_01(mean_interval(per_deal[:, b], level)) for b, name in enumerate(bots)
    }
    search_over = {}
    if SEARCH in bots:
        s = bots.index(SEARCH)
        for b, name in enumerate(bots):
            if b != s:
                search_over[name] = mean_interval(per_deal[:, s] - per_deal[:, b], level)
    return LuckFigures(deals, field, bots, y, split, win_share, search_over)
