"""The step-by-step path's shortcuts change nothing a bot can see (sim/play.py, sim/lazyview.py).

An in-process plugin is handed a lazy view and timed with one timer for many
moves; each case below is a situation where a shortcut could show: a view
kept past its move, a view pickled, a shorter limit after a longer one.
"""

from __future__ import annotations

import copy
import pickle
import signal
import time
import weakref
from collections.abc import Hashable, Sequence
from typing import Any

import pytest

from balancer import games, knobs
from balancer.bot import RandomBot
from balancer.errors import GameFault
from balancer.games.api import GameRecord
from balancer.sim import lazyview
from balancer.sim.play import Seat, play_game
from tests.helpers import SAFETY_TIMEOUT

PLAYERS = {"fish-dash-cash": 5, "kimekimera": 4, "da-qi-zi": 4}

needs_lazy = pytest.mark.skipif(not lazyview.available, reason="no reference counts here")


class Uniform:
    def act(self, view: Any, legal: Sequence[Hashable], rng: Any) -> Hashable:
        return legal[rng.randrange(len(legal))]


class Keeper(Uniform):
    """Keeps every view it is handed, unread."""

    def __init__(self) -> None:
        self.kept: list[Any] = []

    def act(self, view: Any, legal: Sequence[Hashable], rng: Any) -> Hashable:
        self.kept.append(view)
        return super().act(view, legal, rng)


class WeakKeeper(Uniform):
    """Tries to keep weak references to its views, which no count would see."""

    def __init__(self) -> None:
        self.refused = 0

    def act(self, view: Any, legal: Sequence[Hashable], rng: Any) -> Hashable:
        try:
            weakref.ref(view)
        except TypeError:
            self.refused += 1
        return super().act(view, legal, rng)


def plugin_seats(game: str, bot: Any, limit: float | None = SAFETY_TIMEOUT) -> list[Seat]:
    """Seats as --trust-plugins builds them: in-process, timed, exact-type checked."""
    return [Seat("p", bot, time_limit=limit, plugin=True)] * PLAYERS[game]


def play(game: str, seats: list[Seat], index: int) -> GameRecord:
    spec = games.get(game)
    return play_game(spec, knobs.defaults(spec.knobs), seats, 7, index)


@pytest.mark.parametrize("game", list(PLAYERS))
def test_a_uniform_plugin_in_process_plays_the_random_bots_games(game: str) -> None:
    random_seats = [Seat("r", RandomBot())] * PLAYERS[game]
    for index in range(40):
        assert play(game, plugin_seats(game, Uniform()), index) == play(game, random_seats, index)


@needs_lazy
@pytest.mark.parametrize("game", list(PLAYERS))
def test_a_view_kept_unread_shows_its_own_moment(game: str) -> None:
    """Read after the game, each kept view equals the view a built-in bot was
    handed at that decision (built eagerly), field for field."""
    keeper, eager = Keeper(), Keeper()
    play(game, plugin_seats(game, keeper), 3)
    play(game, [Seat("e", eager)] * PLAYERS[game], 3)
    assert len(keeper.kept) == len(eager.kept) > 5
    assert type(eager.kept[0]) is not type(keeper.kept[0])  # the lazy one was handed out
    for lazy, full in zip(keeper.kept, eager.kept, strict=True):
        assert isinstance(lazy, type(full))
        assert lazy == full and full == lazy
        assert repr(lazy) == repr(full)
    # The moves differ, so the views differ: equal views are not a vacuous check.
    assert len({repr(v) for v in eager.kept}) > 1


@needs_lazy
def test_a_lazy_view_pickles_and_copies_as_the_games_own_view() -> None:
    keeper = Keeper()
    play("fish-dash-cash", plugin_seats("fish-dash-cash", keeper), 0)
    view = keeper.kept[4]
    full_class = type(view).__mro__[1]
    for again in (pickle.loads(pickle.dumps(view)), copy.copy(view), copy.deepcopy(view)):
        assert type(again) is full_class and again == view


@needs_lazy
@pytest.mark.parametrize("game", list(PLAYERS))
def test_a_view_cant_be_held_unseen_by_a_weak_reference(game: str) -> None:
    """A weak reference would hold a view without its count showing it: like the
    game's own views, a lazy view refuses one."""
    bot, eager = WeakKeeper(), WeakKeeper()
    play(game, plugin_seats(game, bot), 0)
    play(game, [Seat("e", eager)] * PLAYERS[game], 0)
    assert bot.refused == eager.refused > 0


@needs_lazy
def test_a_lazy_view_hands_out_no_field_it_lacks() -> None:
    keeper = Keeper()
    play("da-qi-zi", plugin_seats("da-qi-zi", keeper), 0)
    with pytest.raises(AttributeError):
        _ = keeper.kept[0].no_such_field


