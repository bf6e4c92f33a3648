"""Kimekimera engine and exact odds against an independent reference, figure by figure.

`tests/reference/kk_reference.py` plays the game from RULES.md alone (no code
shared with `balancer.games.kimekimera` or `balancer.games.kimekimera.odds`). With `random`
in every seat both must give the same distributions, so for 1..4 players we
compare every figure a report shows — per-seat mean total and win share
(lowest total wins), length, and each §5 event's mean per game and share of
games with at least one — each with a two-sample test, Holm-corrected over
all figures together. The exact expected score of a breeding is compared,
exactly, with `balancer.games.kimekimera.odds` and `balancer kk-odds --json`.

Both sides follow the revised RULES.md (a robot is replaced on its owner's
next breeding turn); the `robot-after-scoring` variant compares the old rule.

Run this file directly for a big comparison with real power:

    .venv/bin/python -m tests.quality.test_kk_crosscheck --games 30000
    .venv/bin/python -m tests.quality.test_kk_crosscheck --games 30000 --variant no-reshuffle
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

import numpy as np
import pytest
from click.testing import CliRunner

from balancer.cli import cli
from balancer.games.kimekimera import engine as kk
from tests.reference import figures as fig
from tests.reference import kk_reference as ref
from tests.reference.figures import Figure, Sample

GAMES_PER_SIDE = 8000  # per player count
VARIANT_GAMES = 4000  # per player count and knob variant
PLAYER_COUNTS = (1, 2, 3, 4)
# Lowest total wins.
LAYOUT = fig.Layout(score="total", length="length", events=ref.EVENTS, higher_is_better=False)


# --- the two sides -------------------------------------------------------------


def engine_sample(
    players: int, games: int, seed: int, overrides: Mapping[str, Any] | None = None
) -> Sample:
    """Figures per game from the real engine: {figure: array over games}."""
    return LAYOUT.sample(fig.engine_rows(kk.SPEC, players, games, seed, overrides), players)


def reference_sample(
    players: int, games: int, seed: int, overrides: Mapping[str, Any] | None = None
) -> Sample:
    """Figures per game from the reference, on its own random stream."""
    rng = random.Random(f"kk-reference/{seed}/{players}")
    played = (ref.play_one_game(players, rng, overrides) for _ in range(games))
    return LAYOUT.sample(fig.reference_rows(played), players)


def compare(
    player_counts: tuple[int, ...],
    games: int,
    seed: int,
    overrides: Mapping[str, Any] | None = None,
) -> tuple[list[Figure], dict[str, float]]:
    """Every figure for every player count, with raw and Holm-adjusted p-values."""
    return fig.compare(
        player_counts,
        lambda players: engine_sample(players, games, seed, overrides),
        lambda players: reference_sample(players, games, seed, overrides),
    )


# --- the cross-check ------------------------------------------------------------


def test_engine_matches_reference_figure_by_figure() -> None:
    assert kk.SPEC.events == ref.EVENTS
    figures, _ = compare(PLAYER_COUNTS, GAMES_PER_SIDE, seed=20240917)
    assert len(figures) == sum(2 * p + 1 + 2 * len(ref.EVENTS) for p in PLAYER_COUNTS)
    failed = fig.disagreeing(figures)
    assert not failed, "engine and reference disagree:\n" + fig.describe(failed)


# Knob variants with their own code paths, at the player counts that reach them
# (3 and 4 players are the ones whose deck runs dry without the reshuffle).
QUICK_VARIANTS: dict[str, dict[str, Any]] = {
    "no-reshuffle": {"reshuffle_discards": False},
    "grey-partner-counts": {"grey_blocks_colour_bonus": False},
    "bonus-2-5": {"colour_bonus": {1: 2, 2: 5}},
    "robot-after-scoring": {"robot_replacement": "after_scoring"},
}


@pytest.mark.parametrize("variant", sorted(QUICK_VARIANTS))
def test_engine_matches_reference_under_knob_variants(variant: str) -> None:
    figures, _ = compare((3, 4), VARIANT_GAMES, seed=20240918, overrides=QUICK_VARIANTS[variant])
    failed = fig.disagreeing(figures)
    assert not failed, f"engine and reference disagree ({variant}):\n" + fig.describe(failed)


# --- the exact odds -------------------------------------------------------------


def card_text(card: ref.Card) -> str:
    """The CLI's spelling of a card: r5, b12, rainbow, grey."""
    if card == ref.GREY:
        return "grey"
    if card == ref.RAINBOW:
        return "rainbow"
    return f"{card[0]}{card[1]}"


