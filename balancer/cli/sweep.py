"""`balancer sweep VARIANT --set knob=v1,v2,...`: one report per grid point, common seeds."""

from __future__ import annotations

import math
from pathlib import Path

import click

from balancer.analysis.sweep_table import FORMATS as SWEEP_FORMATS
from balancer.cli.base import command
from balancer.cli.completion import complete_knob
from balancer.cli.options import (
    MAX_GAMES,
    VARIANT_PATH,
    check_placement,
    format_option,
    simulation_options,
)
from balancer.cli.simulate import simulate
from balancer.errors import UserError

# The sweep.csv column charted unless --figure says otherwise.
DEFAULT_FIGURE = "margin.mean"
# Each point is a report folder of its own.
MAX_POINTS = 10_000


@command()
@click.argument("variant_path", metavar="VARIANT", type=VARIANT_PATH)
@click.option(
    "--set",
    "settings",
    shell_complete=complete_knob,
    multiple=True,
    required=True,
    help="A knob and its values: rules.KNOB=v1,v2,... (repeat for a grid).",
)
@simulation_options
@click.option(
    "--out",
    "-o",
    type=click.Path(file_okay=False),
    help="Default reports/<name>-sweep-<knob>[-<knob>...]/.",
)
@click.option(
    "--force",
    is_flag=True,
    help="Replace a different sweep already in the folder (a rerun of the same one needs none).",
)
@format_option(
    "How the points are printed: a table (the charted figure and those the knobs move "
    "most, with 95% intervals), Markdown, CSV (sweep.csv) or JSON.",
    SWEEP_FORMATS,
)
@click.option(
    "--figure",
    default=DEFAULT_FIGURE,
    show_default=True,
    help="The figure to chart over the grid, named as in expect: and tune --target "
    "(checked before any game is played).",
)
def sweep(
    variant_path: str,
    settings: tuple[str, ...],
    games: int | None,
    seed: int | None,
    workers: int,
    backend: str,
    scheduler: str | None,
    quiet: bool,
    check: bool,
    move_time_limit: float,
    trust_plugins: bool,
    out: str | None,
    figure: str,
    fmt: str,
    force: bool,
) -> None:
    """Run VARIANT for every combination of knob values, with common seeds.

    Writes sweep.csv (a row per point), sweep.json (what was swept), sweep.svg
    (the --figure over the grid: a line for one knob, a heatmap for two, small
    multiples for more) and index.html linking each point's report beside its
    figure. A different sweep already in the folder is replaced only with --force.
    """
    import json

    import polars as pl

    from balancer.analysis.sweep import (
        SWEEP_CSV,
        SWEEP_JSON,
        chart,
        check_figure,
        default_folder,
        folder_name,
        grid,
        headline_row,
        parse_setting,
        point_label,
        replaced_sweep,
        swept_settings,
    )
    from balancer.analysis.sweep_html import INDEX_HTML, write_index
    from balancer.analysis.sweep_table import render
    from balancer.config.variant import load
    from balancer.report.csv_numbers import for_csv
    from balancer.report.folder import claim
    from balancer.report.model import SweepPoint

    check_placement(backend, scheduler)
    base = load(variant_path).with_overrides(games=games, seed=seed)
    from balancer import i18n
    from balancer.cli.options import chosen_lang

    # The points' reports resolve theirs alike (cli/simulate.py), so page and points agree.
    lang = i18n.choose(chosen_lang(), base.lang)
    parsed = [parse_setting(text, base) for text in settings]
    names = [name for name, _ in parsed]
    if len(set(names)) != len(names):
        twice = next(n for n in names if names.count(n) > 1)
        raise UserError(f"knob {twice!r} is set by more than one --set", key="--set")
    # Counted before the grid is built: 5 knobs of 100 values are 10^10 points.
    count = math.prod(len(values) for _, values in parsed)
    if count > MAX_POINTS or count * base.games > MAX_GAMES:
        raise UserError(
            f"{count:,} points of {base.games:,} games each: at most {MAX_POINTS:,} points "
            f"and {MAX_GAMES:,} games in all",
            key="--set",
        )
    # Every flag is checked before the first game: --figure too, from what the
    # points' reports will hold.
    check_figure(figure, base, names)
    points = grid(parsed)
    knob_columns = names
    folder = Path(out) if out is not None else default_folder(base.name, names)
    swept = swept_settings(base.name, parsed)
    # Checked and locked before the first point is played, held until it is written.
    with claim(folder, SWEEP_CSV) as held:
        # The folder is balancer's own (or new): is it another sweep, to keep unless --force?
        why = replaced_sweep(folder, swept)
        if why is not None and not force:
            raise UserError(f"{why}: not replaced without --force", file=str(folder))
        # Every point is checked before the first one is played.
        variants = [base.with_knobs(point) for point in points]
        for point, variant in zip(points, variants, strict=True):
            why = variant.spec.unplayable(variant.rules, variant.players)
            if why:
                raise UserError(f"{point_label(point)} can't be played: {why}", key="--set")

        def fill(tmp: Path) -> None:
            rows, point_folders = [], []
            for index, (point, variant) in enumerate(zip(points, variants, strict=True)):
                label = point_label(point)
                if not quiet:
                    click.echo(f"[{index + 1}/{len(points)}] {label}", err=True)
                point_folder = tmp / folder_name(index, point)
                point_folders.append(point_folder.name)
                try:
                    report = simulate(
                        variant,
                        point_folder,
                        workers,
                        quiet,
                        check,
                        move_time_limit,
                        what=f"sweep point {label}",
                        trust_plugins=trust_plugins,
                        knobs=point,
                        output=folder,
                        backend=backend,
                        scheduler=scheduler,
                        sweep_point=SweepPoint(
                            sweep=base.name, point=label, index=index + 1, points=len(points)
                        ),
                    )
                except UserError as exc:
                    raise _named_in_sweep(exc, tmp, Path(folder)) from None
                rows.append(headline_row(point, report))
            table = pl.DataFrame(rows)
            for_csv(table).write_csv(tmp / SWEEP_CSV)
            record = {**swept, "seed": base.seed, "games": base.games, "figure": figure}
            (tmp / SWEEP_JSON).write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")
            chart(table, figure, knob_columns, tmp / "sweep.svg", lang)
            write_index(tmp, base.name, table, figure, knob_columns, point_folders, lang)
            click.echo(render(table, knob_columns, figure, fmt, lang))

        held.write(fill)
    from balancer.analysis.overview import refresh_for

    refresh_for(folder)  # reports/index.html lists the sweep
    # Where it went: on stderr when stdout is for a tool (csv, json), so that stays clean.
    click.echo(
        "\n" + i18n.text("sweep.written", lang, folder=folder, index=INDEX_HTML),
        err=fmt in ("csv", "json"),
    )


def _named_in_sweep(exc: UserError, tmp: Path, folder: Path) -> UserError:
    """A point's error naming the point where it goes (`folder/000-...`), not inside the
    sweep's temporary folder, a name the user never sees."""
    shown = str(exc.file) if exc.file is not None else ""
    prefix = f"{shown}: "
    inside = bool(shown) and Path(shown).is_relative_to(tmp)
    if not inside or exc.line is not None or not exc.message.startswith(prefix):
        return exc
    return UserError(exc.message[len(prefix) :], file=str(folder / Path(shown).relative_to(tmp)))
