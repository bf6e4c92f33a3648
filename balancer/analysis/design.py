"""Design search: which combination of knobs meets several goals at once.

`tune` moves one or two knobs toward one figure. A designer's question is
wider: which goal, accident loss and hand size give a race that is fair to
every seat, lasts about ten tricks and still has comebacks? That is a search
over many knobs toward several goals, answered with statistics.

Three stages:

1. Proposals. A proposer from Optuna (TPE, Bergstra et al. 2011, multi-
   objective when there are several goals) picks each trial's setting from
   the trials before it. Why Optuna: a well-kept library whose TPE handles
   ordered and listed values and several objectives at once, and whose
   studies live in a real database (SQLite through its own storage), so a
   second run continues a study and a killed one loses only the trial in
   flight. Its proposals depend only on its seed and the trials' results,
   and every trial plays games 0..n-1 of its setting at the variant's seed
   (common seeds), so a study is the same on one machine or a Dask cluster.
2. Every trial is a report folder (trials/NNN-setting/), played as `run`
   plays; its goals are scored by their estimates: a target's distance,
   a bound's excess (0 when met), a min's value, a max's negative.
3. Finalists. The best trials (the proposer's Pareto front, nearest the
   goals first) are played again with more games, on common seeds, each a
   report folder (finalists/). One finalist is *shown better* than another
   on a goal when its interval says so: min / max by the paired difference
   of their games (the same deals), a target or a bound by the ends of
   their intervals (its farthest loss below the other's nearest). Each test
   at 5% shared (Bonferroni) over every pair and goal. A finalist that
   another is shown better than on some goal, and not worse on any, is
   dropped. The answer: the one left, with an interval on every goal; or,
   when several are left, the front of settings the games can't tell apart.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from balancer.analysis import sweep, tune
from balancer.analysis.expect import FigureDef
from balancer.analysis.plays import Games
from balancer.config.variant import Variant
from balancer.errors import UserError
from balancer.stats import intervals

ALPHA = 0.05
MAX_SETTINGS = 10**12  # points in the whole space: a guard, not a limit anyone meets


# --- what is searched and what is sought -------------------------------------------


@dataclass(frozen=True)
class Knob:
    """One knob of the search and its values, in order (a range or a listed set)."""

    name: str
    values: tuple[Any, ...]


def parse_knob(text: str, variant: Variant) -> Knob:
    """`KNOB=LO..HI[:STEP]` (numbers, as tune) or `KNOB=a,b,c` (any values, as sweep),
    with `rules.`/`scoring.` before KNOB or not; `players` too."""
    _, _, values = text.partition("=")
    if ".." in values and "[" not in values and "{" not in values:
        found = tune.parse_knob(text, variant)
        return Knob(found.name, found.values)
    name, listed = sweep.parse_setting(text, variant, option="--knob")
    return Knob(name, tuple(listed))


_BOUND = re.compile(r"^(?P<figure>[^<>=]+?)\s*(?P<op><=|>=|=)\s*(?P<value>[^<>=]+)$")


@dataclass(frozen=True)
class Goal:
    """One goal: the figure at a target, at most or at least a bound, or its min or max."""

    figure: FigureDef
    kind: str  # "target", "at_most", "at_least", "min" or "max"
    value: float | None
    text: str

    def loss(self, estimate: float) -> float:
        """How far from the goal (0 or less is as good as it gets for a target or bound)."""
        return self.loss_range(estimate, estimate)[0]

    def loss_range(self, low: float, high: float) -> tuple[float, float]:
        """The least and the most loss over the interval [low, high]."""
        v = self.value
        if self.kind == "target":
            assert v is not None
            return max(0.0, low - v, v - high), max(abs(low - v), abs(high - v))
        if self.kind == "at_most":
            assert v is not None
            return max(0.0, low - v), max(0.0, high - v)
        if self.kind == "at_least":
            assert v is not None
            return max(0.0, v - high), max(0.0, v - low)
        if self.kind == "min":
            return low, high
        return -high, -low

    def met(self, low: float, high: float) -> bool | None:
        """Target: the interval holds it; bound: the whole interval keeps it; min/max: None."""
        v = self.value
        if self.kind == "target":
            return bool(low <= v <= high)  # type: ignore[operator]
        if self.kind == "at_most":
            return bool(high <= v)  # type: ignore[operator]
        if self.kind == "at_least":
            return bool(low >= v)  # type: ignore[operator]
        return None


def parse_goal(text: str, variant: Variant) -> Goal:
    """`FIGURE=VALUE`, `FIGURE<=VALUE`, `FIGURE>=VALUE`, `FIGURE min` or `FIGURE max`."""
    where = f"--goal {text}"
    words = text.split()
    if len(words) == 2 and words[1] in ("min", "max"):
        name, kind, value = words[0], words[1], None
    else:
        found = _BOUND.match(text.strip())
        if found is None:
            raise UserError(
                "expected FIGURE=VALUE, FIGURE<=VALUE, FIGURE>=VALUE or 'FIGURE min|max'",
                key=where,
            )
        name = found["figure"].strip()
        kind = {"=": "target", "<=": "at_most", ">=": "at_least"}[found["op"]]
        try:
            value = float(found["value"])
        except ValueError:
            raise UserError(f"{found['value'].strip()!r} is not a number", key=where) from None
        if not math.isfinite(value):
            raise UserError("the goal's value must be finite", key=where)
    figure = tune.one_figure(name, variant, where)
    if kind in ("min", "max"):  # compared game by game between settings
        tune.paired_only(figure, where)
    return Goal(figure, kind, value, text.strip())


# --- scoring a setting ---------------------------------------------------------------


@dataclass(frozen=True)
class Measured:
    """One goal's figure on some games: its estimate and 95% interval."""

    estimate: float
    low: float
    high: float


