"""`balancer diff A B`: what changed between two reports, and whether it is noise."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from balancer.cli.base import command
from balancer.cli.options import check_placement, simulation_options
from balancer.cli.simulate import simulate
from balancer.errors import UserError

FORMATS = ("table", "md", "csv", "json")
# 1 is a bug (traceback) and 2 a user error; 3 says "the runs differ".
EXIT_CHANGED = 3


def diff_reports(
    a_folder: str | Path,
    b_folder: str | Path,
    fmt: str = "table",
    fail_on_change: bool = False,
    alpha: float = 0.05,
    tolerance: str | None = None,
) -> tuple[str, bool]:
    """Load, compare and render two report folders: (text, whether any row changed).

    `tolerance`: the --tolerance text ('win=0.01,score=0.1sd'), merged over
    the defaults.

    `fail_on_change` only adds a closing line to the text formats saying the
    command will exit 3; the exit itself is the caller's.
    """
    from balancer.analysis.diff import compare, render
    from balancer.report.model import load_report
    from balancer.stats.compare import parse_tolerances

    if not 0 < alpha < 1:
        raise UserError(f"--alpha must be between 0 and 1, not {alpha:g}")
    try:
        tolerances = parse_tolerances(tolerance)
    except ValueError as exc:
        raise UserError(str(exc), key="--tolerance") from None
    table = compare(load_report(a_folder), load_report(b_folder), alpha, tolerances)
    text = render(table, fmt)
    if fail_on_change and table.changed and fmt in ("table", "md"):
        text += f"\n--fail-on-change: exiting with code {EXIT_CHANGED}"
    return text, table.changed


def _prepare(
    a: Path, b: Path, games: int | None, seed: int | None, **run_options: Any
) -> tuple[Path, Path]:
    """Report folders for A and B: a variant file is run first, into reports/<name>/.

    Variants are run with the same seed and game count (the other side's, when
    it is a report; else the first variant's), so their games pair up. A run
    never writes over the report it is to be compared with.
    """
    from balancer.config.files import FILE, kind_of
    from balancer.config.variant import load
    from balancer.report.model import load_report

    # kind_of, not is_file: a name too long or a loop of links is one line, not a traceback.
    files = {side: kind_of(path) == FILE for side, path in (("a", a), ("b", b))}
    variants = {side: load(path) for side, path in (("a", a), ("b", b)) if files[side]}
    if not variants:
        return a, b
    reports = {side: load_report(path) for side, path in (("a", a), ("b", b)) if not files[side]}
    games_of = {side: v.game for side, v in variants.items()}
    games_of.update({side: r.game for side, r in reports.items()})
    players_of = {side: v.players for side, v in variants.items()}
    players_of.update({side: r.players for side, r in reports.items()})
    if games_of["a"] != games_of["b"] or players_of["a"] != players_of["b"]:
        raise UserError(
            f"A is {games_of['a']} with {players_of['a']} players, B is {games_of['b']} "
            f"with {players_of['b']}: nothing to compare"
        )
    if reports:
        first_report = next(iter(reports.values()))
        games = games or first_report.n_games
        seed = seed if seed is not None else first_report.seed
    else:
        first = variants.get("a") or variants["b"]
        games = games or first.games
        seed = seed if seed is not None else first.seed
    import contextlib

    from balancer.report.folder import REPORT_JSON, claim

    folders = {"a": a, "b": b}
    taken = {path.resolve() for side, path in folders.items() if side in reports}
    planned = {}
    for side, variant in variants.items():
        variant = variant.with_overrides(games=games, seed=seed)
        folder = Path("reports") / variant.name
        suffix = 2
        while folder.resolve() in taken:
            folder = Path("reports") / f"{variant.name}-{suffix}"
            suffix += 1
        taken.add(folder.resolve())
        folders[side] = folder
        planned[side] = variant
    written: list[str] = []
    with contextlib.ExitStack() as held:
        # Both folders are checked and locked before either variant is played.
        for side in planned:
            held.enter_context(claim(folders[side], REPORT_JSON))
        for side, variant in planned.items():
            try:
                simulate(variant, folders[side], **run_options)
            except UserError as exc:
                if not written:
                    raise
                raise UserError(f"{exc.message} ({'; '.join(written)})") from None
            written.append(f"{side.upper()} was run into {folders[side]}/")
            click.echo(f"balancer: {written[-1]}", err=True)
    return folders["a"], folders["b"]


@command("diff")
@click.argument("a", type=click.Path(path_type=Path))
@click.argument("b", type=click.Path(path_type=Path))
@click.option(
    "--format",
    "fmt",
    type=click.Choice(FORMATS),
    default="table",
    show_default=True,
    help="Output: aligned text, Markdown, CSV or JSON.",
)
@click.option(
    "--fail-on-change",
    is_flag=True,
    help=f"Exit with code {EXIT_CHANGED} if any figure changed (for CI).",
)
@click.option(
    "--alpha",
    type=click.FloatRange(0, 1, min_open=True, max_open=True),
    default=0.05,
    show_default=True,
    help="Significance level, after Holm correction over the family of tested figures.",
)
@click.option(
    "--tolerance",
    metavar="KIND=VALUE,...",
    default=None,
    help="Changes too small to matter, per kind of figure (win, share, score, margin, "
    "length, event): a number, or a fraction of the per-game sd ('0.1sd'). A row whose "
    "change is shown to lie within it is 'equivalent'. Default: win=0.01, share=0.01, "
    "others 0.1sd.",
)
@simulation_options
def diff_command(
    a: Path,
    b: Path,
    fmt: str,
    fail_on_change: bool,
    alpha: float,
    tolerance: str | None,
    games: int | None,
    seed: int | None,
    workers: int,
    backend: str,
    scheduler: str | None,
    quiet: bool,
    check: bool,
    move_time_limit: float,
    trust_plugins: bool,
) -> None:
    """Say what changed between A and B, and whether it is real or noise.

    A and B are report folders, or variant files, which are run first with
    the same seed and game count (into reports/<name>/). Each figure shows A,
    B, the change B−A with its 95% interval, the test (paired t with the
    same seed and game count: same deals; else Welch t), p, p adjusted by
    Holm, and a verdict: 'changed' (adjusted p <= alpha), 'equivalent' (the
    change is shown to lie within --tolerance) or blank (can't tell yet).

    Exit codes: 0 done (changed or not), 2 a user error (missing or damaged
    report), 3 with --fail-on-change when some figure changed.
    """
    check_placement(backend, scheduler)
    a, b = _prepare(
        a,
        b,
        games,
        seed,
        workers=workers,
        backend=backend,
        scheduler=scheduler,
        quiet=quiet,
        check=check,
        move_time_limit=move_time_limit,
        trust_plugins=trust_plugins,
    )
    text, changed = diff_reports(a, b, fmt, fail_on_change, alpha, tolerance)
    click.echo(text)
    if fail_on_change and changed:
        click.get_current_context().exit(EXIT_CHANGED)
