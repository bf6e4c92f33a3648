"""The Fish! Dash! Cash! heuristic: its choices on hand-made situations."""

from __future__ import annotations

from dataclasses import replace

from balancer import knobs
from balancer.games.fdc import engine as fdc
from balancer.games.fdc.bots import Heuristic, _richest_fish
from balancer.games.fdc.engine import PROTECT, State
from balancer.rng import Stream

DEFAULTS = knobs.defaults(fdc.KNOBS)
MONEY = fdc.money_values(DEFAULTS)


def c(text: str) -> int:
    return fdc.parse(text)


def test_ties_between_victims_fall_relative_to_the_bot_not_to_seat_zero() -> None:
    """Seats 0 and 4 hold equally rich territories. Looking from the next seat
    on, seat 3 and seat 1 both meet seat 4 first, seat 4 meets seat 0 first.
    A fixed seat-0-first order robbed the low seats and made seat 4 win a
    third of all-heuristic 5-player games."""
    territories = [[c("red fish 5")], [], [], [], [c("blue fish 5")]]
    assert _richest_fish(3, territories, set(), set(), MONEY) == (4, c("blue fish 5"))
    assert _richest_fish(1, territories, set(), set(), MONEY) == (4, c("blue fish 5"))
    assert _richest_fish(4, territories, set(), set(), MONEY) == (0, c("red fish 5"))


def test_steals_from_the_richest_territory() -> None:
    territories = [[c("red fish 1")], [], [c("blue fish 2"), c("blue fish 3")]]
    assert _richest_fish(1, territories, set(), set(), MONEY)[0] == 2
    assert _richest_fish(1, territories, {2}, set(), MONEY) == (0, c("red fish 1"))


def test_cashes_a_full_territory_and_protects_when_threatened() -> None:
    """Seat 0 leads holding a cash and a worthless dash with three fish at home:
    it leads the cash. Then a dash choice with a rival dash still to resolve
    and more at home than it could steal: it protects."""
    s = State.arranged(
        DEFAULTS,
        [[c("red cash 9"), c("blue fish 0")], [c("red dash 1")], [c("blue dash 2")]],
        territory=[[c("red fish 2"), c("red fish 3"), c("blue fish 4")], [], []],
    )
    bot = Heuristic()
    assert bot.act(s.view(0), s.legal_actions(), Stream(0, 0, 0)) == c("red cash 9")
    s2 = State.arranged(
        DEFAULTS,
        [[c("red dash 9")], [c("red dash 8")], [c("blue cash 2")]],
        territory=[[c("red fish 2"), c("red fish 3")], [c("blue fish 4")], []],
    )
    for card in ("red dash 9", "red dash 8", "blue cash 2"):
        s2.apply_action(c(card))
    assert s2.current_player() == 0
    assert bot.act(s2.view(0), s2.legal_actions(), Stream(0, 0, 0)) == PROTECT


def test_the_bot_values_fish_by_the_money_in_its_view() -> None:
    """The view carries the money table (the bot keeps no cache of its own).

    Seat 0's red dash 9 resolves first (seats 1 and 2 follow with lower red
    fish). Seat 1 holds red fish 2, seat 2 blue fish 5: counted (1 each), the
    territories tie and the bot, looking from seat 1 on, steals red fish 2.
    Hand it a view whose money is face value and it steals blue fish 5."""
    s = State.arranged(
        DEFAULTS,
        [[c("red dash 9")], [c("red fish 1")], [c("red fish 0")]],
        territory=[[], [c("red fish 2")], [c("blue fish 5")]],
    )
    for card in ("red dash 9", "red fish 1", "red fish 0"):
        s.apply_action(c(card))
    assert s.current_player() == 0
    view = s.view(0)
    assert view.money == MONEY
    bot = Heuristic()
    legal = s.legal_actions()
    assert bot.act(view, legal, Stream(0, 0, 0)) == c("red fish 2")
    face = fdc.money_values({**DEFAULTS, "cash_value": "face"})
    assert bot.act(replace(view, money=face), legal, Stream(0, 0, 0)) == c("blue fish 5")
    assert not any("money" in name for name in vars(bot))
