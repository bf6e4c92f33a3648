"""`balancer tune VARIANT --knob rules.K=LO..HI --target ...`: the knob value that hits a target."""

from __future__ import annotations

from pathlib import Path

import click

from balancer.cli.base import command
from balancer.cli.completion import complete_knob
from balancer.cli.options import (
    VARIANT_PATH,
    budget_option,
    format_option,
    many_runs_options,
    out_folder_option,
)

TUNE_CSV = "tune.csv"


@command()
@click.argument("variant_path", metavar="VARIANT", type=VARIANT_PATH)
@click.option(
    "--knob",
    "knob_texts",
    shell_complete=complete_knob,
    multiple=True,
    required=True,
    help="rules.KNOB=LO..HI[:STEP] (STEP defaults to 1 for whole numbers); once or twice.",
)
@click.option(
    "--target",
    required=True,
    help="'FIGURE=VALUE' (e.g. 'length.mean=8') or 'FIGURE min|max' "
    "(e.g. 'seat_win_share.spread min'); figures as in expect: targets.",
)
@budget_option("The budget: at most this many games in all (at least 30 per candidate).")
@click.option(
    "--sweep",
    "sweep_folder",
    type=click.Path(),
    help="A sweep folder whose points' games are reused (default: reports/<name>-sweep-<knobs>/ "
    "when it exists).",
)
@many_runs_options
@format_option("Print the result as a table or as JSON.")
@out_folder_option("Also write tune.csv, tune.svg and tune.html (self-contained) into this folder.")
def tune(
    variant_path: str,
    knob_texts: tuple[str, ...],
    target: str,
    games: int,
    sweep_folder: str | None,
    seed: int | None,
    workers: int,
    quiet: bool,
    move_time_limit: float,
    trust_plugins: bool,
    fmt: str,
    out: str | None,
) -> None:
    """Find the value of one or two knobs that brings a figure to a target, or to its min or max.

    Racing over common seeds: every candidate value plays the same first games;
    a value is dropped only when the statistics show it worse than another (5%
    error over the whole search), and the rest go on with twice the games, until
    one is left or the budget is spent. Prints the best value with its figure's
    95% interval (or, when no value's interval holds a target, the closest and
    says so), the values not ruled out, the figure at every candidate, and the
    games spent.
    """
    as_json = fmt == "json"
    import contextlib
    import csv
    import json
    from collections.abc import Sequence

    from balancer.analysis import tune as analysis
    from balancer.analysis.plays import Games, Job, play
    from balancer.bots.host import trusting
    from balancer.cli.progress import Progress
    from balancer.config.variant import load
    from balancer.errors import UserError

    base = load(variant_path).with_overrides(seed=seed)
    from balancer import i18n
    from balancer.cli.options import chosen_lang

    lang = i18n.choose(chosen_lang(), base.lang)
    if len(knob_texts) > 2:
        raise UserError("tune takes one or two knobs", key="--knob")
    ranges = [analysis.parse_knob(t, base) for t in knob_texts]
    if len(ranges) == 2 and ranges[0].name == ranges[1].name:
        raise UserError(f"knob {ranges[0].name!r} is given twice", key="--knob")
    goal = analysis.parse_target(target, base)
    if sweep_folder is None:
        from balancer.analysis.sweep import default_folder

        # Where `sweep` writes a sweep of the same knobs by default.
        default = default_folder(base.name, [r.name for r in ranges])
        sweep_folder = str(default) if default.is_dir() else None
    elif not sweep_folder.strip():  # an empty name is no sweep, not "none given"
        raise UserError("an empty name is not a sweep folder", key="--sweep")
    reuse = analysis.sweep_reuse(sweep_folder) if sweep_folder else None
    pool, _ = analysis.candidates_for(base, ranges)
    analysis.check_budget(len(pool), games)  # before a folder is claimed
    planned = games  # at most: a search may end early, once one value is left
    with contextlib.ExitStack() as stack:
        held = None
        if out is not None:
            from balancer.report.folder import claim

            # Checked and locked before the first game, held until it is written.
            held = stack.enter_context(claim(Path(out), TUNE_CSV))
        progress = Progress(planned, f"tune {base.name}", quiet, lang=lang)
        with progress as advance, trusting(trust_plugins):
            announced: list[int] = []

            def started(workers: int) -> None:
                if not announced:  # one line for the search, not one per round
                    announced.append(workers)
                    progress.started(workers)

            def play_jobs(jobs: Sequence[Job]) -> list[Games]:
                return play(
                    jobs,
                    workers=workers,
                    progress=advance,
                    started=started,
                    plugin_move_limit=move_time_limit,
                )

            result = analysis.search(base, ranges, goal, games, play_jobs, reuse)
        click.echo(
            json.dumps(result.to_json(), indent=2) if as_json else analysis.text(result, lang)
        )
        if held is not None:
            svg = analysis.chart_svg(result, lang)

            def fill(tmp: Path) -> None:
                rows = analysis.csv_rows(result)
                with open(tmp / TUNE_CSV, "w", newline="", encoding="utf-8") as f:
                    writer = csv.DictWriter(f, fieldnames=list(rows[0]))
                    writer.writeheader()
                    writer.writerows(rows)
                (tmp / "tune.svg").write_text(svg, encoding="utf-8")
                (tmp / "tune.html").write_text(
                    analysis.html_page(result, svg, lang), encoding="utf-8"
                )

            held.write(fill)
            if not as_json:
                click.echo(f"\ntune: {out}/ (tune.csv, tune.svg, tune.html)")
            from balancer.analysis.overview import refresh_for

            refresh_for(Path(str(out)))
