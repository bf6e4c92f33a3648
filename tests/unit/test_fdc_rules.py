"""Fish! Dash! Cash!, rule by rule (RULES.md §1, §6), on tricks set up by hand.

Each test deals chosen cards, plays them, and checks the outcome worked out
by hand from the rule text (the reasoning is in each test's docstring).
"""

from __future__ import annotations

import pytest

from balancer import knobs
from balancer.games.api import win_shares
from balancer.games.fdc import engine as fdc
from balancer.games.fdc.engine import PROTECT, State
from balancer.rng import Stream

DEFAULTS = knobs.defaults(fdc.KNOBS)


def rules(**changes: object) -> dict:
    return {**DEFAULTS, **changes}


def c(text: str) -> int:
    return fdc.parse(text)


def cards(*texts: str) -> list[int]:
    return [c(t) for t in texts]


def play(state: State, *texts: str) -> None:
    """Play one card per seat, in the order the state asks for them."""
    for text in texts:
        card = c(text)
        assert card in state.legal_actions(), (
            f"{text} is not legal for seat {state.current_player()}"
        )
        state.apply_action(card)


def names(card_list: list[int]) -> list[str]:
    return [fdc.describe(x) for x in card_list]


# A spare card per seat keeps the game going after the trick under test, so the
# next leader can be read off `current_player()`.
SPARES = ["red fish 0", "red dash 0", "red cash 0", "blue fish 0", "blue dash 0", "blue cash 0"]


def arranged(hands: list[list[str]], spare: bool = True, **kwargs: object) -> State:
    the_rules = kwargs.pop("rules", DEFAULTS)
    full = [[*h, SPARES[i]] if spare else h for i, h in enumerate(hands)]
    territory = kwargs.pop("territory", None)
    return State.arranged(
        the_rules,
        [cards(*h) for h in full],
        territory=[cards(*t) for t in territory] if territory else None,
        **kwargs,
    )


def test_off_colour_and_duplicate_numbers_cancel_the_lead_included() -> None:
    """Lead red fish 5; red dash 5, blue cash 9, red cash 2 follow.

    Blue 9 is off-colour: cancelled. Red 5 appears twice among the red cards,
    so both red 5s go, the lead included. Only red cash 2 resolves; seat 3
    owns the first card resolved and leads next.
    """
    s = arranged([["red fish 5"], ["red dash 5"], ["blue cash 9"], ["red cash 2"]])
    play(s, "red fish 5", "red dash 5", "blue cash 9", "red cash 2")
    assert s.events["cards_cancelled"] == 3
    assert s.events["cash_events"] == 1 and s.events["fish_cashed"] == 0
    assert s.events["neko_ni_koban"] == 0
    assert all(t == [] for t in s.territory)
    assert s.current_player() == 3


def test_neko_ni_koban_discards_the_lead_and_resolves_followers_ascending() -> None:
    """Lead red dash 8; blue fish 2 and blue cash 6 follow: every follower is
    off-colour and 2 followers played, so 猫に小判: the lead is discarded, then
    ascending: blue fish 2 lands for seat 1, blue cash 6 banks seat 2's old
    fish. Seat 1 resolved first and leads next."""
    s = arranged(
        [["red dash 8"], ["blue fish 2"], ["blue cash 6"]],
        territory=[["red fish 9"], [], ["red fish 4"]],
    )
    play(s, "red dash 8", "blue fish 2", "blue cash 6")
    assert s.events["neko_ni_koban"] == 1
    assert s.events["cards_cancelled"] == 1
    assert names(s.territory[1]) == ["blue fish 2"]
    assert names(s.cashed[2]) == ["red fish 4"]
    assert names(s.territory[0]) == ["red fish 9"]  # the lead dash never resolved
    assert s.current_player() == 1


def test_neko_needs_min_followers() -> None:
    """Same trick with neko_min_followers 3: only 2 followers, so the normal
    rule: both blue cards are cancelled and the red dash resolves alone. It
    can steal seat 2's fish (a decision), and seat 0 leads next."""
    s = arranged(
        [["red dash 8"], ["blue fish 2"], ["blue cash 6"]],
        territory=[[], [], ["red fish 4"]],
        rules=rules(neko_min_followers=3),
    )
    play(s, "red dash 8", "blue fish 2", "blue cash 6")
    assert s.events["neko_ni_koban"] == 0
    assert s.events["cards_cancelled"] == 2
    assert s.current_player() == 0 and s.legal_actions() == [PROTECT, c("red fish 4")]


