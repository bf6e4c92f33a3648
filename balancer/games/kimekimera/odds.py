"""Kimekimera's exact odds: what each breeding choice scores this round.

A breeding mixes the player's 2 cards with a free chimera's 2 and takes 2 of
the 4 at random, so the new chimera is one of 6 pairs, each with chance 1/6
(RULES.md §2). Against a known theme every pair's round score is fixed, so a
choice's expected score is an exact fraction: the mean of its 6 outcomes.
Keeping (when breeding is optional) scores the current chimera for sure.

`odds` is the pure function; `balancer kk-odds` (cli/kk_odds.py) prints it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from balancer.games.kimekimera.engine import (
    KEEP,
    PAIRS,
    lottery,
    round_score,
    theme_rows,
)


@dataclass(frozen=True)
class Scoring:
    """The scoring knobs of RULES.md §2 that a round score depends on."""

    bonus_1: int = 3
    bonus_2: int = 7
    grey_blocks_colour_bonus: bool = True
    floor_at_zero: bool = False

    @property
    def bonus(self) -> tuple[int, int, int]:
        return (0, self.bonus_1, self.bonus_2)


@dataclass(frozen=True)
class Choice:
    """One choice and its lottery: the 6 new chimeras (in `PAIRS` order) and their scores."""

    choice: int  # a free-chimera slot, or KEEP
    free: tuple[int, int] | None  # the free chimera bred with; None for KEEP
    chimeras: tuple[tuple[int, int], ...]
    scores: tuple[int, ...]

    @property
    def expected(self) -> Fraction:
        return Fraction(sum(self.scores), len(self.scores))

    def worst(self, rank: int = 1) -> int:
        """The `rank`-th worst (highest) score: 1 is the worst, 6 the best."""
        return sorted(self.scores, reverse=True)[rank - 1]


def outcome_scores(
    theme: Sequence[int],
    mine: Sequence[int],
    free: Sequence[int],
    bonus: Sequence[int],
    grey_blocks: bool,
    floor: bool,
) -> list[int]:
    """The 6 round scores of breeding `mine` with `free`, in `PAIRS` order (the fast path)."""
    rows = theme_rows(theme[0], theme[1], (bonus[0], bonus[1], bonus[2]), grey_blocks)
    return lottery(rows, (mine[0], mine[1], free[0], free[1]), floor)


def odds(
    theme: Sequence[int],
    mine: Sequence[int],
    free: Sequence[Sequence[int]],
    scoring: Scoring | None = None,
    *,
    keep: bool = False,
) -> list[Choice]:
    """Every choice's exact lottery for this round: one `Choice` per free chimera, in order.

    An empty free slot (an empty sequence) is skipped. With `keep`, a last
    `Choice` (choice KEEP) scores the current chimera 6 times over, so every
    choice has 6 equally likely outcomes. Scores use the game's own scoring.
    """
    scoring = scoring or Scoring()
    bonus = scoring.bonus
    grey_blocks = scoring.grey_blocks_colour_bonus
    floor = scoring.floor_at_zero
    cards = (mine[0], mine[1])
    out = []
    for slot, pair in enumerate(free):
        if not pair:
            continue
        four = (*cards, pair[0], pair[1])
        chimeras = tuple((four[i], four[j]) for i, j in PAIRS)
        scores = tuple(outcome_scores(theme, cards, pair, bonus, grey_blocks, floor))
        out.append(Choice(slot, (pair[0], pair[1]), chimeras, scores))
    if keep:
        score = round_score(theme[0], theme[1], cards[0], cards[1], bonus, grey_blocks, floor)
        out.append(Choice(KEEP, None, (cards,) * 6, (score,) * 6))
    return out
