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
from balancer.numbers import column_decimals, ends, with_interval
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


def _places(result: TuneResult) -> int | None:
    """One precision for every candidate's figure (balancer/numbers.py): the column's."""
    return column_decimals((c.low, c.high) for c in result.candidates)


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
    places = _places(result)
    for c in result.candidates:
        mark = (
            t("tune.best_mark", lang)
            if c is best
            else (t("tune.open_mark", lang) if c.consistent else "")
        )
        lines.append(
            f"{terminal(_label(c.point)):<24} {c.games.n:>7}  "
            f"{with_interval(c.estimate, c.low, c.high, places)}".ljust(64)
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
            value=with_interval(best.estimate, best.low, best.high, _places(result)),
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
            # spelled as in every file (numbers.py): estimate.ci95_low, estimate.ci95_high
            **dict(zip(ends("estimate"), (c.low, c.high), strict=True)),
            best=c is result.best,
            not_ruled_out=c.consistent,
        )
        rows.append(row)
    return rows


def chart_svg(result: TuneResult, lang: str | None = None) -> str:
    """The figure at every candidate with its 95% interval, as an SVG file's text.

    One series per value of the other knobs; the best ringed; candidates ruled
    out (module docstring: the target outside their interval, or worse than
    the best by the paired test) drawn hollow; the target as a dashed line.
    """
    from balancer import i18n
    from balancer.analysis.sweep_points import Point, axis_limits
    from balancer.report.html_format import BOT_COLOURS
    from balancer.report.svg_plots import APART, BEST, SAME, PlotPoint, Series, interval_chart

    t = i18n.text
    names = result.knob_names
    slots = sorted({c.point[names[0]] for c in result.candidates}, key=float)
    groups: dict[str, list[Candidate]] = {}
    for c in result.candidates:
        key = " ".join(f"{n}={c.point[n]}" for n in names[1:])
        groups.setdefault(key, []).append(c)
    series = []
    for k, (key, members) in enumerate(groups.items()):
        marks = [
            PlotPoint(
                slots.index(c.point[names[0]]),
                c.estimate,
                c.low,
                c.high,
                BEST if c is result.best else (SAME if c.consistent else APART),
            )
            for c in sorted(members, key=lambda c: float(c.point[names[0]]))
        ]
        series.append(Series(marks, BOT_COLOURS[k % len(BOT_COLOURS)], key))
    # Never zoomed into the noise: every interval in view, at least three widths tall.
    limits = axis_limits([Point(c.estimate, c.low, c.high) for c in result.candidates])
    low, high = limits if limits is not None else (0.0, 1.0)
    target = result.goal.value if result.goal.mode == "target" else None
    if target is not None:
        low, high = min(low, target), max(high, target)
    colour = series[0].colour
    legend = [
        (BEST, colour, t("tune.chart.best", lang)),
        (SAME, colour, t("tune.chart.open", lang)),
        (APART, colour, t("tune.chart.out", lang)),
    ]
    if target is not None:
        legend.append(("line", "#5b6472", t("tune.chart.target", lang)))
    if len(series) > 1:
        legend += [("series", s.colour, s.name) for s in series]
    chart = interval_chart(
        [str(v) for v in slots],
        series,
        (low, high),
        x_title=names[0],
        y_title=result.goal.figure.name,
        note=t("tune.chart.title", lang, goal=result.goal.text, played=result.played),
        legend=legend,
        reference=None if target is None else (target, t("tune.chart.target", lang)),
    )
    return chart.render(standalone=True)


def html_page(result: TuneResult, svg: str, lang: str | None = None) -> str:
    """A self-contained page in report.html's style: the chart inline, the table of candidates."""
    from html import escape

    from balancer import i18n
    from balancer.report.page import render_page, section, table_wrap

    t = i18n.text
    best_word, open_word = t("tune.html.best_cell", lang), t("tune.html.open_cell", lang)
    svg_body = svg[svg.index("<svg") :].rstrip()
    places = _places(result)
    rows = [
        [
            *(f"<code>{escape(str(v))}</code>" for v in c.point.values()),
            f'<td class="num">{c.games.n}</td>',
            f'<td class="num">{with_interval(c.estimate, c.low, c.high, places)}</td>',
            f'<td class="num">{c.last_round}</td>',
            (best_word if c is result.best else "")
            + (open_word.strip() if c.consistent and c is not result.best else ""),
        ]
        for c in result.candidates
    ]
    head = [escape(n) for n in result.knob_names]
    head += [
        f'<th class="num">{escape(t(key, lang))}</th>'
        for key in ("tune.games", "tune.html.figure", "tune.html.last_round")
    ]
    best = result.best
    about = t(
        "tune.html.about",
        lang,
        point=escape(_label(best.point)),
        figure=escape(result.goal.figure.name),
        value=with_interval(best.estimate, best.low, best.high, _places(result)),
        games=best.games.n,
        rounds=result.rounds,
        played=result.played,
        reused=result.reused,
    )
    title = f"tune {result.goal.text}"
    return render_page(
        lang=lang,
        title=title,
        heading=title,
        sub=about,
        sections=[
            section(result.goal.figure.name, f'<figure data-chart="tune">{svg_body}</figure>'),
            section(t("tune.html.candidates", lang), table_wrap([*head, ""], rows, "candidates")),
        ],
        generator="balancer tune",
        footer="balancer tune",
    )


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
    from balancer.files import FILE, FOLDER, in_words, kind_of
    from balancer.report.folder import output_kind, restore_interrupted
    from balancer.report.model import REPORT_JSON, Report
    from balancer.stats.figures import RunData

    def refuse(why: str) -> UserError:
        return UserError(why, file=str(folder), key="--sweep")

    restore_interrupted(folder)  # a sweep a run killed mid-swap set aside
    kind = kind_of(folder)
    if kind is None:
        raise refuse("no such sweep folder")
    if kind != FOLDER:
        raise refuse(f"is {in_words(kind)}, not a sweep folder")
    table_kind = kind_of(Path(folder) / SWEEP_CSV)
    if table_kind != FILE:
        if kind_of(Path(folder) / REPORT_JSON) == FILE:
            raise refuse(
                "is a report folder, not a sweep folder (which holds sweep.csv and a "
                "report folder per point)"
            )
        if table_kind is not None:
            raise refuse(f"is not a sweep folder: its sweep.csv is {in_words(table_kind)}")
        other = output_kind(folder)  # balancer's output of another kind, named as such
        if other is not None:
            raise refuse(f"is {other}, not a sweep folder (which holds sweep.csv)")
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
