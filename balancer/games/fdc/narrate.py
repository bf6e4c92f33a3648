"""Fish! Dash! Cash!'s play-by-play: the rules' trace (event tuples) told as lines.

The rules (engine.py) record what happened and say nothing; every word of the
play-by-play is here, in `MESSAGES` (one table per language), so a narration
in another language is one more table. Hands and the card drawn are for their
owner's eyes only: those lines are (seat, text) pairs, which `replay --seat`
shows to that seat alone.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from balancer.games.fdc.engine import DEFAULT_DECK, Deck, deck_for

MESSAGES: dict[str, dict[str, str]] = {
    "en": {
        "sep": ", ",
        "trick": "Trick {trick}: seat {seat} leads",
        "hand": "  seat {seat}'s hand: {cards}",
        "empty_hand": "(empty)",
        "play": "seat {seat}: {card}",
        "played": "  played {plays}",
        "neko": "  猫に小判! the lead card is discarded",
        "cancelled": "  cancelled: {cards}",
        "lands": "  seat {seat}'s fish {card} lands",
        "protects": "  seat {seat} dashes and protects",
        "steals": "  seat {seat} dashes and steals {card} from seat {victim}",
        "cashes": "  seat {seat} cashes {count} fish",
        "draws": "  seat {seat} draws a card",
        "draws_seen": "  seat {seat} draws {card}",
        "money": "  money {money}; next leader seat {seat}",
        "over": "Game over after {tricks} tricks: scores {scores}",
    },
    # The seed's words (names_ja.py): 縄張り, お魚, 換金, 猫に小判, リード.
    "ja": {
        "sep": "、",
        "trick": "トリック {trick}: 席 {seat} がリード",
        "hand": "  席 {seat} の手札: {cards}",
        "empty_hand": "（なし）",
        "play": "席 {seat}: {card}",
        "played": "  出したカード: {plays}",
        "neko": "  猫に小判！リードのカードは捨て札になる",
        "cancelled": "  処理されず捨て札: {cards}",
        "lands": "  席 {seat} のお魚 {card} が縄張りに",
        "protects": "  席 {seat} がダッシュで縄張りを守る",
        "steals": "  席 {seat} がダッシュで席 {victim} から {card} を奪う",
        "cashes": "  席 {seat} がお魚 {count} 枚を換金",
        "draws": "  席 {seat} がカードを1枚引く",
        "draws_seen": "  席 {seat} が {card} を引く",
        "money": "  お金 {money}、次のリードは席 {seat}",
        "over": "{tricks} トリックでゲーム終了: 得点 {scores}",
    },
}


def lines(
    trace: Sequence[tuple[Any, ...]], rules: Mapping[str, Any] | None = None, lang: str = "en"
) -> list[str | tuple[int, str]]:
    """The play-by-play of `trace` under `rules` (their deck names the cards)."""
    deck = deck_for(rules or {"deck": DEFAULT_DECK})
    say = MESSAGES.get(lang, MESSAGES["en"])  # a language without its table: English
    out: list[str | tuple[int, str]] = []
    for event in trace:
        out += _told(event, say, deck)
    return out


def _told(
    event: tuple[Any, ...], say: Mapping[str, str], deck: Deck
) -> list[str | tuple[int, str]]:
    name, sep = deck.describe, say["sep"]
    match event:
        case ("trick", trick, leader, hands):
            out: list[str | tuple[int, str]] = [say["trick"].format(trick=trick, seat=leader)]
            for seat, hand in enumerate(hands):
                cards = sep.join(name(c) for c in hand) or say["empty_hand"]
                out.append((seat, say["hand"].format(seat=seat, cards=cards)))
            return out
        case ("played", plays, neko, cancelled):
            shown = sep.join(say["play"].format(seat=s, card=name(c)) for s, c in plays)
            out = [say["played"].format(plays=shown)]
            if neko:
                out.append(say["neko"])
            if cancelled:
                out.append(say["cancelled"].format(cards=sep.join(name(c) for c in cancelled)))
            return out
        case ("lands", seat, card):
            return [say["lands"].format(seat=seat, card=name(card))]
        case ("protects", seat):
            return [say["protects"].format(seat=seat)]
        case ("steals", seat, card, victim):
            return [say["steals"].format(seat=seat, card=name(card), victim=victim)]
        case ("cashes", seat, count):
            return [say["cashes"].format(seat=seat, count=count)]
        case ("draws", seat, card):
            # Everyone sees a card drawn; only its owner sees which.
            return [
                say["draws"].format(seat=seat),
                (seat, say["draws_seen"].format(seat=seat, card=name(card))),
            ]
        case ("money", money, leader):
            return [say["money"].format(money=list(money), seat=leader)]
        case ("over", tricks, scores):
            return [say["over"].format(tricks=tricks, scores=list(scores))]
    raise ValueError(f"no narration for event {event!r}")
