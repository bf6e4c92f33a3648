"""How the games played, by name: the one spelling of each figure for every command.

`expect:`, `tune --target`, `design --goal`, `sweep --figure` and the rows of
`diff` name a figure of report.json's `how_it_plays` as below
(analysis/figure_names.py gathers every figure's name; stats/figures.py makes
the diff rows). Here, beneath both and importing nothing, so that reading a
variant's targets costs no import.

Comeback and the leader-wins curve are shares of the win (a leader-wins share
over the games with a sole leader at its checkpoint), the rest means over games.
The decision share is a share of the seats' turns (those with a choice), counted
as the games are played rather than read from their progress.
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
# Every name of the `how_it_plays` block, progress figures first.
ALL = {**HOW_IT_PLAYS, DECISION_SHARE: DECISION_KEY}
