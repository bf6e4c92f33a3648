"""Da Qi Zi: hand-made deals for each rule of RULES.md §3 and §6, then random games."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from balancer import knobs
from balancer.bot import RandomBot
from balancer.errors import InvariantError
from balancer.games.api import win_shares
from balancer.games.daqizi import combos as dc
from balancer.games.daqizi import engine as daqizi
from balancer.games.daqizi import narrate
from balancer.games.daqizi.bots import BOTS, Heuristic
from balancer.rng import Stream
from balancer.sim.play import Seat, play_game

DEFAULTS = knobs.defaults(daqizi.KNOBS)
RANKS = "SCHREAG"  # soldier cannon horse chariot(R) elephant advisor general, low to high


def kind(code: str) -> int:
    """'rC' is a red cannon, 'bS' a black soldier."""
    return dc.kind_of(RANKS.index(code[1]), "br".index(code[0]))


def hand_of(*codes: str) -> list[int]:
    counts = [0] * dc.N_KINDS
    for code in codes:
        counts[kind(code)] += 1
    return counts


def combo(*codes: str) -> int:
    return dc.COMBO_OF_PACKED[dc.pack(hand_of(*codes))]


def rules(**changes) -> dict:
    return {**DEFAULTS, **changes}


def new(seed: int = 1, **changes) -> daqizi.State:
    return daqizi.new_state(rules(**changes), 4, Stream(seed, 0, 0))


def arrange(
    state: daqizi.State,
    hands: list[list[str]],
    leader: int,
    captured: list[list[str]] | None = None,
) -> None:
    """Put a deal in a chosen position: these hands and captures, the rest discarded."""
    state.hands = [hand_of(*h) for h in hands]
    state.packed = [dc.pack(h) for h in state.hands]
    state.captured = [hand_of(*c) for c in (captured or [[], [], [], []])]
    state.n_captured = [sum(c) for c in state.captured]
    state.seen_captured = tuple(tuple(c) for c in state.captured)
    state.sizes = [len(h) for h in hands]
    state.public = [sum(c[k] for c in state.captured) for k in range(dc.N_KINDS)]
    state.discard = [
        dc.KIND_COPIES[k] - sum(h[k] for h in state.hands) - sum(c[k] for c in state.captured)
        for k in range(dc.N_KINDS)
    ]
    state.in_trick = [0] * dc.N_KINDS
    state.hand_left = len(hands[0])
    state.history = ()
    state.tricks = 1
    state._start_trick(leader)
    state.check_invariants()


def play(state: daqizi.State, *moves: int) -> None:
    for move in moves:
        assert move in state.legal_actions(), dc.describe_move(move)
        state.apply_action(move)
        state.check_invariants()


def discard(*codes: str) -> int:
    return dc.DISCARD_OF_PACKED[dc.pack(hand_of(*codes))]


def test_spec_knobs_and_events() -> None:
    spec = daqizi.SPEC
    assert (spec.name, spec.short, spec.min_players, spec.max_players) == ("da-qi-zi", "dqz", 4, 4)
    printed = {"soldier": 5, "cannon": 2, "horse": 2, "chariot": 2}
    printed |= {"elephant": 2, "advisor": 2, "general": 1}
    assert {k.name: (k.section, k.default) for k in spec.knobs} == {
        "deck": ("rules", printed),
        "mixed_suit_combos": ("rules", False),
        "may_discard_when_able": ("rules", False),
        "no_capture_last_single_rule": ("rules", True),
        "first_dealer": ("rules", "seat0"),
        "max_deals": ("rules", 16),
        "starting_chips": ("rules", 20),
        "bust_at": ("rules", 0),
        "base_payment": ("scoring", 4),
        "zero_capture_penalty": ("scoring", 1),
        "first_deal_multiplier": ("scoring", 1),
        "renchan_step": ("scoring", 1),
        "multiplier_cap": ("scoring", None),
    }
    assert spec.events[:3] == ("deals", "tricks", "busts") and len(spec.events) == 13
    assert spec.value_events == ("max_multiplier",)
    assert spec.unplayable(DEFAULTS, 4) is None
    assert spec.unplayable(DEFAULTS, 3) is not None
    assert spec.unplayable(rules(starting_chips=5, bust_at=5), 4) is not None
    assert daqizi.describe(31) == "red general 帥"


def test_dealer_deals_eight_each_and_leads() -> None:
    state = new()
    assert state.current_player() == 0 and state.dealer == 0
    assert [sum(h) for h in state.hands] == [8, 8, 8, 8]
    dealers = {new(seed, first_dealer="random").current_player() for seed in range(40)}
    assert dealers == {0, 1, 2, 3}
    for seed in range(10):
        s = new(seed, first_dealer="random")
        assert s.current_player() == s.dealer
    # Common random numbers: the first dealer draw never shifts the shuffle.
    assert new(5).hands == new(5, first_dealer="random").hands


def test_leading_offers_every_combination_in_the_hand() -> None:
    state = new()
    arrange(state, [["rS", "rS", "bC"], ["bS"] * 3, ["bH"] * 2 + ["bS"], ["bR"] * 2 + ["bE"]], 0)
    assert state.legal_actions() == [combo("rS"), combo("bC"), combo("rS", "rS")]


def test_a_player_who_can_beat_must_beat_by_default() -> None:
    """RULES.md §3 (the seed's マストフォロー): beating combinations only, no discard."""
    state = new()
    assert state.may_discard is False
    arrange(state, [["rC", "bS"], ["bH", "bS"], ["bS", "bS"], ["rR", "bC"]], 0)
    play(state, combo("rC"))
    # Seat 1's horse beats the red cannon; its soldier doesn't, and it may not discard.
    assert state.legal_actions() == [combo("bH")]
    with pytest.raises(ValueError):
        state.apply_action(discard("bS"))
    play(state, combo("bH"))
    # Seat 2 can't beat: discards only (one distinct move, two soldiers alike).
    assert state.legal_actions() == [discard("bS")]
    play(state, discard("bS"))
    # Seat 3 must beat the best so far (the horse), not the lead: only the chariot does.
    assert state.legal_actions() == [combo("rR")]


def test_must_beat_offers_every_beating_combination_and_only_of_the_led_form() -> None:
    state = new()
    arrange(
        state,
        [["bC", "bC", "bS"], ["rC", "rC", "bA"], ["bS", "bS", "rS"], ["rR", "bH", "bS"]],
        0,
    )
    play(state, combo("bC", "bC"))
    # Seat 1 holds one beating pair; its advisor single is another form.
    assert state.legal_actions() == [combo("rC", "rC")]
    play(state, combo("rC", "rC"))
    # Seat 2's soldier pair is weaker than the red cannons: discards of two, each multiset once.
    assert state.legal_actions() == [discard("bS", "bS"), discard("bS", "rS")]


def test_may_discard_when_able_offers_beats_then_discards() -> None:
    state = new(may_discard_when_able=True)
    arrange(state, [["rC", "bS"], ["bH", "bS"], ["bS", "bS"], ["rR", "bC"]], 0)
    play(state, combo("rC"))
    assert state.current_player() == 1
    assert state.legal_actions() == [combo("bH"), discard("bS"), discard("bH")]
    play(state, combo("bH"))
    # Seat 2 can't beat: discards only (one distinct move, two soldiers alike).
    assert state.legal_actions() == [discard("bS")]
    play(state, discard("bS"))
    # Seat 3 must beat the best so far (the horse), not the lead.
    assert state.legal_actions() == [combo("rR"), discard("bC"), discard("rR")]
    play(state, discard("rR"))
    assert state.captured[1] == hand_of("bH"), "a discard by one who could beat wins nothing"


def test_tricks_event_counts_each_trick_played() -> None:
    state = new()
    assert state.events["tricks"] == 0
    # Two tricks left: a pair, then a last single; seat 1 takes both.
    arrange(
        state,
        [["bS", "bS", "bC"], ["rS", "rS", "rG"], ["bH", "bR", "bE"], ["rH", "rR", "rE"]],
        0,
        captured=[["bA"], [], [], []],
    )
    play(state, combo("bS", "bS"), combo("rS", "rS"))
    play(state, discard("bH", "bR"), discard("rH", "rR"))
    assert state.events["tricks"] == 1 and state.events["deals"] == 0
    play(state, combo("rG"), discard("bE"), discard("rE"), discard("bC"))
    assert state.events["tricks"] == 2 and state.events["deals"] == 1
    assert state.dealer == 1 and state.deal == 2
    assert state.record().events["tricks"] == 2


def test_winner_captures_exactly_the_winning_combination_and_leads_next() -> None:
    state = new()
    arrange(
        state,
        [["rC", "rC", "bS"], ["bH", "bH", "rS"], ["rH", "rH", "bS"], ["bS", "bS", "rS"]],
        2,
        captured=[["bA"], [], [], []],
    )
    play(state, combo("rH", "rH"))
    play(state, discard("bS", "bS"))
    play(state, discard("rC", "rC"))
    assert combo("bH", "bH") not in state.legal_actions(), "a weaker pair does not beat"
    play(state, discard("bH", "bH"))
    assert state.captured[2] == hand_of("rH", "rH")
    assert state.current_player() == 2 and state.turn == 0
    assert state.discard[kind("bH")] == 2 and state.discard[kind("rC")] == 2
    assert state.history == ((2, combo("rH", "rH")),)
    assert state.events["lead_pair"] == 1


def test_a_beaten_play_goes_to_the_discard() -> None:
    state = new()
    arrange(state, [["bC", "bS"], ["bH", "bS"], ["rH", "bS"], ["rS", "bS"]], 0)
    play(state, combo("bC"), combo("bH"), combo("rH"), discard("rS"))
    assert state.captured[2] == hand_of("rH")
    assert state.discard[kind("bC")] == dc.KIND_COPIES[kind("bC")]
    assert state.current_player() == 2


def test_last_trick_rule() -> None:
    hands = [["bC"], ["rG"], ["bH"], ["rA"]]
    captured = [["bS"], [], ["bR"], []]
    state = new()
    arrange(state, hands, 0, captured)
    play(state, combo("bC"))
    # Seat 1 has captured nothing: its general only discards, and the event counts.
    assert state.legal_actions() == [discard("rG")]
    play(state, discard("rG"))
    assert state.events["last_trick_rule"] == 1
    play(state, combo("bH"))
    assert state.legal_actions() == [discard("rA")]
    play(state, discard("rA"))
    assert state.events["last_trick_rule"] == 2
    # Seat 2 (with a capture) took the last trick and so the deal: it deals next.
    assert state.dealer == 2 and state.deal == 2 and state.current_player() == 2

    off = new(no_capture_last_single_rule=False)
    arrange(off, hands, 0, captured)
    play(off, combo("bC"), combo("rG"))
    assert off.events["last_trick_rule"] == 0
    assert combo("rA") not in off.legal_actions()
    play(off, discard("bH"), discard("rA"))
    assert off.dealer == 1


def test_last_trick_rule_spares_multi_card_tricks() -> None:
    state = new()
    arrange(
        state, [["bC", "bC"], ["rA", "rA"], ["bS", "rS"], ["bS", "rS"]], 0, [["bE"], [], [], []]
    )
    play(state, combo("bC", "bC"))
    assert combo("rA", "rA") in state.legal_actions()
    play(state, combo("rA", "rA"), discard("bS", "rS"), discard("bS", "rS"))
    assert state.dealer == 1


def test_last_trick_rule_event_needs_a_card_that_would_have_won() -> None:
    state = new()
    arrange(state, [["bA"], ["bC"], ["bS"], ["rS"]], 0, [["bE"], [], [], []])
    play(state, combo("bA"), discard("bC"), discard("bS"), discard("rS"))
    assert state.events["last_trick_rule"] == 0
    assert state.events["zero_capture"] == 3


def _chips_after_last_trick(captured: list[list[str]], **changes) -> list[int]:
    """Seat 0 leads an unbeatable last single and wins; returns the chips after payment."""
    state = new(**changes)
    arrange(state, [["rG"], ["bA"], ["bA"], ["rA"]], 0, captured)
    play(state, combo("rG"), discard("bA"), discard("bA"), discard("rA"))
    return state.chips


def test_payments_both_ways() -> None:
    six = ["bS", "bS", "bS", "rS", "rS", "rS"]
    chips = _chips_after_last_trick([["bE"], six, [], ["bC", "rC"]])
    # Seat 1 (6 captured) is paid 2; seat 2 (none) pays 5; seat 3 (2) pays 2.
    assert chips == [20 - 2 + 5 + 2, 22, 15, 18]
    assert sum(chips) == 80
    four = ["bS", "bS", "rS", "rS"]
    assert _chips_after_last_trick([["bE"], four, four, ["bC"] * 2 + ["rC"] * 2]) == [20] * 4
    changed = _chips_after_last_trick(
        [["bE"], six, [], ["bC"]], base_payment=3, zero_capture_penalty=2, first_deal_multiplier=3
    )
    assert changed == [20 + 3 * (-3 + 5 + 2), 29, 5, 14]


def _win_deal(state: daqizi.State, winner: int) -> None:
    """Finish the current deal at its last trick, won by `winner`; everyone has captured 4."""
    leader = state.dealer
    hands = [["bS"], ["bS"], ["bS"], ["rS"]]
    hands[winner], hands[3] = hands[3], hands[winner]
    captured = [[f"{suit}{rank}" for suit in "br" for _ in range(2)] for rank in "CHRE"]
    arrange(state, hands, leader, captured)
    for _ in range(4):
        seat = state.current_player()
        single = combo("rS") if seat == winner else None
        legal = state.legal_actions()
        play(state, single if single in legal else legal[-1])


def test_multiplier_streak_and_a_new_dealer() -> None:
    state = new()
    multipliers = [state.multiplier]
    for winner in (0, 0, 2, 2, 2, 1):
        _win_deal(state, winner)
        assert state.dealer == winner and state.current_player() == winner
        multipliers.append(state.multiplier)
    assert multipliers == [1, 2, 3, 2, 3, 4, 2]
    assert state.events["dealer_wins"] == 4  # deals 1, 2, 4, 5
    assert state.events["max_multiplier"] == 4


def test_renchan_step_first_deal_multiplier_and_cap() -> None:
    def run(**changes) -> list[int]:
        state = new(**changes)
        seen = [state.multiplier]
        for winner in (1, 1, 1, 3):
            _win_deal(state, winner)
            seen.append(state.multiplier)
        return seen

    assert run(renchan_step=2) == [1, 3, 5, 7, 3]
    assert run(renchan_step=0, first_deal_multiplier=1) == [1, 1, 1, 1, 1]
    assert run(first_deal_multiplier=3) == [3, 2, 3, 4, 2]
    assert run(multiplier_cap=3) == [1, 2, 3, 3, 2]
    # The cap is the highest multiplier any deal has, deal 1 included.
    assert run(first_deal_multiplier=3, multiplier_cap=2) == [2, 2, 2, 2, 2]


def test_multiplier_scales_payments() -> None:
    state = new()
    _win_deal(state, 1)
    arrange(state, [["rG"], ["bS"], ["bS"], ["bS"]], 1, [["bE"], ["bE"], [], ["bC", "rC"]])
    play(state, combo("bS"), discard("bS"), discard("bS"), combo("rG"))
    assert state.dealer == 0 and state.deal == 3
    # Deal 2 at ×2: seat 0 is paid 3×2 by seat 1, 5×2 by seat 2, 2×2 by seat 3.
    assert state.chips == [20 + 6 + 10 + 4, 14, 10, 16]


def test_bust_ends_the_game_after_payments() -> None:
    state = new(starting_chips=5)
    arrange(state, [["rG"], ["bS"], ["bS"], ["bS"]], 0, [["bE"], [], ["bC"], ["rC"] * 2])
    play(state, combo("rG"), discard("bS"), discard("bS"), discard("bS"))
    assert state.is_terminal() and state.current_player() == -1
    record = state.record()
    assert record.scores == (5.0 + 5 + 3 + 2, 0.0, 2.0, 3.0)
    assert record.events["busts"] == 1 and record.length == 1 and record.events["deals"] == 1
    assert state.legal_actions() == []

    below = new(starting_chips=5, bust_at=-1)
    arrange(below, [["rG"], ["bS"], ["bS"], ["bS"]], 0, [["bE"], [], ["bC"], ["rC"] * 2])
    play(below, combo("rG"), discard("bS"), discard("bS"), discard("bS"))
    assert not below.is_terminal(), "chips 0 is not bust when bust_at is -1"


def test_max_deals() -> None:
    state = new(max_deals=2)
    _win_deal(state, 0)
    assert not state.is_terminal()
    _win_deal(state, 3)
    assert state.is_terminal()
    record = state.record()
    assert record.length == 2 and record.events["deals"] == 2 and record.events["busts"] == 0


def test_other_seats_never_see_a_face_down_discard() -> None:
    for seed in range(30):
        state = new(seed)
        rng = Stream(seed, 0, 0)
        # Play randomly to a follower with two different discards open to it.
        while True:
            legal = state.legal_actions()
            discards = [a for a in legal if dc.is_discard(a)]
            if state.turn > 0 and len(discards) >= 2:
                break
            state.apply_action(rng.choice(legal))
        seat = state.current_player()
        one, two = state.clone(), state.clone()
        one.apply_action(discards[0])
        two.apply_action(discards[-1])
        for _ in range(5):
            others = [s for s in range(4) if s != seat]
            assert all(one.view(s) == two.view(s) for s in others)
            if one.current_player() == seat or one.is_terminal():
                break
            move = one.legal_actions()[0]
            assert two.legal_actions()[0] == move
            one.apply_action(move)
            two.apply_action(move)
        assert one.view(seat) != two.view(seat)


def test_view_shows_the_trick_face_up_and_counts_discards() -> None:
    state = new()
    arrange(state, [["rC", "bS"], ["bH", "bS"], ["bS", "bS"], ["rR", "bC"]], 0)
    play(state, combo("rC"), combo("bH"), discard("bS"))
    view = state.view(3)
    assert view.hand == tuple(hand_of("rR", "bC"))
    assert view.trick == ((0, combo("rC")), (1, combo("bH")))
    assert view.trick_discards == 1 and view.best == combo("bH") and view.best_seat == 1
    assert view.hand_sizes == (1, 1, 1, 2) and view.led_size == 1
    assert view.public[kind("rC")] == 1 and view.public[kind("bH")] == 1


def test_clone_is_independent() -> None:
    state = new(3)
    copy = state.clone()
    copy.apply_action(copy.legal_actions()[0])
    assert state.turn == 0 and sum(state.hands[0]) == 8
    assert copy.turn == 1


def test_trace_tells_a_readable_replay() -> None:
    trace: list[tuple] = []
    seats = [Seat("random", RandomBot()) for _ in range(4)]
    play_game(daqizi.SPEC, DEFAULTS, seats, 3, 0, trace=trace)
    log = narrate.lines(trace)
    assert log[0].startswith("Deal 1: seat 0 deals")
    assert any("leads" in line for line in log) and any("pays" in line for line in log)
    assert log[-1].startswith("Game over")


game_rules = st.fixed_dictionaries(
    {
        "mixed_suit_combos": st.booleans(),
        "may_discard_when_able": st.booleans(),
        "no_capture_last_single_rule": st.booleans(),
        "first_dealer": st.sampled_from(["seat0", "random"]),
        "max_deals": st.integers(1, 16),
        "starting_chips": st.integers(1, 40),
        "renchan_step": st.integers(0, 3),
        "multiplier_cap": st.one_of(st.none(), st.integers(1, 4)),
        "base_payment": st.integers(0, 6),
        "zero_capture_penalty": st.integers(0, 3),
        "first_deal_multiplier": st.integers(0, 3),
        "bust_at": st.integers(-10, 0),
    }
)


@settings(max_examples=60, deadline=None)
@given(game_rules, st.integers(0, 2**32), st.integers(0, 1000))
def test_random_games_keep_the_invariants(changes: dict, seed: int, index: int) -> None:
    """check=True checks chips and all 32 cards after every move; the game must end."""
    seats = [Seat("random", RandomBot()) for _ in range(4)]
    record = play_game(daqizi.SPEC, rules(**changes), seats, seed, index, check=True)
    assert sum(record.scores) == 4 * changes["starting_chips"]
    assert 1 <= record.length <= changes["max_deals"]
    assert record.events["deals"] == record.length
    again = play_game(daqizi.SPEC, rules(**changes), seats, seed, index, check=True)
    assert again == record


@pytest.mark.parametrize("changes", [{}, {"mixed_suit_combos": True}])
def test_heuristic_games_keep_the_invariants(changes: dict) -> None:
    bot = BOTS["heuristic"]
    params = {p.name: p.default for p in bot.params}
    seats = [Seat("heuristic", bot.factory(**params)) for _ in range(4)]
    for index in range(10):
        play_game(daqizi.SPEC, rules(**changes), seats, 11, index, check=True)


def test_heuristic_beats_random() -> None:
    games, share = 120, 0.0
    for index in range(games):
        me = index % 4
        seats = [Seat("r", RandomBot()) for _ in range(4)]
        seats[me] = Seat("h", Heuristic())
        record = play_game(daqizi.SPEC, DEFAULTS, seats, 20261130, index)
        share += win_shares(record.scores, True)[me]
    assert share / games > 0.6  # a quarter is what chance gives


@pytest.mark.parametrize(
    "changes", [{}, {"mixed_suit_combos": True}, {"may_discard_when_able": True}]
)
def test_legal_moves_are_exactly_those_the_rules_allow(changes: dict) -> None:
    """The listed moves and apply_action's own check agree on every move of the table."""
    rng = Stream(4, 0, 0)
    state = new(9, **changes)
    for _ in range(60):
        if state.is_terminal():
            break
        legal = state.legal_actions()
        seat = state.current_player()
        assert len(set(legal)) == len(legal)
        assert [m for m in range(dc.N_MOVES) if state._allowed(seat, m)] == sorted(legal)
        assert legal == sorted(legal), "combinations, then discards, in table order"
        state.apply_action(rng.choice(legal))


def test_an_illegal_move_is_refused() -> None:
    state = new()
    arrange(state, [["rC", "bS"], ["bH", "bS"], ["bS", "bS"], ["rR", "bC"]], 0)
    with pytest.raises(ValueError):
        state.apply_action(discard("rC"))  # a leader can't discard
    play(state, combo("rC"))
    with pytest.raises(ValueError):
        state.apply_action(combo("bS"))  # does not beat
    with pytest.raises(ValueError):
        state.apply_action(combo("rR"))  # not in the hand


def test_invariant_check_catches_a_lost_card_or_chip() -> None:
    state = new()
    state.check_invariants()
    state.discard[kind("rG")] += 1
    with pytest.raises(InvariantError):
        state.check_invariants()
    state = new()
    state.chips[2] += 1
    with pytest.raises(InvariantError):
        state.check_invariants()
