"""Fish! Dash! Cash! engine against an independent reference, figure by figure.

`tests/reference/fdc_reference.py` plays the game from RULES.md alone (no code
shared with `balancer.games.fdc`). With `random` in every seat both must give
the same distributions, so for 2..6 players we compare every figure a report
shows — per-seat mean score and win share, length, and each §5 event's mean
per game and share of games with at least one — each with a two-sample test,
Holm-corrected over all figures together.

Run this file directly for a big comparison with real power:

    .venv/bin/python -m tests.quality.test_fdc_crosscheck --games 20000 --games5 50000
    .venv/bin/python -m tests.quality.test_fdc_crosscheck --games 10000 --games5 10000 \
        --variant no-neko
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import pytest

from balancer.games.fdc import engine as fdc
from tests.reference import fdc_reference as ref
from tests.reference import figures as fig
from tests.reference.figures import Figure, Sample

GAMES_PER_SIDE = 3000  # per player count
PLAYER_COUNTS = (2, 3, 4, 5, 6)
LAYOUT = fig.Layout(score="score", length="length", events=ref.EVENTS)


# --- the two sides -------------------------------------------------------------


def engine_sample(
    players: int, games: int, seed: int, overrides: Mapping[str, Any] | None = None
) -> Sample:
    """Figures per game from the real engine: {figure: array over games}."""
    return LAYOUT.sample(fig.engine_rows(fdc.SPEC, players, games, seed, overrides), players)


def reference_sample(
    players: int,
    games: int,
    seed: int,
    overrides: Mapping[str, Any] | None = None,
    distinct: bool = True,
) -> Sample:
    """Figures per game from the reference, on its own random stream."""
    rng = random.Random(f"fdc-reference/{seed}/{players}")
    played = (ref.play_one_game(players, rng, overrides, distinct) for _ in range(games))
    return LAYOUT.sample(fig.reference_rows(played), players)


def compare(
    player_counts: tuple[int, ...],
    games: dict[int, int],
    seed: int,
    overrides: Mapping[str, Any] | None = None,
    distinct: bool = True,
) -> tuple[list[Figure], dict[str, float]]:
    """Every figure for every player count, with raw and Holm-adjusted p-values."""
    return fig.compare(
        player_counts,
        lambda players: engine_sample(players, games[players], seed, overrides),
        lambda players: reference_sample(players, games[players], seed, overrides, distinct),
    )


# --- the cross-check ------------------------------------------------------------

# Every knob of §1 away from its default at once (one copy of each card, so the
# reading of "distinct legal moves" does not matter): three colours, a deck of 63
# that no player count divides, uneven hands late in the game, a random first
# leader, 猫に小判 with one follower and duplicates kept, the next seat leading
# after an empty trick, face-value money and a penalty for uncashed fish.
KNOB_MIX: dict[str, Any] = {
    "deck": {"colours": ["red", "blue", "green"], "roles": ["fish", "dash", "cash"],
             "numbers": [0, 6], "copies": 1},
    "hand_size": 4,
    "first_leader": "random",
    "neko_min_followers": 1,
    "neko_cancel_duplicates": False,
    "leader_if_nothing_resolves": "next",
    "cash_value": "face",
    "uncashed_value": -1,
}  # fmt: skip
KNOB_MIX_GAMES = 1500


def test_engine_matches_reference_figure_by_figure() -> None:
    games = {players: GAMES_PER_SIDE for players in PLAYER_COUNTS}
    figures, _ = compare(PLAYER_COUNTS, games, seed=20240917)
    # The stats must be able to see something: every seat and event is a figure.
    assert len(figures) == sum(2 * p + 1 + 2 * len(ref.EVENTS) for p in PLAYER_COUNTS)
    failed = fig.disagreeing(figures)
    assert not failed, "engine and reference disagree:\n" + fig.describe(failed)


def test_engine_matches_reference_with_every_knob_changed() -> None:
    games = {players: KNOB_MIX_GAMES for players in PLAYER_COUNTS}
    figures, _ = compare(PLAYER_COUNTS, games, seed=20240918, overrides=KNOB_MIX)
    failed = fig.disagreeing(figures)
    assert not failed, "engine and reference disagree:\n" + fig.describe(failed)


# --- the reference itself, by hand ----------------------------------------------


def _events() -> dict[str, int]:
    return {name: 0 for name in ref.EVENTS}


def _old_fish(colour: str, number: int, cashed: bool = False) -> dict:
    return {"card": (colour, "fish", number), "cashed": cashed, "fresh": False}


def test_reference_cancels_off_colour_and_duplicates() -> None:
    rules = ref.DEFAULT_RULES
    territories: list[list[dict]] = [[], [], [], []]
    events = _events()
    played = [
        (1, ("red", "cash", 5)),  # lead
        (2, ("red", "fish", 5)),  # duplicate 5: both cancel
        (3, ("blue", "fish", 9)),  # off colour: cancels
        (0, ("red", "fish", 2)),  # the only survivor
    ]
    leader = ref.resolve_trick(played, territories, rules, random.Random(0), events)
    assert leader == 0
    assert events["cards_cancelled"] == 3 and events["neko_ni_koban"] == 0
    assert [len(t) for t in territories] == [1, 0, 0, 0]


def test_reference_neko_ni_koban_resolves_followers_ascending() -> None:
    rules = ref.DEFAULT_RULES
    territories: list[list[dict]] = [[], [_old_fish("red", 8)], []]
    events = _events()
    played = [(0, ("red", "fish", 4)), (1, ("blue", "cash", 6)), (2, ("blue", "fish", 1))]
    leader = ref.resolve_trick(played, territories, rules, random.Random(0), events)
    # Lead discarded; blue 1 (seat 2) first, so seat 2 leads; seat 1 cashes its fish.
    assert leader == 2
    assert events["neko_ni_koban"] == 1 and events["cards_cancelled"] == 1
    assert events["cash_events"] == 1 and events["fish_cashed"] == 1
    assert territories[0] == [] and territories[1][0]["cashed"] and len(territories[2]) == 1


def test_reference_neko_needs_two_followers_and_nothing_resolving_keeps_leader() -> None:
    rules = ref.DEFAULT_RULES
    territories: list[list[dict]] = [[], []]
    events = _events()
    leader = ref.resolve_trick(
        [(0, ("red", "fish", 4)), (1, ("blue", "cash", 9))],
        territories,
        rules,
        random.Random(0),
        events,
    )
    assert leader == 0 and events["neko_ni_koban"] == 0 and events["cards_cancelled"] == 1
    # Under 猫に小判 two equal followers cancel too: nothing resolves, the leader stays.
    territories = [[], [], []]
    events = _events()
    played = [(1, ("red", "fish", 4)), (2, ("blue", "cash", 3)), (0, ("blue", "fish", 3))]
    assert ref.resolve_trick(played, territories, rules, random.Random(0), events) == 1
    assert events["cards_cancelled"] == 3


def test_reference_dash_choices_are_uniform() -> None:
    # Seat 0 dashes (9) first: [protect, steal seat 2's old fish] -> 1/2 each. Seat 1
    # dashes (5) next: after a protect, [protect, steal from seat 2]; after a steal,
    # [protect, steal the same fish again from seat 0]. Seat 2's blue 1 is cancelled.
    counts: dict[tuple[int, ...], int] = {}
    for seed in range(4000):
        territories: list[list[dict]] = [[], [], [_old_fish("red", 8)]]
        events = _events()
        played = [(0, ("red", "dash", 9)), (1, ("red", "dash", 5)), (2, ("blue", "fish", 1))]
        ref.resolve_trick(played, territories, ref.DEFAULT_RULES, random.Random(seed), events)
        assert events["steals"] + events["protects"] == 2
        key = tuple(len(t) for t in territories)
        counts[key] = counts.get(key, 0) + 1
    # (1,0,0): 1/4; (0,1,0): 1/2; (0,0,1): 1/4.
    assert abs(counts[(1, 0, 0)] - 1000) < 120
    assert abs(counts[(0, 1, 0)] - 2000) < 120
    assert abs(counts[(0, 0, 1)] - 1000) < 120


def test_reference_dash_cannot_steal_protected_cashed_or_fresh_fish() -> None:
    territories: list[list[dict]] = [[_old_fish("red", 1)], [_old_fish("red", 2, True)], []]
    events = _events()
    played = [(0, ("red", "dash", 9)), (1, ("red", "fish", 6)), (2, ("red", "dash", 3))]
    ref.resolve_trick(played, territories, ref.DEFAULT_RULES, random.Random(0), events)
    # Seat 0: nothing stealable (seat 1's fish is cashed) -> protect. Seat 2: seat 0
    # protected, seat 1's old fish cashed and its 6 is fresh -> protect.
    assert events["protects"] == 2 and events["steals"] == 0


def test_reference_sole_leader() -> None:
    previous = None
    seen = []
    for money in ([0, 0, 0], [1, 0, 0], [1, 1, 0], [1, 2, 0], [2, 2, 0], [3, 2, 0], [3, 2, 4]):
        previous = ref.next_sole_leader(money, previous)
        seen.append(previous)
    assert seen == [None, 0, 0, 1, 1, 0, 2]


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_reference_games_conserve_cards(players: int) -> None:
    rng = random.Random(players)
    for _ in range(100):
        game = ref.play_one_game(players, rng)
        events = game["events"]
        assert game["length"] == 60 // players
        assert sum(game["scores"]) == events["fish_cashed"]
        fish = events["fish_cashed"] + events["fish_uncashed_at_end"]
        resolved = fish + events["steals"] + events["protects"] + events["cash_events"]
        assert resolved + events["cards_cancelled"] == 60


# --- the big run, by hand -------------------------------------------------------


# Knob settings for by-hand runs beyond the defaults (`--variant NAME`).
VARIANTS: dict[str, dict[str, Any]] = {
    "default": {},
    "no-neko": {"neko_ni_koban": False},
    "neko-keeps-duplicates": {"neko_cancel_duplicates": False},
    "neko-one-follower": {"neko_min_followers": 1},
    "next-leader": {"leader_if_nothing_resolves": "next"},
    "random-first-leader": {"first_leader": "random"},
    "face": {"cash_value": "face"},
    "face-plus-one-uncashed": {"cash_value": "face_plus_one", "uncashed_value": -2},
    "uneven-deck": {
        "deck": {"colours": ["red", "blue"], "roles": ["fish", "dash", "cash"],
                 "numbers": [0, 8], "copies": 1},
        "hand_size": 4,
        "leader_if_nothing_resolves": "next",
    },
    # Four identical copies of each card: where "distinct legal moves" (§4) matters.
    "many-copies": {
        "deck": {"colours": ["red", "blue"], "roles": ["fish", "dash", "cash"],
                 "numbers": [0, 2], "copies": 4},
    },
    "knob-mix": KNOB_MIX,
    "three-colours-two-copies": {
        "deck": {"colours": ["red", "blue", "green"], "roles": ["fish", "dash", "cash"],
                 "numbers": [1, 6], "copies": 2},
        "hand_size": 6,
    },
}  # fmt: skip


def main() -> None:
    parser = fig.argument_parser(__doc__, VARIANTS, 20_000, "games per side, P != 5")
    parser.add_argument("--games5", type=int, default=50_000, help="games per side at P = 5")
    parser.add_argument(
        "--per-copy",
        action="store_true",
        help="reference bot tells identical copies apart (not our reading of §4)",
    )
    args = parser.parse_args()
    games = {p: (args.games5 if p == 5 else args.games) for p in PLAYER_COUNTS}
    overrides = VARIANTS[args.variant]
    figures, timing = compare(
        PLAYER_COUNTS, games, args.seed, overrides, distinct=not args.per_copy
    )
    fig.report(figures, timing, f"games per side: {games}")


if __name__ == "__main__":
    main()