def test_neko_never_fires_with_two_players() -> None:
    """Two players: lead red fish 4, blue dash 1 follows. One follower is below
    the minimum of 2, so the blue card is cancelled and the fish lands."""
    s = arranged([["red fish 4"], ["blue dash 1"]])
    play(s, "red fish 4", "blue dash 1")
    assert s.events["neko_ni_koban"] == 0
    assert names(s.territory[0]) == ["red fish 4"]
    assert s.current_player() == 0


def test_neko_off_keeps_the_lead() -> None:
    s = arranged(
        [["red fish 8"], ["blue fish 2"], ["blue cash 6"]],
        rules=rules(neko_ni_koban=False),
    )
    play(s, "red fish 8", "blue fish 2", "blue cash 6")
    assert s.events["neko_ni_koban"] == 0
    assert names(s.territory[0]) == ["red fish 8"]
    assert s.territory[1] == []


def test_neko_cancels_duplicates_among_followers() -> None:
    """Lead red fish 7; blue fish 3, blue dash 3, blue cash 8: 猫に小判, and the
    two 3s cancel each other; only blue cash 8 resolves (seat 3 leads next)."""
    s = arranged([["red fish 7"], ["blue fish 3"], ["blue dash 3"], ["blue cash 8"]])
    play(s, "red fish 7", "blue fish 3", "blue dash 3", "blue cash 8")
    assert s.events["neko_ni_koban"] == 1
    assert s.events["cards_cancelled"] == 3
    assert s.events["cash_events"] == 1
    assert all(t == [] for t in s.territory)
    assert s.current_player() == 3


def test_neko_without_cancelling_resolves_equal_numbers_in_seat_order() -> None:
    """neko_cancel_duplicates false: lead red dash 7; blue cash 3 (seat 1),
    blue dash 3 (seat 2), blue fish 5 (seat 3). Ascending, and the equal 3s in
    seat order from the leader: seat 1 cashes its old fish first, so seat 2's
    dash finds nothing to steal and protects; then the fish lands."""
    s = arranged(
        [["red dash 7"], ["blue cash 3"], ["blue dash 3"], ["blue fish 5"]],
        territory=[[], ["red fish 1"], [], []],
        rules=rules(neko_cancel_duplicates=False),
    )
    play(s, "red dash 7", "blue cash 3", "blue dash 3", "blue fish 5")
    assert names(s.cashed[1]) == ["red fish 1"]
    assert s.events["steals"] == 0 and s.events["protects"] == 1
    assert names(s.territory[3]) == ["blue fish 5"]
    assert s.current_player() == 1


def test_dash_steals_an_uncashed_fish_but_not_one_played_this_trick() -> None:
    """Lead red dash 9; red fish 8 (seat 1); blue fish 2 (seat 2, cancelled).
    Descending: red dash 9 first: it may steal seat 1's old fish but not the
    red fish 8 played this trick (not landed yet, and never stealable in this
    trick) and not seat 2's cashed fish. Then red fish 8 lands."""
    s = arranged(
        [["red dash 9"], ["red fish 8"], ["blue fish 2"]],
        territory=[[], ["blue fish 7"], []],
        cashed=[[], [], [c("blue fish 1")]],
    )
    play(s, "red dash 9", "red fish 8", "blue fish 2")
    assert s.current_player() == 0
    assert s.legal_actions() == [PROTECT, c("blue fish 7")]
    s.apply_action(c("blue fish 7"))
    assert names(s.territory[0]) == ["blue fish 7"]
    assert names(s.territory[1]) == ["red fish 8"]
    assert s.events["steals"] == 1


