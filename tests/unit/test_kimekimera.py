"""Kimekimera: every rule and knob of RULES.md §2/§6 on hand-laid cards, then properties.

Outcomes are worked out by hand from the rule text. Where a breeding's blind
pick matters, a generator with fixed picks chooses which of the 6 pairs
(in `kk.PAIRS` order over (mine0, mine1, free0, free1)) is taken.
"""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from balancer import knobs
from balancer.bot import RandomBot
from balancer.config import variant
from balancer.errors import InvariantError
from balancer.games.api import win_shares
from balancer.games.kimekimera import engine as kk
from balancer.games.kimekimera import narrate
from balancer.games.kimekimera.bots import BOTS
from balancer.games.kimekimera.engine import KEEP, State
from balancer.rng import CHANCE, Stream
from balancer.sim.play import Seat, derive_rng, play_game

DEFAULTS = knobs.defaults(kk.KNOBS)
VARIANTS = Path(__file__).resolve().parents[2] / "variants"
RB = (48, 49, 50, 51)  # the rainbow cards
GREY = (52, 53)


def c(name: str) -> int:
    return kk.parse_card(name)


def cs(*names: str) -> list[int]:
    return [c(n) for n in names]


class Picks(random.Random):
    """A generator whose blind picks are given: each breeding takes PAIRS[next pick]."""

    def __init__(self, *picks: int) -> None:
        super().__init__(0)
        self.picks = list(picks)

    def randrange(self, n: int, *args: int) -> int:  # type: ignore[override]
        assert n == 6 and not args, "a breeding picks one of 6 pairs"
        return self.picks.pop(0)


def lay(rules: dict | None = None, **cards: object) -> State:
    return State.arranged({**DEFAULTS, **(rules or {})}, **cards)  # type: ignore[arg-type]


def pair(state: State, seat: int) -> tuple[int, int]:
    return state.mine[2 * seat], state.mine[2 * seat + 1]


def slot(state: State, index: int) -> tuple[int, int]:
    return state.free[2 * index], state.free[2 * index + 1]


# -- cards ------------------------------------------------------------------


def test_encoding_describe_and_parse() -> None:
    assert [kk.describe(x) for x in (0, 11, 12, 24, 47)] == ["r1", "r12", "b1", "y1", "g12"]
    assert {kk.describe(x) for x in RB} == {"rainbow"}
    assert {kk.describe(x) for x in GREY} == {"grey"}
    assert all(kk.parse_card(kk.describe(x)) == x for x in range(48))
    assert kk.parse_card(" Rainbow ") == 48 and kk.parse_card("gray") == 52
    assert kk.parse_cards(["rainbow"] * 4 + ["grey", "grey"]) == [*RB, *GREY]
    assert [kk.NUMBER[x] for x in (0, 11, 47, 48, 51)] == [1, 12, 12, 13, 13]
    for bad in ("r13", "r0", "x5", "", "5r", "rainbows"):
        with pytest.raises(ValueError):
            kk.parse_card(bad)
    with pytest.raises(ValueError, match="the deck has 4"):
        kk.parse_cards(["rainbow"] * 5)
    with pytest.raises(ValueError, match="the deck has 1"):
        kk.parse_cards(["r5", "b7", "r5"])


# -- scoring ----------------------------------------------------------------


def matches(theme: list[int], chimera: list[int], grey_blocks: bool = True) -> int:
    return kk.error_and_matches(*theme, *chimera, grey_blocks)[1]


def test_colour_matching_is_one_to_one() -> None:
    assert matches(cs("r5", "r7"), cs("r2", "b3")) == 1  # red+red theme, red+blue chimera
    assert matches(cs("r5", "r7"), cs("r2", "r3")) == 2
    assert matches(cs("r5", "b7"), cs("r1", "r2")) == 1  # both reds want the one red
    assert matches(cs("r5", "b7"), cs("b1", "r2")) == 2
    assert matches(cs("r5", "b7"), cs("y1", "g2")) == 0


def test_rainbow_matches_any_colour_on_either_side_and_rainbow() -> None:
    assert matches(cs("r5", "b7"), [RB[0], c("y3")]) == 1
    assert matches(cs("r5", "b7"), [RB[0], c("b3")]) == 2
    assert matches(cs("r5", "b7"), [RB[0], RB[1]]) == 2
    assert matches([RB[0], c("r5")], cs("b2", "g3")) == 1  # in the theme too
    assert matches([RB[0], RB[1]], cs("y1", "g1")) == 2
    assert matches([RB[0], c("y5")], [RB[1], GREY[0]], grey_blocks=False) == 1
    assert matches([RB[0], c("y5")], [RB[1], c("b1")]) == 2
    # Two rainbows against two rainbows: sums 26 and 26, both match.
    assert kk.round_score(RB[0], RB[1], RB[2], RB[3], (0, 3, 7), True, False) == -7


def test_error_is_the_distance_of_the_sums_rainbow_counting_13() -> None:
    assert kk.error_and_matches(*cs("r5", "b7", "y3", "g12"), True) == (3, 0)
    assert kk.error_and_matches(*cs("r5", "b7"), RB[0], c("y1"), True) == (2, 1)
    assert kk.round_score(*cs("r5", "b7", "y3", "g12"), (0, 3, 7), True, False) == 3
    assert kk.round_score(*cs("r5", "b7", "y3", "r1"), (0, 3, 7), True, False) == 8 - 3
    assert kk.round_score(*cs("r5", "b7", "b1", "r11"), (0, 3, 7), True, False) == 0 - 7


