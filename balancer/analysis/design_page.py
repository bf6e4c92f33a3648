"""What a design search says: the terminal's answer, design.json, design.csv and
design.html (the goals, the answer, the finalists with an interval on every goal,
a chart per goal, every trial linked to its report)."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Sequence
from html import escape
from pathlib import Path
from typing import Any
from urllib.parse import quote

from balancer import i18n
from balancer.analysis.design import Answer, Finalist, Goal, Knob, label
from balancer.config.variant import Variant
from balancer.numbers import column_decimals, with_interval

DESIGN_JSON = "design.json"
DESIGN_CSV = "design.csv"
DESIGN_HTML = "design.html"


def document(
    base: Variant,
    knobs: Sequence[Knob],
    goals: Sequence[Goal],
    trials: Sequence[dict[str, Any]],
    answer: Answer,
) -> dict[str, Any]:
    return {
        "variant": base.name,
        "seed": base.seed,
        "games_per_trial": base.games,
        "knobs": {k.name: [str(v) for v in k.values] for k in knobs},
        "goals": [g.text for g in goals],
        **answer.to_json(),
        "trials": [
            {
                "number": t["number"],
                "point": t["point"],
                "folder": t["folder"],
                "goals": {
                    g.text: {"estimate": m[0], "interval": [m[1], m[2]], "loss": loss}
                    for g, m, loss in zip(goals, t["measured"], t["losses"], strict=True)
                },
            }
            for t in trials
        ],
    }


def _places(goals: Sequence[Goal], rows: Sequence[Sequence[Sequence[float]]]) -> list[int | None]:
    """One precision per goal's column (balancer/numbers.py), from its intervals."""
    return [column_decimals((r[k][1], r[k][2]) for r in rows) for k in range(len(goals))]


def _finalist_rows(answer: Answer) -> list[list[list[float]]]:
    return [[[m.estimate, m.low, m.high] for m in f.measured] for f in answer.finalists]


def _mark(goal: Goal, low: float, high: float, lang: str | None) -> str:
    met = goal.met(low, high)
    return "" if met is None else (" ✓" if met else " ✗")


def text(
    goals: Sequence[Goal], trials: Sequence[dict[str, Any]], answer: Answer, lang: str | None
) -> str:
    t = i18n.text
    rows = _finalist_rows(answer)
    places = _places(goals, rows)
    lines = [t("design.title", lang, goals="; ".join(g.text for g in goals), trials=len(trials))]
    lines.append("")
    for f, row in zip(answer.finalists, rows, strict=True):
        figures = "  ".join(
            f"{g.figure.name} {with_interval(e, lo, hi, p)}{_mark(g, lo, hi, lang)}"
            for g, (e, lo, hi), p in zip(goals, row, places, strict=True)
        )
        mark = t("design.kept_mark", lang) if f.kept else t("design.out_mark", lang)
        lines.append(f"{label(f.point)}  ({f.games.n})  {figures}{mark}")
    lines.append("")
    kept = answer.kept
    if answer.kind == "best":
        lines.append(t("design.best", lang, point=label(kept[0].point)))
    else:
        shown = "; ".join(label(f.point) for f in kept)
        lines.append(t("design.front", lang, n=len(kept), shown=shown))
    return "\n".join(lines)


