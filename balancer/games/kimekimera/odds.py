"""Kimekimera's exact odds: what each breeding choice scores this round.

A breeding mixes the player's 2 cards with a free chimera's 2 and takes 2 of
the 4 at random, so the new chimera is one of 6 pairs, each with chance 1/6
(RULES.md §2). Against a known theme every pair's round score is fixed, so a
choice's expected score is an exact fraction: the mean of its 6 outcomes.
Keeping (when breeding is optional) scores the current chimera for sure.

`odds` is the pure function; `kk_odds` is the `balancer kk-odds` command.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

import click

from balancer.errors import UserError
from balancer.games.kimekimera.rules import (
    FIRST_GREY,
    KEEP,
    PAIRS,
    describe,
    describe_pair,
    lottery,
    parse_cards,
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


# -- the command ------------------------------------------------------------


def _pair_option(text: str, what: str) -> list[str]:
    names = text.split(",")
    if len(names) != 2 or not all(n.strip() for n in names):
        raise UserError(f"{what} must be 2 cards separated by a comma, like r5,b7; got {text!r}")
    return names


def _situation(
    theme: str, mine: str, free: Sequence[str]
) -> tuple[tuple[int, int], tuple[int, int], list[tuple[int, int]]]:
    names = _pair_option(theme, "--theme") + _pair_option(mine, "--mine")
    for text in free:
        names += _pair_option(text, "--free")
    try:
        cards = parse_cards(names)
    except ValueError as exc:
        raise UserError(str(exc)) from None
    if any(c >= FIRST_GREY for c in cards[:2]):
        raise UserError("a theme never holds a grey card (it is redrawn)", key="--theme")
    if any(c >= FIRST_GREY for c in cards[2:4]):
        raise UserError("a chimera holding a grey card is a robot: it can't breed", key="--mine")
    pairs = [(cards[k], cards[k + 1]) for k in range(0, len(cards), 2)]
    return pairs[0], pairs[1], pairs[2:]


def _label(choice: Choice) -> str:
    if choice.choice == KEEP:
        return "keep"
    assert choice.free is not None
    return f"free {choice.choice}: {describe_pair(*choice.free)}"


@click.command("kk-odds")
@click.option("--theme", required=True, help="The theme chimera, e.g. r5,b7.")
@click.option("--mine", required=True, help="Your chimera, e.g. y3,g12.")
@click.option(
    "--free",
    "free",
    multiple=True,
    required=True,
    help="A free chimera, e.g. r1,rainbow; repeat for each one (slots 0, 1, ... in order).",
)
@click.option(
    "--bonus-1",
    default=3,
    show_default=True,
    help="Points off for 1 colour match (colour_bonus 1).",
)
@click.option(
    "--bonus-2",
    default=7,
    show_default=True,
    help="Points off for 2 colour matches (colour_bonus 2).",
)
@click.option(
    "--grey-partner-counts",
    is_flag=True,
    help="A grey card's partner may still match a colour (grey_blocks_colour_bonus: false).",
)
@click.option("--floor-at-zero", is_flag=True, help="A round score below 0 counts as 0.")
@click.option("--keep", is_flag=True, help="Also show keeping your chimera (breeding_optional).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON for tools.")
def kk_odds(
    theme: str,
    mine: str,
    free: tuple[str, ...],
    bonus_1: int,
    bonus_2: int,
    grey_partner_counts: bool,
    floor_at_zero: bool,
    keep: bool,
    as_json: bool,
) -> None:
    """Kimekimera: the exact expected round score of breeding with each free chimera.

    Cards are written r5, b12, y3, g1 (red, blue, yellow, green 1-12), rainbow
    (13, every colour) or grey. Each choice lists its 6 equally likely new
    chimeras and their round scores (lower is better); the best expected
    choice is marked with *.

    \b
    Example:
      balancer kk-odds --theme r5,b7 --mine y3,g12 --free r1,rainbow --free b9,grey
    """
    theme_pair, mine_pair, free_pairs = _situation(theme, mine, free)
    scoring = Scoring(bonus_1, bonus_2, not grey_partner_counts, floor_at_zero)
    choices = odds(theme_pair, mine_pair, free_pairs, scoring, keep=keep)
    # The same order as the `expected` bot: lowest mean, then the lower worst case.
    best = min(range(len(choices)), key=lambda k: (choices[k].expected, choices[k].worst()))
    if as_json:
        click.echo(json.dumps(_as_json(theme_pair, mine_pair, scoring, choices, best), indent=2))
        return
    click.echo(
        f"theme {describe_pair(*theme_pair)}, mine {describe_pair(*mine_pair)}; "
        f"colour bonus 1: {bonus_1}, 2: {bonus_2}"
        + ("; grey's partner counts" if grey_partner_counts else "")
        + ("; floor at zero" if floor_at_zero else "")
    )
    width = max(len(_label(c)) for c in choices)
    click.echo(f"  {'choice'.ljust(width)}  {'expected':>14}  worst  outcomes")
    for k, choice in enumerate(choices):
        mark = "*" if k == best else " "
        e = choice.expected
        exact = f"{e.numerator}/{e.denominator}" if e.denominator != 1 else str(e.numerator)
        expected = f"{float(e):.3f} ({exact})" if e.denominator != 1 else exact
        outcomes = "  ".join(
            f"{describe_pair(*pair)} {score:+d}"
            for pair, score in zip(choice.chimeras, choice.scores, strict=True)
        )
        if choice.choice == KEEP:
            outcomes = f"{describe_pair(*choice.chimeras[0])} {choice.scores[0]:+d} (sure)"
        click.echo(
            f"{mark} {_label(choice).ljust(width)}  {expected:>14}  {choice.worst():>5}  {outcomes}"
        )


def _as_json(
    theme: tuple[int, int],
    mine: tuple[int, int],
    scoring: Scoring,
    choices: list[Choice],
    best: int,
) -> dict:
    return {
        "theme": [describe(c) for c in theme],
        "mine": [describe(c) for c in mine],
        "scoring": {
            "colour_bonus": {"1": scoring.bonus_1, "2": scoring.bonus_2},
            "grey_blocks_colour_bonus": scoring.grey_blocks_colour_bonus,
            "floor_at_zero": scoring.floor_at_zero,
        },
        "best": "keep" if choices[best].choice == KEEP else choices[best].choice,
        "choices": [
            {
                "choice": "keep" if c.choice == KEEP else c.choice,
                "free": None if c.free is None else [describe(x) for x in c.free],
                "expected": str(c.expected),
                "expected_float": float(c.expected),
                "outcomes": [
                    {"chimera": [describe(x) for x in pair], "score": score}
                    for pair, score in zip(c.chimeras, c.scores, strict=True)
                ],
                "sorted_worst_first": sorted(c.scores, reverse=True),
            }
            for c in choices
        ],
    }
