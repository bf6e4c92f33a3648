"""The `balancer` command line: parse, call the library, print. No game logic here."""

from __future__ import annotations

import json
import signal
import sys
from pathlib import Path
from typing import Any

import click

from balancer import __version__, games
from balancer.analysis.diff import diff_command
from balancer.analysis.sweep import sweep
from balancer.cli.options import MAX_SEED, simulation_options
from balancer.cli.simulate import simulate
from balancer.errors import Terminated, UserError
from balancer.games.kimekimera.odds import kk_odds
from balancer.report.build import headline

EXIT_INTERRUPTED = 130  # 128 + SIGINT
EXIT_TERMINATED = 143  # 128 + SIGTERM


def _on_sigterm(signum: int, frame: Any) -> None:
    raise Terminated


def _load_variant(path: str, games_: int | None = None, seed: int | None = None):  # noqa: ANN202
    from balancer.config import variant

    return variant.load(path).with_overrides(games=games_, seed=seed)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="balancer")
def cli() -> None:
    """Balance card games by simulation: seeded bot play, reports, diffs."""


@cli.command()
@click.argument("variants", nargs=-1, required=True, type=click.Path(dir_okay=False))
@simulation_options
@click.option(
    "--out",
    "-o",
    type=click.Path(file_okay=False),
    help="Report folder (default reports/<name>/); only with one variant.",
)
def run(
    variants: tuple[str, ...],
    games: int | None,
    seed: int | None,
    workers: int,
    out: str | None,
    quiet: bool,
    check: bool,
    move_time_limit: float,
) -> None:
    """Simulate VARIANTS and write a report folder for each."""
    if out is not None and len(variants) > 1:
        raise UserError("--out takes one variant; give each its own run", key="--out")
    loaded = [_load_variant(path, games, seed) for path in variants]
    for variant in loaded:
        folder = Path(out) if out is not None else Path("reports") / variant.name
        report = simulate(variant, folder, workers, quiet, check, move_time_limit)

        click.echo(headline(report))
        click.echo(f"\nreport: {folder}/")


@cli.command()
@click.argument("variants", nargs=-1, required=True, type=click.Path(dir_okay=False))
def validate(variants: tuple[str, ...]) -> None:
    """Check variant files without playing: every key, value and bot."""
    for path in variants:
        variant = _load_variant(path)
        click.echo(f"{path}: ok ({variant.game}, {variant.players} players, {variant.games} games)")


@cli.command()
@click.argument("game")
@click.option("--json", "as_json", is_flag=True, help="Print JSON for tools.")
def knobs(game: str, as_json: bool) -> None:
    """List every knob of GAME with its default and meaning."""
    if games.canonical(game) is None:
        raise UserError(f"unknown game {game!r} (known: {', '.join(games.names())})")
    spec = games.get(game)
    if as_json:
        rows = [
            {
                "name": k.name,
                "section": k.section,
                "default": k.default,
                "kind": k.kind,
                "meaning": k.meaning,
            }
            for k in spec.knobs
        ]
        click.echo(json.dumps(rows, indent=2, ensure_ascii=False))
        return
    click.echo(f"{spec.name} ({spec.short}), {spec.min_players}-{spec.max_players} players")
    for section in ("rules", "scoring"):
        click.echo(f"\n{section}:")
        for k in spec.knobs:
            if k.section == section:
                default = "none" if k.default is None else json.dumps(k.default, ensure_ascii=False)
                click.echo(f"  {k.name}: {default}    # {k.kind}: {k.meaning}")
    from balancer.bots import registry as bots

    click.echo("\nbots:")
    for name, bot in bots.builtin(spec.name).items():
        click.echo(f"  {name}: {bot.meaning}")
        for p in bot.params:
            click.echo(f"      {p.name}: {json.dumps(p.default)}    # {p.kind}: {p.meaning}")


