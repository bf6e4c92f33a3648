"""The loop that plays one game step by step, asking each seat's bot.

Every bot action is checked against the legal actions; a bot that raises,
answers illegally or runs past its time limit raises `GameFault` naming the
game, seed, seat and bot, so the game can be replayed alone.

Randomness (rng.py): game i of a run draws from streams that are pure
functions of (seed, i, stream), so results don't depend on workers or
chunking, and game i can be replayed by itself. The game's chance stream is
apart from each seat's bot stream, so two variants with the same seed deal
the same first shuffle (common random numbers) whatever the bots do.
"""

from __future__ import annotations

import dataclasses
import signal
import sys
import time
import traceback
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from balancer import interrupts
from balancer.bot import Bot, PluginFailure
from balancer.bots.host import HostedBot, choose, describe
from balancer.errors import GameFault, Terminated
from balancer.games import progress as how_it_plays
from balancer.games.api import GameRecord, GameSpec
from balancer.rng import CHANCE, Stream, bot_stream
from balancer.sim import lazyview

if lazyview.available:
    getrefcount = sys.getrefcount


R = TypeVar("R")


def derive_rng(seed: int, index: int, stream: int) -> Stream:
    """Stream `stream` of game `index` (rng.CHANCE, or rng.bot_stream(seat)): see rng.py."""
    return Stream(seed, index, stream)


class MoveTimeout(BaseException):
    """A bot ran past its time limit.

    Not an Exception, so a bot's own `except Exception` can't swallow it; a bot
    that swallows it anyway is caught by the time check after its move.
    """


class _Clock:
    """The time limits of one game's in-process plugin moves, kept with one timer.

    Arming a timer for every move would cost two system calls per move, more
    than a simple plugin's whole move. Instead the timer is armed when a timed
    move starts and none is pending; when it goes off, the handler looks at
    the move under way: past its limit, it raises `MoveTimeout` in the bot;
    short of it, it re-arms for exactly the rest of the move's time; between
    moves, it leaves the timer off, and the next move arms it again. A pending
    timer never goes off later than the move under way's deadline (a move
    with a shorter limit than the pending timer's re-arms it), so a bot is
    interrupted at its limit as if its own timer were armed.
    """

    __slots__ = ("alarm", "started", "limit", "expiry")

    def __init__(self, alarm: bool) -> None:
        self.alarm = alarm  # SIGALRM's handler is installed: a main thread only
        self.started: float | None = None  # when the move under way began (None: none is)
        self.limit = 0.0  # the move under way's limit
        self.expiry: float | None = None  # when the pending timer goes off (None: none is)

    def on_alarm(self, signum: int, frame: Any) -> None:
        started = self.started
        self.expiry = None
        if started is None:
            return  # between moves: the next move arms the timer again
        deadline = started + self.limit
        left = deadline - time.monotonic()
        if left <= 0:
            raise MoveTimeout
        self.expiry = deadline
        signal.setitimer(signal.ITIMER_REAL, left)


@dataclass
class Seat:
    """One seat's bot for a game, and how the run names it."""

    label: str
    bot: Bot
    time_limit: float | None = None  # seconds per move (an in-process plugin); None: unlimited
    plugin: bool = False  # a plugin's answer is checked by exact type; its failures are its own


def play_game(
    spec: GameSpec,
    rules: Mapping[str, Any],
    seats: Sequence[Seat],
    seed: int,
    index: int,
    *,
    check: bool = False,
    trace: list[Any] | None = None,
    margin: int = how_it_plays.NO_MARGIN,
) -> GameRecord:
    """Play game `index` of a run to the end and return its record.

    Every bot action is checked against the legal actions; a bot that raises,
    answers illegally or runs past its time limit raises `GameFault` naming
    the game, seed, seat and bot, so the game can be replayed alone. A `trace`
    list is handed to the state, which records what happens in it as events
    for the play-by-play (the game's narrate.py tells them); None keeps none.
    `margin` is the comeback margin of the record's figures (Variant.margin).
    """
    return with_clock(
        seats, lambda clock: _play(spec, rules, seats, seed, index, check, trace, margin, clock)
    )


