"""A plain reference of Fish! Dash! Cash! with `random` in every seat, from RULES.md alone.

This is deliberately slow and obvious: it exists so the real engine
(`balancer.games.fdc`) can be compared with an implementation that shares no
code with it. It follows RULES.md §1 (the game, with every knob), §4 (the
`random` bot), §5 (the events) and §6 (the fine points).

A card is a tuple (colour, role, number). With `copies` > 1 two cards can be
the same tuple; they are then the same move for the `random` bot, which picks
uniformly among the *distinct* legal moves (§4): one move per card kind in the
hand, one steal per (victim, fish kind). The engine lists every copy as its own
move; `distinct=False` plays that reading, to measure the difference (it is
visible: `--variant many-copies` in tests/quality/test_fdc_crosscheck.py).

Ambiguities, and how they are read here:
- `lead_changes` (revised §5): before the first trick there is no sole leader;
  the first player ever to become sole leader is not a change (the lead has to
  pass from one player to another), so a game counts the tricks after which
  the sole leader is someone other than the previous sole leader, nobody
  before the first one excluded.
- Money (for `lead_changes`) is the value of the cashed fish by `cash_value`;
  a seat's score adds `uncashed_value` per uncashed fish, and the highest score
  wins ("highest money wins" and `uncashed_value` only meet when it is not 0).
- Under 猫に小判 the duplicate-number rule looks at numbers only (with more
  than two colours the followers' cards may differ in colour).
- `leader_if_nothing_resolves: next` hands the lead to the seat after the
  trick's actual leader; if that seat has no cards, the next seat with cards leads.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

DEFAULT_RULES: dict[str, Any] = {
    "deck": {"colours": ["red", "blue"], "roles": ["fish", "dash", "cash"], "numbers": [0, 9],
             "copies": 1},
    "hand_size": 5,
    "first_leader": "seat0",
    "neko_ni_koban": True,
    "neko_min_followers": 2,
    "neko_cancel_duplicates": True,
    "leader_if_nothing_resolves": "same",
    "cash_value": "count",
    "uncashed_value": 0,
}  # fmt: skip

EVENTS = (
    "neko_ni_koban",
    "cards_cancelled",
    "steals",
    "protects",
    "cash_events",
    "fish_cashed",
    "fish_uncashed_at_end",
    "lead_changes",
)


def build_deck(deck: Mapping[str, Any]) -> list[tuple[str, str, int]]:
    """Every card of the deck knob, `copies` times each."""
    low, high = deck["numbers"]
    cards = []
    for colour in deck["colours"]:
        for role in deck["roles"]:
            for number in range(low, high + 1):
                for _ in range(deck["copies"]):
                    cards.append((colour, role, number))
    return cards


def fish_value(card: tuple[str, str, int], cash_value: str) -> int:
    """Money one cashed fish is worth."""
    if cash_value == "count":
        return 1
    if cash_value == "face":
        return card[2]
    if cash_value == "face_plus_one":
        return card[2] + 1
    raise ValueError(f"unknown cash_value {cash_value!r}")


def pick_card(
    hand: list[tuple[str, str, int]], rng: random.Random, distinct: bool = True
) -> tuple[str, str, int]:
    """The random bot's play, removed from the hand: uniformly among the distinct cards
    in it (or, with `distinct` False, among the card copies, identical ones counted apart)."""
    options = sorted(set(hand)) if distinct else list(hand)
    card = options[rng.randrange(len(options))]
    hand.remove(card)
    return card


def money_of(territory: list[dict[str, Any]], cash_value: str) -> int:
    total = 0
    for fish in territory:
        if fish["cashed"]:
            total += fish_value(fish["card"], cash_value)
    return total


def resolve_trick(
    played: list[tuple[int, tuple[str, str, int]]],
    territories: list[list[dict[str, Any]]],
    r: Mapping[str, Any],
    rng: random.Random,
    events: dict[str, int],
    distinct: bool = True,
) -> int:
    """Steps 2-5 of a trick: cancel, resolve, and return the next leader.

    `played` is [(seat, card)] in play order, the leader's card first. Changes
    `territories` and `events` in place; `rng` makes the dashes' random choices.
    """
    players = len(territories)
    leader, lead_card = played[0]
    lead_colour = lead_card[0]
    followers = played[1:]

    # 3. 猫に小判?
    neko = (
        r["neko_ni_koban"]
        and len(followers) >= r["neko_min_followers"]
        and all(card[0] != lead_colour for _, card in followers)
    )

    survivors = []  # (seat, card)
    if neko:
        events["neko_ni_koban"] += 1
        events["cards_cancelled"] += 1  # the lead card
        candidates = followers
        if r["neko_cancel_duplicates"]:
            numbers = [card[2] for _, card in candidates]
            for seat, card in candidates:
                if numbers.count(card[2]) > 1:
                    events["cards_cancelled"] += 1
                else:
                    survivors.append((seat, card))
        else:
            survivors = list(candidates)
    else:
        # 2. Off-colour cards cancel; lead-colour cards with a repeated number cancel.
        same_colour = []
        for seat, card in played:
            if card[0] != lead_colour:
                events["cards_cancelled"] += 1
            else:
                same_colour.append((seat, card))
        numbers = [card[2] for _, card in same_colour]
        for seat, card in same_colour:
            if numbers.count(card[2]) > 1:
                events["cards_cancelled"] += 1
            else:
                survivors.append((seat, card))

    # 4. Resolve: descending numbers (ascending under 猫に小判); ties in seat order
    #    from the leader.
    def order_key(entry: tuple[int, tuple[str, str, int]]) -> tuple[int, int]:
        seat, card = entry
        from_leader = (seat - leader) % players
        if neko:
            return (card[2], from_leader)
        return (-card[2], from_leader)

    survivors.sort(key=order_key)

    protected = set()  # seats whose fish are protected for the rest of this trick
    for seat, card in survivors:
        role = card[1]
        if role == "fish":
            territories[seat].append({"card": card, "cashed": False, "fresh": True})
        elif role == "dash":
            options: list[Any] = ["protect"]
            seen = set()
            for victim in range(players):
                if victim == seat or victim in protected:
                    continue
                for index, fish in enumerate(territories[victim]):
                    if fish["cashed"] or fish["fresh"]:
                        continue
                    key = (victim, fish["card"])
                    if distinct and key in seen:
                        continue  # an identical fish of the same victim: the same move
                    seen.add(key)
                    options.append((victim, index))
            choice = options[rng.randrange(len(options))]
            if choice == "protect":
                protected.add(seat)
                events["protects"] += 1
            else:
                victim, index = choice
                fish = territories[victim].pop(index)
                territories[seat].append(fish)  # still uncashed, not fresh
                events["steals"] += 1
        elif role == "cash":
            events["cash_events"] += 1
            for fish in territories[seat]:
                if not fish["cashed"]:
                    fish["cashed"] = True
                    events["fish_cashed"] += 1
        else:
            raise ValueError(f"unknown role {role!r}")

    # The trick is over: nothing is fresh any more, protection ends.
    for territory in territories:
        for fish in territory:
            fish["fresh"] = False

    # 5. Next leader.
    if survivors:
        leader = survivors[0][0]
    elif r["leader_if_nothing_resolves"] == "same":
        pass
    elif r["leader_if_nothing_resolves"] == "next":
        leader = (leader + 1) % players
    else:
        raise ValueError(f"unknown leader_if_nothing_resolves {r['leader_if_nothing_resolves']!r}")
    return leader


def next_sole_leader(money: list[int], previous: int | None) -> int | None:
    """The sole money leader after a trick (§5 `lead_changes`).

    Exactly one seat with the most money, and more than 0: that seat. A tie or
    no money leaves the previous sole leader standing (None before anyone led).
    """
    best = max(money)
    if best > 0 and money.count(best) == 1:
        return money.index(best)
    return previous


def is_lead_change(previous: int | None, now: int | None) -> bool:
    """Whether the sole leader passed from one player to another (§5 `lead_changes`).

    The first player ever to become sole leader (from nobody) is not a change.
    """
    return previous is not None and now != previous


def play_one_game(
    players: int,
    rng: random.Random,
    rules: Mapping[str, Any] | None = None,
    distinct: bool = True,
) -> dict[str, Any]:
    """Play one game with `random` in every seat.

    `distinct` False lets the bot tell identical card copies apart (each copy its
    own move); it only matters with `copies` > 1, and is not this module's reading
    of §4 — it exists to measure that reading's effect.

    Returns {"scores": [per seat], "length": tricks, "events": {name: count}}.
    """
    r = dict(DEFAULT_RULES)
    if rules is not None:
        r.update(rules)

    events = {name: 0 for name in EVENTS}

    # Setup: shuffle, deal hand_size to each (round robin, while the deck lasts).
    pile = build_deck(r["deck"])
    rng.shuffle(pile)
    hands: list[list[tuple[str, str, int]]] = [[] for _ in range(players)]
    for _ in range(r["hand_size"]):
        for seat in range(players):
            if pile:
                hands[seat].append(pile.pop())

    # A territory is a list of fish: {"card", "cashed", "fresh" (played this trick)}.
    territories: list[list[dict[str, Any]]] = [[] for _ in range(players)]

    if r["first_leader"] == "seat0":
        leader = 0
    elif r["first_leader"] == "random":
        leader = rng.randrange(players)
    else:
        raise ValueError(f"unknown first_leader {r['first_leader']!r}")

    sole_leader = None  # the sole money leader so far (None: nobody yet)
    tricks = 0

    while any(hands):
        tricks += 1

        # If the leader's hand is empty, the next seat with cards leads.
        while not hands[leader]:
            leader = (leader + 1) % players

        # 1. Leader plays, then each other seat in order (empty hands play nothing).
        played = []  # list of (seat, card), in play order from the leader
        for offset in range(players):
            seat = (leader + offset) % players
            if hands[seat]:
                played.append((seat, pick_card(hands[seat], rng, distinct)))
        leader = resolve_trick(played, territories, r, rng, events, distinct)

        # 6. Draw, from the new leader in seat order, while the pile lasts.
        for offset in range(players):
            seat = (leader + offset) % players
            if pile:
                hands[seat].append(pile.pop())

        # Sole money leader after this trick.
        money = [money_of(territories[seat], r["cash_value"]) for seat in range(players)]
        now = next_sole_leader(money, sole_leader)
        if is_lead_change(sole_leader, now):
            events["lead_changes"] += 1
        sole_leader = now

    # End and score.
    scores = []
    for seat in range(players):
        uncashed = sum(1 for fish in territories[seat] if not fish["cashed"])
        events["fish_uncashed_at_end"] += uncashed
        scores.append(money_of(territories[seat], r["cash_value"]) + r["uncashed_value"] * uncashed)

    return {"scores": scores, "length": tricks, "events": events}
