"""Duplicate play: how much better one bot plays a seat than another, luck of the deal paired out.

Bridge's duplicate: every deal is played twice with the same chance stream, once
with the challenger in one seat (the incumbent in every other) and once with the
incumbent there too. The challenger's seat moves round the table from game to game
(game i: seat i mod players). Each game gives one paired difference, the
challenger's win share in its seat minus the incumbent's in the same seat of the
same deal; the margin is their mean with a 95% interval (the differences are
independent across games: each game is its own deal). A positive margin clear of
zero says the challenger plays the seat better than the incumbent does.

Both games of a pair are played by the engine step by step (sim/play.py), the
seats' bots drawing from their own seat streams, as a run plays them.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from balancer import games
from balancer.bot import bot_params_with_defaults
from balancer.bots import registry as bot_registry
from balancer.games.api import GameRecord, win_shares
from balancer.sim.play import Seat, play_game

Z95 = 1.959963984540054


@dataclass(frozen=True)
class Margin:
    """The challenger's paired margin over the incumbent, and what the games were like."""

    games: int
    mean: float  # mean paired difference of win share
    low: float  # its 95% interval
    high: float
    challenger_share: float  # mean win share of the challenger's seat
    incumbent_share: float  # mean win share of the incumbent in the same seats
    # Mean of each event per game, with the challenger seated and without (e.g. dqz's tricks).
    events_with: Mapping[str, float]
    events_without: Mapping[str, float]
    length_with: float
    length_without: float


def builtin_seat(game: str, name: str, params: Mapping[str, Any]) -> Seat:
    """A seat for `game`'s built-in bot `name` with `params` over its defaults."""
    spec = bot_registry.builtin(game)[name]
    return Seat(name, spec.factory(**bot_params_with_defaults(spec, params)))


def duplicate_margin(
    game: str,
    players: int,
    rules: Mapping[str, Any],
    challenger: tuple[str, Mapping[str, Any]],
    incumbent: tuple[str, Mapping[str, Any]],
    *,
    seed: int,
    games_played: int,
    progress: Callable[[int], None] | None = None,
    others: tuple[str, Mapping[str, Any]] | None = None,
) -> Margin:
    """Play `games_played` duplicate pairs (see the module's docstring). `others`, when
    given, plays every seat but the measured one in both games of a pair (the incumbent
    then sits only there): two bots compared head to head against the same table."""
    if games_played < 2:
        raise ValueError("a margin needs at least 2 games")
    spec = games.get(game)
    full = spec.name
    diffs: list[float] = []
    with_share = without_share = 0.0
    events_with = dict.fromkeys(spec.events, 0.0)
    events_without = dict.fromkeys(spec.events, 0.0)
    length_with = length_without = 0.0
    for index in range(games_played):
        seat = index % players
        # Fresh bots for each game: a bot holds nothing between games, but a new one is sure.
        table = [builtin_seat(full, *(others or incumbent)) for _ in range(players)]
        if others is not None:
            table[seat] = builtin_seat(full, *incumbent)
        base: GameRecord = play_game(spec, rules, table, seed, index)
        table[seat] = builtin_seat(full, *challenger)
        tried: GameRecord = play_game(spec, rules, table, seed, index)
        a = win_shares(tried.scores, spec.higher_is_better)[seat]
        b = win_shares(base.scores, spec.higher_is_better)[seat]
        diffs.append(a - b)
        with_share += a
        without_share += b
        length_with += tried.length
        length_without += base.length
        for name in spec.events:
            events_with[name] += tried.events[name]
            events_without[name] += base.events[name]
        if progress is not None:
            progress(1)
    n = len(diffs)
    mean = sum(diffs) / n
    sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1))
    half = Z95 * sd / math.sqrt(n)
    return Margin(
        games=n,
        mean=mean,
        low=mean - half,
        high=mean + half,
        challenger_share=with_share / n,
        incumbent_share=without_share / n,
        events_with={k: v / n for k, v in events_with.items()},
        events_without={k: v / n for k, v in events_without.items()},
        length_with=length_with / n,
        length_without=length_without / n,
    )