def test_grey_makes_error_zero_and_blocks_the_bonus() -> None:
    theme = cs("r5", "b7")
    for other in (c("y3"), c("r9"), RB[0], GREY[1]):
        assert kk.error_and_matches(*theme, GREY[0], other, True) == (0, 0)
        assert kk.error_and_matches(*theme, other, GREY[0], True) == (0, 0)
    # grey_blocks_colour_bonus false: the partner may match, grey never does.
    assert kk.error_and_matches(*theme, GREY[0], c("r9"), False) == (0, 1)
    assert kk.error_and_matches(*theme, c("b2"), GREY[0], False) == (0, 1)
    assert kk.error_and_matches(*theme, GREY[0], RB[0], False) == (0, 1)
    assert kk.error_and_matches(*theme, GREY[0], c("y3"), False) == (0, 0)
    assert kk.error_and_matches(*theme, GREY[0], GREY[1], False) == (0, 0)
    assert kk.round_score(*theme, GREY[0], c("r9"), (0, 3, 7), False, False) == -3


def test_colour_bonus_and_floor_at_zero_knobs() -> None:
    theme = cs("r5", "b7")
    assert kk.round_score(*theme, *cs("r1", "b2"), (0, 2, 5), True, False) == 9 - 5
    assert kk.round_score(*theme, *cs("r1", "y2"), (0, 2, 5), True, False) == 9 - 2
    assert kk.round_score(*theme, *cs("b1", "r11"), (0, 3, 7), True, True) == 0
    assert kk.round_score(*theme, *cs("b1", "r10"), (0, 3, 7), True, True) == 0  # 1 - 7
    assert kk.round_score(*theme, *cs("b1", "r1"), (0, 3, 7), True, True) == 3  # 10 - 7


def test_the_tables_score_exactly_as_the_rule() -> None:
    themes = [cs("r5", "b7"), cs("r1", "r2"), [RB[0], c("g12")], [RB[1], RB[2]], cs("y6", "g6")]
    for t0, t1 in themes:
        for bonus in ((0, 3, 7), (0, 4, 9)):
            for blocks in (True, False):
                rows = kk.theme_rows(t0, t1, bonus, blocks)
                for floor in (False, True):
                    for a in range(54):
                        for b in range(54):
                            want = kk.round_score(t0, t1, a, b, bonus, blocks, floor)
                            assert kk.pair_score(rows, a, b, floor) == want
                cards = [c("y3"), GREY[0], RB[3], c("r5") if t0 != c("r5") else c("r6")]
                got = kk.lottery(rows, cards, False)
                want6 = [
                    kk.round_score(t0, t1, cards[i], cards[j], bonus, blocks, False)
                    for i, j in kk.PAIRS
                ]
                assert got == want6


# -- knobs and setup ----------------------------------------------------------


def test_knobs_are_spelled_as_rules_md_with_their_defaults() -> None:
    assert {(k.name, k.section): k.default for k in kk.KNOBS} == {
        ("deck", "rules"): {
            "colours": 4,
            "numbers": [1, 12],
            "copies": 1,
            "rainbow": 4,
            "rainbow_number": 13,
            "grey": 2,
        },
        ("free_chimeras", "rules"): 4,
        ("rounds", "rules"): 5,
        ("rotate_first_player", "rules"): True,
        ("breeding_optional", "rules"): False,
        ("leftover", "rules"): "discard",
        ("reshuffle_discards", "rules"): True,
        ("robot_replacement", "rules"): "at_next_breeding",
        ("colour_bonus", "scoring"): {1: 3, 2: 7},
        ("grey_blocks_colour_bonus", "scoring"): True,
        ("floor_at_zero", "scoring"): False,
    }
    spec = kk.SPEC
    assert (spec.name, spec.short, spec.min_players, spec.max_players) == ("kimekimera", "kk", 1, 4)
    assert spec.events == (
        "colour_bonus_1",
        "colour_bonus_2",
        "exact_hits",
        "robots_made",
        "reshuffles",
    )
    assert spec.higher_is_better is False and spec.length_unit == "rounds"


def test_colour_bonus_check_accepts_exactly_keys_1_and_2() -> None:
    check = next(k for k in kk.KNOBS if k.name == "colour_bonus").check
    assert check({1: 3, 2: 7}) == {1: 3, 2: 7}
    assert check({2: 5, 1: 2}) == {1: 2, 2: 5}
    assert check({"1": 4, "2": 9}) == {1: 4, 2: 9}  # as JSON gives it back
    assert check({1: -1, 2: 0}) == {1: -1, 2: 0}
    for bad in (
        {1: 3},
        {2: 7},
        {1: 3, 2: 7, 3: 9},
        {0: 0, 1: 3, 2: 7},
        {True: 3, 2: 7},
        {1: "3", 2: 7},
        {1: 3.5, 2: 7},
        {1: 3, 2: False},
        {1: 3, "1": 3, 2: 7},
        [3, 7],
        7,
        None,
    ):
        with pytest.raises(ValueError):
            check(bad)


def test_unplayable_needs_room_for_every_chimera_and_a_theme() -> None:
    assert kk.unplayable(DEFAULTS, 1) is None
    assert kk.unplayable(DEFAULTS, 4) is None
    # 8 my cards + 40 free cards + 6 spare for a theme = 54.
    assert kk.unplayable({**DEFAULTS, "free_chimeras": 20}, 4) is None
    assert "at most 20 free chimeras" in kk.unplayable({**DEFAULTS, "free_chimeras": 21}, 4)
    assert kk.unplayable({**DEFAULTS, "free_chimeras": 23}, 1) is None
    assert kk.unplayable(DEFAULTS, 5) is not None
    state = kk.new_state({**DEFAULTS, "free_chimeras": 20}, 4, Stream(3, 0, 0))
    state.check_invariants()


class Dealt(random.Random):
    """Deals a chosen order: `order` lists the cards in draw order (top first)."""

    def __init__(self, order: list[int]) -> None:
        super().__init__(0)
        self.order = order

    def shuffle(self, x: list) -> None:  # type: ignore[override]
        rest = [card for card in x if card not in self.order]
        x[:] = rest + list(reversed(self.order))


