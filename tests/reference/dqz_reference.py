"""A plain reference of Da Qi Zi (打棋子) with `random` in every seat, from RULES.md alone.

This is deliberately slow and obvious: it exists so the real engine
(`balancer.games.daqizi`) can be compared with an implementation that shares no
code with it. It follows RULES.md §3 (the game, with every knob), §4 (the
`random` bot), §5 (the events) and §6 (the fine points).

A card kind is a tuple (rank, suit): rank 7 general, 6 advisor, 5 elephant,
4 chariot, 3 horse, 2 cannon, 1 soldier; suit 1 red, 0 black. A hand is a
Counter of kinds. A combination is (form, kinds) with `kinds` a sorted tuple
(a multiset of kinds), so two equal combinations are the same move.

Ambiguities, and how they are read here:
- A player who can beat must beat (revised §3, `may_discard_when_able: false`
  by default): their moves are the beating combinations only. With the knob
  true a following move is tagged: playing a beating combination and
  discarding the same multiset of kinds face down are two distinct moves (§4
  lists the beats "plus" the discards).
- `tricks` counts every trick played, the last-trick-rule ones included.
- Strength within a form is (form rank, number of red cards): the card's rank
  for a single or a pair, general-advisor-elephant 2 and chariot-horse-cannon 1
  for a sequence, and nothing for soldier groups. Without mixed suits this is
  exactly "higher rank, then red above black".
- With `mixed_suit_combos` a pair is any two cards of one rank, so a red and a
  black general make a pair; a sequence takes each of its three ranks in
  either suit.
- The last-trick rule: a follower it touches has one card, and whatever it
  chooses the card ends as a discard, so the choice is not drawn at all.
  `last_trick_rule` counts such a follower whose card would have beaten the best
  so far; with the knob off the rule never applies and nothing is counted.
- The streak s behind the multiplier counts the deals won in a row by the
  current dealer, ending with the previous deal (the one that made them dealer).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from itertools import product
from typing import Any

DEFAULT_RULES: dict[str, Any] = {
    "mixed_suit_combos": False,
    "may_discard_when_able": False,
    "no_capture_last_single_rule": True,
    "first_dealer": "seat0",
    "max_deals": 16,
    "starting_chips": 20,
    "bust_at": 0,
    "base_payment": 4,
    "zero_capture_penalty": 1,
    "first_deal_multiplier": 1,
    "renchan_step": 1,
    "multiplier_cap": None,
}

EVENTS = (
    "deals",
    "tricks",
    "busts",
    "max_multiplier",
    "dealer_wins",
    "zero_capture",
    "last_trick_rule",
    "lead_single",
    "lead_pair",
    "lead_triple",
    "lead_sequence",
    "lead_four",
    "lead_five",
)

PLAYERS = 4
HAND = 8
GENERAL, ADVISOR, ELEPHANT, CHARIOT, HORSE, CANNON, SOLDIER = 7, 6, 5, 4, 3, 2, 1
RED, BLACK = 1, 0
COPIES = {GENERAL: 1, ADVISOR: 2, ELEPHANT: 2, CHARIOT: 2, HORSE: 2, CANNON: 2, SOLDIER: 5}
SEQUENCES = {2: (GENERAL, ADVISOR, ELEPHANT), 1: (CHARIOT, HORSE, CANNON)}
SOLDIER_GROUPS = {"triple": 3, "four": 4, "five": 5}
SIZE = {"single": 1, "pair": 2, "triple": 3, "sequence": 3, "four": 4, "five": 5}

Kind = tuple[int, int]
Combo = tuple[str, tuple[Kind, ...]]


def build_deck() -> list[Kind]:
    """The 32 cards: for each suit, each rank as many times as it has copies."""
    return [(rank, suit) for suit in (RED, BLACK) for rank, n in COPIES.items() for _ in range(n)]


def _combo(form: str, kinds: list[Kind] | tuple[Kind, ...]) -> Combo:
    return (form, tuple(sorted(kinds)))


def _suit_multisets(red: int, black: int, size: int, mixed: bool) -> list[tuple[int, ...]]:
    """Distinct suit multisets of `size` cards, from `red` red and `black` black cards."""
    out = []
    for reds in range(size + 1):
        blacks = size - reds
        if reds > red or blacks > black:
            continue
        if not mixed and reds not in (0, size):
            continue
        out.append((RED,) * reds + (BLACK,) * blacks)
    return out


def combinations_in(hand: Counter[Kind], mixed: bool, only: str | None = None) -> list[Combo]:
    """Every distinct legal combination in `hand`: of any form, or of form `only`."""
    combos: list[Combo] = []
    if only in (None, "single"):
        for kind in sorted(k for k, n in hand.items() if n > 0):
            combos.append(("single", (kind,)))
    if only in (None, "pair"):
        for rank in COPIES:
            red, black = hand[(rank, RED)], hand[(rank, BLACK)]
            for suits in _suit_multisets(red, black, 2, mixed):
                combos.append(_combo("pair", [(rank, s) for s in suits]))
    red, black = hand[(SOLDIER, RED)], hand[(SOLDIER, BLACK)]
    for form, size in SOLDIER_GROUPS.items():
        if only in (None, form):
            for suits in _suit_multisets(red, black, size, mixed):
                combos.append(_combo(form, [(SOLDIER, s) for s in suits]))
    if only in (None, "sequence"):
        for ranks in SEQUENCES.values():
            for suits in product((RED, BLACK), repeat=3):
                if not mixed and len(set(suits)) > 1:
                    continue
                kinds = list(zip(ranks, suits, strict=True))
                if all(hand[k] > 0 for k in kinds):
                    combos.append(_combo("sequence", kinds))
    return combos


def strength(combo: Combo) -> tuple[int, int]:
    """Order within a form: form rank first, then the number of red cards."""
    form, kinds = combo
    reds = sum(1 for _, suit in kinds if suit == RED)
    if form in ("single", "pair"):
        return (kinds[0][0], reds)
    if form == "sequence":
        top = max(rank for rank, _ in kinds)
        return (2 if top == GENERAL else 1, reds)
    return (0, reds)


def beats(combo: Combo, best: Combo) -> bool:
    """Same form and strictly stronger."""
    return combo[0] == best[0] and strength(combo) > strength(best)


def multisets_of(hand: Counter[Kind], size: int) -> list[tuple[Kind, ...]]:
    """Every distinct multiset of `size` card kinds from `hand`."""
    kinds = sorted(k for k, n in hand.items() if n > 0)
    out: list[tuple[Kind, ...]] = []

    def extend(start: int, chosen: list[Kind]) -> None:
        if len(chosen) == size:
            out.append(tuple(chosen))
            return
        for i in range(start, len(kinds)):
            kind = kinds[i]
            if chosen.count(kind) < hand[kind]:
                extend(i, chosen + [kind])

    extend(0, [])
    return out


def following_moves(
    hand: Counter[Kind], best: Combo, rules: Mapping[str, Any]
) -> list[tuple[str, tuple[Kind, ...]]]:
    """The random bot's moves when following (§4): the beats; the discards when there
    is no beat, or also beside the beats with `may_discard_when_able`."""
    form = best[0]
    plays = [
        ("play", kinds)
        for f, kinds in combinations_in(hand, rules["mixed_suit_combos"], only=form)
        if beats((f, kinds), best)
    ]
    if plays and not rules["may_discard_when_able"]:
        return plays
    discards = [("discard", kinds) for kinds in multisets_of(hand, SIZE[form])]
    return plays + discards


def remove(hand: Counter[Kind], kinds: tuple[Kind, ...]) -> None:
    for kind in kinds:
        assert hand[kind] > 0
        hand[kind] -= 1


def play_trick(
    leader: int,
    hands: list[Counter[Kind]],
    captured: list[int],
    rules: Mapping[str, Any],
    rng: random.Random,
    events: dict[str, float],
) -> int:
    """One trick led by `leader`: updates hands, captures and events; returns the winner."""
    leads = combinations_in(hands[leader], rules["mixed_suit_combos"])
    lead = leads[rng.randrange(len(leads))]
    form = lead[0]
    events["tricks"] += 1
    events[f"lead_{form}"] += 1
    last_single = form == "single" and hands[leader].total() == 1
    remove(hands[leader], lead[1])
    best, best_seat = lead, leader
    for step in range(1, PLAYERS):
        seat = (leader + step) % PLAYERS
        hand = hands[seat]
        if last_single and rules["no_capture_last_single_rule"] and captured[seat] == 0:
            # Their single counts as a discard, whatever they choose.
            card = next(k for k, n in hand.items() if n > 0)
            if beats(("single", (card,)), best):
                events["last_trick_rule"] += 1
            remove(hand, (card,))
            continue
        moves = following_moves(hand, best, rules)
        kind, kinds = moves[rng.randrange(len(moves))]
        remove(hand, kinds)
        if kind == "play":
            best, best_seat = (form, kinds), seat
    captured[best_seat] += len(best[1])
    return best_seat


def play_deal(
    dealer: int, rules: Mapping[str, Any], rng: random.Random, events: dict[str, float]
) -> tuple[int, list[int]]:
    """One deal: (winner of the last trick, cards captured per seat)."""
    deck = build_deck()
    rng.shuffle(deck)
    hands = [Counter(deck[seat * HAND : (seat + 1) * HAND]) for seat in range(PLAYERS)]
    captured = [0] * PLAYERS
    leader = dealer
    while hands[leader].total() > 0:
        leader = play_trick(leader, hands, captured, rules, rng, events)
    assert all(h.total() == 0 for h in hands)
    return leader, captured


def payments(winner: int, captured: list[int], rules: Mapping[str, Any]) -> list[int]:
    """Chips each seat gains from one deal at multiplier 1 (they sum to 0)."""
    gains = [0] * PLAYERS
    for seat in range(PLAYERS):
        if seat == winner:
            continue
        owed = rules["base_payment"] - captured[seat]
        if captured[seat] == 0:
            owed += rules["zero_capture_penalty"]
        gains[seat] -= owed
        gains[winner] += owed
    return gains


def multiplier(deal: int, streak: int, rules: Mapping[str, Any]) -> int:
    """The multiplier of deal `deal` (1-based); `streak` is the dealer's wins in a row."""
    if deal == 1:
        value = rules["first_deal_multiplier"]
    else:
        value = 1 + rules["renchan_step"] * max(streak, 1)
    cap = rules["multiplier_cap"]
    return value if cap is None else min(value, cap)


