"""The report as text: the headline table printed after a run, and summary.md."""

from __future__ import annotations

from balancer.report.model import Report, present

_SCORE_FIGURES = ("mean", "sd", "min", "q1", "median", "q3", "max")


def _pct(x: float) -> str:
    return f"{100 * x:5.1f}%"


def headline(report: Report) -> str:
    """The table printed after a run: seats, win shares with intervals, scores."""
    better = "higher" if report.higher_is_better else "lower"
    lines = [
        f"{report.variant['name']}: {report.game}, {report.players} players, "
        f"{report.n_games} games, seed {report.seed}",
        "",
        f"{'seat':>4}  {'bot':<24} {'win share':>9}  {'95% interval':<17} "
        f"{'score mean':>10} {'sd':>6}",
    ]
    for seat in report.seats:
        low, high = seat.win_ci95
        lines.append(
            f"{seat.seat:>4}  {seat.bot[:24]:<24} {_pct(seat.win_share):>9}  "
            f"[{_pct(low)}, {_pct(high)}] {seat.score.mean:>10.2f} "
            f"{seat.score.sd:>6.2f}"
        )
    adv = present(report.seat_advantage, "seat_advantage")
    length = present(report.length, "length")
    lines += [
        "",
        f"score: {better} is better; seat advantage: chi2 {adv.chi2:.2f}, p = {adv.p_value:.3g}",
        f"length: {length.mean:.2f} {present(report.length_unit, 'length_unit')} "
        f"(min {length.min:g}, max {length.max:g})",
    ]
    if report.bots is not None:
        lines.append("")
        lines.append(f"{'bot':<28} {'win share':>9}  {'95% interval':<17} {'seat-games':>10}")
        for label, bot in report.bots.items():
            low, high = bot.win_ci95
            lines.append(
                f"{label[:28]:<28} {_pct(bot.win_share):>9}  [{_pct(low)}, {_pct(high)}] "
                f"{bot.seat_games:>10}"
            )
        lines.append("")
        lines.append("head to head: how often the row's bot finishes ahead of the column's")
        for a, row in (report.head_to_head or {}).items():
            cells = ", ".join(
                f"{b} {_pct(h.ahead_share).strip()} [{_pct(h.ci95.low).strip()}, "
                f"{_pct(h.ci95.high).strip()}]"
                for b, h in row.items()
            )
            lines.append(f"  {a}: {cells}")
    return "\n".join(lines)


def summary_markdown(report: Report) -> str:
    lines = [f"# {report.variant['name']}", "", "```", headline(report), "```", ""]
    lines += ["## Events per game", "", "| event | per game | share of games |", "|---|---:|---:|"]
    for name, e in report.events.items():
        lines.append(f"| {name} | {e.per_game:.3f} | {_pct(e.share_of_games).strip()} |")
    lines += ["", "## Score per seat", ""]
    lines += ["| seat | mean | sd | min | q1 | median | q3 | max |", "|---|" + "---:|" * 7]
    for seat in report.seats:
        cells = " | ".join(f"{getattr(seat.score, k):.2f}" for k in _SCORE_FIGURES)
        lines.append(f"| {seat.seat} | {cells} |")
    margin = present(report.margin, "margin")
    lines += [
        "",
        f"Winning margin (best minus second best): mean {margin.mean:.2f}, "
        f"median {margin.median:.2f}.",
        "",
        f"balancer {report.balancer_version}, {report.game} rules version {report.rules_version}.",
        "",
    ]
    return "\n".join(lines)