def random_situation(rng: random.Random, slots: int) -> dict[str, Any]:
    """A theme (no grey), a chimera that can breed (no grey), free chimeras, scoring knobs."""
    left = ref.full_deck()
    rng.shuffle(left)
    coloured = [card for card in left if card != ref.GREY]
    theme, mine = coloured[:2], coloured[2:4]
    for card in theme + mine:
        left.remove(card)
    free = [left[2 * i : 2 * i + 2] for i in range(slots)]
    bonus = {1: rng.randint(0, 6), 2: rng.randint(0, 12)} if rng.random() < 0.5 else {1: 3, 2: 7}
    return {
        "theme": theme,
        "mine": mine,
        "free": free,
        "bonus": bonus,
        "grey_blocks": rng.random() < 0.5,
        "floor_at_zero": rng.random() < 0.3,
        "keep": rng.random() < 0.2,
    }


def cli_odds(situation: Mapping[str, Any]) -> dict[str, Any]:
    """The project's odds for a situation, from `balancer kk-odds --json`."""
    args = ["kk-odds", "--json", "--theme", pair_text(situation["theme"])]
    args += ["--mine", pair_text(situation["mine"])]
    args += ["--bonus-1", str(situation["bonus"][1]), "--bonus-2", str(situation["bonus"][2])]
    for free in situation["free"]:
        args += ["--free", pair_text(free)]
    if not situation["grey_blocks"]:
        args.append("--grey-partner-counts")
    if situation["floor_at_zero"]:
        args.append("--floor-at-zero")
    if situation["keep"]:
        args.append("--keep")
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def pair_text(cards: list[ref.Card]) -> str:
    return ",".join(card_text(card) for card in cards)


def test_reference_expected_score_by_hand() -> None:
    theme = [("r", 5), ("b", 7)]  # sum 12, red and blue
    mine = [("y", 3), ("g", 12)]
    # y3 g12: 15, e3, 0 matches -> 3;  y3 r1: 4, e8, 1 -> 5;  y3 rainbow: 16, e4, 1 -> 1;
    # g12 r1: 13, e1, 1 -> -2;  g12 rainbow: 25, e13, 1 -> 10;  r1 rainbow: 14, e2, 2 -> -5.
    assert ref.expected_score(theme, mine, [("r", 1), ref.RAINBOW]) == Fraction(12, 6)
    # With grey: y3 grey and g12 grey are robots, error 0 and no bonus -> 0, 0;
    # b9 grey likewise 0; y3 g12 -> 3; y3 b9: 12, e0, 1 -> -3; g12 b9: 21, e9, 1 -> 6.
    assert ref.expected_score(theme, mine, [("b", 9), ref.GREY]) == Fraction(6, 6)
    # Grey's partner may match: y3 grey 0, g12 grey 0, b9 grey -3 -> 3 - 3 + 6 - 3 = 3.
    assert ref.expected_score(theme, mine, [("b", 9), ref.GREY], grey_blocks=False) == Fraction(
        3, 6
    )
    # Floor at zero: 3, 0, 6, 0, 0, 0 -> 9/6.
    assert ref.expected_score(theme, mine, [("b", 9), ref.GREY], floor_at_zero=True) == Fraction(
        9, 6
    )