def test_setup_deals_mine_then_free_then_theme_and_redraws_a_grey_theme_whole() -> None:
    mine = cs("r1", "r2", "b1", "b2")
    free = cs("y1", "y2", "y3", "y4")
    order = [*mine, *free, GREY[0], c("g1"), c("g2"), GREY[1], c("g3"), c("g4")]
    state = kk.new_state({**DEFAULTS, "free_chimeras": 2}, 2, Dealt(order))
    assert state.mine == mine
    assert state.free == free
    # g1 comes with grey: both go; g2 with the other grey: both go; then g3+g4.
    assert state.theme == cs("g3", "g4")
    assert state.discard == [GREY[0], c("g1"), c("g2"), GREY[1]]
    state.check_invariants()


# -- breeding -----------------------------------------------------------------


def test_breeding_takes_the_picked_pair_discards_the_rest_and_refills_the_slot() -> None:
    state = lay(
        {"rounds": 1},
        mine=[cs("y3", "g12")],
        free=[cs("r1", "b9"), cs("r2", "b2")],
        theme=cs("r5", "b7"),
        deck=cs("g1", "g2", "g3"),
        rng=Picks(3),
    )
    assert state.current_player() == 0
    assert state.legal_actions() == [0, 1]
    state.apply_action(0)
    assert pair(state, 0) == (c("g12"), c("r1"))  # PAIRS[3] = (mine1, free0)
    assert state.discard[-2:] == cs("y3", "b9")
    assert slot(state, 0) == (c("g1"), c("g2"))
    assert slot(state, 1) == (c("r2"), c("b2"))
    state.check_invariants()


@pytest.mark.parametrize("pick", range(6))
def test_every_pick_gives_its_pair(pick: int) -> None:
    four = cs("y3", "g12", "r1", "b9")
    state = lay(
        {"rounds": 1}, mine=[four[:2]], free=[four[2:]], theme=cs("r5", "b7"), rng=Picks(pick)
    )
    state.apply_action(0)
    i, j = kk.PAIRS[pick]
    assert pair(state, 0) == (four[i], four[j])
    assert sorted(state.discard) == sorted(set(four) - {four[i], four[j]})


def test_leftover_free_makes_the_other_two_the_slot_s_chimera() -> None:
    state = lay(
        {"leftover": "free", "rounds": 1},
        mine=[cs("y3", "g12")],
        free=[cs("r1", "b9")],
        theme=cs("r5", "b7"),
        deck=cs("g1", "g2"),
        rng=Picks(0),
    )
    deck_before = list(state.deck)
    state.apply_action(0)
    assert pair(state, 0) == (c("y3"), c("g12"))  # PAIRS[0]: the player's own two
    assert slot(state, 0) == (c("r1"), c("b9"))
    assert state.deck == deck_before and state.discard == []
    state.check_invariants()


def test_a_draw_finding_the_deck_empty_reshuffles_the_discard_leftovers_included() -> None:
    rules = {"rounds": 1}
    state = lay(
        rules,
        mine=[cs("y3", "g12"), cs("y5", "g5")],
        free=[cs("r1", "b9")],
        theme=cs("r5", "b7"),
        deck=cs("g1", "g2"),
        rest="discard",
        rng=Picks(0, 0),
    )
    others = len(state.discard)
    assert others == 54 - 2 * 2 - 2 - 2 - 2
    state.apply_action(0)  # refill takes g1+g2: the deck is now empty, no reshuffle yet
    assert slot(state, 0) == (c("g1"), c("g2"))
    assert state.events["reshuffles"] == 0 and state.deck == []
    state.apply_action(0)  # seat 1: the refill finds the deck empty
    assert state.events["reshuffles"] == 1
    assert state.discard == []
    assert len(state.deck) == others + 2 + 2 - 2  # seat 0's and seat 1's leftovers, less 2
    refilled = slot(state, 0)
    # Both breedings' leftovers went into the new deck (or straight into the slot).
    assert all(x in state.deck or x in refilled for x in cs("r1", "b9", "g1", "g2"))
    state.check_invariants()
    assert state.record().events["reshuffles"] == 1.0


def test_without_reshuffle_an_empty_deck_leaves_the_slot_empty_and_skips_players() -> None:
    rules = {"reshuffle_discards": False, "rounds": 1}
    state = lay(
        rules,
        mine=[cs("y3", "g12"), cs("y5", "g5")],
        free=[cs("r1", "b9")],
        theme=cs("r5", "b7"),
        rest="discard",
        rng=Picks(0),
    )
    state.apply_action(0)
    assert slot(state, 0) == (-1, -1)
    assert state.events["reshuffles"] == 0
    # Seat 1 finds no free chimera: skipped, and the round is scored.
    assert state.is_terminal()
    assert state.record().scores == (3.0, 2.0)  # y3+g12: 3; y5+g5: 10 -> error 2
    state.check_invariants()


def test_breeding_optional_offers_keep_last_and_keep_changes_nothing() -> None:
    laid = {"mine": [cs("y3", "g12")], "free": [cs("r1", "b9"), ()], "theme": cs("r5", "b7")}
    state = lay({"breeding_optional": True, "rounds": 1}, **laid)
    assert state.legal_actions() == [0, KEEP]  # the empty slot is no choice
    before = (list(state.deck), list(state.discard), list(state.free))
    state.apply_action(KEEP)
    assert pair(state, 0) == (c("y3"), c("g12"))
    assert (state.deck, state.discard, state.free) == before
    mandatory = lay({}, **laid)
    assert mandatory.legal_actions() == [0]
    with pytest.raises(ValueError):
        mandatory.apply_action(KEEP)
    with pytest.raises(ValueError):
        mandatory.apply_action(1)  # the empty slot


