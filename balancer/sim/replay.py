"""A readable play-by-play of one game of a run, exactly as the run played it.

The game is played again from (seed, index) with the same seating, with the
state's trace switched on: the rules record what happens as event tuples, and
the game's own narrator (its definition's, so a new game brings its own and no
line changes here) tells them as lines. A
line is a plain string (seen by everyone) or a (seat, text) pair (seen by that
seat only, e.g. a hand or a face-down discard); `--seat S` keeps what seat S
could see. A game without a narrator is replayed without a play-by-play. The
play-by-play is in the language asked for (the command picks it: `--lang`, the
variant's `lang:`, $BALANCER_LANG) where the game's narrator has its words, else
in English.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from balancer import games, i18n
from balancer.config.variant import Variant
from balancer.errors import GameFault
from balancer.games.api import GameRecord, GameSpec, win_shares
from balancer.games.definition import LogEntry, Narrator
from balancer.i18n import DEFAULT_LANG
from balancer.sim.play import play_game
from balancer.sim.runner import DEFAULT_PLUGIN_MOVE_LIMIT, build_seats


class ReplayFault(Exception):
    """A replayed game stopped at a bot's fault: the play-by-play up to it, and the fault."""

    def __init__(self, played: str, fault: GameFault) -> None:
        super().__init__(str(fault))
        self.played = played
        self.fault = fault


def narrator(spec: GameSpec) -> Narrator | None:
    """The game's narrator, or None when its definition has none."""
    load = games.definition(spec.name).narrator
    return None if load is None else load()


def replay_game(
    variant: Variant,
    index: int,
    move_time_limit: float = DEFAULT_PLUGIN_MOVE_LIMIT,
    lang: str = DEFAULT_LANG,
) -> tuple[list[LogEntry], GameRecord | GameFault]:
    """The game's play-by-play, and its record, or the bot's fault that ended it (the
    play-by-play up to it).

    `move_time_limit` is the run's, so a plugin that ran out of time does so again.
    """
    spec, seed = variant.spec, variant.seed
    narrate = narrator(spec)
    trace: list[Any] | None = [] if narrate is not None else None
    try:
        slots = build_seats(variant, move_time_limit, index)
        seated = variant.seated(slots, index)
        outcome: GameRecord | GameFault = play_game(
            spec, variant.rules, seated, seed, index, check=True, trace=trace
        )
    except GameFault as fault:
        outcome = fault
    if narrate is None or trace is None:
        return [], outcome
    return narrate(trace, variant.rules, lang), outcome


def visible(entry: LogEntry, seat: int | None, lang: str = DEFAULT_LANG) -> str | None:
    """The line as `seat` sees it (None: hidden from it); every line, a seat's own
    marked as such, when no seat is said."""
    if isinstance(entry, str):
        return entry
    owner, text = entry
    if seat is not None:
        return text if owner == seat else None
    return i18n.text("replay.seat_only", lang, seat=owner, text=text)


def replay_text(
    variant: Variant,
    index: int,
    seat: int | None = None,
    move_time_limit: float = DEFAULT_PLUGIN_MOVE_LIMIT,
    lang: str = DEFAULT_LANG,
) -> str:
    """Game `index`'s play-by-play between its setup and its record, in `lang`."""
    log, record = replay_game(variant, index, move_time_limit, lang)

    def seen() -> list[str]:
        return [text for entry in log if (text := visible(entry, seat, lang)) is not None]

    if isinstance(record, GameFault):
        # Show the game up to the fault: that is what the user came to see.
        raise ReplayFault("\n".join(seen()), record)
    spec = variant.spec
    words = i18n.game_texts(spec.name, lang)

    def say(key: str, **fields: object) -> str:
        return i18n.text(f"replay.{key}", lang, **fields)

    def listed(key: str, values: Sequence[float]) -> str:
        return say("sep").join(say(key, seat=s, value=v) for s, v in enumerate(values))

    labels = [s.label for s in variant.seated(variant.seats, index)]
    seated = say("sep").join(f"{s}={label}" for s, label in enumerate(labels))
    lines = [
        say("title", name=variant.name, index=index, seed=variant.seed, game=words.title),
        say("seats", seats=seated),
    ]
    if seat is not None:
        lines.append(say("only_seat", seat=seat))
    lines.append("")
    lines += seen()
    shares = win_shares(record.scores, spec.higher_is_better)
    events = say("sep").join(f"{words.event_name(k)} {v:g}" for k, v in record.events.items())
    lines += [
        "",
        say("length", length=record.length, unit=words.length_unit),
        say("scores", scores=listed("score", record.scores)),
        say("win_shares", shares=listed("share", shares)),
        say("events", events=events or say("no_events")),
    ]
    return "\n".join(lines)