def test_quick_moves_arm_the_timer_once_per_game(monkeypatch: pytest.MonkeyPatch) -> None:
    """Dozens of timed decisions, one timer armed and one disarmed (not two per move)."""
    calls: list[float] = []
    real = signal.setitimer

    def counted(which: int, seconds: float, interval: float = 0.0) -> tuple[float, float]:
        calls.append(seconds)
        return real(which, seconds, interval)

    monkeypatch.setattr(signal, "setitimer", counted)
    keeper = Keeper()
    play("fish-dash-cash", plugin_seats("fish-dash-cash", keeper), 0)
    assert len(keeper.kept) > 20
    assert calls == [SAFETY_TIMEOUT, 0]
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)


class BusyUnlessStopped:
    """Busy for `seconds` (catching every Exception), then fails saying it was never stopped."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds

    def act(self, view: Any, legal: Sequence[Hashable], rng: Any) -> Hashable:
        deadline = time.monotonic() + self.seconds
        while time.monotonic() < deadline:
            try:
                while time.monotonic() < deadline:
                    pass
            except Exception:
                continue
        raise RuntimeError("never stopped")


def test_a_shorter_limit_after_a_longer_one_still_stops_the_move() -> None:
    """Seat 0's quick moves leave a long timer pending; seat 1's move, with a
    short limit, is stopped at its own limit, not at the pending timer's."""
    seats = [
        Seat("quick", Uniform(), time_limit=SAFETY_TIMEOUT, plugin=True),
        Seat("busy", BusyUnlessStopped(SAFETY_TIMEOUT / 4), time_limit=0.2, plugin=True),
        Seat("quick", Uniform(), time_limit=SAFETY_TIMEOUT, plugin=True),
    ]
    spec = games.get("fish-dash-cash")
    with pytest.raises(GameFault) as fault:
        play_game(spec, knobs.defaults(spec.knobs), seats, 7, 0)
    assert "no move within the time limit of 0.2s" in str(fault.value)
    assert fault.value.seat == 1
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)


def test_a_move_past_its_limit_after_many_quick_ones_is_stopped() -> None:
    """The timer armed at the first move still stops a later one at its limit."""

    class QuickThenBusy(BusyUnlessStopped):
        def __init__(self) -> None:
            super().__init__(SAFETY_TIMEOUT / 4)
            self.moves = 0

        def act(self, view: Any, legal: Sequence[Hashable], rng: Any) -> Hashable:
            self.moves += 1
            if self.moves < 10:
                return legal[0]
            return super().act(view, legal, rng)

    bot = QuickThenBusy()
    with pytest.raises(GameFault) as fault:
        play("fish-dash-cash", plugin_seats("fish-dash-cash", bot, limit=0.3), 0)
    assert "no move within the time limit of 0.3s" in str(fault.value)
    assert bot.moves == 10


class _Equal(int):
    def __eq__(self, other: object) -> bool:
        return True

    __hash__ = int.__hash__


@pytest.mark.parametrize(
    ("answer", "legal", "index"),
    [
        (7, [3, 7, 9], 1),
        (7, (3, 7, 9), 1),
        (4, [3, 7, 9], None),
        (1, [True, 1], 1),  # True == 1, but the move is the int
        (True, [1, True], 1),
        (1.0, [1, 2], None),  # a float is no int move
        (_Equal(5), [3, 7], None),  # a subclass's __eq__ is never asked
        ("b", ["a", "b"], 1),
        ((1, 2), [(1, 2.0), (1, 2)], 1),
        ((1, _Equal(2)), [(1, 2)], None),
    ],
)
def test_a_plugins_answer_is_found_among_the_moves_by_exact_type(
    answer: Any, legal: Sequence[Hashable], index: int | None
) -> None:
    from balancer.bots.host import choose

    assert choose(answer, legal) == index


def test_a_view_built_fast_is_the_views_own_kind_of_object() -> None:
    """games/views.py: frozen, equal, printed and pickled as one built by View itself."""
    import dataclasses

    from balancer.games import views
    from balancer.games.kimekimera.engine import View

    fields = [f.name for f in dataclasses.fields(View)]
    values = [0, 1, 7, (3, 4), (5, 6, 8, 9), (-1, -1), (2, 0), 40, 3, (0, 2, 5), True, False, {}]
    values += [(12, 13), 1, 0]  # the perfect-recall fields: discard, first, turn
    fast, slow = views.constructor(View)(*values), View(*values)
    assert type(fast) is View and fast == slow and repr(fast) == repr(slow)
    assert pickle.loads(pickle.dumps(fast)) == slow and fast.my_chimera() == (5, 6)
    assert views.constructor(View)(**dict(zip(fields, values, strict=True))) == slow
    # A producer that doesn't know the trailing recall fields leaves them to their default.
    unsaid = views.constructor(View)(*values[:13])
    assert unsaid == View(*values[:13]) and (unsaid.discard, unsaid.first, unsaid.turn) == (
        None,
        None,
        None,
    )
    assert views.without_recall(fast) == unsaid
    with pytest.raises(dataclasses.FrozenInstanceError):
        fast.seat = 1  # type: ignore[misc]