# -- robots -------------------------------------------------------------------


AT_TURN = {"robot_replacement": "at_next_breeding"}
AFTER = {"robot_replacement": "after_scoring"}
BOTH = pytest.mark.parametrize("when", ["at_next_breeding", "after_scoring"])


def replace_forced(state: State) -> int:
    """Play every forced robot replacement due now; how many there were."""
    done = 0
    while not state.is_terminal() and state.legal_actions() == [kk.REPLACE]:
        state.apply_action(kk.REPLACE)
        done += 1
    return done


def test_a_robot_can_t_breed_scores_error_zero_and_gets_no_bonus() -> None:
    # after_scoring: a dealt robot sits out round 1's breeding and scores it.
    state = lay(
        {"rounds": 1, **AFTER},
        mine=[[GREY[0], c("r9")], cs("y5", "g5")],
        free=[cs("r1", "b9")],
        theme=cs("r5", "b7"),
        rng=Picks(0),
    )
    assert state.current_player() == 1  # seat 0 is skipped
    state.apply_action(0)
    assert state.is_terminal()
    record = state.record()
    assert record.scores == (0.0, 2.0)
    assert record.events["exact_hits"] == 1.0
    assert record.events["colour_bonus_1"] == 0.0


def test_a_robot_dealt_at_the_start_is_replaced_on_its_turn_instead_of_breeding() -> None:
    # at_next_breeding: round 1 is the dealt robot's next breeding. Even with a
    # free chimera and keeping allowed, its one move is the replacement.
    state = lay(
        {"rounds": 1, "breeding_optional": True, **AT_TURN},
        mine=[[GREY[0], c("r9")], cs("y5", "g5")],
        free=[cs("r1", "b9")],
        theme=cs("r5", "b7"),
        deck=cs("g1", "g2"),
        rng=Picks(0),
    )
    assert state.current_player() == 0 and state.legal_actions() == [kk.REPLACE]
    for wrong in (0, KEEP):
        with pytest.raises(ValueError):
            state.apply_action(wrong)
    free_before = list(state.free)
    state.apply_action(kk.REPLACE)
    assert list(pair(state, 0)) == cs("g1", "g2")
    assert state.discard == [GREY[0], c("r9")]
    assert state.free == free_before  # no breeding: the free chimeras are untouched
    state.check_invariants()
    assert state.current_player() == 1 and state.legal_actions() == [0, KEEP]
    with pytest.raises(ValueError):
        state.apply_action(kk.REPLACE)  # only a robot is replaced
    state.apply_action(0)  # keeps y5+g5
    record = state.record()
    # g1+g2: sum 3, error 9, no colour; y5+g5: error 2.
    assert record.scores == (9.0, 2.0)
    assert record.events["exact_hits"] == 0.0 and record.events["robots_made"] == 0.0


@BOTH
def test_a_bred_robot_is_replaced_in_turn_order_with_the_other_breedings(when: str) -> None:
    # Two players, one slot, two rounds. Round 1 from seat 0: seat 0 breeds
    # y3+g12 with r1+grey and takes PAIRS[2] = (y3, grey), a robot; the refill
    # is g1+g2. Seat 1 keeps y5+g5 (PAIRS[0]); refill g3+g4.
    # Scores: robot 0 (exact), y5+g5 error 2.
    deck = cs("g1", "g2", "g3", "g4", "g6", "g7", "g8", "g9", "g10", "g11")
    state = lay(
        {"rounds": 2, "robot_replacement": when},
        mine=[cs("y3", "g12"), cs("y5", "g5")],
        free=[[c("r1"), GREY[0]]],
        theme=cs("r5", "b7"),
        deck=deck,
        rng=Picks(2, 0, 0, 0),
    )
    state.trace = []
    seen = []
    while not state.is_terminal():
        seat, legal = state.current_player(), state.legal_actions()
        seen.append((seat, legal[0]))
        state.apply_action(legal[0])
        state.check_invariants()
    record = state.record()
    assert record.events["robots_made"] == 1.0
    if when == "at_next_breeding":
        # Theme 2 is g6+g7 (13, green+green). Round 2 from seat 1: seat 1 keeps
        # y5+g5 again (refill g8+g9); then seat 0's turn replaces the robot by
        # g10+g11, drawn after seat 1's refill. g10+g11 21: error 8, 2 matches:
        # 1; y5+g5 10: error 3, 1 match: 0.
        assert seen == [(0, 0), (1, 0), (1, 0), (0, kk.REPLACE)]
        assert list(pair(state, 0)) == cs("g10", "g11")
        assert list(slot(state, 0)) == cs("g8", "g9")
        assert record.scores == (0.0 + 1.0, 2.0 + 0.0)
        assert ("robot_replaced", 0, c("y3"), GREY[0], c("g10"), c("g11")) in state.trace
        told = narrate.lines(state.trace)
        assert "  seat 0's robot y3+grey is replaced by g10+g11" in told
    else:
        # After round 1's scoring the robot is replaced by g6+g7, then theme 2 is
        # g8+g9 (17, green+green). Round 2: seat 1 keeps (refill g10+g11), seat 0
        # breeds g6+g7 with g10+g11 and keeps its own (PAIRS[0]).
        # g6+g7 13: error 4, 2 matches: -3; y5+g5 10: error 7, 1 match: 4.
        assert seen == [(0, 0), (1, 0), (1, 0), (0, 0)]
        assert list(pair(state, 0)) == cs("g6", "g7")
        assert record.scores == (0.0 - 3.0, 2.0 + 4.0)
    assert record.events["exact_hits"] == 1.0


