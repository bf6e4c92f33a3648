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

import signal
import time
import traceback
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from balancer import interrupts
from balancer.bots.api import Bot, PluginFailure
from balancer.bots.host import choose, describe
from balancer.errors import GameFault, Terminated
from balancer.games.api import GameRecord, GameSpec
from balancer.rng import CHANCE, Stream, bot_stream


def derive_rng(seed: int, index: int, stream: int) -> Stream:
    """Stream `stream` of game `index` (rng.CHANCE, or rng.bot_stream(seat)): see rng.py."""
    return Stream(seed, index, stream)


class MoveTimeout(BaseException):
    """A bot ran past its time limit.

    Not an Exception, so a bot's own `except Exception` can't swallow it; a bot
    that swallows it anyway is caught by the time check after its move.
    """


def _on_alarm(signum: int, frame: Any) -> None:
    raise MoveTimeout


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
) -> GameRecord:
    """Play game `index` of a run to the end and return its record.

    Every bot action is checked against the legal actions; a bot that raises,
    answers illegally or runs past its time limit raises `GameFault` naming
    the game, seed, seat and bot, so the game can be replayed alone. A `trace`
    list is handed to the state, which records what happens in it as events
    for the play-by-play (the game's narrate.py tells them); None keeps none.
    """
    if all(s.time_limit is None for s in seats):
        return _play(spec, rules, seats, seed, index, check, trace, alarm=False)
    # The alarm handler is installed once per game, not once per move.
    try:
        previous = signal.signal(signal.SIGALRM, _on_alarm)
    except ValueError:  # not the main thread: moves are timed after the fact
        return _play(spec, rules, seats, seed, index, check, trace, alarm=False)
    try:
        return _play(spec, rules, seats, seed, index, check, trace, alarm=True)
    finally:
        signal.signal(signal.SIGALRM, previous)


def _play(
    spec: GameSpec,
    rules: Mapping[str, Any],
    seats: Sequence[Seat],
    seed: int,
    index: int,
    check: bool,
    trace: list[Any] | None,
    alarm: bool,
) -> GameRecord:
    state = spec.new_state(rules, len(seats), derive_rng(seed, index, CHANCE))
    if trace is not None:
        state.trace = trace
    # One stream per seat's bot, apart from the game's chance: one seat's
    # choices never shift another seat's draws.
    bot_rngs = [derive_rng(seed, index, bot_stream(seat)) for seat in range(len(seats))]
    wants_view = [getattr(s.bot, "uses_view", True) for s in seats]
    if check:
        state.check_invariants()
    # Bound methods in locals: this loop runs once per move of every game.
    is_terminal, current_player = state.is_terminal, state.current_player
    legal_actions, apply_action, view_of = state.legal_actions, state.apply_action, state.view
    while not is_terminal():
        seat = current_player()
        legal = legal_actions()
        if len(legal) == 1:
            # A forced move is no decision: the bot is not asked.
            action = legal[0]
        else:
            view = view_of(seat) if wants_view[seat] else None
            action = _ask(seats[seat], view, legal, bot_rngs[seat], seed, index, seat, alarm)
            if seats[seat].plugin:
                # Compared by exact type (no subclass's __eq__), and the engine
                # plays its own copy of the move, never the plugin's object.
                chosen = choose(action, legal)
                action = legal[chosen] if chosen is not None else _Illegal(describe(action))
            # Checked against the engine's own list, which a plugin never
            # held: it was handed a tuple copy.
            if type(action) is _Illegal or action not in legal:
                raise GameFault(
                    f"illegal move {action!r}",
                    index=index,
                    seed=seed,
                    seat=seat,
                    bot=seats[seat].label,
                )
        apply_action(action)
        if check:
            state.check_invariants()
    return state.record()


class _Illegal(str):
    """A plugin's answer that is no move, as a safe description."""

    def __repr__(self) -> str:
        return str(self)


def _ask(
    seat: Seat,
    view: Any,
    legal: list[Hashable],
    rng: Stream,
    seed: int,
    index: int,
    seat_no: int,
    alarm: bool,
) -> Hashable:
    limit = seat.time_limit
    try:
        if limit is None:
            return seat.bot.act(view, legal, rng)
        # A plugin gets an immutable copy: it can't add a move of its own to
        # the list its answer is checked against.
        return _act_timed(seat.bot, view, tuple(legal), rng, limit, alarm)
    except MoveTimeout:
        reason = f"no move within the time limit of {limit:g}s"
    except PluginFailure as failure:  # a plugin in its own process (bots/host.py)
        if not seat.plugin:
            raise
        reason = failure.reason
    except (KeyboardInterrupt, Terminated) as exc:
        # The user's interrupt, unless an in-process plugin raised it itself.
        if not seat.plugin or limit is None or interrupts.real():
            raise
        reason = f"the bot raised {type(exc).__name__} (not the user's interrupt)"
    except GameFault as exc:
        if not seat.plugin:
            raise
        # A plugin's forged fault blames the plugin, never the seat it names.
        reason = f"the bot raised GameFault: {exc.reason}"
    except BaseException as exc:  # a bot's own failure, whatever it is (SystemExit too)
        try:
            reason = f"the bot raised {type(exc).__name__}: {exc}"
        except BaseException:  # even its __str__ may fail
            reason = f"the bot raised {type(exc).__name__}"
        fault = GameFault(reason, index=index, seed=seed, seat=seat_no, bot=seat.label)
        if seat.plugin:
            # --trust-plugins is for debugging: the plugin's own traceback goes along.
            fault.plugin_traceback = traceback.format_exc()
        raise fault from None
    raise GameFault(reason, index=index, seed=seed, seat=seat_no, bot=seat.label)


def _act_timed(
    bot: Bot,
    view: Any,
    legal: tuple[Hashable, ...],
    rng: Stream,
    limit: float,
    alarm: bool,
) -> Hashable:
    """Interrupt a bot that takes too long, where the platform lets us.

    With `alarm` (SIGALRM's handler installed: a process's main thread only)
    the bot is interrupted at the limit. Either way the move is also timed
    after the fact, which catches a bot that swallowed the interrupt (though
    not one that never returns, where there is no alarm).
    """
    started = time.monotonic()
    if alarm:
        signal.setitimer(signal.ITIMER_REAL, limit)
        try:
            action = bot.act(view, legal, rng)
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
    else:
        action = bot.act(view, legal, rng)
    if time.monotonic() - started > limit:
        raise MoveTimeout
    return action
