"""What one count of each Kimekimera event is (RULES.md §5), in one line.

Plain data, keyed exactly by `SPEC.events`: `balancer events`, summary.md,
report.html and the terminal headline explain the figures with it.
"""

EVENT_MEANINGS: dict[str, str] = {
    "colour_bonus_1": "a player-round scored with exactly 1 colour match with the theme",
    "colour_bonus_2": "a player-round scored with 2 colour matches with the theme",
    "exact_hits": "a player-round with error 0: my sum equal to the theme's (robots included)",
    "robots_made": "a breeding whose new chimera holds a grey card (a robot)",
    "reshuffles": "the discard shuffled into a new deck",
}
