"""Da Qi Zi's table, knobs and events: what a variant may set (RULES.md §3 and its open
points) and what a report counts; the engine (engine.py) plays by them."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from balancer import knobs
from balancer.games.daqizi import combos as dc
from balancer.games.daqizi.deck import DEFAULT_DECK, check_deck

PLAYERS = 4
HAND = 8
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
LEAD_EVENT = tuple(f"lead_{form}" for form in dc.FORMS)

KNOBS = (
    knobs.custom(
        "deck",
        "rules",
        DEFAULT_DECK,
        "copies of each rank in each suit; a suit holds 16 (4 players × 8 cards, none left"
        " over), a rank 0..7",
        check_deck,
        "mapping {soldier, cannon, horse, chariot, elephant, advisor, general: 0..7}, sum 16",
        listed_at_default=False,
    ),
    knobs.boolean(
        "mixed_suit_combos",
        "rules",
        False,
        "multi-card combinations may mix suits; strength is rank, then number of red cards",
    ),
    knobs.boolean(
        "may_discard_when_able",
        "rules",
        False,
        "a player who can beat the best combination may still discard",
    ),
    knobs.boolean(
        "no_capture_last_single_rule",
        "rules",
        True,
        "a player with nothing captured can't win a last trick that is a single",
    ),
    knobs.choice("first_dealer", "rules", "seat0", "who deals first", ("seat0", "random")),
    # Bounds a designer won't meet but that keep a game short enough to finish.
    knobs.integer(
        "max_deals", "rules", 16, "the game ends after this many deals", low=1, high=1000
    ),
    knobs.integer(
        "starting_chips", "rules", 20, "chips each player starts with", low=1, high=1_000_000
    ),
    knobs.integer(
        "bust_at",
        "rules",
        0,
        "a player with at most this many chips is bust: the game ends",
        low=-1_000_000,
        high=1_000_000,
    ),
    knobs.integer(
        "base_payment", "scoring", 4, "a loser pays this minus its captured cards", low=0, high=1000
    ),
    knobs.integer(
        "zero_capture_penalty",
        "scoring",
        1,
        "extra payment by a loser with nothing captured",
        low=0,
        high=1000,
    ),
    knobs.integer(
        "first_deal_multiplier", "scoring", 1, "the multiplier of deal 1", low=0, high=1000
    ),
    knobs.integer(
        "renchan_step",
        "scoring",
        1,
        "from deal 2 the multiplier is 1 + renchan_step × the dealer's winning streak",
        low=0,
        high=1000,
    ),
    knobs.integer(
        "multiplier_cap",
        "scoring",
        None,
        "the highest multiplier a deal can have (none: no cap)",
        low=1,
        high=1_000_000,
        none_allowed=True,
    ),
)


def unplayable(rules: Mapping[str, Any], players: int) -> str | None:
    if players != PLAYERS:
        return f"da-qi-zi is played by exactly {PLAYERS} players, not {players}"
    if rules["starting_chips"] <= rules["bust_at"]:
        return (
            f"starting_chips ({rules['starting_chips']}) must be above bust_at "
            f"({rules['bust_at']}), or every player starts bust"
        )
    return None