@cli.command()
@click.argument("report_dir", metavar="REPORT", type=click.Path())
@click.option("--out", "-o", type=click.Path(file_okay=False), help="Where to write the CSVs.")
@click.option("--excel", is_flag=True, help="UTF-8 with a BOM, for spreadsheet programs.")
def csv(report_dir: str, out: str | None, excel: bool) -> None:
    """Regenerate the CSV tables of REPORT from its games.parquet, without simulating."""
    from balancer.report import build as report
    from balancer.report import model as reportio

    data = reportio.load_report(Path(report_dir))
    for note in reportio.version_notes(data.report, str(Path(report_dir) / "report.json")):
        click.echo(f"balancer: note: {note}", err=True)
    if out is not None and not out.strip():
        raise UserError("the output folder is an empty name", key="--out")
    target = Path(out) if out is not None else Path(report_dir)
    try:
        target.mkdir(parents=True, exist_ok=True)
        written = report.write_csv_tables(data.report, data.games, target, excel=excel)
    except OSError as exc:
        raise UserError(f"can't write: {exc.strerror}", file=str(target)) from None
    for path in written:
        click.echo(str(path))


@cli.command()
@click.argument("source", metavar="VARIANT|REPORT", type=click.Path(path_type=Path))
@click.option("--game", "-g", "index", type=click.IntRange(0), required=True, help="Game index.")
@click.option("--seed", "-s", type=click.IntRange(0, MAX_SEED), help="The run's seed.")
@click.option("--seat", type=click.IntRange(0), help="Show only what this seat could see.")
def replay(source: Path, index: int, seed: int | None, seat: int | None) -> None:
    """Print a play-by-play of game I, exactly as the run played it.

    SOURCE is a variant file (with --seed if the run overrode it) or a report
    folder, whose report.json holds the variant and seed as run.
    """
    from balancer.config import variant
    from balancer.report import model as reportio
    from balancer.sim import replay as replay_mod

    if source.is_dir():
        data = reportio.load_report(source)
        where = str(source / reportio.REPORT_JSON)
        for note in reportio.version_notes(data.report, where):
            click.echo(f"balancer: note: {note}", err=True)
        loaded = variant.from_resolved(data.report["variant"], where)
        if index >= data.n_games:
            raise UserError(f"the run played games 0..{data.n_games - 1}", key="--game")
    else:
        loaded = variant.load(source)
    loaded = loaded.with_overrides(seed=seed)
    if seat is not None and seat >= loaded.players:
        raise UserError(f"seat {seat} does not exist with {loaded.players} players", key="--seat")
    try:
        click.echo(replay_mod.replay_text(loaded, index, seat))
    except replay_mod.ReplayFault as stopped:
        click.echo(stopped.played)
        raise UserError(f"the game stopped: {stopped.fault}") from None


# Commands that live in their own modules.
for _command in (diff_command, kk_odds, sweep):
    cli.add_command(_command)


def main(argv: list[str] | None = None) -> int:
    """Entry point: user errors exit 2, interrupts 130/143, bugs keep their traceback."""
    previous = signal.signal(signal.SIGTERM, _on_sigterm)
    # A shell starts background jobs with SIGINT ignored; `kill -INT` must still
    # stop a run cleanly, so Ctrl-C's handler is installed whatever we inherited.
    previous_int = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        # Outside standalone mode click returns a command's exit code instead of exiting.
        code = cli.main(args=argv, prog_name="balancer", standalone_mode=False)
        return code if isinstance(code, int) else 0
    except click.exceptions.Exit as done:
        return done.exit_code
    except click.exceptions.NoArgsIsHelpError as exc:
        # A bare `balancer` (or a group without its command) asks for help, not an error.
        click.echo(exc.ctx.get_help() if exc.ctx else cli.get_help(click.Context(cli)))
        return 0
    except click.UsageError as exc:
        # Click's own usage text runs to several lines; a bad flag gets one.
        command = exc.ctx.command_path if exc.ctx else "balancer"
        message = " ".join(exc.format_message().split())
        click.echo(f"balancer: error: {message} (see '{command} --help')", err=True)
        return 2
    except click.ClickException as exc:
        exc.show()
        return exc.exit_code
    except (KeyboardInterrupt, click.exceptions.Abort):
        click.echo("balancer: interrupted; nothing was written.", err=True)
        return EXIT_INTERRUPTED
    except Terminated:
        click.echo("balancer: terminated; nothing was written.", err=True)
        return EXIT_TERMINATED
    finally:
        signal.signal(signal.SIGTERM, previous)
        signal.signal(signal.SIGINT, previous_int)


if __name__ == "__main__":
    sys.exit(main())