def test_a_streams_draws_and_shuffles_are_made_of_its_next_u64s() -> None:
    """rng.Stream writes its hash out in below and shuffle; bots/host.py's
    _Draws replays numbers through next_u64 alone: both must draw alike."""
    from balancer.rng import Stream

    def below(source: Stream, n: int) -> int:
        while True:
            x = source.next_u64()
            if x >= (1 << 64) % n:
                return x % n

    stream, plain = Stream(3, 4, 5), Stream(3, 4, 5)
    # 2**63 + 1 rejects about half the numbers: the loop is taken.
    bounds = [1, 2, 3, 7, 10, 60, 2**40, 2**63 + 1, 2**63 + 1, 2**63 + 1]
    assert [stream.below(n) for n in bounds] == [below(plain, n) for n in bounds]
    assert [stream.randrange(n) for n in bounds] == [below(plain, n) for n in bounds]
    assert stream.counter == plain.counter > 2 * len(bounds)
    values, expected = list(range(40)), list(range(40))
    stream.shuffle(values)
    for i in range(39, 0, -1):
        j = below(plain, i + 1)
        expected[i], expected[j] = expected[j], expected[i]
    assert values == expected and stream.counter == plain.counter


@needs_lazy
def test_a_lazy_view_refuses_changes_even_to_its_own_slots() -> None:
    """A bot can't point its view at something else (the next view it is handed may be it)."""
    import dataclasses

    keeper = Keeper()
    play("fish-dash-cash", plugin_seats("fish-dash-cash", keeper), 0)
    view = keeper.kept[0]
    for name in ("_build", "_seat", "hand", "anything"):
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(view, name, None)
        with pytest.raises(dataclasses.FrozenInstanceError):
            delattr(view, name)


@needs_lazy
def test_a_view_read_but_not_kept_is_a_new_one_at_the_next_decision() -> None:
    """Reading fills a view: the next decision's view is another, of its own moment."""

    class Reader(Uniform):
        def __init__(self) -> None:
            self.hands: list[tuple[int, ...]] = []

        def act(self, view: Any, legal: Sequence[Hashable], rng: Any) -> Hashable:
            self.hands.append(view.hand)
            return super().act(view, legal, rng)

    reader, eager = Reader(), Reader()
    play("fish-dash-cash", plugin_seats("fish-dash-cash", reader), 2)
    play("fish-dash-cash", [Seat("e", eager)] * 5, 2)
    assert reader.hands == eager.hands and len(set(reader.hands)) > 5


@pytest.mark.parametrize("n", [2, 32, 33, 54, 60, 200])
def test_every_way_to_shuffle_swaps_as_next_u64_says(n: int) -> None:
    """A shuffle draws number by number (up to 32 values), with the compiled
    kernel or with numpy (longer ones): each makes the swaps next_u64 dictates."""
    from balancer.rng import Stream

    def expected_swaps(source: Stream) -> list[int]:
        swaps = []
        for i in range(n - 1, 0, -1):
            while True:
                x = source.next_u64()
                if x >= (1 << 64) % (i + 1):
                    swaps.append(x % (i + 1))
                    break
        return swaps

    swaps = expected_swaps(Stream(8, n, 2))
    expected = list(range(n))
    for i, j in zip(range(n - 1, 0, -1), swaps, strict=True):
        expected[i], expected[j] = expected[j], expected[i]
    stream = Stream(8, n, 2)
    values = list(range(n))
    stream.shuffle(values)
    assert values == expected and stream.counter == n - 1
    if n > 2:
        numpy_way = Stream(8, n, 2)
        assert numpy_way._swaps(n) == swaps and numpy_way.counter == n - 1


def test_only_a_slots_dataclass_view_is_made_lazy() -> None:
    """A game whose View is some other kind of object has its views built as asked for."""
    import dataclasses

    @dataclasses.dataclass(frozen=True)
    class NoSlots:
        seat: int

    class Plain:
        seat = 0

    assert lazyview.maker(NoSlots) is None and lazyview.maker(Plain) is None
    from balancer.games.kimekimera.engine import View

    assert lazyview.maker(View) is not None