def test_exact_odds_match_reference() -> None:
    """400 random situations: every choice's 6 outcomes and exact expected score."""
    rng = random.Random(99)
    for _ in range(400):
        situation = random_situation(rng, rng.randint(1, 4))
        knobs_ = (situation["bonus"], situation["grey_blocks"], situation["floor_at_zero"])
        theirs = cli_odds(situation)
        choices = theirs["choices"]
        if situation["keep"]:
            # Keeping scores the current chimera for sure.
            keep = choices.pop()
            assert keep["choice"] == "keep" and keep["free"] is None
            score, _, _ = ref.round_score(situation["theme"], situation["mine"], *knobs_)
            assert Fraction(keep["expected"]) == score, situation
        expected = []
        for free, choice in zip(situation["free"], choices, strict=True):
            outcomes = ref.breeding_outcomes(situation["theme"], situation["mine"], free, *knobs_)
            mine = sorted((sorted(map(card_text, pair)), score) for pair, score in outcomes)
            got = sorted((sorted(o["chimera"]), o["score"]) for o in choice["outcomes"])
            assert got == mine, situation
            exact = ref.expected_score(situation["theme"], situation["mine"], free, *knobs_)
            assert Fraction(choice["expected"]) == exact, situation
            expected.append(exact)
        if situation["keep"]:
            expected.append(Fraction(score))
        best = -1 if theirs["best"] == "keep" else theirs["best"]
        assert expected[best] == min(expected), situation


# --- the reference itself, by hand ----------------------------------------------


def test_reference_colour_matching() -> None:
    cm = ref.colour_matches
    rb, grey = ref.RAINBOW, ref.GREY
    assert cm([("r", 1), ("r", 2)], [("r", 3), ("b", 4)], True) == 1  # RULES.md's example
    assert cm([("r", 1), ("r", 2)], [("r", 3), ("r", 4)], True) == 2
    assert cm([("r", 1), ("b", 2)], [("b", 3), ("r", 4)], True) == 2  # either order
    assert cm([("r", 1), ("b", 2)], [rb, ("y", 4)], True) == 1
    assert cm([("r", 1), ("b", 2)], [rb, rb], True) == 2
    assert cm([rb, ("b", 2)], [rb, ("y", 4)], True) == 2  # rainbow matches rainbow
    assert cm([rb, rb], [("y", 3), ("y", 4)], True) == 2  # rainbow on the theme side
    assert cm([("r", 1), ("b", 2)], [("y", 1), ("g", 4)], True) == 0
    assert cm([("r", 1), ("b", 2)], [grey, ("r", 4)], True) == 0  # grey blocks
    assert cm([("r", 1), ("b", 2)], [grey, ("r", 4)], False) == 1
    assert cm([("r", 1), ("b", 2)], [grey, rb], False) == 1  # grey itself matches nothing
    assert cm([("r", 1), ("b", 2)], [grey, grey], False) == 0


def test_reference_round_score() -> None:
    theme = [("r", 5), ("b", 7)]
    bonus = {1: 3, 2: 7}
    assert ref.round_score(theme, [("y", 3), ("g", 12)], bonus, True, False) == (3, 3, 0)
    assert ref.round_score(theme, [("r", 3), ("g", 12)], bonus, True, False) == (0, 3, 1)
    assert ref.round_score(theme, [("r", 3), ("b", 12)], bonus, True, False) == (-4, 3, 2)
    assert ref.round_score(theme, [("r", 3), ("b", 12)], bonus, True, True) == (0, 3, 2)
    assert ref.round_score(theme, [("r", 3), ref.GREY], bonus, True, False) == (0, 0, 0)
    assert ref.round_score(theme, [("r", 3), ref.GREY], {"1": 3, "2": 7}, False, False) == (
        -3,
        0,
        1,
    )


def stacked(top: list[ref.Card]) -> list[ref.Card]:
    """All 54 cards, `top` drawn first in that order, the rest after in a fixed order."""
    rest = ref.full_deck()
    for card in top:
        rest.remove(card)
    return top + rest