def test_a_replacement_holding_grey_is_a_robot_for_that_round_and_replaced_next() -> None:
    # at_next_breeding, one player, three rounds. Round 1: the dealt robot is
    # replaced by grey+g2, a robot again: it scores 0. Theme 2 g3+g4 (7). Round
    # 2: replaced again, by g5+g6 (11: error 4, 2 matches: -3). Theme 3 g7+g8
    # (15). Round 3: at last a breeding (y1+y2 taken whole, PAIRS[2] would be
    # g5+y2; PAIRS[0] keeps g5+g6: error 4, 2 matches: -3).
    state = lay(
        {"rounds": 3, **AT_TURN},
        mine=[[GREY[0], c("r1")]],
        free=[cs("y1", "y2")],
        theme=cs("r5", "b7"),
        deck=[GREY[1], *cs("g2", "g3", "g4", "g5", "g6", "g7", "g8", "g9", "g10")],
        rng=Picks(0),
    )
    assert state.legal_actions() == [kk.REPLACE]
    state.apply_action(kk.REPLACE)
    assert state.round == 1 and pair(state, 0) == (GREY[1], c("g2"))
    assert state.totals == [0] and state.theme == cs("g3", "g4")
    assert state.legal_actions() == [kk.REPLACE]
    state.apply_action(kk.REPLACE)
    assert state.round == 2 and list(pair(state, 0)) == cs("g5", "g6") and state.totals == [-3]
    assert state.legal_actions() == [0]
    state.apply_action(0)
    record = state.record()
    assert record.scores == (-6.0,)
    assert record.events["exact_hits"] == 1.0
    assert record.events["robots_made"] == 0.0  # dealt, not bred
    state.check_invariants()


def test_a_robot_dealt_as_a_replacement_can_t_breed_either() -> None:
    state = lay(
        {"rounds": 2, **AFTER},
        mine=[[GREY[0], c("r1")]],
        free=[cs("y1", "y2")],
        theme=cs("r5", "b7"),
        deck=[GREY[1], c("g2"), c("g3"), c("g4")],
    )
    # Round 1 (no decision): scored; the robot is replaced by another robot.
    assert pair(state, 0) == (GREY[1], c("g2"))
    assert state.theme == cs("g3", "g4")
    assert state.is_terminal()  # round 2 had no decision either
    record = state.record()
    assert record.scores == (0.0,)
    assert record.events["exact_hits"] == 2.0
    assert record.events["robots_made"] == 0.0  # dealt, not bred


def test_after_scoring_robots_are_replaced_in_seat_order_then_the_theme() -> None:
    # Nobody can breed in round 1 (both robots), so it is scored at once.
    state = lay(
        {"rounds": 2, **AFTER},
        mine=[[GREY[0], c("r1")], [c("b1"), GREY[1]]],
        free=[cs("y1", "y2")],
        theme=cs("r5", "b7"),
        deck=cs("g1", "g2", "g3", "g4", "g5", "g6"),
    )
    assert state.round == 1 and state.totals == [0, 0]
    assert pair(state, 0) == (c("g1"), c("g2"))
    assert pair(state, 1) == (c("g3"), c("g4"))
    assert state.theme == cs("g5", "g6")
    assert state.discard == [GREY[0], c("r1"), c("b1"), GREY[1], c("r5"), c("b7")]
    state.check_invariants()


def test_at_next_breeding_robots_are_replaced_in_turn_order_not_seat_order() -> None:
    # Two robots dealt; rounds 2 with rotation, first seat 1: seat 1's robot is
    # replaced first (g1+g2), then seat 0's (g3+g4); the theme after scoring is
    # g5+g6. Nothing is replaced after scoring.
    state = lay(
        {"rounds": 2, **AT_TURN},
        mine=[[GREY[0], c("r1")], [c("b1"), GREY[1]]],
        free=[()],
        theme=cs("r5", "b7"),
        deck=cs("g1", "g2", "g3", "g4", "g5", "g6"),
        first=1,
    )
    assert state.current_player() == 1
    assert replace_forced(state) == 2
    assert list(pair(state, 1)) == cs("g1", "g2") and list(pair(state, 0)) == cs("g3", "g4")
    assert state.theme == cs("g5", "g6")
    assert state.discard == [c("b1"), GREY[1], GREY[0], c("r1"), c("r5"), c("b7")]
    # Round 2 has no move (no robot left, no free chimera): the game is over.
    # g3+g4 7 and g1+g2 3 against r5+b7 (12): errors 5 and 9, no colour; then
    # against g5+g6 (11, green+green): errors 4 and 8, 2 matches: -3 and 1.
    assert state.is_terminal() and state.totals == [5 - 3, 9 + 1]
    state.check_invariants()


def test_a_theme_drawn_with_grey_after_scoring_is_redrawn_whole() -> None:
    state = lay(
        {"rounds": 2},
        mine=[cs("y3", "g12")],
        free=[cs("r1", "b9")],
        theme=cs("r5", "b7"),
        deck=[c("g1"), c("g2"), c("y10"), GREY[0], c("g3"), c("g4")],
        rng=Picks(0),
    )
    state.apply_action(0)  # keeps y3+g12; slot refilled with g1+g2
    assert state.round == 1
    assert state.theme == cs("g3", "g4")
    assert state.discard == cs("r1", "b9", "r5", "b7") + [c("y10"), GREY[0]]
    state.check_invariants()


def test_bred_robots_are_counted() -> None:
    laid = {"mine": [cs("y3", "g12")], "free": [[c("r1"), GREY[0]]], "theme": cs("r5", "b7")}
    for pick, robots in ((2, 1), (5, 1), (1, 0), (0, 0)):  # PAIRS[2] = (y3, grey) ...
        state = lay({"rounds": 1}, **laid, rng=Picks(pick))
        state.apply_action(0)
        assert state.record().events["robots_made"] == robots