def test_fish_played_this_trick_cannot_be_stolen_by_a_later_dash() -> None:
    """Lead red dash 3; red fish 8 follows. The fish resolves first (8 > 3) and
    lands; the dash then finds it unstealable (played this trick). With
    nothing else to steal it protects, without asking."""
    s = arranged([["red dash 3"], ["red fish 8"]])
    play(s, "red dash 3", "red fish 8")
    assert names(s.territory[1]) == ["red fish 8"]
    assert s.events["protects"] == 1 and s.events["steals"] == 0
    assert s.current_player() == 1  # the fish resolved first


def test_protect_blocks_a_later_steal_in_the_same_trick() -> None:
    """Lead red dash 9 (seat 0) protects; red dash 4 (seat 1) then may steal
    only seat 2's fish, not seat 0's."""
    s = arranged(
        [["red dash 9"], ["red dash 4"], ["blue cash 0"]],
        territory=[["blue fish 5"], [], ["blue fish 6"]],
    )
    play(s, "red dash 9", "red dash 4", "blue cash 0")
    assert s.current_player() == 0
    s.apply_action(PROTECT)
    assert s.current_player() == 1
    assert s.legal_actions() == [PROTECT, c("blue fish 6")]
    s.apply_action(c("blue fish 6"))
    assert names(s.territory[0]) == ["blue fish 5"]
    assert names(s.territory[1]) == ["blue fish 6"]
    assert s.events["protects"] == 1 and s.events["steals"] == 1


def test_protection_ends_with_the_trick() -> None:
    """Seat 0 protects in trick 1; in trick 2 seat 1's dash may steal from it."""
    s = arranged(
        [
            ["red dash 9", "blue fish 3"],
            ["red dash 4", "blue dash 8"],
            ["blue cash 0", "blue fish 4"],
        ],
        territory=[["blue fish 5"], [], ["blue fish 6"]],
        spare=False,
    )
    play(s, "red dash 9", "red dash 4", "blue cash 0")
    s.apply_action(PROTECT)
    s.apply_action(c("blue fish 6"))
    # Trick 2, seat 0 leads: blue fish 3, blue dash 8, blue fish 4 (all blue).
    play(s, "blue fish 3", "blue dash 8", "blue fish 4")
    assert s.current_player() == 1
    assert c("blue fish 5") in s.legal_actions()


def test_a_fish_stolen_earlier_in_the_trick_can_be_stolen_again() -> None:
    """Seat 0's dash 9 steals seat 2's fish; seat 1's dash 5 may take it back
    from seat 0 (it was not played this trick)."""
    s = arranged(
        [["red dash 9"], ["red dash 5"], ["blue cash 0"]],
        territory=[[], [], ["blue fish 6"]],
    )
    play(s, "red dash 9", "red dash 5", "blue cash 0")
    s.apply_action(c("blue fish 6"))
    assert s.current_player() == 1
    assert s.legal_actions() == [PROTECT, c("blue fish 6")]
    s.apply_action(c("blue fish 6"))
    assert names(s.territory[1]) == ["blue fish 6"]
    assert s.events["steals"] == 2


def test_cash_turns_a_just_stolen_fish_into_money() -> None:
    """Trick 1: seat 0's dash steals seat 1's fish. Trick 2: seat 0 leads a cash
    and banks it: the stolen fish is now money, out of reach of steals."""
    s = arranged(
        [["red dash 9", "red cash 6"], ["red fish 2", "blue dash 1"]],
        territory=[[], ["blue fish 7"]],
        spare=False,
    )
    play(s, "red dash 9", "red fish 2")
    s.apply_action(c("blue fish 7"))
    play(s, "red cash 6", "blue dash 1")
    assert names(s.cashed[0]) == ["blue fish 7"]
    assert s.events["fish_cashed"] == 1
    assert s.is_terminal()
    assert s.record().scores == (1.0, 0.0)


def test_leader_stays_when_nothing_resolves() -> None:
    """Lead red fish 5; red cash 5 and blue dash 0: the red 5s cancel, blue is
    off-colour (no 猫に小判: one follower is red). Nothing resolves: seat 0 leads."""
    s = arranged([["red fish 5"], ["red cash 5"], ["blue dash 0"]])
    play(s, "red fish 5", "red cash 5", "blue dash 0")
    assert s.events["cards_cancelled"] == 3
    assert s.current_player() == 0


