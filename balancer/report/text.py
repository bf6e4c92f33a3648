"""The report as text: the headline table printed after a run, and summary.md."""

from __future__ import annotations

from balancer.report.escape import code_block, markdown
from balancer.report.model import Interval, Report, SeatAdvantage, present

_SCORE_FIGURES = ("mean", "sd", "min", "q1", "median", "q3", "max")


def _pct(x: float) -> str:
    return f"{100 * x:5.1f}%"


def seat_advantage_text(adv: SeatAdvantage) -> str:
    """The seat-advantage figure in words: its test and p, or the note saying why none."""
    if adv.p_value is None:
        return f"seat advantage: not tested ({adv.note or 'no test'})"
    shown = f"p = {adv.p_value:.3g}"
    if adv.statistic is None:
        return f"seat advantage: {shown}"
    name = "T²" if adv.test and adv.test.startswith("Hotelling") else "statistic"
    return f"seat advantage: {name} {adv.statistic:.2f}, {shown}"


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
        f"score: {better} is better; {seat_advantage_text(adv)}",
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


def _mean_interval(interval: Interval | None, before: str = "") -> str:
    """A mean's 95% interval as text, or nothing for a report that lacks it."""
    if interval is None:
        return "" if before else "–"
    return f"{before}[{interval.low:.2f}, {interval.high:.2f}]"


def summary_markdown(report: Report) -> str:
    # The name and the bots' labels are the user's text: nothing in them may act as Markdown.
    lines = [f"# {markdown(report.variant['name'])}", "", code_block(headline(report)), ""]
    lines += ["## Events per game", "", "| event | per game | share of games |", "|---|---:|---:|"]
    for name, e in report.events.items():
        per_game = f"{e.per_game:.3f}"
        if e.per_game_ci95 is not None:
            per_game += f" [{e.per_game_ci95.low:.3f}, {e.per_game_ci95.high:.3f}]"
        share = _pct(e.share_of_games).strip()
        if e.share_of_games_ci95 is not None:
            low, high = e.share_of_games_ci95
            share += f" [{_pct(low).strip()}, {_pct(high).strip()}]"
        lines.append(f"| {name} | {per_game} | {share} |")
    lines += ["", "## Score per seat", ""]
    lines += [
        "| seat | mean | 95% interval | sd | min | q1 | median | q3 | max |",
        "|---|" + "---:|" * 8,
    ]
    for seat in report.seats:
        cells = [f"{getattr(seat.score, k):.2f}" for k in _SCORE_FIGURES]
        cells.insert(1, _mean_interval(seat.score_mean_ci95))
        lines.append(f"| {seat.seat} | {' | '.join(cells)} |")
    margin = present(report.margin, "margin")
    length = present(report.length, "length")
    lines += [
        "",
        f"Winning margin (best minus second best): mean {margin.mean:.2f}"
        f"{_mean_interval(margin.ci95, ' ')}, median {margin.median:.2f}.",
        "",
        f"Length: mean {length.mean:.2f}{_mean_interval(length.ci95, ' ')} "
        f"{present(report.length_unit, 'length_unit')}.",
        "",
        f"balancer {report.balancer_version}, {report.game} rules version {report.rules_version}.",
        "",
    ]
    return "\n".join(lines)