def csv_text(goals: Sequence[Goal], trials: Sequence[dict[str, Any]]) -> str:
    """One row per trial: its number, knob values, each goal's figure with its interval and
    loss, and its report folder."""
    out = io.StringIO()
    rows = []
    for trial in trials:
        row: dict[str, Any] = {"trial": trial["number"], **trial["point"]}
        for g, m, loss in zip(goals, trial["measured"], trial["losses"], strict=True):
            name = g.figure.name
            row.update({name: m[0], f"{name}.ci95_low": m[1], f"{name}.ci95_high": m[2]})
            row[f"{name}.loss"] = loss
        row["folder"] = trial["folder"]
        rows.append(row)
    if rows:
        writer = csv.DictWriter(out, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    return out.getvalue()


def chart_svg(goal: Goal, k: int, answer: Answer, lang: str | None) -> str:
    """Goal k at every finalist with its 95% interval: the kept ones filled, the target
    or bound as a dashed line."""
    from balancer.analysis.sweep_points import Point, axis_limits
    from balancer.report.html_format import BOT_COLOURS
    from balancer.report.svg_plots import APART, BEST, PlotPoint, Series, interval_chart

    t = i18n.text
    measured = [f.measured[k] for f in answer.finalists]
    marks = [
        PlotPoint(i, m.estimate, m.low, m.high, BEST if f.kept else APART)
        for i, (f, m) in enumerate(zip(answer.finalists, measured, strict=True))
    ]
    limits = axis_limits([Point(m.estimate, m.low, m.high) for m in measured])
    low, high = limits if limits is not None else (0.0, 1.0)
    if goal.value is not None:
        low, high = min(low, goal.value), max(high, goal.value)
    colour = BOT_COLOURS[0]
    legend = [
        (BEST, colour, t("design.chart.kept", lang)),
        (APART, colour, t("design.chart.out", lang)),
    ]
    chart = interval_chart(
        [str(i + 1) for i in range(len(answer.finalists))],
        [Series(marks, colour)],
        (low, high),
        x_title=t("design.chart.finalist", lang),
        y_title=goal.figure.name,
        note=goal.text,
        legend=legend,
        reference=None if goal.value is None else (goal.value, goal.text),
    )
    return chart.render(standalone=True)


def html_page(
    base: Variant,
    goals: Sequence[Goal],
    trials: Sequence[dict[str, Any]],
    answer: Answer,
    charts: Sequence[str],
    lang: str | None,
) -> str:
    from balancer.report.page import render_page, section, table_wrap

    t = i18n.text
    rows = _finalist_rows(answer)
    places = _places(goals, rows)

    def link(folder: str, text_: str) -> str:
        return f'<a href="{escape(quote(folder))}/report.html">{escape(text_)}</a>'

    def cells(f: Finalist, row: list[list[float]]) -> list[str]:
        return [
            f'<td class="num">{with_interval(e, lo, hi, p)}{_mark(g, lo, hi, lang)}</td>'
            for g, (e, lo, hi), p in zip(goals, row, places, strict=True)
        ]

    head = ["#", escape(t("design.html.setting", lang))]
    head += [f'<th class="num">{escape(g.text)}</th>' for g in goals] + [
        escape(t("design.html.verdict", lang))
    ]
    finalist_rows = [
        [
            str(i + 1),
            link(f.folder, label(f.point)),
            *cells(f, row),
            escape(t("design.html.kept", lang) if f.kept else t("design.html.out", lang)),
        ]
        for i, (f, row) in enumerate(zip(answer.finalists, rows, strict=True))
    ]
    trial_places = _places(goals, [t_["measured"] for t_ in trials])
    trial_rows = [
        [
            str(trial["number"]),
            link(trial["folder"], label(trial["point"])),
            *(
                f'<td class="num">{with_interval(m[0], m[1], m[2], p)}</td>'
                for m, p in zip(trial["measured"], trial_places, strict=True)
            ),
        ]
        for trial in trials
    ]
    trial_head = ["#", escape(t("design.html.setting", lang))]
    trial_head += [f'<th class="num">{escape(g.text)}</th>' for g in goals]
    kept = answer.kept
    if answer.kind == "best":
        about = t("design.html.best", lang, point=escape(label(kept[0].point)))
    else:
        about = t("design.html.front", lang, n=len(kept))
    about += " " + t(
        "design.html.about", lang, trials=len(trials), games=base.games,
        final=answer.finalists[0].games.n if answer.finalists else 0,
    )  # fmt: skip
    figures = "".join(
        f'<figure data-chart="design-{k}">{svg[svg.index("<svg") :].rstrip()}</figure>'
        for k, svg in enumerate(charts)
    )
    title = f"design {base.name}"
    return render_page(
        lang=lang,
        title=title,
        heading=title,
        sub=about,
        sections=[
            section(
                t("design.html.goals", lang),
                "<ul>"
                + "".join(f"<li><code>{escape(g.text)}</code></li>" for g in goals)
                + "</ul>",
            ),
            section(
                t("design.html.finalists", lang),
                table_wrap(head, finalist_rows, "finalists") + figures,
            ),
            section(t("design.html.trials", lang), table_wrap(trial_head, trial_rows, "trials")),
        ],
        generator="balancer design",
        footer="balancer design",
    )


def write(
    folder: Path,
    base: Variant,
    knobs: Sequence[Knob],
    goals: Sequence[Goal],
    trials: Sequence[dict[str, Any]],
    answer: Answer,
    lang: str | None,
) -> None:
    """design.json, design.csv, design.svg per goal and design.html, each swapped in whole."""
    from balancer.analysis.design_study import write_whole

    charts = [chart_svg(g, k, answer, lang) for k, g in enumerate(goals)]
    for k, svg in enumerate(charts):
        write_whole(folder / f"design-{k + 1}.svg", svg)
    write_whole(folder / DESIGN_CSV, csv_text(goals, trials))
    write_whole(folder / DESIGN_HTML, html_page(base, goals, trials, answer, charts, lang))
    body = json.dumps(document(base, knobs, goals, trials, answer), indent=2, default=str)
    write_whole(folder / DESIGN_JSON, body + "\n")