def test_leader_passes_on_when_nothing_resolves_under_next() -> None:
    s = arranged(
        [["red fish 5"], ["red cash 5"], ["blue dash 0"]],
        rules=rules(leader_if_nothing_resolves="next"),
    )
    play(s, "red fish 5", "red cash 5", "blue dash 0")
    assert s.current_player() == 1


def test_draws_start_with_the_new_leader_while_the_pile_lasts() -> None:
    """Seat 2 resolves first (red cash 9) and leads next. The pile holds two
    cards: seat 2 draws the top one, seat 0 the next, seat 1 none."""
    s = arranged(
        [["red fish 1"], ["red dash 3"], ["red cash 9"]],
        pile=cards("blue fish 8", "blue fish 9"),
    )
    play(s, "red fish 1", "red dash 3", "red cash 9")
    assert names(s.hands[2]) == [SPARES[2], "blue fish 8"]
    assert names(s.hands[0]) == [SPARES[0], "blue fish 9"]
    assert names(s.hands[1]) == [SPARES[1]]
    assert s.pile == []


def test_a_leader_with_an_empty_hand_passes_the_lead_and_empty_hands_play_nothing() -> None:
    """Seat 0 leads with an empty hand: seat 1, next with cards, leads; seat 2
    (empty) plays nothing; seat 3 follows. Nothing resolves (the 4s cancel),
    so 'the leader stays' means seat 1."""
    s = State.arranged(DEFAULTS, [[], cards("red fish 4", "red fish 1"), [], cards("red cash 4")])
    assert s.current_player() == 1
    play(s, "red fish 4")
    assert s.current_player() == 3
    play(s, "red cash 4")
    assert s.current_player() == 1
    assert s.legal_actions() == [c("red fish 1")]


def test_game_ends_when_every_hand_is_empty() -> None:
    s = State.arranged(DEFAULTS, [cards("red fish 4"), cards("red fish 2")])
    play(s, "red fish 4", "red fish 2")
    assert s.is_terminal()
    assert s.record().length == 1
    assert s.record().events["fish_uncashed_at_end"] == 2


def _final(cash_value: str, uncashed_value: int = 0) -> tuple[float, ...]:
    """Seat 0 banked red fish 9 and blue fish 0; seat 1 red fish 4 and red fish
    3 and keeps blue fish 5 uncashed. A last trick where both cards cancel."""
    s = State.arranged(
        rules(cash_value=cash_value, uncashed_value=uncashed_value),
        [cards("red fish 7"), cards("red cash 7")],
        territory=[[], cards("blue fish 5")],
        cashed=[cards("red fish 9", "blue fish 0"), cards("red fish 4", "red fish 3")],
    )
    play(s, "red fish 7", "red cash 7")
    assert s.is_terminal()
    return s.record().scores


def test_cash_value_count_ties_share_the_win() -> None:
    scores = _final("count")
    assert scores == (2.0, 2.0)
    assert win_shares(scores, True) == (0.5, 0.5)


def test_cash_value_face_sums_numbers() -> None:
    scores = _final("face")
    assert scores == (9.0, 7.0)
    assert win_shares(scores, True) == (1.0, 0.0)


def test_cash_value_face_plus_one() -> None:
    assert _final("face_plus_one") == (11.0, 9.0)


def test_uncashed_value_scores_fish_left_in_the_territory() -> None:
    scores = _final("count", uncashed_value=3)
    assert scores == (2.0, 5.0)
    assert win_shares(scores, True) == (0.0, 1.0)


def test_lead_changes_count_a_new_sole_leader_and_not_a_tie() -> None:
    """Two players. Trick 1: seat 0 leads red cash 9 and banks 1 fish (money
    1-0: seat 0 becomes the first sole leader, which is not a change: 0).
    Trick 2: seat 0 leads red fish 1, seat 1 plays red cash 6, which resolves
    first and banks seat 1's two fish (1-2: the lead passes to seat 1: 1
    change). Trick 3: seat 1 leads red fish 2, seat 0 plays red cash 3,
    banking the fish 1 (2-2: a tie, no change)."""
    s = State.arranged(
        DEFAULTS,
        [
            cards("red cash 9", "red fish 1", "red cash 3"),
            cards("blue dash 5", "red cash 6", "red fish 2"),
        ],
        territory=[cards("blue fish 9"), cards("blue fish 1", "blue fish 2")],
    )
    play(s, "red cash 9", "blue dash 5")
    assert [s.money(0), s.money(1)] == [1, 0]
    assert s.events["lead_changes"] == 0
    play(s, "red fish 1", "red cash 6")
    assert [s.money(0), s.money(1)] == [1, 2]
    assert s.events["lead_changes"] == 1
    play(s, "red fish 2", "red cash 3")
    assert [s.money(0), s.money(1)] == [2, 2]
    assert s.events["lead_changes"] == 1
    assert s.is_terminal()


