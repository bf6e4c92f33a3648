"""`balancer diff A B`: what changed between two reports, and whether it is noise."""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import click

from balancer import i18n
from balancer.cli.base import command
from balancer.cli.options import (
    VARIANT_OR_REPORT,
    check_placement,
    chosen_lang,
    format_option,
    simulation_options,
)
from balancer.cli.simulate import simulate
from balancer.errors import UserError
from balancer.games import game_file_of
from balancer.i18n.phrases import phrase

FORMATS = ("table", "md", "csv", "json")
# 1 is a bug (traceback) and 2 a user error; 3 says "the runs differ".
EXIT_CHANGED = 3


def checked_flags(alpha: float, tolerance: str | None) -> Any:
    """--alpha and --tolerance checked (the tolerances parsed): a UserError if either is wrong."""
    from balancer.stats.compare import parse_tolerances

    if not 0 < alpha < 1:  # nan fails it too
        raise UserError(f"--alpha must be between 0 and 1, not {alpha:g}")
    try:
        return parse_tolerances(tolerance)
    except ValueError as exc:
        raise UserError(str(exc), key="--tolerance") from None


def check_comparable(a: tuple[str, int], b: tuple[str, int], *, game_files: bool = False) -> None:
    """A and B are runs of one game (by any of its names) with as many players, or a
    UserError saying which of the two differs, shown so that they do. `game_files`:
    both are games of game files, two versions of a designer's game, comparable as
    such (the diff's header says what changed between the files)."""
    from balancer import games
    from balancer.escape import contrast

    (game_a, players_a), (game_b, players_b) = a, b
    same = (games.canonical(game_a) or game_a) == (games.canonical(game_b) or game_b)
    if not same and not game_files:
        shown_a, shown_b = contrast(game_a, game_b)
        raise UserError(f"A is a game of {shown_a}, B of {shown_b}: nothing to compare")
    if players_a != players_b:
        raise UserError(
            f"A has {players_a} players, B {players_b}: nothing to compare "
            "(a diff compares one game at one table size)"
        )


def diff_reports(
    a_folder: str | Path,
    b_folder: str | Path,
    fmt: str = "table",
    fail_on_change: bool = False,
    alpha: float = 0.05,
    tolerance: str | None = None,
    html: str | Path | None = None,
    anytime: bool = False,
) -> tuple[str, bool]:
    """Load, compare and render two report folders: (text, whether any row changed).

    `tolerance`: the --tolerance text ('win=0.01,score=0.1sd'), merged over
    the defaults.

    `html`: also write the diff page there (analysis/diff_html.py).

    `anytime`: the rows of --until-decided (confidence sequences, valid at
    the data-chosen game count the runs stopped at).

    `fail_on_change` only adds a closing line to the text formats saying the
    command will exit 3; the exit itself is the caller's.
    """
    from balancer.analysis.diff import compare
    from balancer.analysis.diff_render import render
    from balancer.report.model import load_report

    tolerances = checked_flags(alpha, tolerance)
    report_a, report_b = load_report(a_folder), load_report(b_folder)
    table = compare(report_a, report_b, alpha, tolerances, anytime)
    lang = diff_lang(report_a.variant, report_b.variant)
    text = render(table, fmt, lang)
    if html is not None:
        from balancer.analysis.diff_html import write_html

        page = write_html(table, html, lang)
        click.echo(f"balancer: {i18n.text('diff.page_written', lang)}: {page}", err=True)
    from balancer.analysis.overview import refresh_for

    # After the page: a diff of variant files ran them under reports/diff/, and the index
    # links the diff's own page there.
    refresh_for(Path(b_folder))
    if fail_on_change and table.changed and fmt in ("table", "md"):
        text += "\n" + i18n.text("diff.fail_on_change", lang, code=EXIT_CHANGED)
    return text, table.changed


def diff_lang(a: Mapping[str, Any], b: Mapping[str, Any]) -> str | None:
    """The diff's language, resolved as run's: --lang, else the language B's (else A's)
    report was written in, else $BALANCER_LANG."""
    recorded = b.get("lang") or a.get("lang")
    return i18n.choose(chosen_lang(), recorded if isinstance(recorded, str) else None)


SCRATCH = Path("reports") / "diff"
DIFF_PAGE = "diff.html"


def own_page(a: Path, b: Path) -> Path | None:
    """Where a diff that ran a variant file writes its page without --html: diff.html in
    reports/diff/<a>-vs-<b>/ beside its runs, which reports/index.html links. None for a
    diff of two report folders (it has no folder of its own) or when a file there is not
    a diff page balancer wrote (left alone)."""
    from balancer.analysis.diff_html import is_ours

    try:
        scratch = SCRATCH.resolve()
        ran = [f for f in (a, b) if f.resolve().parent.parent == scratch]
    except OSError:
        return None
    if not ran:
        return None
    page = ran[0].parent / DIFF_PAGE
    if page.is_symlink() or (page.exists() and not is_ours(page)):
        return None
    return page


