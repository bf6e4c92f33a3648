"""Two samples of games compared figure by figure, for the engines' cross-checks.

A cross-check (tests/test_*_crosscheck.py) plays a game with `random` in every
seat twice — once on the real engine, once on an independent reference — and
hands both sides' games here as rows (scores, length, events). Each row becomes
one value per figure a report shows: per-seat mean score and win share, length,
and each §5 event's mean per game and share of games with at least one. Every
figure is then compared with a two-sample test (Welch's t for means, a pooled
two-proportion z for 0/1 shares) and the p-values of a whole run Holm-adjusted
together; a figure disagrees when its adjusted p is below `ALPHA`.

What stays with each game: how its two sides are sampled, its figure names,
which groups (player counts or knob variants) a run covers, and its own checks.
"""

from __future__ import annotations

import argparse
import math
import time
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

import numpy as np
from scipy import stats as sps

from balancer import knobs
from balancer.bot import RandomBot
from balancer.games.api import GameSpec, win_shares
from balancer.sim.play import Seat, play_game

ALPHA = 0.001  # Holm-adjusted p below this: engine and reference disagree

# One game: scores per seat, length, §5 events by name.
Row = tuple[Sequence[float], int, Mapping[str, float]]
# One side's figures: {figure name: one value per game}.
Sample = dict[str, np.ndarray]
# What the two samples of one comparison are drawn for: a player count, a variant.
G = TypeVar("G", bound=Hashable)


# --- the engine's side ----------------------------------------------------------


def engine_rules(spec: GameSpec, overrides: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The engine's rules: defaults, with `overrides` checked by their knobs."""
    rules = knobs.defaults(spec.knobs)
    by_name = {knob.name: knob for knob in spec.knobs}
    for name, value in (overrides or {}).items():
        rules[name] = by_name[name].check(value)
    return rules


def engine_rows(
    spec: GameSpec,
    players: int,
    games: int,
    seed: int,
    overrides: Mapping[str, Any] | None = None,
) -> list[Row]:
    """Games 0..games-1 of `seed` as a run plays them, `random` in every seat.

    That is the game's compiled kernel where it has one (the path every
    all-built-in run takes; test_<game>_kernel.py shows it plays the Python
    engine's games move for move), else the Python engine step by step.
    """
    from balancer.sim import compiled

    rules = engine_rules(spec, overrides)
    reason = spec.unplayable(rules, players)
    assert reason is None, reason
    kernel = compiled.kernel_of(spec.name)
    if kernel is not None:
        out = kernel.play_chunk(rules, players, seed, 0, games, [("random", {})] * players, False)
        return [
            (scores.tolist(), int(length), dict(zip(spec.events, events.tolist(), strict=True)))
            for scores, length, events in zip(out.scores, out.length, out.events, strict=True)
        ]
    seats = [Seat("random", RandomBot()) for _ in range(players)]
    rows: list[Row] = []
    for index in range(games):
        record = play_game(spec, rules, seats, seed, index)
        rows.append((list(record.scores), record.length, dict(record.events)))
    return rows


def reference_rows(games: Iterable[Mapping[str, Any]]) -> list[Row]:
    """Rows from a reference's games: dicts with "scores", "length" and "events"."""
    return [(game["scores"], game["length"], game["events"]) for game in games]


# --- rows to figures ------------------------------------------------------------


@dataclass(frozen=True)
class Layout:
    """How one game's rows become figures, and what the figures are called.

    Figures, in this order: seat{i}.{score} and seat{i}.win per seat, {length},
    then {event}.per_game and {event}.share (games with at least one) per event;
    an event in `mean_only` (a value per game, not a count) has no share.
    """

    score: str
    length: str
    events: tuple[str, ...]
    higher_is_better: bool = True
    mean_only: tuple[str, ...] = ()

    def sample(self, rows: Iterable[Row], players: int) -> Sample:
        out: dict[str, list[float]] = {}
        for scores, length, events in rows:
            wins = win_shares(scores, higher_is_better=self.higher_is_better)
            for seat in range(players):
                out.setdefault(f"seat{seat}.{self.score}", []).append(float(scores[seat]))
                out.setdefault(f"seat{seat}.win", []).append(wins[seat])
            out.setdefault(self.length, []).append(float(length))
            for name in self.events:
                out.setdefault(f"{name}.per_game", []).append(float(events[name]))
                if name not in self.mean_only:
                    out.setdefault(f"{name}.share", []).append(1.0 if events[name] >= 1 else 0.0)
        return {key: np.asarray(values, dtype=float) for key, values in out.items()}


# --- the tests of one figure ----------------------------------------------------


def welch_p(a: np.ndarray, b: np.ndarray) -> float:
    """Two-sided Welch t-test; two constant samples are equal (p=1) or not (p=0)."""
    if a.var() == 0 and b.var() == 0:
        return 1.0 if a.mean() == b.mean() else 0.0
    return float(sps.ttest_ind(a, b, equal_var=False).pvalue)


def two_proportion_p(a: np.ndarray, b: np.ndarray) -> float:
    """Two-sided pooled two-proportion z-test on 0/1 samples."""
    n_a, n_b = len(a), len(b)
    pooled = (a.sum() + b.sum()) / (n_a + n_b)
    if pooled in (0.0, 1.0):
        return 1.0
    se = math.sqrt(pooled * (1 - pooled) * (1 / n_a + 1 / n_b))
    z = (a.mean() - b.mean()) / se
    return float(2 * sps.norm.sf(abs(z)))


def holm(p_values: list[float]) -> list[float]:
    """Holm step-down adjusted p-values, in the input order."""
    m = len(p_values)
    order = sorted(range(m), key=lambda i: p_values[i])
    adjusted = [0.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p_values[i]))
        adjusted[i] = running
    return adjusted