def test_a_tie_leaves_the_standing_leader_who_may_lead_again_without_a_change() -> None:
    """Two players, five tricks, no money at the start.

    1. Seat 0 leads red cash 9 (seat 1's blue dash 5 is off-colour): seat 0
       banks blue fish 9, 1-0: the first sole leader, no change (0).
    2. Seat 0 leads red fish 1, seat 1 red cash 6: the cash (6 > 1) banks
       seat 1's blue fish 1: 1-1, a tie: seat 0 still stands as leader (0).
    3. Seat 1 leads red fish 2, seat 0 red cash 3: seat 0 banks red fish 1:
       2-1. Seat 0 is sole leader again, but the lead never left it (0).
    4. Seat 0 leads blue fish 0, seat 1 blue fish 5: both land, 2-1 (0).
    5. Seat 1 leads red cash 8 (seat 0's blue dash 7 is off-colour) and banks
       red fish 2 and blue fish 5: 2-3, the lead passes to seat 1 (1).
    """
    s = State.arranged(
        DEFAULTS,
        [
            cards("red cash 9", "red fish 1", "red cash 3", "blue fish 0", "blue dash 7"),
            cards("blue dash 5", "red cash 6", "red fish 2", "blue fish 5", "red cash 8"),
        ],
        territory=[cards("blue fish 9"), cards("blue fish 1")],
    )
    assert s.sole_leader == -1
    expected = [([1, 0], 0), ([1, 1], 0), ([2, 1], 0), ([2, 1], 0), ([2, 3], 1)]
    tricks = [
        ("red cash 9", "blue dash 5"),
        ("red fish 1", "red cash 6"),
        ("red fish 2", "red cash 3"),
        ("blue fish 0", "blue fish 5"),
        ("red cash 8", "blue dash 7"),
    ]
    for trick, (money, changes) in zip(tricks, expected, strict=True):
        play(s, *trick)
        assert [s.money(0), s.money(1)] == money
        assert s.events["lead_changes"] == changes
    assert s.is_terminal()
    assert s.record().events["lead_changes"] == 1


def test_money_given_at_the_start_has_its_leader_already() -> None:
    """Seat 0 starts with 2 cashed fish (money 2-1). Trick 1: red fish 3, red
    fish 4: both land, no money moves, so no lead change (seat 0 led before
    the trick and still does). Trick 2: seat 1 leads red cash 9 and banks 3
    fish (2-4): seat 1 takes the lead, the one change."""
    s = State.arranged(
        DEFAULTS,
        [cards("red fish 3", "red fish 5"), cards("red fish 4", "red cash 9")],
        cashed=[cards("blue fish 1", "blue fish 2"), cards("blue fish 3")],
        territory=[[], cards("blue fish 4", "blue fish 5")],
    )
    play(s, "red fish 3", "red fish 4")
    assert [s.money(0), s.money(1)] == [2, 1]
    assert s.events["lead_changes"] == 0
    play(s, "red cash 9", "red fish 5")
    assert [s.money(0), s.money(1)] == [2, 4]
    assert s.events["lead_changes"] == 1


