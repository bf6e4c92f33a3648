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

from typing import Any

from balancer import games
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


def visible(entry: LogEntry, seat: int | None) -> str | None:
    if isinstance(entry, str):
        return entry
    owner, text = entry
    if seat is None or owner == seat:
        return text if seat is not None else f"[seat {owner} only] {text}"
    return None


def replay_text(
    variant: Variant,
    index: int,
    seat: int | None = None,
    move_time_limit: float = DEFAULT_PLUGIN_MOVE_LIMIT,
    lang: str = DEFAULT_LANG,
) -> str:
    log, record = replay_game(variant, index, move_time_limit, lang)
    if isinstance(record, GameFault):
        # Show the game up to the fault: that is what the user came to see.
        played = "\n".join(text for entry in log if (text := visible(entry, seat)) is not None)
        raise ReplayFault(played, record)
    spec = variant.spec
    labels = [s.label for s in variant.seated(variant.seats, index)]
    lines = [
        f"{variant.name}: game {index} of seed {variant.seed} ({spec.name})",
        "seats: " + ", ".join(f"{s}={label}" for s, label in enumerate(labels)),
    ]
    if seat is not None:
        lines.append(f"(only what seat {seat} could see)")
    lines.append("")
    lines += [text for entry in log if (text := visible(entry, seat)) is not None]
    shares = win_shares(record.scores, spec.higher_is_better)
    lines += [
        "",
        f"length: {record.length} {spec.length_unit}",
        "scores: " + ", ".join(f"seat {s} {v:g}" for s, v in enumerate(record.scores)),
        "win shares: " + ", ".join(f"seat {s} {v:.3g}" for s, v in enumerate(shares)),
        "events: " + (", ".join(f"{k} {v:g}" for k, v in record.events.items()) or "none"),
    ]
    return "\n".join(lines)
