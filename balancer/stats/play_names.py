"""How the games played, by name: the one spelling of each figure for every command.

`expect:`, `tune --target`, `design --goal`, `sweep --figure` and the rows of
`diff` name a figure of report.json's `how_it_plays` as below
(analysis/figure_names.py gathers every figure's name; stats/figures.py makes
the diff rows). Here, beneath both and importing nothing, so that reading a
variant's targets costs no import.

Comeback and the leader-wins curve are shares of the win (a leader-wins share
over the games with a sole leader at its checkpoint), the rest means over games.
The decision share is a share of the seats' turns (those with a choice), counted
as the games are played rather than read from their progress. The `plays:` figures
(OPT_IN) exist only in a report of a variant that asks for them.
"""

from __future__ import annotations

# Each figure's name, and its key in report.json's `how_it_plays` (games/progress.py's NAMES).
HOW_IT_PLAYS = {
    "how_it_plays.lead_changes.mean": "lead_changes",
    "how_it_plays.decided_at.mean": "decided_at",
    "how_it_plays.comeback.share": "comeback",
    "how_it_plays.drama.mean": "drama",
    "how_it_plays.leader_wins_25.share": "leader_wins_25",
    "how_it_plays.leader_wins_50.share": "leader_wins_50",
    "how_it_plays.leader_wins_75.share": "leader_wins_75",
}
# The decision share's name and key: Σ choices / Σ turns (table.py's turns, choices).
DECISION_SHARE = "how_it_plays.decision_share.share"
DECISION_KEY = "decision_share"
# Every name of the `how_it_plays` block a run always has, progress figures first.
ALL = {**HOW_IT_PLAYS, DECISION_SHARE: DECISION_KEY}

# The figures a run measures only for a variant with `plays:` (config/plays_sample.py), on
# that sample after the games: name -> key in `how_it_plays`. Real decisions and kingmaking
# need search's evaluations (search_budget > 0); the deal's share of the outcome (luck)
# duplicate play (deals > 0); what search buys over the scripted bot and random both.
REAL_DECISIONS = "how_it_plays.real_decisions.share"
KINGMAKING = "how_it_plays.kingmaking.share"
LUCK = "how_it_plays.luck.share"
SEARCH_OVER_SCRIPTED = "how_it_plays.search_over_scripted.mean"
SEARCH_OVER_RANDOM = "how_it_plays.search_over_random.mean"
OPT_IN = {
    REAL_DECISIONS: "real_decisions",
    KINGMAKING: "kingmaking",
    LUCK: "luck",
    SEARCH_OVER_SCRIPTED: "search_over_scripted",
    SEARCH_OVER_RANDOM: "search_over_random",
}


def opt_in_names(search_budget: int, deals: int, field_is_random: bool) -> list[str]:
    """The `plays:` figures a run of this sample will have (`field_is_random`: the game
    has no scripted bot, so duplicate play's field is random itself)."""
    names = [REAL_DECISIONS, KINGMAKING] if search_budget > 0 else []
    if deals > 0:
        names.append(LUCK)
        if search_budget > 0:
            names += [] if field_is_random else [SEARCH_OVER_SCRIPTED]
            names.append(SEARCH_OVER_RANDOM)
    return names