def scratch_place(a_name: str, b_name: str) -> Path:
    """Where a diff runs its variant files: reports/diff/<a>-vs-<b>/, never a user's report.

    `balancer run` writes reports/<name>/; a diff of variant files writing there
    would replace a long run with a short one, so diff keeps its runs apart.
    """
    import re

    def part(name: str) -> str:
        return re.sub(r"[^A-Za-z0-9_.=-]+", "_", name).strip(".") or "variant"

    return SCRATCH / f"{part(a_name)}-vs-{part(b_name)}"


def _prepare(
    a: Path, b: Path, games: int | None, seed: int | None, **run_options: Any
) -> tuple[Path, Path]:
    """Report folders for A and B: a variant file is run first, into diff's scratch place.

    Variants are run with the same seed and game count (the other side's, when
    it is a report; else the first variant's), so their games pair up. They
    are written under reports/diff/<a>-vs-<b>/ (a/ and b/), never over a report
    of `balancer run` nor over the report they are to be compared with; a
    previous diff's run there is replaced, and the line saying where says so.
    """
    from balancer.config.variant import load
    from balancer.files import FILE, kind_of
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
    from_file = {side: game_file_of(v.game) is not None for side, v in variants.items()}
    from_file.update({side: r.game_file is not None for side, r in reports.items()})
    check_comparable(
        (games_of["a"], players_of["a"]),
        (games_of["b"], players_of["b"]),
        game_files=from_file["a"] and from_file["b"],
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
    scratch = scratch_place(
        *(variants[s].name if s in variants else folders[s].resolve().name for s in ("a", "b"))
    )
    planned = {}
    for side, variant in variants.items():
        variant = variant.with_overrides(games=games, seed=seed)
        folder = scratch / side
        suffix = 2
        while folder.resolve() in taken:
            folder = scratch / f"{side}-{suffix}"
            suffix += 1
        taken.add(folder.resolve())
        folders[side] = folder
        planned[side] = variant
    written: list[str] = []
    with contextlib.ExitStack() as held:
        # Both folders are checked and locked before either variant is played.
        for side in planned:
            held.enter_context(claim(folders[side], REPORT_JSON))
        replacing = {side: (folders[side] / REPORT_JSON).exists() for side in planned}
        for side, variant in planned.items():
            try:
                simulate(variant, folders[side], **run_options)
            except UserError as exc:
                if not written:
                    raise
                raise UserError(f"{exc.message} ({'; '.join(written)})") from None
            again = " (the previous diff's run there replaced)" if replacing[side] else ""
            written.append(f"{side.upper()} was run into {folders[side]}/{again}")
            lang = i18n.choose(chosen_lang(), variant.lang)
            click.echo(f"balancer: {phrase(written[-1], lang)}", err=True)
    return folders["a"], folders["b"]


def _prepare_decided(
    a: Path,
    b: Path,
    games: int | None,
    seed: int | None,
    max_games: int | None,
    tolerance: str | None,
    alpha: float,
    workers: int,
    quiet: bool,
    check: bool,
    move_time_limit: float,
    trust_plugins: bool,
) -> tuple[Path, Path]:
    """--until-decided: play A and B game for game until the diff is decided; their folders.

    Both must be variant files (a finished report can't be played further).
    At most --max-games games each (else --games, else A's file's count),
    one seed for both (--seed, else A's), so game g of both shares its deal.
    """
    import contextlib

    from balancer.analysis.until_decided import UNTIL_DECIDED, FaultInB, play_until_decided
    from balancer.bots.host import trusting
    from balancer.cli.progress import Progress
    from balancer.cli.simulate import replay_command
    from balancer.config.variant import load
    from balancer.errors import GameFault
    from balancer.escape import terminal
    from balancer.report.build import from_run
    from balancer.report.folder import REPORT_JSON, claim
    from balancer.sim import DEFAULT_PLUGIN_MOVE_LIMIT
    from balancer.stats.compare import parse_tolerances

    for side, path in (("A", a), ("B", b)):
        if not path.is_file():
            raise UserError(
                f"{side} ({path}) is not a variant file: --until-decided plays both variants",
                key="--until-decided",
            )
    try:
        tolerances = parse_tolerances(tolerance)
    except ValueError as exc:
        raise UserError(str(exc), key="--tolerance") from None
    va, vb = load(a), load(b)
    check_comparable(
        (va.game, va.players),
        (vb.game, vb.players),
        game_files=game_file_of(va.game) is not None and game_file_of(vb.game) is not None,
    )
    most = max_games or games or va.games
    seed = seed if seed is not None else va.seed
    va, vb = (v.with_overrides(games=most, seed=seed) for v in (va, vb))
    # The same scratch place as a diff of two variant files: never a report of `run`.
    scratch = scratch_place(va.name, vb.name)
    folders = [scratch / "a", scratch / "b"]
    limit = DEFAULT_PLUGIN_MOVE_LIMIT if move_time_limit is None else move_time_limit
    with contextlib.ExitStack() as held:
        # Both folders are checked and locked before a game is played.
        for folder in folders:
            held.enter_context(claim(folder, REPORT_JSON))
        lang = i18n.choose(chosen_lang(), va.lang)
        progress = Progress(most, f"{va.name} vs {vb.name}", quiet, lang=lang)
        try:
            with progress as advance, trusting(trust_plugins):
                decided = play_until_decided(
                    va,
                    vb,
                    tolerances=tolerances,
                    alpha=alpha,
                    workers=workers,
                    check=check,
                    plugin_move_limit=limit,
                    progress=advance,
                    started=progress.started,
                )
        except (GameFault, FaultInB) as caught:
            fault, variant = (caught.fault, vb) if isinstance(caught, FaultInB) else (caught, va)
            again = replay_command(variant, fault, move_time_limit, trust_plugins)
            raise UserError(
                f"{terminal(str(fault))}. Nothing was written. Replay it: {again}"
            ) from None
        for folder, result in zip(folders, (decided.a, decided.b), strict=True):
            report = from_run(result, until=UNTIL_DECIDED, stopped_at=decided.stopped_at)
            report.save(folder)
            lang = i18n.choose(chosen_lang(), result.variant.lang)
            ran = phrase(f"{result.variant.name} was run into {folder}/", lang)
            click.echo(f"balancer: {ran}", err=True)
    return folders[0], folders[1]


@command("diff")
@click.argument("a", type=VARIANT_OR_REPORT)
@click.argument("b", type=VARIANT_OR_REPORT)
@format_option("Output: aligned text, Markdown, CSV or JSON.", FORMATS)
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
    "length, event, play: how the games played): a number, or a fraction of the per-game "
    "sd ('0.1sd'). A row whose change is shown to lie within it is 'equivalent'. "
    "Default: win=0.01, share=0.01, others 0.1sd.",
)
@click.option(
    "--html",
    "html",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    metavar="FILE",
    help="Also write the diff as one self-contained page: each change charted with its interval "
    "(a diff that runs variant files writes it unasked, as diff.html beside its runs).",
)
@click.option(
    "--until-decided",
    is_flag=True,
    help="Play A and B (variant files) in batches of the same games and stop as soon as "
    "every win share is 'changed' or 'equivalent' (confidence sequences: stopping on the "
    "result stays valid, unlike rerunning by hand until diff flags).",
)
@click.option(
    "--max-games",
    type=click.IntRange(min=1),
    default=None,
    help="With --until-decided: the most games each variant plays (default --games, "
    "else A's games).",
)
@simulation_options
def diff_command(
    a: Path,
    b: Path,
    fmt: str,
    fail_on_change: bool,
    alpha: float,
    tolerance: str | None,
    html: Path | None,
    until_decided: bool,
    max_games: int | None,
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
    the same seed and game count, into reports/diff/<a>-vs-<b>/ (never over
    a report of `balancer run`). The header names the knobs and bots that
    differ. Each figure shows A, B, the change B−A with its 95% interval, p
    adjusted by Holm, and a verdict: 'changed' (adjusted p <= alpha),
    'equivalent' (the change is shown to lie within --tolerance) or blank
    (can't tell yet). The test (paired t with the same seed and game count:
    same deals; else Welch t) and the raw p are in --format md, csv and json.

    Exit codes: 0 done (changed or not), 2 a user error (missing or damaged
    report), 3 with --fail-on-change when some figure changed.
    """
    check_placement(backend, scheduler)
    checked_flags(alpha, tolerance)  # before any variant is played
    if html is not None:
        from balancer.analysis.diff_html import check_target

        check_target(html)  # before any variant is played
    if max_games is not None and not until_decided:
        raise UserError("--max-games goes with --until-decided", key="--max-games")
    if until_decided:
        if backend != "local":
            raise UserError("--until-decided plays on this machine only", key="--backend")
        a, b = _prepare_decided(
            a,
            b,
            games,
            seed,
            max_games,
            tolerance,
            alpha,
            workers,
            quiet,
            check,
            move_time_limit,
            trust_plugins,
        )
        page = html if html is not None else own_page(a, b)
        text, changed = diff_reports(
            a, b, fmt, fail_on_change, alpha, tolerance, html=page, anytime=True
        )
        click.echo(coloured(text) if fmt == "table" else text)
        if fail_on_change and changed:
            click.get_current_context().exit(EXIT_CHANGED)
        return
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
    page = html if html is not None else own_page(a, b)
    text, changed = diff_reports(a, b, fmt, fail_on_change, alpha, tolerance, page)
    click.echo(coloured(text) if fmt == "table" else text)
    if fail_on_change and changed:
        click.get_current_context().exit(EXIT_CHANGED)


# A row of the terminal table: indented, an interval (or "no variation"), a verdict last.
_VERDICT_ROW = re.compile(r"^(  .*(?:\]|no variation).*  )(changed|equivalent)$")


def coloured(text: str) -> str:
    """The terminal table with its verdicts coloured, when stdout is a terminal that wants it."""
    import sys

    from balancer.cli.colour import painter

    paint = painter(sys.stdout)
    if paint is None:
        return text
    lines = []
    for line in text.split("\n"):
        match = _VERDICT_ROW.match(line)
        lines.append(match.group(1) + paint(match.group(2), match.group(2)) if match else line)
    return "\n".join(lines)