@BOTH
def test_grey_partner_counts_when_grey_does_not_block(when: str) -> None:
    # No deck to replace the robot from: it stays and scores under either value.
    state = lay(
        {
            "rounds": 1,
            "grey_blocks_colour_bonus": False,
            "reshuffle_discards": False,
            "robot_replacement": when,
        },
        mine=[[GREY[0], c("r9")]],
        free=[cs("r1", "b9")],
        theme=cs("r5", "b7"),
        rest="discard",
    )
    assert state.is_terminal()
    assert state.record().scores == (-3.0,)
    assert state.record().events["colour_bonus_1"] == 1.0


@BOTH
def test_without_reshuffle_a_robot_and_the_theme_stay_when_the_deck_is_empty(when: str) -> None:
    state = lay(
        {"rounds": 2, "reshuffle_discards": False, "robot_replacement": when},
        mine=[[GREY[0], c("r1")]],
        free=[cs("y1", "y2")],
        theme=cs("r5", "b7"),
        rest="discard",
    )
    # No move at all: the robot can't be replaced, so it can't take its turn.
    assert state.is_terminal() and state.round == 2
    assert pair(state, 0) == (GREY[0], c("r1"))
    assert state.theme == cs("r5", "b7")
    assert state.record().scores == (0.0,)
    assert state.record().events["exact_hits"] == 2.0
    state.check_invariants()


@BOTH
def test_without_reshuffle_grey_themes_are_discarded_and_the_old_theme_stays(when: str) -> None:
    state = lay(
        {"rounds": 2, "reshuffle_discards": False, "robot_replacement": when},
        mine=[[GREY[0], c("r1")], cs("y1", "y2")],
        free=[()],
        theme=cs("r5", "b7"),
        deck=[c("g1"), c("g2"), c("g3"), GREY[1]],
        rest="discard",
    )
    # at_next_breeding: seat 0's turn replaces the robot (g1+g2); after_scoring:
    # round 1 is scored at once and then the robot takes g1+g2. Either way
    # g3+grey is no theme, and the deck is dry.
    assert replace_forced(state) == (1 if when == "at_next_breeding" else 0)
    assert pair(state, 0) == (c("g1"), c("g2"))
    assert state.theme == cs("r5", "b7")
    assert state.discard[-4:] == [GREY[0], c("r1"), c("g3"), GREY[1]]
    assert state.is_terminal()
    # at_next_breeding: g1+g2 scores round 1 (error 9) and round 2; after_scoring:
    # the robot scores round 1 (0), g1+g2 round 2. y1+y2: error 9 twice.
    assert state.totals == ([18, 18] if when == "at_next_breeding" else [9, 18])
    state.check_invariants()


def test_without_reshuffle_a_robot_is_replaced_once_the_deck_has_two_cards_only() -> None:
    # at_next_breeding, 1 card in the deck: too few for a chimera, so no move.
    state = lay(
        {"rounds": 1, "reshuffle_discards": False, **AT_TURN},
        mine=[[GREY[0], c("r1")]],
        free=[()],
        theme=cs("r5", "b7"),
        deck=[c("g1")],
        rest="discard",
    )
    assert state.is_terminal() and pair(state, 0) == (GREY[0], c("r1"))
    assert state.deck == [c("g1")]


def test_at_next_breeding_a_replacement_may_reshuffle_the_robot_in() -> None:
    # The deck is empty: the robot reaches the discard first, so the
    # replacement's draw reshuffles it (and the rest of the discard) in.
    state = lay(
        {"rounds": 1, **AT_TURN},
        mine=[[GREY[0], c("r1")]],
        free=[()],
        theme=cs("r5", "b7"),
        rest="discard",
        rng=Stream(5, 0, 0),
    )
    assert state.legal_actions() == [kk.REPLACE]
    state.apply_action(kk.REPLACE)
    assert state.events["reshuffles"] == 1
    # All 50 cards but the theme and the new chimera were in the discard, the robot too.
    assert len(state.deck) == 54 - 2 - 2 and state.discard == []
    state.check_invariants()


@BOTH
def test_a_robot_made_in_the_last_round_simply_scores(when: str) -> None:
    state = lay(
        {"rounds": 1, "robot_replacement": when},
        mine=[cs("y3", "g12")],
        free=[[c("r1"), GREY[0]]],
        theme=cs("r5", "b7"),
        deck=cs("g1", "g2", "g3", "g4"),
        rng=Picks(2),  # (y3, grey)
    )
    state.apply_action(0)
    assert state.is_terminal()
    assert pair(state, 0) == (c("y3"), GREY[0])
    assert state.theme == cs("r5", "b7")
    assert state.discard == cs("g12", "r1") and list(slot(state, 0)) == cs("g1", "g2")
    record = state.record()
    assert record.scores == (0.0,) and record.length == 1
    assert record.events["robots_made"] == 1.0 and record.events["exact_hits"] == 1.0


def test_after_the_last_round_nothing_is_replaced_and_no_theme_drawn() -> None:
    state = lay(
        {"rounds": 1, **AFTER},
        mine=[[GREY[0], c("r1")]],
        free=[cs("y1", "y2")],
        theme=cs("r5", "b7"),
        deck=cs("g1", "g2", "g3", "g4"),
    )
    assert state.is_terminal()
    assert pair(state, 0) == (GREY[0], c("r1"))
    assert state.theme == cs("r5", "b7")
    assert len(state.deck) == 54 - 2 - 2 - 2 and state.discard == []
    assert state.record().length == 1


# -- rounds, rotation, the end --------------------------------------------------


def _turn_order(rules: dict, players: int) -> list[int]:
    state = kk.new_state({**DEFAULTS, **rules}, players, Stream(0, 0, 0))
    order = []
    while not state.is_terminal():
        order.append(state.current_player())
        state.apply_action(state.legal_actions()[0])
    return order


