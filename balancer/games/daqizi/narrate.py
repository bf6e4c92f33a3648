"""Da Qi Zi's play-by-play: the rules' trace (event tuples) told as lines of text.

The rules (engine.py) record what happened and say nothing; every word of the
play-by-play is here, in `MESSAGES` (one table per language), so a narration
in another language is one more table. Cards are written in the game's
notation (combos.describe_cards); a move's form in the table's words.
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
        "discards": "    seat {seat} discards {n} cards face down",
        "discards_one": "    seat {seat} discards 1 card face down",
        # A move's form (combos.FORMS), then its cards.
        "form_single": "single",
        "form_pair": "pair",
        "form_triple": "triple",
        "form_sequence": "sequence",
        "form_four": "four",
        "form_five": "five",
        "form_face_down": "discard",
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
    },
    # The seed's words (names_ja.py): ディール, 親, トリック, ラストトリック, チップ.
    "ja": {
        "sep": "、",
        "deal": "ディール {deal}: 親は席 {dealer}、×{multiplier}、チップ {chips}",
        "hand": "  席 {seat}: {cards}",
        "leads": "  トリック {trick}: 席 {seat} が {move} でリード",
        "last_trick_rule": (
            "    （ラストトリックの特殊ルール: 席 {seat} はまだ何も獲得していない）"
        ),
        "discards": "    席 {seat} が {n} 枚を伏せて捨てる",
        "discards_one": "    席 {seat} が 1 枚を伏せて捨てる",
        "form_single": "１枚出し",
        "form_pair": "２枚出し",
        "form_triple": "３枚出し",
        "form_sequence": "順子",
        "form_four": "４枚出し",
        "form_five": "５枚出し",
        "form_face_down": "伏せ札",
        "discarded": "      席 {seat} の捨て札: {cards}",
        "beats": "    席 {seat} が {move} で上回る",
        "wins_trick": "    席 {seat} がトリックを取り、{move} を獲得",
        "wins_deal": "  席 {seat} がラストトリックを取り、ディール {deal} に勝つ",
        "pays": (
            "    席 {payer} が席 {payee} に {amount} 支払う"
            "（席 {seat} の獲得 {got}、×{multiplier}）"
        ),
        "chips": "  チップ {chips}",
        "over": "{deals} ディールでゲーム終了: チップ {chips}",
    },
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


def _move(say: Mapping[str, str], move: int) -> str:
    """A move as a person reads it, its form in the narration's language: 'pair [...]',
    or 'discard [...]' for a face-down one (combos.describe_move's English)."""
    form = "face_down" if move >= dc.DISCARD_BASE else dc.FORMS[dc.COMBO_FORM[move]]
    return f"{say['form_' + form]} {dc.describe_cards(move)}"


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
            return [say["leads"].format(trick=trick, seat=seat, move=_move(say, move))]
        case ("last_trick_rule", seat):
            return [say["last_trick_rule"].format(seat=seat)]
        case ("discards", seat, move):
            # Everyone sees how many cards went face down; only their owner which.
            return [
                say["discards" if len(dc.MOVE_KINDS[move]) != 1 else "discards_one"].format(
                    seat=seat, n=len(dc.MOVE_KINDS[move])
                ),
                (seat, say["discarded"].format(seat=seat, cards=dc.describe_cards(move))),
            ]
        case ("beats", seat, move):
            return [say["beats"].format(seat=seat, move=_move(say, move))]
        case ("wins_trick", seat, move):
            return [say["wins_trick"].format(seat=seat, move=_move(say, move))]
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
