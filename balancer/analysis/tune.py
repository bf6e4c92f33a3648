"""Tuning: the knob value that brings a figure to a target (or to its min or max), by
successive halving over common seeds.

Search. The candidates are the knob's values LO, LO+STEP, ..., HI (two knobs:
every pair). Each evaluation is noisy, so the budget goes where it decides
something (successive halving, Karnin, Koren & Somekh 2013; Jamieson &
Talwalkar 2016): round 0 plays r0 games of every candidate; after each round
the better half (by the estimated loss: |figure − target|, or the figure
itself for min, minus it for max) goes on, and each survivor's games double
(r0·2^r in all), until one is left. Every candidate plays the same games
0, 1, 2, ... (common seeds: game i starts from the same deal whatever the
knob), so candidates are compared on the same deals and the noise of the
deal cancels in their differences. A candidate that a sweep already played
(same variant, same seed) starts with the sweep's games.

What is reported: the best candidate with its figure's 95% interval; the
knob values not ruled out (target: their figure's 95% interval holds the
target; min / max: not worse than the best by a one-sided 5% paired t-test
on the games both played); the figure at every candidate with its interval
(the curve, as a chart); the games played and reused. Every figure is a
mean of per-game values (analysis/expect.py); `seat_win_share.spread` is
taken as the spread of the pair of seats farthest apart, whose per-game
differences give its interval (a little optimistic: the pair is chosen by
looking).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from balancer import knobs as knob_module
from balancer.analysis.expect import FigureDef, resolve
from balancer.analysis.plays import Games, Job
from balancer.config.variant import Variant
from balancer.errors import UserError, shown
from balancer.stats import intervals

MAX_CANDIDATES = 400
MIN_FIRST_ROUND = 30  # games per candidate in round 0: enough for a first t interval
DEFAULT_BUDGET = 20_000


# --- parsing -------------------------------------------------------------------------


@dataclass(frozen=True)
class KnobRange:
    name: str
    values: tuple[Any, ...]


def parse_knob(text: str, variant: Variant) -> KnobRange:
    """`rules.KNOB=LO..HI[:STEP]` (or scoring.KNOB, or KNOB) -> its checked values."""
    where = f"--knob {text}"
    path, sep, span = text.partition("=")
    parts = path.strip().split(".")
    if not sep or len(parts) > 2 or (len(parts) == 2 and parts[0] not in knob_module.SECTIONS):
        raise UserError("expected --knob rules.KNOB=LO..HI[:STEP]", key=where)
    name = parts[-1]
    by_name = {k.name: k for k in variant.spec.knobs}
    if name not in by_name:
        raise UserError(
            f"{variant.game} has no knob {name!r} (knobs: {', '.join(by_name)})", key=where
        )
    bounds, _, step_text = span.partition(":")
    low_text, dots, high_text = bounds.partition("..")
    try:
        low, high = float(low_text), float(high_text)
        step = float(step_text) if step_text else None
    except ValueError:
        raise UserError("expected numbers: LO..HI or LO..HI:STEP", key=where) from None
    if not dots or not all(map(math.isfinite, (low, high))) or not low < high:
        raise UserError("expected LO..HI with LO < HI", key=where)
    if step is not None and not (math.isfinite(step) and step > 0):
        raise UserError(f"the STEP must be a positive number, not {step_text}", key=where)
    whole = all(v == int(v) for v in (low, high, step or 1.0))
    if step is None:
        step = 1.0 if whole else (high - low) / 10
    count = int(math.floor((high - low) / step + 1e-9)) + 1
    if count > MAX_CANDIDATES:
        raise UserError(f"{count} values; at most {MAX_CANDIDATES} (take a larger STEP)", key=where)
    values: list[Any] = []
    for k in range(count):
        raw: Any = low + k * step
        raw = int(round(raw)) if whole else round(raw, 12)
        try:
            values.append(by_name[name].check(raw))
        except ValueError as exc:
            said = str(exc)  # the knob's words name the value but for a few checks
            named = shown(raw) in said or repr(raw) in said
            prefix = "" if named else f"{shown(raw)}: "
            raise UserError(f"{prefix}{said} (tune takes numeric knobs)", key=where) from None
    return KnobRange(name, tuple(values))


@dataclass(frozen=True)
class Goal:
    """What is sought: the figure at `value` (mode "target"), or at its "min" or "max"."""

    figure: FigureDef
    mode: str
    value: float | None = None
    text: str = ""

    def loss(self, estimate: float) -> float:
        if self.mode == "target":
            assert self.value is not None
            return abs(estimate - self.value)
        return estimate if self.mode == "min" else -estimate


def parse_target(text: str, variant: Variant) -> Goal:
    """`FIGURE=VALUE`, `FIGURE min` or `FIGURE max`."""
    where = "--target"
    name, sep, value_text = text.partition("=")
    mode = "target"
    value: float | None = None
    if sep:
        try:
            value = float(value_text)
        except ValueError:
            raise UserError(f"{value_text.strip()!r} is not a number", key=where) from None
        if not math.isfinite(value):
            raise UserError("the target value must be finite", key=where)
    else:
        words = text.split()
        if len(words) != 2 or words[1] not in ("min", "max"):
            raise UserError(f"expected 'FIGURE=VALUE' or 'FIGURE min|max', got {text!r}", key=where)
        name, mode = words
    try:
        figure = resolve(name.strip(), variant)
    except ValueError as exc:
        raise UserError(str(exc), key=where) from None
    if len(figure.members) != 1 and not figure.spread:
        raise UserError(
            f"{figure.name} is one figure per seat; name a seat (seat_win_share.0) "
            "or take seat_win_share.spread",
            key=where,
        )
    return Goal(figure, mode, value, text.strip())


# --- the figure on some games --------------------------------------------------------


def series(figure: FigureDef, games: Games) -> np.ndarray:
    """Per-game values whose mean is the figure (a spread: its widest pair's differences)."""
    if not figure.spread:
        return figure.members[0].per_game(games)
    columns = [m.per_game(games) for m in figure.members]
    widest = max(range(len(columns)), key=lambda i: abs(float(np.mean(columns[i]))))
    chosen = columns[widest]
    return chosen if float(np.mean(chosen)) >= 0 else -chosen


def figure_interval(figure: FigureDef, games: Games) -> tuple[float, float, float]:
    """The figure's estimate and 95% interval on these games."""
    values = series(figure, games)
    if figure.members[0].share and not figure.spread:
        found = intervals.share_interval(values)
    else:
        found = intervals.mean_interval(values)
    return found.estimate, found.low, found.high


# --- the search ----------------------------------------------------------------------


def schedule(candidates: int, budget: int) -> list[int]:
    """Games per survivor after each round: r0, 2·r0, 4·r0, ... until one is left.

    Round r keeps ceil(C / 2^r) candidates; r0 is the largest (at least
    MIN_FIRST_ROUND) whose rounds spend at most `budget` games.
    """
    rounds = math.ceil(math.log2(candidates)) + 1 if candidates > 1 else 1
    first = max(MIN_FIRST_ROUND, budget // games_per_first(candidates, rounds))
    return [first * 2**r for r in range(rounds)]


def games_per_first(candidates: int, rounds: int) -> int:
    """Games the search plays per game of round 0 (its cost is r0 times this)."""
    return candidates + sum(
        -(-candidates // 2**r) * (2**r - 2 ** (r - 1)) for r in range(1, rounds)
    )


def planned_games(candidates: int, budget: int) -> int:
    """The games `search` will play (less what a sweep lends)."""
    rounds = schedule(candidates, budget)
    return rounds[0] * games_per_first(candidates, len(rounds))


@dataclass
class Candidate:
    point: dict[str, Any]
    variant: Variant
    games: Games
    reused: int = 0
    last_round: int = 0  # the last round it played in
    estimate: float = math.nan
    low: float = math.nan
    high: float = math.nan
    consistent: bool = False  # not ruled out as the answer


@dataclass
class TuneResult:
    goal: Goal
    knobs: list[KnobRange]
    candidates: list[Candidate]
    best: Candidate
    played: int
    reused: int
    rounds: list[int]
    skipped: list[str] = field(default_factory=list)

    @property
    def knob_names(self) -> list[str]:
        return [k.name for k in self.knobs]

    def to_json(self) -> dict[str, Any]:
        def entry(c: Candidate) -> dict[str, Any]:
            return {
                "point": dict(c.point),
                "games": c.games.n,
                "reused_games": c.reused,
                "last_round": c.last_round,
                "estimate": c.estimate,
                "interval": [c.low, c.high],
                "not_ruled_out": c.consistent,
            }

        return {
            "target": self.goal.text,
            "figure": self.goal.figure.name,
            "best": entry(self.best),
            "not_ruled_out": [dict(c.point) for c in self.candidates if c.consistent],
            "games_played": self.played,
            "games_reused": self.reused,
            "games_per_survivor_by_round": self.rounds,
            "candidates": [entry(c) for c in self.candidates],
            "skipped": self.skipped,
        }


PlayFn = Callable[[Sequence[Job]], list[Games]]


def candidates_for(base: Variant, ranges: list[KnobRange]) -> tuple[list[Candidate], list[str]]:
    """Every playable point of the grid (unplayable ones are named and left out)."""
    import itertools

    out, skipped = [], []
    for combo in itertools.product(*(r.values for r in ranges)):
        point = dict(zip([r.name for r in ranges], combo, strict=True))
        variant = base.with_knobs(point)
        why = variant.spec.unplayable(variant.rules, variant.players)
        if why:
            skipped.append(f"{_label(point)}: {why}")
            continue
        out.append(Candidate(point, variant, Games.empty(variant)))
    if not out:
        raise UserError("no value in the range can be played: " + "; ".join(skipped), key="--knob")
    return out, skipped


def _label(point: dict[str, Any]) -> str:
    return " ".join(f"{k}={v}" for k, v in point.items())


def search(
    base: Variant,
    ranges: list[KnobRange],
    goal: Goal,
    budget: int,
    play: PlayFn,
    reuse: Callable[[Variant], Games | None] | None = None,
) -> TuneResult:
    """Successive halving over the grid; `play(jobs)` plays games, `reuse(variant)` gives a
    sweep's games of that variant (games 0..n-1 at the same seed) or None."""
    pool, skipped = candidates_for(base, ranges)
    reused = 0
    if reuse is not None:
        for c in pool:
            found = reuse(c.variant)
            if found is not None and found.n:
                c.games, c.reused = found, found.n
                reused += found.n
    rounds = schedule(len(pool), budget)
    alive = list(pool)
    played = 0
    for r, target_games in enumerate(rounds):
        need = [c for c in alive if c.games.n < target_games]
        jobs = [Job(c.variant, c.games.n, target_games) for c in need]
        for c, more in zip(need, play(jobs), strict=True):
            c.games = c.games.then(more)
            played += more.n
        for c in alive:
            c.last_round = r
            c.estimate, c.low, c.high = figure_interval(goal.figure, c.games)
        alive.sort(key=lambda c: goal.loss(c.estimate))
        keep = max(1, math.ceil(len(pool) / 2 ** (r + 1)))
        alive = alive[:keep]
    best = alive[0]
    for c in pool:
        c.consistent = _not_ruled_out(goal, c, best)
    return TuneResult(goal, ranges, pool, best, played, reused, rounds, skipped)


def _not_ruled_out(goal: Goal, c: Candidate, best: Candidate) -> bool:
    if goal.mode == "target":
        assert goal.value is not None
        return c.low <= goal.value <= c.high
    if c is best:
        return True
    # min / max: is c worse than the best? One-sided paired t on the games both played.
    n = min(c.games.n, best.games.n)
    if n < 2:
        return True
    d = series(goal.figure, c.games.head(n)) - series(goal.figure, best.games.head(n))
    if goal.mode == "max":
        d = -d
    found = intervals.mean_interval(d, level=0.90)  # its low end: the one-sided 95% bound
    return bool(found.low <= 0)


# --- output --------------------------------------------------------------------------


def text(result: TuneResult, lang: str | None = None) -> str:
    """The candidates for a terminal, in `lang` (knob and figure names as they are typed)."""
    from balancer import i18n
    from balancer.escape import terminal

    t = i18n.text
    best = result.best
    lines = [
        t(
            "tune.title",
            lang,
            goal=terminal(result.goal.text),
            n=len(result.candidates),
            rounds=result.rounds,
        ),
        "",
        f"{i18n.ljust(t('tune.knob_value', lang), 24)} {i18n.rjust(t('tune.games', lang), 7)}  "
        f"{i18n.ljust(t('tune.figure', lang), 30)} {t('tune.round', lang)}",
    ]
    for c in result.candidates:
        mark = (
            t("tune.best_mark", lang)
            if c is best
            else (t("tune.open_mark", lang) if c.consistent else "")
        )
        lines.append(
            f"{terminal(_label(c.point)):<24} {c.games.n:>7}  "
            f"{c.estimate:.4g} [{c.low:.4g}, {c.high:.4g}]".ljust(64)
            + f" {c.last_round}{mark}"
        )
    shown = ", ".join(terminal(_label(c.point)) for c in result.candidates if c.consistent)
    lines += [
        "",
        t(
            "tune.best",
            lang,
            point=terminal(_label(best.point)),
            figure=terminal(result.goal.figure.name),
            value=f"{best.estimate:.4g} [{best.low:.4g}, {best.high:.4g}]",
            games=best.games.n,
        ),
        t("tune.open", lang, shown=shown or t("tune.none", lang)),
        t("tune.played", lang, played=result.played)
        + (t("tune.reused", lang, reused=result.reused) if result.reused else ""),
    ]
    lines += [t("tune.skipped", lang, what=terminal(s)) for s in result.skipped]
    return "\n".join(lines)


def csv_rows(result: TuneResult) -> list[dict[str, Any]]:
    rows = []
    for c in result.candidates:
        row: dict[str, Any] = {k: v for k, v in c.point.items()}
        row.update(
            games=c.games.n,
            reused_games=c.reused,
            last_round=c.last_round,
            estimate=c.estimate,
            low=c.low,
            high=c.high,
            best=c is result.best,
            not_ruled_out=c.consistent,
        )
        rows.append(row)
    return rows


def chart_svg(result: TuneResult, lang: str | None = None) -> str:
    """The figure at every candidate with its interval, the best marked: an SVG document."""
    import io
    import warnings

    from matplotlib.figure import Figure

    from balancer import i18n

    names = result.knob_names
    fig = Figure(figsize=(7, 4))
    ax = fig.add_subplot()
    groups: dict[Any, list[Candidate]] = {}
    for c in result.candidates:
        key = c.point[names[1]] if len(names) > 1 else None
        groups.setdefault(key, []).append(c)
    for key, members in groups.items():
        xs = [float(c.point[names[0]]) for c in members]
        ys = [c.estimate for c in members]
        err = [[c.estimate - c.low for c in members], [c.high - c.estimate for c in members]]
        label = None if key is None else f"{names[1]}={key}"
        ax.errorbar(xs, ys, yerr=err, fmt="o-", capsize=3, label=label, alpha=0.85)
    best = result.best
    ax.plot(
        [float(best.point[names[0]])],
        [best.estimate],
        "*",
        color="crimson",
        ms=16,
        label=i18n.text("tune.chart.best", lang),
    )
    if result.goal.mode == "target" and result.goal.value is not None:
        ax.axhline(
            result.goal.value,
            color="grey",
            ls="--",
            lw=1,
            label=i18n.text("tune.chart.target", lang),
        )
    from balancer.analysis.sweep_points import Point, axis_limits

    # Never zoomed into the noise: every interval in view, at least three widths tall.
    limits = axis_limits([Point(c.estimate, c.low, c.high) for c in result.candidates])
    if limits is not None:
        low, high = limits
        if result.goal.mode == "target" and result.goal.value is not None:
            low, high = min(low, result.goal.value), max(high, result.goal.value)
        ax.set_ylim(low, high)
    ax.set_xlabel(names[0])
    ax.set_ylabel(result.goal.figure.name)
    ax.set_title(i18n.text("tune.chart.title", lang, goal=result.goal.text, played=result.played))
    ax.grid(alpha=0.3)
    ax.legend(fontsize="small")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        fig.tight_layout()
    out = io.StringIO()
    from balancer.analysis.sweep import chart_rc

    with chart_rc(lang), warnings.catch_warnings():
        # Japanese glyphs matplotlib's fonts lack: the browser draws that text (chart_rc).
        warnings.simplefilter("ignore", UserWarning)
        fig.savefig(out, format="svg", metadata={"Date": None})
    return out.getvalue()


def html_page(result: TuneResult, svg: str, lang: str | None = None) -> str:
    """A self-contained page: the chart inline and the table of candidates."""
    from html import escape

    from balancer import i18n

    t = i18n.text
    best_word, open_word = t("tune.html.best_cell", lang), t("tune.html.open_cell", lang)
    svg_body = svg[svg.index("<svg") :]
    rows = "".join(
        "<tr>"
        + "".join(f"<td>{escape(str(v))}</td>" for v in c.point.values())
        + f"<td>{c.games.n}</td><td>{c.estimate:.4g} [{c.low:.4g}, {c.high:.4g}]</td>"
        + f"<td>{c.last_round}</td><td>{best_word if c is result.best else ''}"
        + f"{open_word if c.consistent and c is not result.best else ''}</td></tr>"
        for c in result.candidates
    )
    head = "".join(f"<th>{escape(n)}</th>" for n in result.knob_names)
    head += "".join(
        f"<th>{escape(t(key, lang))}</th>"
        for key in ("tune.games", "tune.html.figure", "tune.html.last_round")
    )
    best = result.best
    about = t(
        "tune.html.about",
        lang,
        point=escape(_label(best.point)),
        figure=escape(result.goal.figure.name),
        value=f"{best.estimate:.4g} [{best.low:.4g}, {best.high:.4g}]",
        games=best.games.n,
        rounds=result.rounds,
        played=result.played,
        reused=result.reused,
    )
    page_lang = lang or i18n.DEFAULT_LANG
    return f"""<!DOCTYPE html>
<html lang="{page_lang}"><head><meta charset="utf-8"><title>tune {escape(result.goal.text)}</title>
<style>body {{ font-family: system-ui, sans-serif; margin: 2em; }}
table {{ border-collapse: collapse; }} td, th {{ border: 1px solid #ccc; padding: 3px 8px; }}
</style></head><body>
<h1>tune {escape(result.goal.text)}</h1>
<p>{about}</p>
{svg_body}
<table><tr>{head}<th></th></tr>
{rows}</table></body></html>
"""


# --- reusing a sweep -----------------------------------------------------------------


def _same_setup(a: dict[str, Any], b: Any) -> bool:
    """Whether two resolved variants play the same games (their names and counts aside)."""
    import json

    def key(d: Any) -> str:
        if not isinstance(d, dict):
            return ""
        kept = {k: v for k, v in d.items() if k not in ("name", "games")}
        return json.dumps(kept, sort_keys=True, default=list)

    return key(a) == key(b)


def sweep_reuse(folder: Any) -> Callable[[Variant], Games | None]:
    """Games of a sweep folder's points (each a report folder), found by their variant.

    A point is reused only when its resolved variant (seed, bots, seats and
    every knob) is the candidate's: game i of its report is then game i of
    the candidate. A damaged point is a UserError, as `balancer show` says.
    """
    from pathlib import Path

    from balancer.analysis.sweep import SWEEP_CSV
    from balancer.errors import UserError
    from balancer.files import FILE, FOLDER, kind_of
    from balancer.report.folder import restore_interrupted
    from balancer.report.model import REPORT_JSON, Report
    from balancer.stats.figures import RunData

    def refuse(why: str) -> UserError:
        return UserError(why, file=str(folder), key="--sweep")

    restore_interrupted(folder)  # a sweep a run killed mid-swap set aside
    kind = kind_of(folder)
    if kind is None:
        raise refuse("no such sweep folder")
    if kind != FOLDER:
        raise refuse(f"is {kind}, not a sweep folder")
    if kind_of(Path(folder) / SWEEP_CSV) != FILE:
        if kind_of(Path(folder) / REPORT_JSON) == FILE:
            raise refuse(
                "is a report folder, not a sweep folder (which holds sweep.csv and a "
                "report folder per point)"
            )
        raise refuse("is not a sweep folder: it holds no sweep.csv")
    points = []
    try:
        subs = sorted(Path(folder).iterdir())
    except OSError as exc:
        raise refuse(f"can't be read: {exc.strerror or exc}") from None
    for sub in subs:
        if (sub / REPORT_JSON).is_file():
            points.append(Report.open(sub))

    def find(variant: Variant) -> Games | None:
        wanted = variant.resolved()
        for report in points:
            if not _same_setup(wanted, report.variant):
                continue
            spec = variant.spec
            data = RunData.from_frame(
                report.games,
                variant.players,
                spec.events,
                spec.value_events,
                spec.higher_is_better,
                variant.seat_rotation,
            )
            return Games(
                0,
                data.scores,
                data.wins,
                data.bot_labels,
                data.lengths,
                {k: np.asarray(v, dtype=float) for k, v in data.events.items()},
            )
        return None

    return find
