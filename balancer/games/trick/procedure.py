"""The trick procedure of RULES.md §1 as functions (deal, who plays, sorting out a trick,
the next leader, the draw): Fish! Dash! Cash!'s engine (games/fdc/engine.py) and the
role games' (games/roles/engine.py) both play it; they change what a resolved card
does, never how a trick runs. kernel/ is the same procedure compiled."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from balancer.rng import Stream

# The phases of a game on this procedure: a seat plays a card to the trick, a resolving
# card's owner decides how it acts (fdc's dash choice, a role game's choice), the end.
PLAY, CHOICE, OVER = 0, 1, 2


def deal(size: int, players: int, hand_size: int, rng: Stream) -> tuple[list[list[int]], list[int]]:
    """Setup: the cards 0..size-1 shuffled with `rng`, `hand_size` dealt to each seat in
    turn; the rest is the pile, drawn from its end (pile[-1] is the top card)."""
    cards = list(range(size))
    rng.shuffle(cards)
    hands = [cards[s * hand_size : (s + 1) * hand_size] for s in range(players)]
    pile = cards[players * hand_size :]
    pile.reverse()
    return hands, pile


def trick_seats(hands: list[list[int]], leader: int) -> tuple[int, list[int]]:
    """Who leads (the first seat from `leader` with cards) and who plays, in order.

    Needs some hand to hold cards."""
    players = len(hands)
    while not hands[leader]:
        leader = (leader + 1) % players
    order = [
        seat
        for seat in ((leader + k) % players for k in range(players))
        if hands[seat] or seat == leader
    ]
    return leader, order


def next_leader(first_resolved: int, leader: int, players: int, rules: Mapping[str, Any]) -> int:
    """Step 5: the owner of the first card resolved (-1: none), else by the knob."""
    if first_resolved >= 0:
        return first_resolved
    if rules["leader_if_nothing_resolves"] == "same":
        return leader
    return (leader + 1) % players


def draw_round(pile: list[int], hands: list[list[int]], leader: int) -> list[int]:
    """Step 6: from `leader` in seat order each seat draws one card while the pile
    lasts; the seats that drew, in order (each drew the last card of its hand)."""
    players = len(hands)
    drew = []
    for k in range(players):
        if not pile:
            break
        seat = (leader + k) % players
        hands[seat].append(pile.pop())
        drew.append(seat)
    return drew


class CardFaces(Protocol):
    """What cancelling reads of a deck: each card's colour and number."""

    @property
    def colour(self) -> tuple[int, ...]: ...
    @property
    def number(self) -> tuple[int, ...]: ...


def sort_out(
    plays: list[tuple[int, int]], rules: Mapping[str, Any], deck: CardFaces
) -> tuple[list[tuple[int, int]], list[int], bool]:
    """Cancelling and order (steps 2-4) for a trick's plays, leader first.

    Returns the surviving (seat, card) plays in resolution order, the cancelled
    cards, and whether 猫に小判 fired. Bots use it to foresee a trick.
    """
    colour, number = deck.colour, deck.number
    lead_card = plays[0][1]
    lead_colour = colour[lead_card]
    # The lead card is of the lead colour: every follower is off-colour when it is alone.
    on_colour = [p for p in plays if colour[p[1]] == lead_colour]
    neko = (
        rules["neko_ni_koban"]
        and len(plays) - 1 >= rules["neko_min_followers"]
        and len(on_colour) == 1
    )
    if neko:
        cancelled = [lead_card]
        candidates = plays[1:]
        dedupe = rules["neko_cancel_duplicates"]
    else:
        candidates = on_colour
        cancelled = (
            [card for _, card in plays if colour[card] != lead_colour]
            if len(on_colour) < len(plays)
            else []
        )
        dedupe = True
    numbers = [number[card] for _, card in candidates]
    if dedupe and len(set(numbers)) < len(numbers):
        counts: dict[int, int] = {}
        for n in numbers:
            counts[n] = counts.get(n, 0) + 1
        survivors = [p for p in candidates if counts[number[p[1]]] == 1]
        cancelled += [card for _, card in candidates if counts[number[card]] > 1]
    else:  # no number twice (or duplicates kept): every candidate survives
        survivors = list(candidates)
    if len(survivors) > 1:
        # sort() is stable, so equal numbers keep play order (seat order from the leader).
        survivors.sort(key=lambda p: number[p[1]], reverse=not neko)
    return survivors, cancelled, neko
