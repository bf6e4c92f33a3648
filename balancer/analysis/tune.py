"""Tuning: the knob value that brings a figure to a target (or to its min or max), by
racing over common seeds within a budget of games.

Search. The candidates are the knob's values LO, LO+STEP, ..., HI (two knobs:
every pair). Each evaluation is noisy, so the budget goes where it decides
something: round 0 plays r0 games of every candidate (a quarter of the
budget, at least 30 each); after each round a candidate is dropped only when
the statistics show it worse than another (`survivors`), and the rest go on
with twice the games, until one is left (it then plays the rest of the budget,
which narrows its interval) or the budget (-n) is spent: the last round is cut
to fit, so a search never plays more games than its budget.
Every candidate plays the same games 0, 1, 2, ... (common seeds: game i
starts from the same deal whatever the knob), so candidates are compared on
the same deals and the noise of the deal cancels in their differences. A
candidate that a sweep already played (same variant, same seed) starts with
the sweep's games, which the budget does not count.

Why not successive halving (the better half by estimate goes on, as before
this): with many candidates near the target, a good one drops out by chance
after a few games and nothing corrects for it; a 3,000-game sweep of dqz's
starting_chips found 29 nearer 8 deals than the "best" 30 that halving named
after dropping 29 at 120 games. Racing drops a candidate only on a test whose
error is shared (Bonferroni) over every candidate and every round the budget
allows, so the truly best value survives in at least 95% of searches
(tests/cli/test_tune.py plants one and counts).

What is reported: the best candidate with its figure's 95% interval: for a
target, the survivor nearest the target among those whose interval holds it,
or, when none does, the nearest, said plainly ("closest ...; no value shown to
reach 8", `reached: false` in the JSON); the values not ruled out (the
survivors: what the statistics can't separate); the figure at every candidate
with its interval (the curve, as a chart); the games played and reused. Every
figure is a mean of per-game values (analysis/expect.py);
`seat_win_share.spread` is taken as the spread of the pair of seats farthest
apart, whose per-game differences give its interval (a little optimistic: the
pair is chosen by looking).
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
from balancer.config.variant import PLAYERS, Variant
from balancer.errors import UserError, shown
from balancer.numbers import column_decimals, ends, with_interval
from balancer.stats import intervals

MAX_CANDIDATES = 400
MIN_FIRST_ROUND = 30  # games per candidate in round 0: enough for a first t interval
ALPHA = 0.05  # the chance, over the whole search, that the best candidate is dropped
DEFAULT_BUDGET = 20_000


# --- parsing -------------------------------------------------------------------------


@dataclass(frozen=True)
class KnobRange:
    name: str
    values: tuple[Any, ...]


def parse_knob(text: str, variant: Variant) -> KnobRange:
    """`rules.KNOB=LO..HI[:STEP]` (or scoring.KNOB, or KNOB, or players) -> its checked values."""
    where = f"--knob {text}"
    path, sep, span = text.partition("=")
    parts = path.strip().split(".")
    if not sep or len(parts) > 2 or (len(parts) == 2 and parts[0] not in knob_module.SECTIONS):
        raise UserError("expected --knob rules.KNOB=LO..HI[:STEP]", key=where)
    name = parts[-1]
    by_name = {k.name: k for k in variant.spec.knobs}
    if parts != [PLAYERS] and name not in by_name:
        raise UserError(
            f"{variant.game} has no knob {name!r} (knobs: {', '.join(by_name)}, or players)",
            key=where,
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
        if parts == [PLAYERS]:
            values.append(variant.check_players(raw, where))
            continue
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
    figure = one_figure(name.strip(), variant, where)
    if mode != "target":
        paired_only(figure, where)
    return Goal(figure, mode, value, text.strip())


def one_figure(name: str, variant: Variant, where: str) -> FigureDef:
    """The figure `name` as a single number to aim at (a seat's, or a spread), or a
    UserError naming `where`: what tune's target and design's goals take."""
    try:
        figure = resolve(name, variant)
    except ValueError as exc:
        raise UserError(str(exc), key=where) from None
    if len(figure.members) != 1 and not figure.spread:
        raise UserError(
            f"{figure.name} is one figure per seat; name a seat (seat_win_share.0) "
            "or take seat_win_share.spread",
            key=where,
        )
    return figure


def paired_only(figure: FigureDef, where: str) -> None:
    """A UserError naming `where` for a figure that min / max can't race: they compare
    the values game by game on common seeds, and its values come from some games only."""
    if figure.members[0].some_games:
        from balancer.analysis.expect import unpaired

        raise UserError(unpaired(figure), key=where)


# --- the figure on some games --------------------------------------------------------


def series(figure: FigureDef, games: Games) -> np.ndarray:
    """Per-game values whose mean is the figure (a spread: its widest pair's differences)."""
    if not figure.spread:
        return figure.members[0].per_game(games)
    columns = [m.per_game(games) for m in figure.members]
    widest = max(range(len(columns)), key=lambda i: abs(float(np.mean(columns[i]))))
    chosen = columns[widest]
    return chosen if float(np.mean(chosen)) >= 0 else -chosen


def figure_interval(
    figure: FigureDef, games: Games, level: float = 0.95
) -> tuple[float, float, float]:
    """The figure's estimate and interval (95% unless told) on these games."""
    member = figure.members[0]
    if member.interval_at is not None:  # a `plays:` figure: from the variant's own sample
        return member.interval_at(games, level)
    values = series(figure, games)
    if figure.members[0].share and not figure.spread:
        found = intervals.share_interval(values, level=level)
    else:
        found = intervals.mean_interval(values, level=level)
    return found.estimate, found.low, found.high


# --- the search ----------------------------------------------------------------------


def first_round(candidates: int, budget: int) -> int:
    """Games every candidate plays in round 0: a quarter of the budget spread over them
    (the rest goes to the survivors), at least MIN_FIRST_ROUND."""
    return max(MIN_FIRST_ROUND, budget // (4 * candidates))


def looks(candidates: int, budget: int) -> int:
    """The most rounds (looks at the data) a search can take: round r gives each
    survivor r0·2^r games, and no survivor can be given more than the budget."""
    r0 = first_round(candidates, budget)
    return max(1, int(math.floor(math.log2(max(budget, r0) / r0))) + 1)


def check_budget(candidates: int, budget: int) -> None:
    """Refuse a budget too small for round 0 (MIN_FIRST_ROUND games per candidate)."""
    need = candidates * MIN_FIRST_ROUND
    if budget < need:
        raise UserError(
            f"{budget} games can't give {candidates} candidates {MIN_FIRST_ROUND} games each "
            f"(at least {need}); raise -n or take fewer values (a larger STEP)",
            key="-n",
        )


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
    budget: int = DEFAULT_BUDGET

    @property
    def reached(self) -> bool | None:
        """Target: whether the answer's 95% interval holds the target (None for min/max)."""
        if self.goal.mode != "target":
            return None
        return bool(self.best.low <= self.goal.value <= self.best.high)  # type: ignore[operator]

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
            # False: no value's interval holds the target; "best" is then the closest.
            "reached": self.reached,
            "not_ruled_out": [dict(c.point) for c in self.candidates if c.consistent],
            "games_played": self.played,
            "budget": self.budget,
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
    """Racing over the grid within `budget` games; `play(jobs)` plays games,
    `reuse(variant)` gives a sweep's games of that variant (games 0..n-1 at the same
    seed) or None. The module docstring says when a candidate is dropped."""
    pool, skipped = candidates_for(base, ranges)
    check_budget(len(pool), budget)
    reused = 0
    if reuse is not None:
        for c in pool:
            found = reuse(c.variant)
            if found is not None and found.n:
                c.games, c.reused = found, found.n
                reused += found.n
    r0, most = first_round(len(pool), budget), looks(len(pool), budget)
    alive = list(pool)
    played = 0
    rounds: list[int] = []
    for r in range(most):
        wanted = r0 * 2**r
        short = [c for c in alive if c.games.n < wanted]
        share = (budget - played) // len(short) if short else 0
        if short and share < 1:
            break  # the budget is spent: not one more game for each
        jobs = [Job(c.variant, c.games.n, min(wanted, c.games.n + share)) for c in short]
        for c, more in zip(short, play(jobs), strict=True):
            c.games = c.games.then(more)
            played += more.n
        rounds.append(max(c.games.n for c in alive))
        for c in alive:
            c.last_round = r
            c.estimate, c.low, c.high = figure_interval(goal.figure, c.games)
        alive = survivors(goal, alive, ALPHA / (len(pool) * most))
        if len(alive) == 1 or played >= budget:
            break
    if len(alive) == 1 and played < budget:
        # The rest of the budget narrows the answer's interval.
        (last,) = alive
        (more,) = play([Job(last.variant, last.games.n, last.games.n + budget - played)])
        last.games = last.games.then(more)
        played += more.n
        rounds.append(last.games.n)
        last.estimate, last.low, last.high = figure_interval(goal.figure, last.games)
    best = min(alive, key=lambda c: (not _holds(goal, c), goal.loss(c.estimate)))
    for c in pool:
        c.consistent = c in alive
    return TuneResult(goal, ranges, pool, best, played, reused, rounds, skipped, budget=budget)


def survivors(goal: Goal, alive: list[Candidate], alpha: float) -> list[Candidate]:
    """The candidates not shown worse than another, each test at error rate `alpha`.

    `alpha` is 5% shared (Bonferroni) over the candidates and every look the
    search can take (search passes ALPHA / (candidates · looks)), so the truly
    best candidate is dropped in at most 5% of searches: it can go only when
    one of the tests that involve it errs, and there are at most that many.

    Target: a candidate's loss |figure − target| lies between the nearest and
    the farthest end of its interval from the target; one whose nearest end is
    farther than another's farthest end is worse and goes. Min / max: a
    candidate goes when its paired difference with the estimated best (per
    game, on the games both played: common seeds) is above 0 (min) or below 0
    (max) at the same level, shared over every pair (the pair is chosen by
    looking, so the correction counts all of them).
    """
    if len(alive) < 2:
        return alive
    if goal.mode == "target":
        assert goal.value is not None
        ends = [figure_interval(goal.figure, c.games, 1 - alpha)[1:] for c in alive]
        nearest = [_distance(goal.value, lo, hi) for lo, hi in ends]
        farthest = [max(abs(lo - goal.value), abs(hi - goal.value)) for lo, hi in ends]
        cut = min(farthest)
        return [c for c, near in zip(alive, nearest, strict=True) if near <= cut]
    leader = min(alive, key=lambda c: goal.loss(c.estimate))
    kept = []
    for c in alive:
        n = min(c.games.n, leader.games.n)
        if c is leader or n < 2:
            kept.append(c)
            continue
        d = series(goal.figure, c.games.head(n)) - series(goal.figure, leader.games.head(n))
        if goal.mode == "max":
            d = -d
        if intervals.mean_interval(d, level=1 - 2 * alpha).low <= 0:
            kept.append(c)  # two-sided at 2·alpha: its low end is a one-sided test at alpha
    return kept


def _holds(goal: Goal, c: Candidate) -> bool:
    """Whether c's 95% interval holds the target (always, for min / max)."""
    return goal.mode != "target" or bool(c.low <= goal.value <= c.high)  # type: ignore[operator]


def _distance(target: float, low: float, high: float) -> float:
    """How far the interval [low, high] is from `target` (0 when it holds it)."""
    return max(0.0, low - target, target - high)


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
            "tune.best" if result.reached is not False else "tune.closest",
            lang,
            point=terminal(_label(best.point)),
            figure=terminal(result.goal.figure.name),
            value=with_interval(best.estimate, best.low, best.high, _places(result)),
            games=best.games.n,
            target=shown_number(result.goal.value),
        ),
        t("tune.open", lang, shown=shown or t("tune.none", lang)),
        t("tune.played", lang, played=result.played, budget=result.budget)
        + (t("tune.reused", lang, reused=result.reused) if result.reused else ""),
    ]
    lines += [t("tune.skipped", lang, what=terminal(s)) for s in result.skipped]
    return "\n".join(lines)


def shown_number(value: float | None) -> str:
    """A target as a person typed it: 8, not 8.0."""
    if value is None:
        return ""
    return str(int(value)) if value == int(value) else repr(value)


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
    if result.reached is False:
        about = t("tune.html.closest", lang, target=shown_number(result.goal.value)) + about
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
            return Games.from_report(report, variant)
        return None

    return find
