"""Da Qi Zi's play-by-play: the rules' trace (event tuples) told as lines of text.

The rules (engine.py) record what happened and say nothing; every word of the
play-by-play is here, in `MESSAGES` (one table per language), so a narration
in another language is one more table. Cards and moves are written in the
game's notation (combos.describe_kind, describe_move, describe_cards).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from balancer.games.daqizi import combos as dc

MESSAGES: dict[str, dict[str, str]] = {
    "en": {
        "sep": ", ",
        "deal": "Deal {deal}: seat {dealer} deals, ×{multiplier}, chips {chips}",
        "hand": "  seat {seat}: {cards}",
        "leads": "  trick {trick}: seat {seat} leads {move}",
        "last_trick_rule": "    (last-trick rule: seat {seat} has captured nothing)",
        "discards": "    seat {seat} discards {n} face down",
        "discarded": "      seat {seat}'s discard: {cards}",
        "beats": "    seat {seat} beats with {move}",
        "wins_trick": "    seat {seat} wins the trick, capturing {move}",
        "wins_deal": "  seat {seat} takes the last trick and wins deal {deal}",
        "pays": (
            "    seat {payer} pays seat {payee} {amount} "
            "(seat {seat} captured {got}, ×{multiplier})"
        ),
        "chips": "  chips {chips}",
        "over": "Game over after {deals} deals: chips {chips}",
    }
}


def lines(
    trace: Sequence[tuple[Any, ...]], rules: Mapping[str, Any] | None = None, lang: str = "en"
) -> list[str | tuple[int, str]]:
    """The play-by-play of `trace`: a hand and a face-down discard are their seat's alone
    (`replay --seat S` shows another seat only what S saw at the table)."""
    say = MESSAGES.get(lang, MESSAGES["en"])  # a language without its table: English
    out: list[str | tuple[int, str]] = []
    for event in trace:
        out += _told(event, say)
    return out


def _hand(say: Mapping[str, str], counts: Sequence[int]) -> str:
    """A hand's cards, strongest kind first."""
    return say["sep"].join(
        dc.describe_kind(k) for k in range(dc.N_KINDS - 1, -1, -1) for _ in range(counts[k])
    )


def _count(move: int) -> str:
    """How many cards a move holds, in words: '1 card', '2 cards'."""
    n = len(dc.MOVE_KINDS[move])
    return f"{n} card" if n == 1 else f"{n} cards"


def _told(event: tuple[Any, ...], say: Mapping[str, str]) -> list[str | tuple[int, str]]:
    match event:
        case ("deal", deal, dealer, multiplier, chips, hands):
            head = say["deal"].format(
                deal=deal, dealer=dealer, multiplier=multiplier, chips=list(chips)
            )
            hand = say["hand"]
            return [
                head,
                *((s, hand.format(seat=s, cards=_hand(say, h))) for s, h in enumerate(hands)),
            ]
        case ("leads", trick, seat, move):
            return [say["leads"].format(trick=trick, seat=seat, move=dc.describe_move(move))]
        case ("last_trick_rule", seat):
            return [say["last_trick_rule"].format(seat=seat)]
        case ("discards", seat, move):
            # Everyone sees how many cards went face down; only their owner which.
            return [
                say["discards"].format(seat=seat, n=_count(move)),
                (seat, say["discarded"].format(seat=seat, cards=dc.describe_cards(move))),
            ]
        case ("beats", seat, move):
            return [say["beats"].format(seat=seat, move=dc.describe_move(move))]
        case ("wins_trick", seat, move):
            return [say["wins_trick"].format(seat=seat, move=dc.describe_move(move))]
        case ("wins_deal", seat, deal):
            return [say["wins_deal"].format(seat=seat, deal=deal)]
        case ("owes", seat, winner, owed, got, multiplier):
            if not owed:
                return []  # nothing changes hands: nothing to tell
            payer, payee, amount = (seat, winner, owed) if owed > 0 else (winner, seat, -owed)
            line = say["pays"].format(
                payer=payer, payee=payee, amount=amount, seat=seat, got=got, multiplier=multiplier
            )
            return [line]
        case ("chips", chips):
            return [say["chips"].format(chips=list(chips))]
        case ("over", deals, chips):
            return [say["over"].format(deals=deals, chips=list(chips))]
    raise ValueError(f"no narration for event {event!r}")
