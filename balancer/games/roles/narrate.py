"""A role game's play-by-play: the engine's trace told as lines, in the file's words.

The engine (engine.py) records event tuples and says nothing; every word is
here or, for what a primitive did, in its module (primitives/<name>.py `tells`
and `words`), for a step its condition stopped in conditions.py, for a rank
term's places in rank.py. Each narrates with the names the game file gives
(its roles, zones, counters, flags), so a replay of MEGA RACER speaks of
positions and blocking, one of Fish! Dash! Cash! of territories and banks; in
Japanese the lines around those names are Japanese and the names stay the
file's own. Hands and drawn cards are for their owner's eyes: (seat, text) lines.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from balancer.games.definition import LogEntry, Narrator
from balancer.games.roles import conditions, goals, rank
from balancer.games.roles.engine import Cards, cards_for
from balancer.games.roles.primitives import PRIMITIVES
from balancer.games.roles.primitives.base import Teller, Words, say

# Trace event tag -> how it is told: each primitive tells its own events, the rank
# term its places at the end.
TELLERS: dict[str, Teller] = {
    tag: teller for spec in PRIMITIVES.values() for tag, teller in spec.tells.items()
}
TELLERS["unmet"] = conditions.tell  # a step its condition stopped (conditions.py)
TELLERS["ranked"] = rank.told
TELLERS["goals"] = goals.told  # each seat's secret goals, shown at the end
TELLERS["dealt_goals"] = goals.told_dealt  # and as dealt, each to its owner alone

# The trick procedure's lines (what every role game shares), one table per language.
MESSAGES: Words = {
    "en": {
        "sep": ", ",
        "none": "(none)",
        "trick": "Trick {trick}: seat {seat} leads",
        "hand": "  seat {seat}'s hand: {cards}",
        "play": "seat {seat}: {card}",
        "played": "  played {plays}",
        "neko": "  猫に小判! the lead card is discarded",
        "cancelled": "  cancelled: {cards}",
        "blocked": "  seat {seat}'s {kind} on seat {target} is stopped by {flag}",
        "arrive": "  seat {seat} arrives: place {place} of {counter}",
        "arrive_beyond": "  seat {seat} arrives after every place of {counter} is taken ({place})",
        "draws": "  seat {seat} draws a card",
        "draws_seen": "  seat {seat} draws {card}",
        "score": "seat {seat} {score:g}",
        "over": "Game over after {tricks} tricks: scores {scores}",
    },
    "ja": {
        "sep": "、",
        "none": "（なし）",
        "trick": "トリック {trick}: 席 {seat} がリード",
        "hand": "  席 {seat} の手札: {cards}",
        "play": "席 {seat}: {card}",
        "played": "  出したカード: {plays}",
        "neko": "  猫に小判！リードのカードは捨て札になる",
        "cancelled": "  処理されず捨て札: {cards}",
        "blocked": "  席 {seat} の {kind} は席 {target} の {flag} に止められる",
        "arrive": "  席 {seat} が到着: {counter} の {place} 位",
        "arrive_beyond": "  席 {seat} が到着したが、{counter} の順位はすべて"
        "埋まっていた（{place}）",
        "draws": "  席 {seat} がカードを1枚引く",
        "draws_seen": "  席 {seat} が {card} を引く",
        "score": "席 {seat} {score:g}",
        "over": "{tricks} トリックでゲーム終了: 得点 {scores}",
    },
}


def narrator() -> Narrator:
    """The narrator of every role game (the trace carries the file's names)."""
    return lines


def lines(
    trace: Sequence[tuple[Any, ...]], rules: Mapping[str, Any], lang: str = "en"
) -> list[LogEntry]:
    """The play-by-play of `trace` in `lang` (English where a module has no words in it)."""
    cards = cards_for(rules)
    out: list[LogEntry] = []
    for event in trace:
        out += _told(event, cards, lang)
    return out


def _told(event: tuple[Any, ...], cards: Cards, lang: str) -> list[LogEntry]:
    name, words = cards.describe, say(MESSAGES, lang)
    sep = words["sep"]

    def listed(items: Sequence[int]) -> str:
        return sep.join(name(c) for c in items) or words["none"]

    teller = TELLERS.get(event[0]) if event else None
    if teller is not None:
        return teller(event, cards, lang)
    match event:
        case ("trick", trick, leader, hands):
            told: list[LogEntry] = [words["trick"].format(trick=trick, seat=leader)]
            told += [
                (s, words["hand"].format(seat=s, cards=listed(hand)))
                for s, hand in enumerate(hands)
            ]
            return told
        case ("played", plays, neko, cancelled):
            shown = sep.join(words["play"].format(seat=s, card=name(c)) for s, c in plays)
            told = [words["played"].format(plays=shown)]
            if neko:
                told.append(words["neko"])
            if cancelled:
                told.append(words["cancelled"].format(cards=listed(cancelled)))
            return told
        case ("blocked", seat, kind, target, flag):
            return [words["blocked"].format(seat=seat, kind=kind, target=target, flag=flag)]
        case ("arrive", seat, counter, place, beyond):
            key = "arrive_beyond" if beyond else "arrive"
            return [words[key].format(seat=seat, counter=counter, place=place)]
        case ("draws", seat, card):
            return [
                words["draws"].format(seat=seat),
                (seat, words["draws_seen"].format(seat=seat, card=name(card))),
            ]
        case ("over", tricks, scores):
            shown = sep.join(words["score"].format(seat=s, score=v) for s, v in enumerate(scores))
            return [words["over"].format(tricks=tricks, scores=shown)]
    return []