def test_reference_grey_dealt_stops_breeding_and_scores_zero() -> None:
    # One player, one slot, two rounds, robots replaced after scoring (the
    # at_next_breeding default: tests/reference/test_reference_rules.py). Mine [grey, r1]
    # can't breed in round 1 and scores 0; after scoring it is replaced by [r5, r6];
    # theme 2 is [g1, g2] (sum 3).
    # Round 2 pools r5 r6 b1 b2: sums 11 6 7 7 8 3 -> errors 8 3 4 4 5 0 (mean 4).
    top = [ref.GREY, ("r", 1), ("b", 1), ("b", 2), ("y", 3), ("y", 4)]
    top += [("r", 5), ("r", 6), ("g", 1), ("g", 2)]
    rules = {"free_chimeras": 1, "rounds": 2, "robot_replacement": "after_scoring"}
    totals = []
    for seed in range(1200):
        game = ref.play_one_game(1, random.Random(seed), rules, stacked(top))
        events = game["events"]
        assert events["robots_made"] == 0 and events["colour_bonus_1"] == 0
        assert events["exact_hits"] == (2 if game["scores"][0] == 0 else 1)
        totals.append(game["scores"][0])
    assert set(totals) == {0, 3, 4, 5, 8}
    assert abs(sum(totals) / len(totals) - 4) < 0.25


def test_reference_grey_theme_is_redrawn() -> None:
    # Theme [grey, y5] is discarded; [y3, y4] (sum 7) is the theme. r1 r2 b1 b2
    # give sums 3 3 2 3 3 4... exactly: r1r2 3, r1b1 2, r1b2 3, r2b1 3, r2b2 4, b1b2 3.
    top = [("r", 1), ("r", 2), ("b", 1), ("b", 2), ref.GREY, ("y", 5), ("y", 3), ("y", 4)]
    rules = {"free_chimeras": 1, "rounds": 1}
    seen = set()
    for seed in range(200):
        game = ref.play_one_game(1, random.Random(seed), rules, stacked(top))
        seen.add(game["scores"][0])
    assert seen == {3, 4, 5}


def test_reference_breeding_is_uniform_over_slots_and_pairs() -> None:
    # One player, one round, four slots: the mean score is the mean of the four
    # slots' exact expected scores.
    top = [("r", 1), ("y", 9)]
    slots = [[("r", 3), ("r", 4)], [("b", 5), ref.RAINBOW], [("g", 11), ("y", 12)]]
    slots.append([("b", 2), ref.GREY])
    theme = [("r", 10), ("b", 6)]
    for slot in slots:
        top += slot
    top += theme
    exact = sum(ref.expected_score(theme, top[:2], slot) for slot in slots) / 4
    rng = random.Random(3)
    rules = {"rounds": 1}
    scores = [ref.play_one_game(1, rng, rules, stacked(top))["scores"][0] for _ in range(20000)]
    sd = float(np.std(scores)) / math.sqrt(len(scores))
    assert abs(np.mean(scores) - float(exact)) < 4.5 * sd


def _dry_deck(top: list[ref.Card], theme: list[ref.Card], bottom: list[ref.Card]) -> list:
    """`top`, 46 other cards for 23 slots, `theme`, then `bottom`: all 54 cards."""
    middle = ref.full_deck()
    for card in top + theme + bottom:
        middle.remove(card)
    assert len(middle) == 46
    return top + middle + theme + bottom


def test_reference_dry_deck_keeps_the_theme_and_empties_slots() -> None:
    # One player, 23 slots, no reshuffle: after the deal 4 cards are left. Round 1
    # breeds and its refill takes 2; the next theme is grey+grey (discarded), so
    # the deck is dry and the theme stays. Rounds 2 and 3 each empty a slot.
    theme = [("y", 12), ("g", 12)]
    refill = [("r", 12), ("b", 12)]
    deck = _dry_deck([("r", 1), ("r", 2)], theme, refill + [ref.GREY, ref.GREY])
    rules: dict[str, Any] = {"free_chimeras": 23, "rounds": 3, "reshuffle_discards": False}
    for seed in range(20):
        log: list[dict[str, Any]] = []
        game = ref.play_one_game(1, random.Random(seed), rules, deck, log)
        assert [snap["theme"] for snap in log] == [theme] * 3
        assert [sum(not slot for slot in snap["slots"]) for snap in log] == [0, 1, 2]
        assert [snap["deck"] for snap in log] == [2, 0, 0]
        assert [snap["discard"] for snap in log] == [2, 6, 8]
        assert game["events"]["reshuffles"] == 0 and game["events"]["robots_made"] == 0
    # With the reshuffle the grey theme is discarded, the discard reshuffled and a
    # new theme found; no slot ever stays empty.
    rules["reshuffle_discards"] = True
    for seed in range(20):
        log = []
        game = ref.play_one_game(1, random.Random(seed), rules, deck, log)
        assert game["events"]["reshuffles"] >= 1
        assert all(all(snap["slots"]) for snap in log)
        assert not ref.has_grey(log[1]["theme"])


