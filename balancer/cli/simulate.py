"""Play a variant and write its report folder: what `run`, `diff` and `sweep` share.

The folder is checked before any game is played (never after an hour of
play), a progress bar follows the games (cli/progress.py: on a terminal; in
a log or CI one line says when the games start), and a bot's fault becomes
one line naming the game to replay.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from balancer.cli.progress import Progress
from balancer.errors import GameFault, UserError
from balancer.escape import terminal

if TYPE_CHECKING:
    from balancer.config.variant import Variant
    from balancer.report.model import Report, SweepPoint
    from balancer.sim.trace import Trace


def simulate(
    variant: Variant,
    folder: Path,
    workers: int = 1,
    quiet: bool = True,
    check: bool = False,
    move_time_limit: float | None = None,
    what: str = "",
    backend: str = "local",
    scheduler: str | None = None,
    trust_plugins: bool = False,
    knobs: Mapping[str, Any] | None = None,
    until: str | None = None,
    output: Path | None = None,
    sweep_point: SweepPoint | None = None,
    command_line: tuple[str, ...] = (),
    trace: int = 0,
) -> Report:
    """Play every game of `variant`, write the report folder and return the Report.

    `what` names the run in a fault's message (a sweep names its point), and
    `knobs` are the values the run set over the variant file's (a sweep point's).
    `until` is `run --until`'s rule (balancer.run stops when it holds).
    `output` is the folder the user named, when `folder` is a temporary one inside it.
    `sweep_point` says which point of which sweep the report is (written into it);
    `command_line` what `run --set/--players/--bots` changed (config/one_off.py).
    `trace` is `run --trace`'s count: the first games whose steps trace.parquet keeps.
    """
    import balancer
    from balancer import i18n
    from balancer.bots.host import trusting
    from balancer.cli.options import chosen_lang
    from balancer.report.folder import claim
    from balancer.report.model import REPORT_JSON
    from balancer.sim import first_compile

    # --lang, else the variant's lang:, else $BALANCER_LANG: recorded in the
    # report's variant, so summary.md, report.html and the headline agree.
    variant = variant.with_lang(i18n.choose(chosen_lang(), variant.lang))

    # Checked and locked before the first game, held until the report is saved.
    with claim(folder, REPORT_JSON) as held:
        # The games go to disk as they are played, beside the report's place: the save
        # then links the file in (no copy), and what a killed run leaves there is
        # removed by the next run onto the same folder (report/folder.py's leftovers).
        place = held.place
        try:
            scratch = Path(tempfile.mkdtemp(prefix=f".{place.name}.tmp-", dir=place.parent))
        except OSError as exc:  # a disk out of room or inodes: one line, as the save's
            reason = exc.strerror or str(exc)
            raise UserError(f"can't write: {reason}", file=str(output or folder)) from None
        try:
            # What the run would compile, compiled here first: said (and ticked) only
            # if numba does compile (sim/first_compile.py).
            first_compile.prepare(
                variant, backend, check, None if quiet else lambda line: click.echo(line, err=True)
            )

            def faulted(fault: GameFault) -> UserError:
                return _fault_error(
                    fault, variant, what, move_time_limit, trust_plugins, knobs, output or folder
                )

            traced = None
            if trace:
                # Before the games: a bot's fault in them is the run's, said before an hour
                # of play. Any backend plays the same games, so the trace is made here.
                with trusting(trust_plugins):
                    try:
                        traced = _trace(variant, trace, quiet, check, move_time_limit)
                    except GameFault as fault:
                        raise faulted(fault) from None
            progress = Progress(variant.games, variant.name, quiet, lang=variant.lang)
            with progress as advance:
                try:
                    with trusting(trust_plugins):
                        report = balancer.run(
                            variant,
                            workers=workers,
                            check=check,
                            move_time_limit=move_time_limit,
                            progress=advance,
                            started=progress.started,
                            backend=backend,
                            scheduler=scheduler,
                            scratch=scratch,
                            until=until,
                        )
                except UserError as exc:
                    # The games' scratch file is no place the user knows: name the report's.
                    if exc.file is None or not str(exc.file).startswith(str(scratch)):
                        raise
                    reason = exc.message[len(f"{exc.file}: ") :]
                    raise UserError(reason, file=str(output or folder)) from None
                except GameFault as fault:
                    raise faulted(fault) from None
            if variant.plays is not None:
                # After the games: a bad `plays:` was refused when the variant was read.
                with trusting(trust_plugins):
                    try:
                        report = _with_plays(report, variant, quiet, move_time_limit)
                    except GameFault as fault:
                        raise faulted(fault) from None
            if sweep_point is not None or command_line:
                from dataclasses import replace

                report = replace(report, sweep_point=sweep_point, command_line=command_line or None)
            if traced is not None:
                held.also(_trace_writer(traced.first(report.n_games), output or folder))
            # The saved report reads its games (if anyone asks) from the folder.
            report = report.save(folder)
        finally:
            shutil.rmtree(scratch, ignore_errors=True)
    return report


def _fault_error(
    fault: GameFault,
    variant: Variant,
    what: str,
    move_time_limit: float | None,
    trust_plugins: bool,
    knobs: Mapping[str, Any] | None,
    written: Path,
) -> UserError:
    """A bot's fault as one line naming the game and the command that replays it."""
    detail = fault.plugin_traceback
    if trust_plugins and detail:
        click.echo(detail.rstrip(), err=True)
    where = f" ({what})" if what else ""
    again = replay_command(variant, fault, move_time_limit, trust_plugins, knobs)
    return UserError(
        f"{terminal(str(fault))}{where}. Nothing was written to {written}. Replay it: {again}"
    )