def test_the_first_player_rotates_each_round() -> None:
    # Seed 0 deals no grey into these seats early; checked by the length.
    order = _turn_order({"rounds": 3, "free_chimeras": 6}, 3)
    assert order == [0, 1, 2, 1, 2, 0, 2, 0, 1]
    fixed = _turn_order({"rounds": 3, "free_chimeras": 6, "rotate_first_player": False}, 3)
    assert fixed == [0, 1, 2] * 3


@BOTH
def test_rotation_with_a_robot(when: str) -> None:
    state = lay(
        {"rounds": 2, "robot_replacement": when},
        mine=[cs("y3", "g12"), [GREY[0], c("r1")], cs("y5", "g5")],
        free=[cs("r2", "b9"), cs("r3", "b3")],
        theme=cs("r5", "b7"),
        deck=cs("g1", "g2", "g3", "g4", "g6", "g7", "g8", "g9"),
        rng=Picks(0, 0, 0, 0, 0),
    )
    seen = []
    while not state.is_terminal():
        seen.append(state.current_player())
        state.apply_action(state.legal_actions()[0])
    if when == "at_next_breeding":
        # Round 1 from seat 0: seat 1's turn replaces its robot; round 2 from seat 1.
        assert seen == [0, 1, 2, 1, 2, 0]
    else:
        # Round 1 from seat 0, seat 1 skipped; round 2 from seat 1 (replaced by then).
        assert seen == [0, 2, 1, 2, 0]


def test_lowest_total_wins_and_ties_share() -> None:
    state = lay(
        {"rounds": 1},
        mine=[cs("y3", "g12"), cs("r1", "b11"), cs("b2", "r10")],
        free=[()],
        theme=cs("r5", "b7"),
    )
    record = state.record()
    assert record.scores == (3.0, -7.0, -7.0)
    assert win_shares(record.scores, kk.SPEC.higher_is_better) == (0.0, 0.5, 0.5)


def test_floor_at_zero_in_a_game() -> None:
    laid = {
        "mine": [cs("r1", "b11"), cs("y3", "g12")],
        "free": [()],
        "theme": cs("r5", "b7"),
        "deck": cs("r4", "b8"),  # round 2's theme: sum 12 again, red and blue
    }
    assert lay({"rounds": 2}, **laid).record().scores == (-14.0, 6.0)
    assert lay({"rounds": 2, "floor_at_zero": True}, **laid).record().scores == (0.0, 6.0)


@BOTH
def test_events_are_counted_per_player_round(when: str) -> None:
    # No deck: the robot stays and scores under either robot_replacement.
    state = lay(
        {"rounds": 1, "reshuffle_discards": False, "robot_replacement": when},
        mine=[[GREY[0], c("y1")], cs("r1", "b11"), cs("r2", "y3"), cs("g1", "y2")],
        free=[()],
        theme=cs("r5", "b7"),
        rest="discard",
    )
    assert state.record().events == {
        "colour_bonus_1": 1.0,  # r2+y3
        "colour_bonus_2": 1.0,  # r1+b11
        "exact_hits": 2.0,  # the robot and r1+b11
        "robots_made": 0.0,
        "reshuffles": 0.0,
    }
    assert state.record().scores == (0.0, -7.0, 4.0, 9.0)


# -- the contract -------------------------------------------------------------


def test_view_shows_what_is_face_up_and_never_the_deck_order() -> None:
    def laid(seed: int) -> State:
        return lay(
            mine=[cs("y3", "g12"), cs("r1", "b11")],
            free=[cs("r2", "b9")],
            theme=cs("r5", "b7"),
            rng=Stream(seed, 0, 0),
        )

    one, two = laid(1), laid(2)
    assert one.deck != two.deck
    for seat in (0, 1):
        assert one.view(seat) == two.view(seat)
    view = one.view(1)
    assert view.my_chimera() == (c("r1"), c("b11"))
    assert view.free_chimera(0) == (c("r2"), c("b9"))
    assert view.theme == (c("r5"), c("b7")) and view.round == 1 and view.totals == (0, 0)
    assert view.deck_size == 54 - 8 and view.bonus == (0, 3, 7)
    assert not any(isinstance(getattr(view, f.name), list) for f in dataclasses.fields(view))
    with pytest.raises(AttributeError):
        view.seat = 0  # type: ignore[misc]


def test_clone_is_independent_and_replays_the_same_chance() -> None:
    state = kk.new_state(DEFAULTS, 3, Stream(9, 0, 0))

    def snapshot(s: State) -> tuple:
        return (list(s.mine), list(s.free), list(s.deck), list(s.discard), s.turn, s.round)

    before = snapshot(state)
    copy = state.clone()
    action = state.legal_actions()[0]
    copy.apply_action(action)
    assert snapshot(state) == before and snapshot(copy) != before
    state.apply_action(action)
    assert state.mine == copy.mine and state.free == copy.free and state.deck == copy.deck


def test_check_invariants_catches_a_lost_or_doubled_card() -> None:
    state = kk.new_state(DEFAULTS, 2, Stream(1, 0, 0))
    state.check_invariants()
    state.deck.pop()
    with pytest.raises(InvariantError):
        state.check_invariants()
    state = kk.new_state(DEFAULTS, 2, Stream(1, 0, 0))
    state.discard.append(state.deck[0])
    with pytest.raises(InvariantError):
        state.check_invariants()


def test_the_trace_tells_the_game() -> None:
    trace: list[tuple] = []
    seats = [Seat("expected", BOTS["expected"].factory()) for _ in range(2)]
    record = play_game(kk.SPEC, DEFAULTS, seats, 7, 0, trace=trace)
    log = narrate.lines(trace)
    assert all(isinstance(line, str) for line in log)  # every chimera is face up
    text = "\n".join(log)
    assert log[0].startswith("Deal: my chimeras seat 0:")
    assert "Round 1: theme" in text and "Round 5: theme" in text
    assert " breeds " in text and "refilled" in text
    assert log[-1] == f"Game over after 5 rounds: totals {[int(s) for s in record.scores]}"
    # Without a trace the same game goes the same way.
    assert play_game(kk.SPEC, DEFAULTS, seats, 7, 0) == record


