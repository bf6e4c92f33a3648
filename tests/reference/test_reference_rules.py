"""The references follow the revised RULES.md: hand-made situations, worked out by hand.

Each test pins one revised rule of tests/reference/*_reference.py so that a
reference that plays the old rule fails here (and not only, by a statistical
margin, in a cross-check):

- Kimekimera: a robot is replaced on its owner's next breeding turn, instead of
  breeding (`robot_replacement: at_next_breeding`, the default; §2, §6).
- Da Qi Zi: a player who can beat must beat (`may_discard_when_able: false`, the
  default; §3, §4); the `tricks` event (§5).
- Fish! Dash! Cash!: `lead_changes` does not count the first player ever to
  become sole leader (§5).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

from tests.reference import dqz_reference as dqz
from tests.reference import fdc_reference as fdc
from tests.reference import kk_reference as kk

# --- Kimekimera: robots replaced at the next breeding ---------------------------

GREY = kk.GREY


def stacked(top: Sequence[kk.Card], bottom: Sequence[kk.Card] = ()) -> list[kk.Card]:
    """All 54 cards: `top` drawn first, in that order, then the rest, then `bottom`.

    The rest keeps full_deck()'s order minus the named cards; none of these tests
    draws into it unless it says so (`bottom` is drawn only after the rest).
    """
    middle = kk.full_deck()
    for card in list(top) + list(bottom):
        middle.remove(card)
    return list(top) + middle + list(bottom)


def play_kk(
    players: int, seed: int, rules: dict[str, Any], deck: list[kk.Card]
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    log: list[dict[str, Any]] = []
    game = kk.play_one_game(players, random.Random(seed), rules, deck, log)
    return game, log


def test_kk_default_is_at_next_breeding() -> None:
    assert kk.DEFAULT_RULES["robot_replacement"] == "at_next_breeding"


def test_kk_dealt_robot_is_replaced_on_its_first_turn_and_the_replacement_scores() -> None:
    # One player, one slot, two rounds. Dealt [grey, r1]; slot [b1, b2]; theme
    # [y3, y4] (sum 7); then the deck gives [r5, r6], [g1, g2].
    # Round 1, seat 0's turn: the robot is discarded, [r5, r6] drawn (no breeding,
    # the slot stays [b1, b2]). Score: |7 - 11| = 4, yellow vs red no match -> 4.
    # After scoring the theme becomes [g1, g2] (sum 3). Round 2 breeds r5 r6 b1 b2:
    # pairs 11 6 7 7 8 3 -> errors 8 3 4 4 5 0, no green -> totals 12 7 8 8 9 4.
    # (after_scoring would score the robot 0 in round 1: totals 8 3 4 4 5 0.)
    top = [GREY, ("r", 1), ("b", 1), ("b", 2), ("y", 3), ("y", 4)]
    top += [("r", 5), ("r", 6), ("g", 1), ("g", 2)]
    rules = {"free_chimeras": 1, "rounds": 2}
    totals = set()
    for seed in range(300):
        game, log = play_kk(1, seed, rules, stacked(top))
        first = log[0]
        assert first["mine"] == [[("r", 5), ("r", 6)]]
        assert first["slots"] == [[("b", 1), ("b", 2)]]
        assert first["theme"] == [("y", 3), ("y", 4)]
        assert (first["deck"], first["discard"]) == (46, 2)  # 54 - 6 dealt - 2; the robot
        assert log[1]["theme"] == [("g", 1), ("g", 2)]
        events = game["events"]
        assert events["robots_made"] == 0 and events["colour_bonus_1"] == 0
        assert events["exact_hits"] == (1 if game["scores"][0] == 4 else 0)
        totals.add(game["scores"][0])
    assert totals == {12, 7, 8, 9, 4}


def test_kk_dealt_robot_under_after_scoring_scores_zero_first() -> None:
    # The same deck under the old behaviour: the robot scores 0 in round 1, is
    # replaced after scoring by [r5, r6], and the theme becomes [g1, g2].
    top = [GREY, ("r", 1), ("b", 1), ("b", 2), ("y", 3), ("y", 4)]
    top += [("r", 5), ("r", 6), ("g", 1), ("g", 2)]
    rules = {"free_chimeras": 1, "rounds": 2, "robot_replacement": "after_scoring"}
    totals = set()
    for seed in range(300):
        game, log = play_kk(1, seed, rules, stacked(top))
        assert log[0]["mine"] == [[GREY, ("r", 1)]]
        assert log[1]["theme"] == [("g", 1), ("g", 2)]
        totals.add(game["scores"][0])
    assert totals == {8, 3, 4, 5, 0}


def test_kk_bred_robot_scores_as_robot_then_is_replaced_instead_of_breeding() -> None:
    # One player, one slot, two rounds. Mine [r1, r2], slot [grey, grey], theme
    # [y3, y4] (7); the refill [b1, b2]; then [g5, g6]; then [r7, r8].
    # Round 1 breeds r1 r2 G G: r1r2 (1 in 6) is no robot, error 4 -> 4; the other 5
    # pairs are robots, error 0, no bonus -> 0. After scoring the theme is [g5, g6]
    # (sum 11). A robot's round 2 turn discards it and draws [r7, r8] (sum 15), no
    # breeding (the slot stays [b1, b2]): error 4, no green -> 4. Total 0 + 4.
    top = [("r", 1), ("r", 2), GREY, GREY, ("y", 3), ("y", 4), ("b", 1), ("b", 2)]
    top += [("g", 5), ("g", 6), ("r", 7), ("r", 8)]
    rules = {"free_chimeras": 1, "rounds": 2}
    robots = 0
    for seed in range(600):
        game, log = play_kk(1, seed, rules, stacked(top))
        events = game["events"]
        assert log[0]["slots"] == [[("b", 1), ("b", 2)]]
        assert log[1]["theme"] == [("g", 5), ("g", 6)]
        if kk.has_grey(log[0]["mine"][0]):
            robots += 1
            assert events["robots_made"] == 1
            assert log[1]["mine"] == [[("r", 7), ("r", 8)]]
            assert log[1]["slots"] == [[("b", 1), ("b", 2)]]  # no breeding in round 2
            # 54 - 6 dealt - 2 refill - 2 theme - 2 replacement; leftovers, theme, robot
            assert (log[1]["deck"], log[1]["discard"]) == (42, 6)
            assert game["scores"] == [4.0]
            assert events["exact_hits"] == 1
        else:
            assert sorted(log[0]["mine"][0]) == [("r", 1), ("r", 2)]
            assert events["robots_made"] == 0
    assert 420 < robots < 580  # 5 in 6 of 600 is 500


def test_kk_robot_made_in_the_last_round_simply_scores() -> None:
    # One round: a robot bred in it scores 0 and nothing is replaced or drawn after.
    top = [("r", 1), ("r", 2), GREY, GREY, ("y", 3), ("y", 4), ("b", 1), ("b", 2)]
    rules = {"free_chimeras": 1, "rounds": 1}
    seen = 0
    for seed in range(60):
        game, log = play_kk(1, seed, rules, stacked(top))
        if kk.has_grey(log[0]["mine"][0]):
            seen += 1
            assert game["scores"] == [0.0]
            assert (log[0]["deck"], log[0]["discard"]) == (46, 2)  # 54 - 6 - 2; leftovers
    assert seen > 0


def test_kk_grey_replacement_is_a_robot_for_that_round_and_replaced_next_time() -> None:
    # One player, one slot, two rounds; no breeding ever happens, so it is exact.
    # Dealt [grey, r1]; slot [b1, b2]; theme [y3, y4]; then [grey, r2]; [g5, g6];
    # [r7, r8]. Round 1: the robot is replaced by [grey, r2], another robot, which
    # scores 0. Theme 2 is [g5, g6] (11). Round 2: the robot is replaced by
    # [r7, r8] (15): error 4, no green -> 4. Total 4; one exact hit; no robot *made*.
    # (after_scoring: [grey, r1] 0, then [grey, r2] 0: total 0, two exact hits.)
    top = [GREY, ("r", 1), ("b", 1), ("b", 2), ("y", 3), ("y", 4), GREY, ("r", 2)]
    top += [("g", 5), ("g", 6), ("r", 7), ("r", 8)]
    rules = {"free_chimeras": 1, "rounds": 2}
    game, log = play_kk(1, 0, rules, stacked(top))
    assert [snap["mine"][0] for snap in log] == [[GREY, ("r", 2)], [("r", 7), ("r", 8)]]
    assert [snap["theme"] for snap in log] == [[("y", 3), ("y", 4)], [("g", 5), ("g", 6)]]
    assert [snap["slots"] for snap in log] == [[[("b", 1), ("b", 2)]]] * 2
    assert game["scores"] == [4.0]
    assert game["events"] == {
        "colour_bonus_1": 0, "colour_bonus_2": 0, "exact_hits": 1, "robots_made": 0,
        "reshuffles": 0,
    }  # fmt: skip


def test_kk_robot_is_replaced_in_turn_order_with_the_breedings() -> None:
    # Two players, one slot, one round (seat 0 first). The dealing order is seat 0's
    # chimera, seat 1's, the slot, the theme. Then the deck gives [r5, r6], [g7, g8].
    # Robot at seat 0: its turn comes first and draws [r5, r6]; seat 1's breeding
    # then refills the slot with [g7, g8].
    top = [GREY, ("r", 1), ("r", 2), ("r", 3), ("b", 1), ("b", 2), ("y", 3), ("y", 4)]
    top += [("r", 5), ("r", 6), ("g", 7), ("g", 8)]
    rules = {"free_chimeras": 1, "rounds": 1}
    for seed in range(20):
        _, log = play_kk(2, seed, rules, stacked(top))
        assert log[0]["mine"][0] == [("r", 5), ("r", 6)]
        assert log[0]["slots"] == [[("g", 7), ("g", 8)]]
    # Robot at seat 1: seat 0 breeds first (r2 r3 b1 b2: never a robot) and its
    # refill takes [r5, r6]; seat 1's turn then draws [g7, g8].
    top = [("r", 2), ("r", 3), GREY, ("r", 1), ("b", 1), ("b", 2), ("y", 3), ("y", 4)]
    top += [("r", 5), ("r", 6), ("g", 7), ("g", 8)]
    for seed in range(20):
        _, log = play_kk(2, seed, rules, stacked(top))
        assert log[0]["slots"] == [[("r", 5), ("r", 6)]]
        assert log[0]["mine"][1] == [("g", 7), ("g", 8)]


def test_kk_robot_is_replaced_even_when_breeding_is_optional() -> None:
    # A robot can't keep: with breeding_optional its turn still replaces it.
    top = [GREY, ("r", 1), ("b", 1), ("b", 2), ("y", 3), ("y", 4), ("r", 5), ("r", 6)]
    rules = {"free_chimeras": 1, "rounds": 1, "breeding_optional": True}
    for seed in range(20):
        game, log = play_kk(1, seed, rules, stacked(top))
        assert log[0]["mine"] == [[("r", 5), ("r", 6)]]
        assert game["scores"] == [4.0]  # |7 - 11|, no match


def test_kk_dry_deck_keeps_a_robot_at_its_turns() -> None:
    # One player, 23 slots, no reshuffle: the deal leaves 4 cards, [grey, r2] then
    # [y1, g1]. Round 1: the dealt robot [grey, r1] is replaced by [grey, r2], a
    # robot (0). After scoring the theme becomes [y1, g1]; the deck is dry. Rounds 2
    # and 3: the robot's turn can't replace it, it stays and scores 0; the theme
    # stays. Discard: [grey, r1], then the first theme too.
    theme, theme2 = [("y", 12), ("g", 12)], [("y", 1), ("g", 1)]
    rest = kk.full_deck()
    for card in [GREY, ("r", 1)] + theme + [GREY, ("r", 2)] + theme2:
        rest.remove(card)
    assert len(rest) == 46  # 23 slots
    deck = [GREY, ("r", 1)] + rest + theme + [GREY, ("r", 2)] + theme2
    rules = {"free_chimeras": 23, "rounds": 3, "reshuffle_discards": False}
    game, log = play_kk(1, 0, rules, deck)
    assert [snap["mine"][0] for snap in log] == [[GREY, ("r", 2)]] * 3
    assert [snap["theme"] for snap in log] == [theme, theme2, theme2]
    assert [snap["deck"] for snap in log] == [2, 0, 0]
    assert [snap["discard"] for snap in log] == [2, 4, 4]
    assert game["scores"] == [0.0]
    assert game["events"]["exact_hits"] == 3 and game["events"]["robots_made"] == 0


def test_kk_rejects_an_unknown_robot_replacement() -> None:
    try:
        kk.play_one_game(1, random.Random(0), {"robot_replacement": "never"})
    except ValueError as error:
        assert "robot_replacement" in str(error)
    else:
        raise AssertionError("an unknown robot_replacement was played")


# --- Da Qi Zi: must beat when able; tricks --------------------------------------

R, B = dqz.RED, dqz.BLACK
G, A, E, C, H, N, S = (
    dqz.GENERAL, dqz.ADVISOR, dqz.ELEPHANT, dqz.CHARIOT, dqz.HORSE, dqz.CANNON, dqz.SOLDIER,
)  # fmt: skip


def dqz_events() -> dict[str, float]:
    return {name: 0 for name in dqz.EVENTS}


def test_dqz_default_is_must_beat() -> None:
    assert dqz.DEFAULT_RULES["may_discard_when_able"] is False
    assert "tricks" in dqz.EVENTS


def test_dqz_a_player_who_can_beat_has_only_beats() -> None:
    rules = dqz.DEFAULT_RULES
    # Black cannon led: the black horse and the red chariot beat it, the red
    # soldier does not; no discard is offered.
    hand = Counter([(S, R), (H, B), (C, R)])
    moves = dqz.following_moves(hand, ("single", ((N, B),)), rules)
    assert sorted(moves) == sorted([("play", ((H, B),)), ("play", ((C, R),))])
    # A pair of black soldiers led: the red cannon pair beats it; the mixed soldier
    # and cannon cards could be discarded, but that is not offered.
    hand = Counter([(N, R), (N, R), (S, B)])
    moves = dqz.following_moves(hand, ("pair", ((S, B), (S, B))), rules)
    assert moves == [("play", ((N, R), (N, R)))]
    # Can't beat (the general): every distinct single discard.
    moves = dqz.following_moves(Counter([(S, R), (H, B)]), ("single", ((G, B),)), rules)
    assert sorted(moves) == sorted([("discard", ((S, R),)), ("discard", ((H, B),))])
    # With the knob on, the discards are offered beside the beat.
    may = dict(rules, may_discard_when_able=True)
    moves = dqz.following_moves(Counter([(S, R), (H, B)]), ("single", ((N, B),)), may)
    assert sorted(moves) == sorted(
        [("play", ((H, B),)), ("discard", ((H, B),)), ("discard", ((S, R),))]
    )


def test_dqz_whole_trick_must_beat_is_deterministic() -> None:
    # Seat 0 leads its only card, the black cannon; everyone has captured (so the
    # last-trick rule does not apply). Seat 1's red soldier can't beat: discard.
    # Seat 2's black horse beats the cannon: it must. Seat 3's black general beats
    # the horse: it must. Seat 3 wins, with one card, whatever the random stream.
    # (A player allowed to discard would leave the winner to chance.)
    for seed in range(100):
        hands = [Counter([(N, B)]), Counter([(S, R)]), Counter([(H, B)]), Counter([(G, B)])]
        captured = [1, 1, 1, 1]
        events = dqz_events()
        winner = dqz.play_trick(0, hands, captured, dqz.DEFAULT_RULES, random.Random(seed), events)
        assert winner == 3 and captured == [1, 1, 1, 2]
        assert events["tricks"] == 1 and events["lead_single"] == 1
        assert events["last_trick_rule"] == 0
        assert all(hand.total() == 0 for hand in hands)


def test_dqz_last_trick_rule_still_beats_must_beat() -> None:
    # Seat 1 has captured nothing and could beat the led last single with its red
    # general: its card is a discard all the same. Seat 2 (captured) must beat with
    # the horse. Seat 3 (nothing captured either) is touched by the rule too, but its
    # red soldier would not beat the horse: not counted. Seat 2 wins, always.
    for seed in range(50):
        hands = [Counter([(S, B)]), Counter([(G, R)]), Counter([(H, B)]), Counter([(S, R)])]
        captured = [2, 0, 1, 0]
        events = dqz_events()
        winner = dqz.play_trick(0, hands, captured, dqz.DEFAULT_RULES, random.Random(seed), events)
        assert winner == 2 and captured == [2, 0, 2, 0]
        assert events["last_trick_rule"] == 1 and events["tricks"] == 1


def test_dqz_tricks_count_every_trick_of_every_deal() -> None:
    # Every trick is led with one form, and each trick takes SIZE[form] cards from
    # each of the 4 hands, so over a game: tricks = the lead_* counts added, and
    # 4 x (cards led) = 32 x deals. A deal has at least 2 tricks (8 cards, at most 5
    # in one lead) and at most 8.
    rng = random.Random(5)
    for _ in range(100):
        events = dqz.play_one_game(rng)["events"]
        leads = {form: events[f"lead_{form}"] for form in dqz.SIZE}
        assert events["tricks"] == sum(leads.values())
        assert 4 * sum(dqz.SIZE[form] * n for form, n in leads.items()) == 32 * events["deals"]
        assert 2 * events["deals"] <= events["tricks"] <= 8 * events["deals"]


# --- Fish! Dash! Cash!: the first sole leader is not a lead change --------------


def count_lead_changes(money_after_each_trick: list[list[int]]) -> int:
    """lead_changes over a game, by the reference's own two steps."""
    leader, changes = None, 0
    for money in money_after_each_trick:
        now = fdc.next_sole_leader(money, leader)
        changes += fdc.is_lead_change(leader, now)
        leader = now
    return changes