def _trace(
    variant: Variant, games: int, quiet: bool, check: bool, move_time_limit: float | None
) -> Trace:
    """`run --trace`: the first `games` games played again on the engine, their steps kept."""
    from balancer.sim import DEFAULT_PLUGIN_MOVE_LIMIT
    from balancer.sim.trace import trace_games

    count = min(games, variant.games)
    if games > count:
        click.echo(
            f"balancer: note: --trace {games}: the run plays {count} games, all of them traced",
            err=True,
        )
    limit = DEFAULT_PLUGIN_MOVE_LIMIT if move_time_limit is None else move_time_limit
    progress = Progress(count, f"{variant.name} --trace", quiet, lang=variant.lang)
    with progress as advance:
        progress.started(1)
        return trace_games(variant, games, limit, check, advance)


def _with_plays(
    report: Report, variant: Variant, quiet: bool, move_time_limit: float | None
) -> Report:
    """The report with its variant's `plays:` figures measured (analysis/plays_measure.py),
    a progress bar of their own on stderr: they cost far more per game than the run."""
    from dataclasses import replace

    from balancer.analysis import plays_measure
    from balancer.sim import first_compile

    sample = variant.plays
    assert sample is not None
    if report.how_it_plays is None:  # a stepped plugin run: no block to hold them
        click.echo(
            f"balancer: note: {variant.name}: plays: not measured, these games kept no "
            "record of their steps (--check plays them on the engine, which keeps it)",
            err=True,
        )
        return report
    if not quiet and sample.search_budget > 0:

        def tell(line: str) -> None:
            click.echo(line, err=True)

        first_compile.prepare_game(variant.game, ["search"], False, tell=tell, lang=variant.lang)
    total = plays_measure.games_needed(variant, sample)
    progress = Progress(total, f"{variant.name} plays:", quiet, lang=variant.lang)
    with progress as advance:
        progress.started(1)
        found = plays_measure.measure(variant, advance, move_time_limit)
    return replace(report, how_it_plays=report.how_it_plays.with_plays(found))


def _trace_writer(traced: Trace, folder: Path) -> Callable[[Path], None]:
    """What writes trace.parquet into the report's temporary folder."""
    from balancer.sim.sink import write_error
    from balancer.sim.trace import TRACE_PARQUET

    def write(tmp: Path) -> None:
        try:
            traced.write(tmp / TRACE_PARQUET)
        except Exception as exc:  # a full disk, or polars' own words for one
            raise write_error(exc, folder / TRACE_PARQUET) from None

    return write


def replay_command(
    variant: Variant,
    fault: GameFault,
    move_time_limit: float | None,
    trust_plugins: bool,
    knobs: Mapping[str, Any] | None = None,
) -> str:
    """The command that plays the failed game again exactly as the run did.

    A sweep point's knob values and the run's move time limit go along: without
    them the replay would play a different, clean game.
    """
    import shlex

    from balancer.sim import DEFAULT_PLUGIN_MOVE_LIMIT

    parts = ["balancer", "replay", str(variant.path), "--game", str(fault.index)]
    parts += ["--seed", str(fault.seed)]
    for name, value in (knobs or {}).items():
        parts += ["--set", f"{name}={knob_text(value)}"]
    limit = DEFAULT_PLUGIN_MOVE_LIMIT if move_time_limit is None else move_time_limit
    if limit != DEFAULT_PLUGIN_MOVE_LIMIT:
        parts += ["--move-time-limit", repr(limit)]
    if trust_plugins:
        parts.append("--trust-plugins")
    return terminal(" ".join(shlex.quote(part) for part in parts))


def knob_text(value: Any) -> str:
    """A knob value as `--set` reads it back (YAML flow style)."""
    import yaml

    def plain(item: Any) -> Any:
        if isinstance(item, Mapping):
            return {key: plain(inner) for key, inner in item.items()}
        if isinstance(item, list | tuple):
            return [plain(inner) for inner in item]
        return item

    text = yaml.safe_dump(plain(value), default_flow_style=True, width=10**6).strip()
    return text.removesuffix("...").strip()
