"""What one count of each Da Qi Zi event is (RULES.md §5), in one line.

Plain data, keyed exactly by `SPEC.events`: `balancer events`, summary.md,
report.html and the terminal headline explain the figures with it.
"""

EVENT_MEANINGS: dict[str, str] = {
    "deals": "a deal played",
    "tricks": "a trick played (tricks per deal = tricks / deals; the seed says about 5)",
    "busts": "a player at or below the bust level when the game ends",
    "max_multiplier": "(a value, not a count) the highest multiplier of any deal in the game",
    "dealer_wins": "a deal won by its dealer (連荘: the dealer deals again, at a higher "
    "multiplier)",
    "zero_capture": "a player ending a deal with nothing captured (pays base_payment + "
    "zero_capture_penalty)",
    "last_trick_rule": "a follower in a single-card last trick, with nothing captured, whose card "
    "would have beaten the best so far (it counts as a discard)",
    "lead_single": "a trick led with a single card",
    "lead_pair": "a trick led with a pair",
    "lead_triple": "a trick led with a triple of soldiers",
    "lead_sequence": "a trick led with a sequence (general-advisor-elephant or "
    "chariot-horse-cannon)",
    "lead_four": "a trick led with four soldiers",
    "lead_five": "a trick led with five soldiers",
}
