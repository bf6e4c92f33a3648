"""Kimekimera's play-by-play: the rules' trace (event tuples) told as lines of text.

The rules (engine.py) record what happened and say nothing; every word of the
play-by-play is here, in `MESSAGES` (one table per language), so a narration
in another language is one more table. Every chimera is face up, so every
line is for everyone.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from balancer.games.kimekimera.deck import Deck
from balancer.games.kimekimera.engine import deck_for, describe_pair

MESSAGES: dict[str, dict[str, str]] = {
    "en": {
        "sep": ", ",
        "chimera": "seat {seat}: {pair}",
        "deal": "Deal: my chimeras {chimeras}",
        "passed": (
            "{rounds} round(s) passed with no decision to make: totals {totals}; "
            "my chimeras {chimeras}"
        ),
        "round": (
            "Round {round}: theme {theme} (sum {total}), seat {first} first; free chimeras {free}"
        ),
        "slot": "{slot}: {pair}",
        "empty_slot": "{slot}: -",
        "keeps": "  seat {seat} keeps {pair}",
        "reshuffled": "  the discard is shuffled into a new deck of {size}",
        "grey_theme": "  theme {pair} holds grey: discarded, redrawn",
        "robot_replaced": "  seat {seat}'s robot {old} is replaced by {new}{robot}",
        "a_robot": " (a robot)",
        "cant_breed": "  seat {seat} can't breed ({why})",
        "why_robot_unreplaceable": "{pair} is a robot, and the deck can't replace it",
        "why_robot": "{pair} is a robot",
        "why_no_free": "no free chimera",
        "breeds": (
            "  seat {seat} breeds {mine} with free chimera {slot} ({free}): gets {got}{robot}"
        ),
        "leftover_free": "  {pair} is free chimera {slot} now",
        "slot_empty": "  free chimera {slot} stays empty: the deck is empty",
        "refilled": "  free chimera {slot} refilled: {pair}",
        "scored": (
            "  seat {seat}: {pair} error {error}, {matches} colour {match_word}: "
            "{score:+d} (total {total})"
        ),
        "match": "match",
        "matches": "matches",
        "robot_stays": "  seat {seat}'s robot stays: the deck is empty",
        "theme_stays": "  no new theme can be drawn: the theme stays",
        "over": "Game over after {rounds} rounds: totals {totals}",
    },
    # The seed's words (names_ja.py): マイキメラ, テーマキメラ, 交配, ロボット, 山札.
    "ja": {
        "sep": "、",
        "chimera": "席 {seat}: {pair}",
        "deal": "配り: 自分のマイキメラ {chimeras}",
        "passed": (
            "選ぶことのないまま {rounds} ラウンドが過ぎた: 合計 {totals}、"
            "自分のマイキメラ {chimeras}"
        ),
        "round": (
            "ラウンド {round}: テーマキメラ {theme}（合計 {total}）、席 {first} から、"
            "フリーキメラ {free}"
        ),
        "slot": "{slot}: {pair}",
        "empty_slot": "{slot}: -",
        "keeps": "  席 {seat} は {pair} のまま",
        "reshuffled": "  捨て札を切り直して {size} 枚の新しい山札に",
        "grey_theme": "  テーマキメラ {pair} にグレーがある: 捨てて引き直し",
        "robot_replaced": "  席 {seat} のロボット {old} を {new} に取り替え{robot}",
        "a_robot": "（ロボット）",
        "cant_breed": "  席 {seat} は交配できない（{why}）",
        "why_robot_unreplaceable": "{pair} はロボットで、山札から取り替えられない",
        "why_robot": "{pair} はロボット",
        "why_no_free": "フリーキメラがない",
        "breeds": (
            "  席 {seat} が {mine} をフリーキメラ {slot}（{free}）と交配: {got} が生まれる{robot}"
        ),
        "leftover_free": "  {pair} がフリーキメラ {slot} に",
        "slot_empty": "  フリーキメラ {slot} は空のまま: 山札がない",
        "refilled": "  フリーキメラ {slot} を補充: {pair}",
        "scored": (
            "  席 {seat}: {pair} 誤差 {error}、色合わせ {matches} {match_word}: "
            "{score:+d}（合計 {total}）"
        ),
        "match": "色",
        "matches": "色",
        "robot_stays": "  席 {seat} のロボットはそのまま: 山札がない",
        "theme_stays": "  新しいテーマキメラを引けない: テーマキメラはそのまま",
        "over": "{rounds} ラウンドでゲーム終了: 合計 {totals}",
    },
}


def lines(
    trace: Sequence[tuple[Any, ...]], rules: Mapping[str, Any] | None = None, lang: str = "en"
) -> list[str | tuple[int, str]]:
    """The play-by-play of `trace`, one line per entry (all public in Kimekimera)."""
    say = MESSAGES.get(lang, MESSAGES["en"])  # a language without its table: English
    deck = deck_for(rules or {})
    out: list[str | tuple[int, str]] = []
    for event in trace:
        out += _told(event, say, deck)
    return out


def _robot(say: Mapping[str, str], a: int, b: int, deck: Deck) -> str:
    return say["a_robot"] if a >= deck.first_grey or b >= deck.first_grey else ""


def _chimeras(say: Mapping[str, str], mine: Sequence[int], deck: Deck) -> str:
    return say["sep"].join(
        say["chimera"].format(seat=s, pair=describe_pair(mine[2 * s], mine[2 * s + 1], deck))
        for s in range(len(mine) // 2)
    )


def _told(event: tuple[Any, ...], say: Mapping[str, str], deck: Deck) -> list[str]:
    match event:
        case ("start", 0, mine, discard, _):
            out = [say["deal"].format(chimeras=_chimeras(say, mine, deck))]
            # After a deal the discard holds only the grey themes redrawn (at most
            # one a grey card).
            pairs = [discard[k : k + 2] for k in range(0, len(discard), 2)]
            if len(pairs) <= deck.grey and all(max(pair) >= deck.first_grey for pair in pairs):
                out += [say["grey_theme"].format(pair=describe_pair(a, b, deck)) for a, b in pairs]
            return out
        case ("start", rounds, mine, _, totals):
            chimeras = _chimeras(say, mine, deck)
            return [say["passed"].format(rounds=rounds, totals=list(totals), chimeras=chimeras)]
        case ("round", number, t0, t1, first, free):
            slots = say["sep"].join(
                say["slot"].format(slot=k, pair=describe_pair(free[2 * k], free[2 * k + 1], deck))
                if free[2 * k] >= 0
                else say["empty_slot"].format(slot=k)
                for k in range(len(free) // 2)
            )
            theme, total = describe_pair(t0, t1, deck), deck.number[t0] + deck.number[t1]
            line = say["round"].format(
                round=number, theme=theme, total=total, first=first, free=slots
            )
            return [line]
        case ("keeps", seat, a, b):
            return [say["keeps"].format(seat=seat, pair=describe_pair(a, b, deck))]
        case ("reshuffled", size):
            return [say["reshuffled"].format(size=size)]
        case ("grey_theme", a, b):
            return [say["grey_theme"].format(pair=describe_pair(a, b, deck))]
        case ("robot_replaced", seat, a, b, c, d):
            old, new = describe_pair(a, b, deck), describe_pair(c, d, deck)
            robot = _robot(say, c, d, deck)
            return [say["robot_replaced"].format(seat=seat, old=old, new=new, robot=robot)]
        case ("cant_breed", seat, why, a, b):
            reason = say[f"why_{why}"].format(pair=describe_pair(a, b, deck))
            return [say["cant_breed"].format(seat=seat, why=reason)]
        case ("breeds", seat, slot, m0, m1, f0, f1, a, b):
            mine, free, got = (
                describe_pair(m0, m1, deck),
                describe_pair(f0, f1, deck),
                describe_pair(a, b, deck),
            )
            line = say["breeds"].format(
                seat=seat, mine=mine, slot=slot, free=free, got=got, robot=_robot(say, a, b, deck)
            )
            return [line]
        case ("leftover_free", slot, a, b):
            return [say["leftover_free"].format(slot=slot, pair=describe_pair(a, b, deck))]
        case ("slot_empty", slot):
            return [say["slot_empty"].format(slot=slot)]
        case ("refilled", slot, a, b):
            return [say["refilled"].format(slot=slot, pair=describe_pair(a, b, deck))]
        case ("scored", seat, a, b, error, matches, score, total):
            word = say["match"] if matches == 1 else say["matches"]
            pair = describe_pair(a, b, deck)
            return [
                say["scored"].format(
                    seat=seat, pair=pair, error=error, matches=matches, match_word=word,
                    score=score, total=total,
                )
            ]  # fmt: skip
        case ("robot_stays", seat):
            return [say["robot_stays"].format(seat=seat)]
        case ("theme_stays",):
            return [say["theme_stays"]]
        case ("over", rounds, totals):
            return [say["over"].format(rounds=rounds, totals=list(totals))]
    raise ValueError(f"no narration for event {event!r}")