@pytest.mark.parametrize(
    ("cashed", "lead_changes"),
    [
        # A tie 1-1: nobody led; seat 0 now does, the first sole leader: not a change.
        ((["blue fish 1"], ["blue fish 2"]), 0),
        (([], []), 0),  # nothing cashed: nobody led, and seat 0 is the first sole leader
    ],
)
def test_no_sole_leader_at_the_start_when_money_ties(
    cashed: tuple[list[str], list[str]], lead_changes: int
) -> None:
    s = State.arranged(
        DEFAULTS,
        [cards("red cash 9"), cards("red fish 4")],
        cashed=[cards(*c) for c in cashed],
        territory=[cards("blue fish 5"), []],
    )
    play(s, "red cash 9", "red fish 4")
    assert s.sole_leader == 0
    assert s.events["lead_changes"] == lead_changes


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_a_game_lasts_sixty_over_p_tricks(players: int) -> None:

    s = fdc.new_state(DEFAULTS, players, Stream(players, 0, 0))
    rng = Stream(7, 0, 0)
    while not s.is_terminal():
        legal = s.legal_actions()
        s.apply_action(legal[rng.randrange(len(legal))])
    assert s.record().length == 60 // players


def test_first_leader_random_draws_from_the_game_rng() -> None:

    leaders = {
        fdc.new_state(rules(first_leader="random"), 4, Stream(i, 0, 0)).current_player()
        for i in range(40)
    }
    assert leaders == {0, 1, 2, 3}
    assert fdc.new_state(DEFAULTS, 4, Stream(1, 0, 0)).current_player() == 0


def test_a_bigger_deck_from_the_deck_knob() -> None:
    deck = {"colours": ["red", "blue", "green"], "roles": ["fish", "cash"], "numbers": [1, 12]}
    the_rules = rules(deck=fdc._check_deck(deck))
    assert fdc.deck_for(the_rules).size == 3 * 2 * 12
    assert fdc.parse("green cash 12", the_rules) == 3 * 2 * 12 - 1
    assert fdc.unplayable(the_rules, 6) is None
    assert "too few" in fdc.unplayable(rules(hand_size=11), 6)


def test_a_view_holds_nothing_the_seat_cannot_see() -> None:
    """Two games that differ only in seat 1's hand and the pile order give
    seat 0 the same view; seat 1's view differs. Seat 1's cashed fish are no
    secret: each lay face up before it was cashed (perfect recall), so a game
    where seat 1 cashed another fish shows seat 0 another view."""
    hands = [cards("red fish 1", "red dash 2"), cards("blue fish 3", "blue cash 4")]
    pile = cards("red cash 7", "blue dash 8", "red fish 9")
    other_hands = [hands[0], cards("red cash 7", "blue cash 4")]
    other_pile = cards("red fish 9", "blue fish 3", "blue dash 8")
    cashed = [[c("blue fish 5")], [c("red fish 0")]]
    a = State.arranged(DEFAULTS, hands, pile=pile, cashed=cashed)
    b = State.arranged(DEFAULTS, other_hands, pile=other_pile, cashed=cashed)
    assert a.view(0) == b.view(0)
    assert a.view(1) != b.view(1)
    other_cash = State.arranged(
        DEFAULTS, hands, pile=pile, cashed=[[c("blue fish 5")], [c("red fish 6")]]
    )
    assert other_cash.view(0).cashed == ((c("blue fish 5"),), (c("red fish 6"),))
    assert other_cash.view(0) != a.view(0)
    play(a, "red fish 1")
    play(b, "red fish 1")
    assert a.view(0) == b.view(0)


def test_identical_copies_are_one_move() -> None:
    """With two copies of each card, a hand holding both red fish 3 offers one
    play of it, and a territory holding both red fish 2 offers one steal of it
    (RULES.md §4: uniformly among the distinct legal moves)."""
    two = rules(deck=fdc._check_deck({"copies": 2}))
    fish3, fish3b = fdc.parse("red fish 3", two), fdc.parse("red fish 3", two) + 1
    fish2, fish2b = fdc.parse("red fish 2", two), fdc.parse("red fish 2", two) + 1
    dash9 = fdc.parse("red dash 9", two)
    cash1 = fdc.parse("blue cash 1", two)
    s = State.arranged(two, [[fish3, fish3b, dash9], [cash1]], territory=[[], [fish2, fish2b]])
    assert s.legal_actions() == [fish3, dash9]
    s.apply_action(dash9)
    s.apply_action(cash1)  # off-colour: cancelled; the dash resolves alone
    assert s.legal_actions() == [PROTECT, fish2]