# -- properties ---------------------------------------------------------------

rule_sets = st.fixed_dictionaries(
    {
        "free_chimeras": st.integers(1, 6),
        "rounds": st.integers(1, 12),
        "rotate_first_player": st.booleans(),
        "breeding_optional": st.booleans(),
        "leftover": st.sampled_from(["discard", "free"]),
        "reshuffle_discards": st.booleans(),
        "robot_replacement": st.sampled_from(["at_next_breeding", "after_scoring"]),
        "colour_bonus": st.sampled_from([{1: 3, 2: 7}, {1: 0, 2: 0}, {1: 4, 2: 9}]),
        "grey_blocks_colour_bonus": st.booleans(),
        "floor_at_zero": st.booleans(),
    }
)


@settings(max_examples=80, deadline=None)
@given(rule_sets, st.integers(1, 4), st.integers(0, 2**32), st.integers(0, 1000))
def test_random_games_keep_every_card_end_and_repeat(
    changes: dict, players: int, seed: int, index: int
) -> None:
    rules = {**DEFAULTS, **changes}
    assert kk.unplayable(rules, players) is None
    seats = [Seat("random", RandomBot()) for _ in range(players)]
    # check=True: all 54 cards accounted for after every move.
    record = play_game(kk.SPEC, rules, seats, seed, index, check=True)
    assert record.length == rules["rounds"]
    assert len(record.scores) == players and set(record.events) == set(kk.EVENTS)
    player_rounds = players * rules["rounds"]
    assert record.events["exact_hits"] <= player_rounds
    assert record.events["colour_bonus_1"] + record.events["colour_bonus_2"] <= player_rounds
    # Other use of the global generator in between changes nothing.
    random.random()
    assert play_game(kk.SPEC, rules, seats, seed, index, check=True) == record


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32))
def test_every_decision_point_has_choices_and_the_game_ends(seed: int) -> None:
    state = kk.new_state({**DEFAULTS, "reshuffle_discards": False}, 4, derive_rng(seed, 0, CHANCE))
    rng = Stream(seed, 0, 0)
    moves = 0
    while not state.is_terminal():
        legal = state.legal_actions()
        assert legal and state.current_player() >= 0
        state.apply_action(legal[rng.randrange(len(legal))])
        state.check_invariants()
        moves += 1
        assert moves <= 4 * 5
    assert state.current_player() == -1 and state.legal_actions() == []


def test_the_deck_runs_dry_with_4_players() -> None:
    reshuffled = emptied = 0
    for index in range(40):
        rules = {**DEFAULTS}
        seats = [Seat("random", RandomBot()) for _ in range(4)]
        reshuffled += play_game(kk.SPEC, rules, seats, 1, index).events["reshuffles"] > 0
        state = kk.new_state({**DEFAULTS, "reshuffle_discards": False}, 4, Stream(index, 0, 0))
        while not state.is_terminal():
            state.apply_action(state.legal_actions()[0])
        emptied += state.filled < state.n_free
    assert reshuffled == 40 and emptied == 40


# -- the shipped variants -----------------------------------------------------


def test_shipped_variants_load_and_the_base_states_every_knob() -> None:
    base = yaml.safe_load((VARIANTS / "kk-base.yaml").read_text())
    stated = {**base["rules"], **base["scoring"]}
    assert stated == DEFAULTS
    assert (base["game"], base["games"], base["seed"], base["seat_rotation"]) == (
        "kimekimera",
        2000,
        20261130,
        True,
    )
    names = sorted(p.name for p in VARIANTS.glob("kk-*.yaml"))
    assert names == sorted(
        [
            "kk-base.yaml",
            "kk-4p-bots.yaml",
            "kk-1p.yaml",
            "kk-2p.yaml",
            "kk-3p.yaml",
            "kk-4p.yaml",
            "kk-4p-random.yaml",
            "kk-4p-bonus-2-5.yaml",
            "kk-4p-bonus-4-9.yaml",
            "kk-4p-grey-partner-counts.yaml",
            "kk-4p-no-reshuffle.yaml",
            "kk-4p-robot-after-scoring.yaml",
        ]
    )
    loaded = {name: variant.load(VARIANTS / name) for name in names}
    assert all(v.game == "kimekimera" and v.seat_rotation for v in loaded.values())
    assert [loaded[f"kk-{n}p.yaml"].players for n in (1, 2, 3, 4)] == [1, 2, 3, 4]
    assert {s.bot for s in loaded["kk-4p.yaml"].seats} == {"expected"}
    assert {s.bot for s in loaded["kk-4p-random.yaml"].seats} == {"random"}
    assert loaded["kk-4p-bonus-2-5.yaml"].rules["colour_bonus"] == {1: 2, 2: 5}
    assert loaded["kk-4p-bonus-4-9.yaml"].rules["colour_bonus"] == {1: 4, 2: 9}
    assert loaded["kk-4p-grey-partner-counts.yaml"].rules["grey_blocks_colour_bonus"] is False
    assert loaded["kk-4p-no-reshuffle.yaml"].rules["reshuffle_discards"] is False
    after = loaded["kk-4p-robot-after-scoring.yaml"]
    assert after.rules["robot_replacement"] == "after_scoring"
    assert (after.players, {s.bot for s in after.seats}) == (4, {"expected"})
    for v in loaded.values():
        # Frozen both sides: a variant's rules are read-only (lists become tuples).
        changed = {k for k in DEFAULTS if v.rules[k] != knobs.freeze(DEFAULTS[k])}
        assert len(changed) <= 1