def test_fdc_first_sole_leader_is_not_a_change() -> None:
    # Nobody, then seat 0 alone (the first sole leader: no change), a tie (0
    # stands), seat 1 (change 1), a tie (1 stands), seat 0 (change 2), seat 2
    # (change 3). The old reading counted 4.
    moneys = [[0, 0, 0], [1, 0, 0], [1, 1, 0], [1, 2, 0], [2, 2, 0], [3, 2, 0], [3, 2, 4]]
    assert count_lead_changes(moneys) == 3
    # One player leads all game: no change at all (the old reading counted 1).
    assert count_lead_changes([[0, 1], [0, 2], [1, 2], [2, 2], [2, 3]]) == 0
    # Ties first: the first sole leader comes after them, still no change.
    assert count_lead_changes([[1, 1], [2, 2], [2, 3], [4, 3]]) == 1
    assert not fdc.is_lead_change(None, 0)
    assert not fdc.is_lead_change(2, 2)
    assert fdc.is_lead_change(0, 1)


def test_fdc_games_where_one_player_leads_throughout_count_no_change() -> None:
    # Two players: in many games someone cashes and the lead never passes. Under the
    # old reading every game with a sole leader counted at least 1, so a game with
    # fish cashed and no lead change was all but impossible (a tie all game long).
    rng = random.Random(1)
    games = [fdc.play_one_game(2, rng) for _ in range(300)]
    cashed = [g for g in games if g["events"]["fish_cashed"] > 0]
    none = [g for g in cashed if g["events"]["lead_changes"] == 0]
    assert len(cashed) > 250
    assert len(none) > len(cashed) // 5  # about 43% here