def measure(goals: Sequence[Goal], games: Games) -> list[Measured]:
    return [Measured(*tune.figure_interval(goal.figure, games)) for goal in goals]


def losses(goals: Sequence[Goal], measured: Sequence[Measured]) -> list[float]:
    return [g.loss(m.estimate) for g, m in zip(goals, measured, strict=True)]


@dataclass
class Finalist:
    point: dict[str, Any]
    trial: int  # the trial that proposed it
    games: Games
    folder: str  # its report folder, relative to the search's folder
    measured: list[Measured] = field(default_factory=list)
    kept: bool = True
    beaten_by: list[int] = field(default_factory=list)  # finalists shown better on a goal


def shown_better(goal: Goal, a: Finalist, b: Finalist, k: int, alpha: float) -> bool:
    """Whether finalist `a` is shown better than `b` on goal number `k`, one-sided at
    `alpha`: min / max by the paired per-game difference on the games both played
    (common seeds); a target or bound by the ends of their intervals."""
    if goal.kind in ("min", "max"):
        n = min(a.games.n, b.games.n)
        if n < 2:
            return False
        d = tune.series(goal.figure, b.games.head(n)) - tune.series(goal.figure, a.games.head(n))
        if goal.kind == "max":
            d = -d
        return bool(intervals.mean_interval(d, level=1 - 2 * alpha).low > 0)
    level = 1 - 2 * alpha
    ends_a = tune.figure_interval(goal.figure, a.games, level)[1:]
    ends_b = tune.figure_interval(goal.figure, b.games, level)[1:]
    return goal.loss_range(*ends_a)[1] < goal.loss_range(*ends_b)[0]


def settle(goals: Sequence[Goal], finalists: list[Finalist]) -> None:
    """Mark each finalist kept or not (module docstring, stage 3)."""
    pairs = len(finalists) * (len(finalists) - 1)
    alpha = ALPHA / max(1, pairs * len(goals))
    for f in finalists:
        f.measured = measure(goals, f.games)
    better = {
        (i, j, k): shown_better(goal, a, b, k, alpha)
        for i, a in enumerate(finalists)
        for j, b in enumerate(finalists)
        if i != j
        for k, goal in enumerate(goals)
    }
    for j, b in enumerate(finalists):
        for i in range(len(finalists)):
            if i == j:
                continue
            ahead = any(better[(i, j, k)] for k in range(len(goals)))
            behind = any(better[(j, i, k)] for k in range(len(goals)))
            if ahead and not behind:
                b.beaten_by.append(i)
        b.kept = not b.beaten_by


def choose_finalists(
    trials: Sequence[dict[str, Any]], goals: Sequence[Goal], most: int
) -> list[dict[str, Any]]:
    """The trials worth playing again: those no other trial beats on every goal (the
    front), nearest the goals first (their losses, each scaled by its spread over the
    trials, summed), then the next best, up to `most`; one trial per setting."""
    done = [t for t in trials if t.get("losses") is not None]
    if not done:
        return []
    table = np.array([t["losses"] for t in done], dtype=float)
    spread = np.ptp(table, axis=0)
    spread[spread == 0] = 1.0
    total = (table - table.min(axis=0)) / spread
    rank = total.sum(axis=1)

    def dominated(i: int) -> bool:
        return any(
            bool(np.all(table[j] <= table[i]) and np.any(table[j] < table[i]))
            for j in range(len(done))
            if j != i
        )

    order = sorted(range(len(done)), key=lambda i: (dominated(i), rank[i], done[i]["number"]))
    chosen: list[dict[str, Any]] = []
    seen: list[dict[str, Any]] = []
    for i in order:
        if done[i]["point"] in seen:
            continue
        seen.append(done[i]["point"])
        chosen.append(done[i])
        if len(chosen) == most:
            break
    return chosen


# --- the answer ----------------------------------------------------------------------


@dataclass
class Answer:
    goals: list[Goal]
    finalists: list[Finalist]

    @property
    def kept(self) -> list[Finalist]:
        return [f for f in self.finalists if f.kept]

    @property
    def kind(self) -> str:
        """ "best": one setting left; "front": several the games can't tell apart."""
        return "best" if len(self.kept) == 1 else "front"

    def to_json(self) -> dict[str, Any]:
        def entry(f: Finalist) -> dict[str, Any]:
            return {
                "point": dict(f.point),
                "trial": f.trial,
                "games": f.games.n,
                "folder": f.folder,
                "kept": f.kept,
                "shown_worse_than": [self.finalists[i].point for i in f.beaten_by],
                "goals": {
                    g.text: {
                        "estimate": m.estimate,
                        "interval": [m.low, m.high],
                        "met": g.met(m.low, m.high),
                    }
                    for g, m in zip(self.goals, f.measured, strict=True)
                },
            }

        return {
            "answer": self.kind,
            "settings": [entry(f) for f in self.kept],
            "finalists": [entry(f) for f in self.finalists],
        }


def label(point: dict[str, Any]) -> str:
    return sweep.point_label(point)


PlayFn = Callable[[Variant, str], tuple[Games, str]]