def play_one_game(rng: random.Random, overrides: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """A whole game: {"scores": chips per seat, "length": deals, "events": {name: value}}."""
    rules = {**DEFAULT_RULES, **(overrides or {})}
    events: dict[str, float] = {name: 0 for name in EVENTS}
    chips = [rules["starting_chips"]] * PLAYERS
    dealer = 0 if rules["first_dealer"] == "seat0" else rng.randrange(PLAYERS)
    streak = 0  # deals won in a row by the current dealer, up to the previous deal
    deal = 0
    while True:
        deal += 1
        mult = multiplier(deal, streak, rules)
        events["max_multiplier"] = max(events["max_multiplier"], mult)
        winner, captured = play_deal(dealer, rules, rng, events)
        events["deals"] += 1
        if winner == dealer:
            events["dealer_wins"] += 1
        events["zero_capture"] += sum(1 for c in captured if c == 0)
        for seat, gain in enumerate(payments(winner, captured, rules)):
            chips[seat] += gain * mult
        streak = streak + 1 if winner == dealer else 1
        dealer = winner
        busted = sum(1 for c in chips if c <= rules["bust_at"])
        if busted or deal >= rules["max_deals"]:
            events["busts"] = busted
            break
    assert sum(chips) == PLAYERS * rules["starting_chips"]
    return {"scores": [float(c) for c in chips], "length": deal, "events": events}
