"""What one count of each Fish! Dash! Cash! event is (RULES.md §5), in one line.

Plain data, keyed exactly by `SPEC.events`: `balancer events`, summary.md,
report.html and the terminal headline explain the figures with it.
"""

EVENT_MEANINGS: dict[str, str] = {
    "neko_ni_koban": "a trick in which 猫に小判 fired (every follower off-colour): the lead "
    "card is discarded and the followers' cards resolve, lowest first",
    "cards_cancelled": "a card discarded unresolved: off-colour, a duplicate number, or the lead "
    "card under 猫に小判",
    "steals": "a dash that stole a fish from another player's territory",
    "protects": "a dash that protected its owner's fish (by choice, or because there was "
    "nothing to steal)",
    "cash_events": "a cash card resolved (one that finds no fish counts too)",
    "fish_cashed": "a fish turned into money",
    "fish_uncashed_at_end": "a fish still face up in a territory when the game ends",
    "lead_changes": "the sole money leader after a trick is a different player from the "
    "previous sole leader (the first sole leader is not a change)",
}
