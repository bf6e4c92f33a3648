"""How the games played, as report.json keeps it: `how_it_plays`, one object per figure.

stats/how_it_plays.py gives each figure with its 95% interval (HowItPlays); its
`to_json` is the block's document, which the classes below read back and check
like every other figure of report.json (figures.py). A report from before the
block (or from a run whose games kept no record of their steps) has none: the
Report's `how_it_plays` is None and no renderer shows the section.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from balancer import i18n
from balancer.numbers import decimals, fixed, percent
from balancer.report.figures import NULLABLE, Figures, Interval
from balancer.stats.how_it_plays import HowItPlays
from balancer.stats.play_names import OPT_IN as OPT_IN_NAMES

# The checkpoints of the leader-wins curve, in percent of the game (games/progress.py).
CHECKPOINTS = (25, 50, 75)
# Figures shown in percent: shares of the win, and decided-at (a share of the game).
# The `plays:` figures (stats/play_names.py), all shares or differences of win shares.
OPT_IN = tuple(OPT_IN_NAMES.values())
_IN_PERCENT = ("decided_at", "comeback", "leader_wins", "decision_share", *OPT_IN)


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

    A leader-wins figure is null when no game had a sole leader at its checkpoint;
    `comeback_margin` is the variant's (a comeback from that far behind, or from last),
    absent when it said none (last only). `decision_share` is absent from a report
    from before turns were counted.

    The rest are measured only for a variant with `plays:` (config/plays_sample.py), on
    its own sample after the games (analysis/plays_measure.py), and absent otherwise:
    `real_decisions` and `kingmaking` with search's evaluations (search_budget > 0),
    `luck` (the deal's share of the outcome's variance, a bootstrap interval) with
    duplicate play (deals > 0), and what search buys over the scripted bot and over
    random with both (`search_over_scripted` absent where the game's field is random).
    """

    lead_changes: PlayFigure
    decided_at: PlayFigure
    comeback: PlayFigure
    drama: PlayFigure
    leader_wins_25: PlayFigure | None = field(default=None, metadata=NULLABLE)
    leader_wins_50: PlayFigure | None = field(default=None, metadata=NULLABLE)
    leader_wins_75: PlayFigure | None = field(default=None, metadata=NULLABLE)
    comeback_margin: int | None = None
    decision_share: PlayFigure | None = None
    real_decisions: PlayFigure | None = None
    kingmaking: PlayFigure | None = None
    luck: PlayFigure | None = None
    search_over_scripted: PlayFigure | None = None
    search_over_random: PlayFigure | None = None

    @classmethod
    def of(cls, figures: HowItPlays, margin: int | None = None) -> HowItPlaysFigures:
        """The block of a run's figures (its comeback `margin`: Variant.comeback_margin):
        HowItPlays.to_json, read back as every report is."""
        block = figures.to_json()
        if margin is not None:
            block["comeback_margin"] = margin
        return cls.from_json(block, "how_it_plays", "the run's figures")

    def with_plays(self, found: Mapping[str, PlayFigure | None]) -> HowItPlaysFigures:
        """The block with a variant's `plays:` figures (analysis/plays_measure.py) added."""
        unknown = set(found) - set(OPT_IN)
        if unknown:
            raise ValueError(f"not a plays: figure: {', '.join(sorted(unknown))}")
        return replace(self, **dict(found))  # type: ignore[arg-type]  # checked just above

    def leader_wins(self) -> tuple[PlayFigure | None, ...]:
        """The curve: the leader's win share at each of CHECKPOINTS."""
        return (self.leader_wins_25, self.leader_wins_50, self.leader_wins_75)

    def means(self) -> dict[str, PlayFigure]:
        """The figures shown as a table: lead changes, decided at, comeback, drama, and
        the decision share and `plays:` figures where the report has them."""
        shown = {
            "lead_changes": self.lead_changes,
            "decided_at": self.decided_at,
            "comeback": self.comeback,
            "drama": self.drama,
        }
        if self.decision_share is not None:
            shown["decision_share"] = self.decision_share
        for key in OPT_IN:  # a variant's `plays:` figures, where it measured them
            figure = getattr(self, key)
            if figure is not None:
                shown[key] = figure
        return shown


@dataclass(frozen=True)
class Row:
    """One figure as summary.md and report.html show it, in the report's language."""

    label: str
    value: str  # at the precision its interval backs (balancer/numbers.py)
    low: str  # the interval's ends, as `value`; "" for a figure with no value
    high: str
    meaning: str


def rows(played: HowItPlaysFigures, lang: str | None = None) -> list[Row]:
    """The section's table: lead changes, decided at, comeback, drama, the decision share,
    then the curve."""
    means = played.means()
    found: list[tuple[str, str, PlayFigure | None]] = [
        (key, i18n.text(f"play.{key}", lang), figure) for key, figure in means.items()
    ]
    found += [
        ("leader_wins", i18n.text("play.leader_wins", lang, at=at), figure)
        for at, figure in zip(CHECKPOINTS, played.leader_wins(), strict=True)
    ]
    out = []
    for (key, label, figure), at in zip(found, (0,) * len(means) + CHECKPOINTS, strict=True):
        meaning = _meaning(key, at, played.comeback_margin, lang)
        if figure is None:  # a leader-wins share where no game had a sole leader
            out.append(Row(label, i18n.text("play.no_leader", lang), "", "", meaning))
            continue
        value, low, high = _shown(figure, key in _IN_PERCENT)
        out.append(Row(label, value, low, high, meaning))
    return out


def _meaning(key: str, at: int, margin: int | None, lang: str | None) -> str:
    """What the figure of `key` counts; a comeback says its margin when the variant set one."""
    if key == "comeback" and margin is not None:
        return i18n.text("play.comeback.meaning_margin", lang, margin=margin)
    return i18n.text(f"play.{key}.meaning", lang, **({"at": at} if at else {}))


def _shown(figure: PlayFigure, in_percent: bool) -> tuple[str, str, str]:
    """(value, low, high) at the precision the interval backs: in percent for a share."""
    low, high = figure.ci95
    if in_percent:
        places = decimals(100 * low, 100 * high)
        return percent(figure.mean, places), percent(low, places), percent(high, places)
    width = decimals(low, high)
    places = 2 if width is None else width
    return fixed(figure.mean, places), fixed(low, places), fixed(high, places)
