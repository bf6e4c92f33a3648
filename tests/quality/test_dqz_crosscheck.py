"""Da Qi Zi engine against an independent reference, figure by figure.

`tests/reference/dqz_reference.py` plays the game from RULES.md alone (no code
shared with `balancer.games.daqizi`). With `random` in every seat both must
give the same distributions, so we compare every figure a report shows —
per-seat mean chips and win share, deals per game, and each §5 event's mean
per game and share of games with at least one (for `max_multiplier`, a value
and not a count, its mean only) — each with a two-sample test, Holm-corrected
over all figures of a run together.

Run this file directly for a big comparison with real power:

    .venv/bin/python -m tests.quality.test_dqz_crosscheck --games 20000
    .venv/bin/python -m tests.quality.test_dqz_crosscheck --games 10000 --variant mixed-suits
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from typing import Any

from balancer import knobs
from balancer.games.daqizi import combos as dc
from balancer.games.daqizi import engine as daqizi
from tests.reference import dqz_reference as ref
from tests.reference import figures as fig
from tests.reference.figures import Figure, Sample

GAMES_PER_SIDE = 4000  # default knobs
GAMES_PER_VARIANT = 1000  # each knob variant below
PLAYERS = 4
MEAN_ONLY = ("max_multiplier",)  # a value per game, not a count
LAYOUT = fig.Layout(score="chips", length="deals_per_game", events=ref.EVENTS, mean_only=MEAN_ONLY)


# Knob settings beyond the defaults (`--variant NAME` when run by hand).
VARIANTS: dict[str, dict[str, Any]] = {
    "default": {},
    "may-discard-when-able": {"may_discard_when_able": True},
    "no-last-single-rule": {"no_capture_last_single_rule": False},
    "mixed-suits": {"mixed_suit_combos": True},
    "capped-steep-short": {
        "renchan_step": 2,
        "multiplier_cap": 4,
        "first_deal_multiplier": 2,
        "max_deals": 6,
    },
    "random-dealer-rich": {"first_dealer": "random", "starting_chips": 40, "bust_at": 5},
    "flat-payments": {"base_payment": 3, "zero_capture_penalty": 0},
}


# --- the two sides -------------------------------------------------------------


def engine_sample(games: int, seed: int, overrides: Mapping[str, Any] | None = None) -> Sample:
    """Figures per game from the real engine: {figure: array over games}."""
    return LAYOUT.sample(fig.engine_rows(daqizi.SPEC, PLAYERS, games, seed, overrides), PLAYERS)


def reference_sample(games: int, seed: int, overrides: Mapping[str, Any] | None = None) -> Sample:
    """Figures per game from the reference, on its own random stream."""
    rng = random.Random(f"dqz-reference/{seed}")
    played = (ref.play_one_game(rng, overrides) for _ in range(games))
    return LAYOUT.sample(fig.reference_rows(played), PLAYERS)


def compare(games: Mapping[str, int], seed: int) -> tuple[list[Figure], dict[str, float]]:
    """Every figure of every variant in `games`, with raw and Holm-adjusted p-values."""
    return fig.compare(
        games,
        lambda variant: engine_sample(games[variant], seed, VARIANTS[variant]),
        lambda variant: reference_sample(games[variant], seed, VARIANTS[variant]),
    )


# --- the cross-check ------------------------------------------------------------


FIGURES_PER_VARIANT = 2 * PLAYERS + 1 + 2 * len(ref.EVENTS) - len(MEAN_ONLY)


def test_engine_matches_reference_figure_by_figure() -> None:
    games = {"default": GAMES_PER_SIDE}
    games |= {
        name: GAMES_PER_VARIANT
        for name in ("may-discard-when-able", "no-last-single-rule", "mixed-suits")
    }
    figures, _ = compare(games, seed=20241130)
    assert len(figures) == len(games) * FIGURES_PER_VARIANT
    failed = fig.disagreeing(figures)
    assert not failed, "engine and reference disagree:\n" + fig.describe(failed, "variant")


def test_engine_and_reference_name_the_same_events() -> None:
    assert daqizi.SPEC.events == ref.EVENTS
    assert tuple(daqizi.SPEC.value_events) == MEAN_ONLY
    # The reference plays the printed deck only; the `deck` knob's default is that
    # deck, card for card (tests/test_decks.py).
    defaults = knobs.defaults(daqizi.SPEC.knobs)
    assert defaults.pop("deck") == dict(zip(dc.RANK_NAMES, dc.RANK_COPIES, strict=True))
    assert defaults == ref.DEFAULT_RULES


# --- the reference itself, by hand ----------------------------------------------

R, B = ref.RED, ref.BLACK
G, A, E, C, H, N, S = (
    ref.GENERAL,
    ref.ADVISOR,
    ref.ELEPHANT,
    ref.CHARIOT,
    ref.HORSE,
    ref.CANNON,
    ref.SOLDIER,
)


def _hand(*kinds: tuple[int, int]) -> Counter[tuple[int, int]]:
    return Counter(kinds)


def _events() -> dict[str, float]:
    return {name: 0 for name in ref.EVENTS}


def test_reference_deck() -> None:
    deck = Counter(ref.build_deck())
    assert deck.total() == 32
    for suit in (R, B):
        assert sum(n for (_, s), n in deck.items() if s == suit) == 16
        assert deck[(G, suit)] == 1 and deck[(S, suit)] == 5 and deck[(A, suit)] == 2


def test_reference_combinations_one_suit() -> None:
    hand = _hand((G, R), (A, R), (A, R), (E, R), (S, B), (S, B), (S, B), (S, R))
    combos = set(ref.combinations_in(hand, mixed=False))
    singles = {("single", (k,)) for k in [(G, R), (A, R), (E, R), (S, B), (S, R)]}
    expected = singles | {
        ("pair", ((A, R), (A, R))),
        ("pair", ((S, B), (S, B))),
        ("triple", ((S, B), (S, B), (S, B))),
        ("sequence", tuple(sorted([(G, R), (A, R), (E, R)]))),
    }
    assert combos == expected
    assert len(ref.combinations_in(hand, mixed=False)) == len(expected)  # distinct


def test_reference_combinations_mixed_suits() -> None:
    hand = _hand((G, R), (G, B), (A, B), (E, R), (S, B), (S, B), (S, R), (C, R))
    combos = ref.combinations_in(hand, mixed=True)
    assert len(combos) == len(set(combos))
    by_form = Counter(form for form, _ in combos)
    # Singles: 7 kinds. Pairs: general red+black, soldier bb and rb. Triple: bbr.
    # Sequences: (G red or black) x A black x E red = 2.
    assert by_form == {"single": 7, "pair": 3, "triple": 1, "sequence": 2}
    assert ("pair", ((G, B), (G, R))) in combos


def test_reference_strength() -> None:
    def beats(a: tuple, b: tuple) -> bool:
        return ref.beats(ref._combo(a[0], a[1]), ref._combo(b[0], b[1]))

    assert beats(("single", [(S, R)]), ("single", [(S, B)]))
    assert not beats(("single", [(S, R)]), ("single", [(S, R)]))  # equal does not beat
    assert beats(("single", [(C, B)]), ("single", [(S, R)]))
    assert not beats(("single", [(A, R)]), ("single", [(G, B)]))
    assert beats(("pair", [(N, B), (N, B)]), ("pair", [(S, R), (S, R)]))
    assert beats(("pair", [(N, R), (N, R)]), ("pair", [(N, B), (N, B)]))
    assert beats(("triple", [(S, R)] * 3), ("triple", [(S, B)] * 3))
    black_gae = ("sequence", [(G, B), (A, B), (E, B)])
    red_chc = ("sequence", [(C, R), (H, R), (N, R)])
    assert beats(black_gae, red_chc) and not beats(red_chc, black_gae)
    # Forms never beat each other.
    assert not beats(("triple", [(S, R)] * 3), black_gae)
    assert not beats(black_gae, ("triple", [(S, B)] * 3))
    # Mixed: rank first, then the number of red cards.
    assert beats(("pair", [(N, R), (N, B)]), ("pair", [(N, B), (N, B)]))
    assert beats(("pair", [(N, R), (N, R)]), ("pair", [(N, R), (N, B)]))
    assert beats(("pair", [(H, B), (H, B)]), ("pair", [(N, R), (N, R)]))
    assert not beats(("sequence", [(G, R), (A, B), (E, B)]), ("sequence", [(G, B), (A, R), (E, B)]))


def test_reference_discard_multisets() -> None:
    hand = _hand((S, R), (S, R), (S, R), (G, B))
    assert sorted(ref.multisets_of(hand, 2)) == sorted([((S, R), (S, R)), ((S, R), (G, B))])
    assert len(ref.multisets_of(hand, 3)) == 2  # SSS, SSG
    assert ref.multisets_of(hand, 4) == [tuple(sorted([(S, R)] * 3 + [(G, B)]))]


def test_reference_following_moves() -> None:
    rules = dict(ref.DEFAULT_RULES, may_discard_when_able=True)
    hand = _hand((S, R), (H, B))
    best = ("single", ((N, B),))  # horse beats the black cannon, the soldier does not
    moves = ref.following_moves(hand, best, rules)
    assert sorted(moves) == sorted(
        [("play", ((H, B),)), ("discard", ((H, B),)), ("discard", ((S, R),))]
    )
    rules["may_discard_when_able"] = False
    assert ref.following_moves(hand, best, rules) == [("play", ((H, B),))]
    # Can't beat: discards only, whatever the knob.
    assert sorted(ref.following_moves(hand, ("single", ((G, B),)), rules)) == sorted(
        [("discard", ((H, B),)), ("discard", ((S, R),))]
    )
    # A pair led: two cards discarded, every distinct multiset of two kinds.
    pair_moves = ref.following_moves(hand, ("pair", ((S, B), (S, B))), rules)
    assert pair_moves == [("discard", tuple(sorted([(S, R), (H, B)])))]


def test_reference_lead_is_uniform_over_distinct_combinations() -> None:
    # Three red soldiers (and nothing else to lead with): single, pair, triple, 1/3 each.
    counts: Counter[str] = Counter()
    rules = ref.DEFAULT_RULES
    for seed in range(3000):
        hands = [_hand((S, R), (S, R), (S, R)), _hand((G, B), (A, B), (A, B))]
        hands += [_hand((E, B), (E, B), (C, B)), _hand((C, R), (H, R), (H, B))]
        events = _events()
        ref.play_trick(0, hands, [0] * 4, rules, random.Random(seed), events)
        assert events["tricks"] == 1
        counts.update(name for name, n in events.items() if n and name.startswith("lead_"))
    assert set(counts) == {"lead_single", "lead_pair", "lead_triple"}
    for name in counts:
        assert abs(counts[name] - 1000) < 110


def test_reference_last_single_trick_rule() -> None:
    rules = dict(ref.DEFAULT_RULES, may_discard_when_able=False)
    # Seat 0 leads its last card; seat 1 (nothing captured) holds the general and would
    # beat: it is a discard. Seat 2 (has captured) beats with a horse; seat 3 can't.
    hands = [_hand((S, B)), _hand((G, R)), _hand((H, B)), _hand((S, R))]
    captured = [2, 0, 1, 0]
    events = _events()
    winner = ref.play_trick(0, hands, captured, rules, random.Random(0), events)
    assert winner == 2 and captured == [2, 0, 2, 0]
    assert events["last_trick_rule"] == 1 and events["lead_single"] == 1
    # Seat 3's red soldier would beat the led black soldier, but not the horse: not counted.
    # Without the rule the general wins.
    hands = [_hand((S, B)), _hand((G, R)), _hand((H, B)), _hand((S, R))]
    captured = [2, 0, 1, 0]
    events = _events()
    rules["no_capture_last_single_rule"] = False
    assert ref.play_trick(0, hands, captured, rules, random.Random(0), events) == 1
    assert captured == [2, 1, 1, 0] and events["last_trick_rule"] == 0


def test_reference_rule_does_not_touch_a_single_that_is_not_last() -> None:
    rules = dict(ref.DEFAULT_RULES, may_discard_when_able=False)
    hands = [_hand((S, B), (S, B)), _hand((G, R), (E, B)), _hand((N, B), (N, R))]
    hands += [_hand((S, R), (C, B))]
    rng = random.Random(3)
    for _ in range(50):
        h = [Counter(x) for x in hands]
        captured = [0, 0, 0, 0]
        events = _events()
        ref.play_trick(0, h, captured, rules, rng, events)
        # A single led by seat 0: seat 1's general always beats it and can't be beaten.
        assert events["last_trick_rule"] == 0
        if events["lead_single"]:
            assert captured == [0, 1, 0, 0]


def test_reference_payments() -> None:
    rules = ref.DEFAULT_RULES
    # Winner seat 1; seat 0 has nothing (pays 5), seat 2 has 3 (pays 1), seat 3 has 6
    # (is paid 2).
    assert ref.payments(1, [0, 9, 3, 6], rules) == [-5, 5 + 1 - 2, -1, 2]
    assert ref.payments(0, [4, 4, 4, 4], rules) == [0, 0, 0, 0]
    flat = dict(rules, base_payment=3, zero_capture_penalty=0)
    assert ref.payments(2, [0, 5, 1, 3], flat) == [-3, 2, 3 - 2 + 0, 0]


def test_reference_multiplier() -> None:
    rules = ref.DEFAULT_RULES
    assert ref.multiplier(1, 0, rules) == 1
    assert [ref.multiplier(2, s, rules) for s in (1, 2, 3)] == [2, 3, 4]
    steep = dict(rules, renchan_step=2, multiplier_cap=4, first_deal_multiplier=3)
    assert ref.multiplier(1, 0, steep) == 3
    assert [ref.multiplier(5, s, steep) for s in (1, 2)] == [3, 4]


def test_reference_games_conserve_chips_and_end_properly() -> None:
    rng = random.Random(11)
    for _ in range(200):
        game = ref.play_one_game(rng)
        scores, events = game["scores"], game["events"]
        assert sum(scores) == 80
        assert 1 <= game["length"] == events["deals"] <= 16
        assert events["busts"] == sum(1 for s in scores if s <= 0)
        if game["length"] < 16:
            assert events["busts"] >= 1
        assert 1 <= events["max_multiplier"] <= game["length"]
        assert events["dealer_wins"] <= events["deals"]
        assert events["zero_capture"] <= 3 * events["deals"]


# --- the big run, by hand -------------------------------------------------------


def main() -> None:
    args = fig.argument_parser(__doc__, VARIANTS, 20_000, "games per side").parse_args()
    figures, timing = compare({args.variant: args.games}, args.seed)
    fig.report(figures, timing, f"games per side: {args.games}", "variant")


if __name__ == "__main__":
    main()