def test_reference_dry_deck_keeps_a_robot() -> None:
    # Robots replaced after scoring. Mine [grey, r1] can't breed in round 1; it is
    # replaced by [grey, r2], another robot, which the dry deck can't replace after
    # round 2: three rounds of 0.
    theme, theme2 = [("y", 12), ("g", 12)], [("y", 1), ("g", 1)]
    deck = _dry_deck([ref.GREY, ("r", 1)], theme, [ref.GREY, ("r", 2)] + theme2)
    rules = {
        "free_chimeras": 23, "rounds": 3, "reshuffle_discards": False,
        "robot_replacement": "after_scoring",
    }  # fmt: skip
    log: list[dict[str, Any]] = []
    game = ref.play_one_game(1, random.Random(0), rules, deck, log)
    assert game["scores"] == [0.0]
    assert game["events"] == {
        "colour_bonus_1": 0, "colour_bonus_2": 0, "exact_hits": 3, "robots_made": 0,
        "reshuffles": 0,
    }  # fmt: skip
    assert [snap["mine"][0] for snap in log] == [[ref.GREY, ("r", 1)]] + [[ref.GREY, ("r", 2)]] * 2
    assert [snap["theme"] for snap in log] == [theme, theme2, theme2]
    assert [snap["deck"] for snap in log] == [4, 0, 0]


@pytest.mark.parametrize("players", PLAYER_COUNTS)
@pytest.mark.parametrize(
    "overrides",
    [
        {},
        {"reshuffle_discards": False},
        {"leftover": "free"},
        {"breeding_optional": True},
        {"robot_replacement": "after_scoring"},
        {"robot_replacement": "after_scoring", "reshuffle_discards": False},
    ],
)
def test_reference_games_run_and_count_sensibly(players: int, overrides: dict) -> None:
    rng = random.Random(players)
    for _ in range(200):
        game = ref.play_one_game(players, rng, overrides)  # asserts 54 cards conserved
        events = game["events"]
        assert game["length"] == 5
        assert events["colour_bonus_1"] + events["colour_bonus_2"] <= 5 * players
        assert events["exact_hits"] <= 5 * players
        assert events["robots_made"] <= 5 * players
        if overrides.get("reshuffle_discards") is False:
            assert events["reshuffles"] == 0


# --- the big run, by hand -------------------------------------------------------


# Knob settings for by-hand runs beyond the defaults (`--variant NAME`).
VARIANTS: dict[str, dict[str, Any]] = {
    "default": {},
    "grey-partner-counts": {"grey_blocks_colour_bonus": False},
    "no-reshuffle": {"reshuffle_discards": False},
    "bonus-2-5": {"colour_bonus": {1: 2, 2: 5}},
    "leftover-free": {"leftover": "free"},
    "breeding-optional": {"breeding_optional": True},
    "floor": {"floor_at_zero": True},
    "robot-after-scoring": {"robot_replacement": "after_scoring"},
    "no-rotate-2-slots-9-rounds": {
        "rotate_first_player": False, "free_chimeras": 2, "rounds": 9,
    },
}  # fmt: skip


def main() -> None:
    parser = fig.argument_parser(__doc__, VARIANTS, 30_000, "games per side per P")
    args = parser.parse_args()
    figures, timing = compare(PLAYER_COUNTS, args.games, args.seed, VARIANTS[args.variant])
    fig.report(figures, timing, f"variant {args.variant}; games per side per P: {args.games}")


if __name__ == "__main__":
    main()