def with_clock(seats: Sequence[Seat], play: Callable[[_Clock], R]) -> R:
    """`play(clock)`: a move loop, with the clock its seats' time limits need.

    Shared by every loop that asks bots through `asker` (one game here; a
    chunk of games in the kernel-stepped loop of sim/kernel_step.py).
    """
    if all(s.time_limit is None for s in seats):
        return play(_Clock(alarm=False))
    clock = _Clock(alarm=True)
    # The alarm handler is installed once per game, not once per move.
    try:
        previous = signal.signal(signal.SIGALRM, clock.on_alarm)
    except ValueError:  # not the main thread: moves are timed after the fact
        return play(_Clock(alarm=False))
    try:
        return play(clock)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _play(
    spec: GameSpec,
    rules: Mapping[str, Any],
    seats: Sequence[Seat],
    seed: int,
    index: int,
    check: bool,
    trace: list[Any] | None,
    margin: int,
    clock: _Clock,
) -> GameRecord:
    state = spec.new_state(rules, len(seats), derive_rng(seed, index, CHANCE))
    if trace is not None:
        state.trace = trace
    if check:
        state.check_invariants()
    # One stream per seat's bot, apart from the game's chance: one seat's
    # choices never shift another seat's draws.
    askers = [
        asker(state, s, derive_rng(seed, index, bot_stream(n)), seed, index, n, clock)
        for n, s in enumerate(seats)
    ]
    # Bound methods in locals: this loop runs once per move of every game.
    is_terminal, current_player = state.is_terminal, state.current_player
    legal_actions, apply_action = state.legal_actions, state.apply_action
    turns = choices = 0  # GameRecord.decisions: each seat's turn, and those with a choice
    while not is_terminal():
        legal = legal_actions()
        turns += 1
        if len(legal) == 1:
            action = legal[0]  # a forced move is no decision: the bot is not asked
        else:
            choices += 1
            action = askers[current_player()](legal)
        apply_action(action)
        if check:
            state.check_invariants()
    return with_figures(state.record(), spec.higher_is_better, margin, decisions=(turns, choices))


def with_figures(
    record: GameRecord,
    higher_is_better: bool,
    margin: int = how_it_plays.NO_MARGIN,
    *,
    decisions: tuple[int, int] | None = None,
) -> GameRecord:
    """`record` with how it played (stats/how_it_plays.py: figures_of its progress, a
    comeback `margin` behind), the figures a kernel's chunk gives for the same game, and
    its (turns, choices) when given: one copy of the record, or the record itself when
    there is nothing to add."""
    changes: dict[str, Any] = {}
    if decisions is not None:
        changes["decisions"] = decisions
    if record.progress:
        figures = how_it_plays.figures_of(record.progress, record.scores, higher_is_better, margin)
        changes["figures"] = tuple(figures.tolist())
    return dataclasses.replace(record, **changes) if changes else record


