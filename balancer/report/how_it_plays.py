"""How the games played, as report.json keeps it: `how_it_plays`, one object per figure.

stats/how_it_plays.py gives each figure with its 95% interval (HowItPlays); its
`to_json` is the block's document, which the classes below read back and check
like every other figure of report.json (figures.py). A report from before the
block (or from a run whose games kept no record of their steps) has none: the
Report's `how_it_plays` is None and no renderer shows the section.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from balancer.report.figures import NULLABLE, Figures, Interval
from balancer.stats.how_it_plays import HowItPlays

# The checkpoints of the leader-wins curve, in percent of the game (games/progress.py).
CHECKPOINTS = (25, 50, 75)


@dataclass(frozen=True, kw_only=True)
class PlayFigure(Figures):
    """One figure over the run's games: its value, 95% interval, standard error, games."""

    mean: float
    ci95: Interval
    se: float
    n: int


@dataclass(frozen=True, kw_only=True)
class HowItPlaysFigures(Figures):
    """report.json's `how_it_plays` (docs/analysis.md, "How a game plays").

    A leader-wins figure is null when no game had a sole leader at its checkpoint.
    """

    lead_changes: PlayFigure
    decided_at: PlayFigure
    comeback: PlayFigure
    drama: PlayFigure
    leader_wins_25: PlayFigure | None = field(default=None, metadata=NULLABLE)
    leader_wins_50: PlayFigure | None = field(default=None, metadata=NULLABLE)
    leader_wins_75: PlayFigure | None = field(default=None, metadata=NULLABLE)

    @classmethod
    def of(cls, figures: HowItPlays) -> HowItPlaysFigures:
        """The block of a run's figures: HowItPlays.to_json, read back as every report is."""
        return cls.from_json(figures.to_json(), "how_it_plays", "the run's figures")

    def leader_wins(self) -> tuple[PlayFigure | None, ...]:
        """The curve: the leader's win share at each of CHECKPOINTS."""
        return (self.leader_wins_25, self.leader_wins_50, self.leader_wins_75)

    def means(self) -> dict[str, PlayFigure]:
        """The figures shown as a table: lead changes, decided at, comeback, drama."""
        return {
            "lead_changes": self.lead_changes,
            "decided_at": self.decided_at,
            "comeback": self.comeback,
            "drama": self.drama,
        }