# --- a whole run ----------------------------------------------------------------


@dataclass
class Figure:
    group: Hashable  # what the two samples were drawn for: a player count, a variant
    name: str
    engine_mean: float
    reference_mean: float
    p: float
    p_holm: float = 1.0


def compare(
    groups: Iterable[G],
    engine: Callable[[G], Sample],
    reference: Callable[[G], Sample],
) -> tuple[list[Figure], dict[str, float]]:
    """Every figure of every group, with raw and Holm-adjusted (over all) p-values.

    Also the seconds each side took to sample, {"engine": s, "reference": s}.
    """
    figures: list[Figure] = []
    timing = {"engine": 0.0, "reference": 0.0}
    for group in groups:
        started = time.perf_counter()
        eng = engine(group)
        timing["engine"] += time.perf_counter() - started
        started = time.perf_counter()
        rfc = reference(group)
        timing["reference"] += time.perf_counter() - started
        assert eng.keys() == rfc.keys()
        for name in eng:
            # Win shares are 1/k in ties: a mean, so Welch; 0/1 shares: two proportions.
            test = two_proportion_p if name.endswith(".share") else welch_p
            p = test(eng[name], rfc[name])
            figures.append(Figure(group, name, eng[name].mean(), rfc[name].mean(), p))
    for figure, adjusted in zip(figures, holm([f.p for f in figures]), strict=True):
        figure.p_holm = adjusted
    return figures, timing


def disagreeing(figures: Iterable[Figure]) -> list[Figure]:
    """The figures whose Holm-adjusted p is below `ALPHA`."""
    return [f for f in figures if f.p_holm < ALPHA]


def describe(figures: Sequence[Figure], group: str = "P") -> str:
    """A table of figures, one a line; `group` heads the group column."""
    side = ">" if all(isinstance(f.group, int) for f in figures) else "<"  # numbers right
    g = max([len(group)] + [len(str(f.group)) for f in figures])
    n = max([len("figure")] + [len(f.name) for f in figures])
    lines = [
        f"{group:{side}{g}} {'figure':<{n}} {'engine':>10} {'reference':>10} {'p':>10} "
        f"{'p_holm':>8}"
    ]
    for f in figures:
        lines.append(
            f"{f.group!s:{side}{g}} {f.name:<{n}} {f.engine_mean:>10.4f} "
            f"{f.reference_mean:>10.4f} {f.p:>10.3g} {f.p_holm:>8.3g}"
        )
    return "\n".join(lines)


# --- the big run, by hand -------------------------------------------------------


def argument_parser(
    doc: str, variants: Iterable[str], games: int, games_help: str
) -> argparse.ArgumentParser:
    """The options every cross-check takes when run by hand: --games, --seed, --variant."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("--games", type=int, default=games, help=games_help)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--variant", choices=sorted(variants), default="default")
    return parser


def report(figures: list[Figure], timing: Mapping[str, float], run: str, group: str = "P") -> None:
    """Print a big run: every figure, `run` (what was played) and the seconds, the verdict."""
    print(describe(figures, group))
    print(f"{run}; seconds: {dict(timing)}")
    print(f"smallest raw p: {min(f.p for f in figures):.3g}; figures: {len(figures)}")
    survivors = [f"{f.group} {f.name}" for f in disagreeing(figures)]
    print(f"surviving Holm at {ALPHA}: {survivors}")