def asker(
    state: Any,
    seat: Seat,
    rng: Stream,
    seed: int,
    index: int,
    seat_no: int,
    clock: _Clock,
) -> Callable[[list[Hashable]], Hashable]:
    """The function that asks this seat's bot for its move among `legal` and checks it.

    Returns the engine's own copy of the move; raises GameFault for a bot's
    failure, an illegal answer or a move past the time limit. `state` is
    anything with the engine's `view(seat)`, showing the position of the
    decision under way.
    """
    view_of = state.view
    plugin = seat.plugin
    try:
        wants_view = bool(getattr(seat.bot, "uses_view", True))
    except Exception:  # a plugin's property may fail in any way: it is shown its view
        if not plugin:
            raise
        wants_view = True
    # An in-process plugin's view is built only if it reads it (sim/lazyview.py);
    # a hosted one is always sent a full view, a built-in bot reads it anyway.
    lazy = wants_view and plugin and lazyview.available and not isinstance(seat.bot, HostedBot)
    make_view: Callable[[Callable[[int], Any], int], Any] | None = None
    spare: Any = None  # a lazy view handed out, never read nor kept: handed out again

    def fault(reason: str) -> GameFault:
        return GameFault(reason, index=index, seed=seed, seat=seat_no, bot=seat.label)

    bot, limit, alarm = seat.bot, seat.time_limit, clock.alarm
    monotonic, setitimer, real_timer = time.monotonic, signal.setitimer, signal.ITIMER_REAL

    def ask(legal: list[Hashable]) -> Hashable:
        nonlocal lazy, make_view, spare
        if lazy and make_view is None:
            make_view = lazyview.maker(_view_class(state, seat_no))
            lazy = make_view is not None
        if lazy:
            if spare is not None:
                view, spare = spare, None
            else:
                view = make_view(view_of, seat_no)  # type: ignore[misc]
            held = getrefcount(view)
        else:
            view = view_of(seat_no) if wants_view else None
        try:
            if limit is None:
                action = bot.act(view, legal, rng)
            else:
                # A plugin gets an immutable copy: it can't add a move of its
                # own to the list its answer is checked against. Timed as
                # _Clock says, and also after the fact, which catches a bot
                # that swallowed the interrupt (though not one that never
                # returns, where there is no alarm).
                started = monotonic()
                if alarm:
                    clock.limit = limit
                    clock.started = started  # before arming: a pending timer may go off now
                    expiry = clock.expiry
                    if expiry is None or expiry > started + limit:
                        clock.expiry = started + limit
                        setitimer(real_timer, limit)
                    try:
                        action = bot.act(view, tuple(legal), rng)
                    finally:
                        clock.started = None
                else:
                    action = bot.act(view, tuple(legal), rng)
                if monotonic() - started > limit:
                    raise MoveTimeout
        except BaseException as exc:
            failed = _failure(exc, seat, fault)
            if failed is None:
                raise
            raise failed from None
        if lazy:
            if getrefcount(view) != held:
                lazyview.settle(view)  # the bot kept it: it shows this moment, filled now
            elif lazyview.unread(view):
                # Nobody holds it and nothing was read from it: no one can
                # tell it from a new one, so the next decision is handed it.
                spare = view
            del view
        if plugin:
            # Compared by exact type (no subclass's __eq__), and the engine
            # plays its own copy of the move, never the plugin's object. The
            # plugin was handed a tuple copy of `legal`: it can't have added a
            # move of its own to the list its answer is checked against.
            chosen = choose(action, legal)
            if chosen is None:
                raise fault(f"illegal move {describe(action)}")
            return legal[chosen]
        if action not in legal:
            raise fault(f"illegal move {action!r}")
        return action

    return ask


_VIEW_CLASSES: dict[type, type] = {}


def _view_class(state: Any, seat: int) -> type:
    """The class of a game's views, learnt from the first view of its first game."""
    kind = type(state)
    if kind not in _VIEW_CLASSES:
        _VIEW_CLASSES[kind] = type(state.view(seat))
    return _VIEW_CLASSES[kind]


def _failure(exc: BaseException, seat: Seat, fault: Callable[[str], GameFault]) -> GameFault | None:
    """The GameFault a bot's exception is, while it is being handled; None: not the bot's.

    None (the exception goes on as it is) for the user's interrupt, and for a
    built-in bot's PluginFailure or GameFault, which are balancer's own.
    """
    limit = seat.time_limit
    if isinstance(exc, MoveTimeout):
        return fault(f"no move within the time limit of {limit:g}s")
    if isinstance(exc, PluginFailure):  # a plugin in its own process (bots/host.py)
        return fault(exc.reason) if seat.plugin else None
    if isinstance(exc, KeyboardInterrupt | Terminated):
        # The user's interrupt, unless an in-process plugin raised it itself.
        if not seat.plugin or limit is None or interrupts.real():
            return None
        return fault(f"the bot raised {type(exc).__name__} (not the user's interrupt)")
    if isinstance(seat.bot, HostedBot):
        # Its act is balancer's code: the bot's failures come as PluginFailure, so
        # anything else (a view it can't send) is balancer's bug, never the bot's.
        return None
    if isinstance(exc, GameFault):
        # A plugin's forged fault blames the plugin, never the seat it names.
        return fault(f"the bot raised GameFault: {exc.reason}") if seat.plugin else None
    # A bot's own failure, whatever it is (SystemExit too).
    try:
        reason = f"the bot raised {type(exc).__name__}: {exc}"
    except BaseException:  # even its __str__ may fail
        reason = f"the bot raised {type(exc).__name__}"
    failed = fault(reason)
    if seat.plugin:
        # --trust-plugins is for debugging: the plugin's own traceback goes along.
        failed.plugin_traceback = traceback.format_exc()
    return failed
