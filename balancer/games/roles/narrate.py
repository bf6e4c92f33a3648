"""A role game's play-by-play: the engine's trace told as lines, in the file's words.

The engine (engine.py) records event tuples and says nothing; every word is
here or, for what a primitive did, in its module (primitives/<name>.py `tells`).
Each primitive narrates itself with the names the game file gives
(its roles, zones, counters, flags), so a replay of MEGA RACER speaks of
positions and blocking, one of Fish! Dash! Cash! of territories and banks.
Hands and drawn cards are for their owner's eyes: (seat, text) lines.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from balancer.games.definition import LogEntry, Narrator
from balancer.games.roles import conditions, goals, rank
from balancer.games.roles.engine import Cards, cards_for
from balancer.games.roles.primitives import PRIMITIVES

# Trace event tag -> how it is told: each primitive tells its own events, the rank
# term its places at the end.
TELLERS = {tag: teller for spec in PRIMITIVES.values() for tag, teller in spec.tells.items()}
TELLERS["unmet"] = conditions.tell  # a step its condition stopped (conditions.py)
TELLERS["ranked"] = rank.told
TELLERS["goals"] = goals.told  # each seat's secret goals, shown at the end
TELLERS["dealt_goals"] = goals.told_dealt  # and as dealt, each to its owner alone


def narrator() -> Narrator:
    """The narrator of every role game (the trace carries the file's names)."""
    return lines


def lines(trace: Sequence[tuple[Any, ...]], rules: Mapping[str, Any]) -> list[LogEntry]:
    cards = cards_for(rules)
    out: list[LogEntry] = []
    for event in trace:
        out += _told(event, cards)
    return out


def _told(event: tuple[Any, ...], cards: Cards) -> list[LogEntry]:
    name = cards.describe

    def listed(items: Sequence[int]) -> str:
        return ", ".join(name(c) for c in items) or "(none)"

    teller = TELLERS.get(event[0]) if event else None
    if teller is not None:
        return teller(event, cards)
    match event:
        case ("trick", trick, leader, hands):
            told: list[LogEntry] = [f"Trick {trick}: seat {leader} leads"]
            told += [(s, f"  seat {s}'s hand: {listed(hand)}") for s, hand in enumerate(hands)]
            return told
        case ("played", plays, neko, cancelled):
            told = ["  played " + ", ".join(f"seat {s}: {name(c)}" for s, c in plays)]
            if neko:
                told.append("  猫に小判! the lead card is discarded")
            if cancelled:
                told.append(f"  cancelled: {listed(cancelled)}")
            return told
        case ("blocked", seat, kind, target, flag):
            return [f"  seat {seat}'s {kind} on seat {target} is stopped by {flag}"]
        case ("arrive", seat, counter, place, beyond):
            if beyond:
                return [f"  seat {seat} arrives after every place of {counter} is taken ({place})"]
            return [f"  seat {seat} arrives: place {place} of {counter}"]
        case ("draws", seat, card):
            return [f"  seat {seat} draws a card", (seat, f"  seat {seat} draws {name(card)}")]
        case ("over", tricks, scores):
            shown = ", ".join(f"seat {s} {v:g}" for s, v in enumerate(scores))
            return [f"Game over after {tricks} tricks: scores {shown}"]
    return []
