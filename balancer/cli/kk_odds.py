"""`balancer kk-odds`: Kimekimera's exact odds for one breeding, from the command line."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING

import click

from balancer.cli.base import command
from balancer.cli.options import format_option
from balancer.errors import UserError

# The game's modules are imported when the command runs: every other command
# (`balancer --version` too) imports this one to list it, and would pay for them.
if TYPE_CHECKING:
    from balancer.games.kimekimera.odds import Choice, Scoring


def _pair_option(text: str, what: str) -> list[str]:
    names = text.split(",")
    if len(names) != 2 or not all(n.strip() for n in names):
        raise UserError(f"{what} must be 2 cards separated by a comma, like r5,b7; got {text!r}")
    return names


def _situation(
    theme: str, mine: str, free: Sequence[str]
) -> tuple[tuple[int, int], tuple[int, int], list[tuple[int, int]]]:
    from balancer.games.kimekimera.engine import FIRST_GREY, parse_cards

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
    from balancer.games.kimekimera.engine import KEEP, describe_pair

    if choice.choice == KEEP:
        return "keep"
    assert choice.free is not None
    return f"free {choice.choice}: {describe_pair(*choice.free)}"


@command("kk-odds")
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
@format_option("Print a table, or JSON for tools.")
def kk_odds(
    theme: str,
    mine: str,
    free: tuple[str, ...],
    bonus_1: int,
    bonus_2: int,
    grey_partner_counts: bool,
    floor_at_zero: bool,
    keep: bool,
    fmt: str,
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
    as_json = fmt == "json"
    from balancer.games.kimekimera.engine import KEEP, describe_pair
    from balancer.games.kimekimera.odds import Scoring, odds

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
    from balancer.games.kimekimera.engine import KEEP, describe

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
