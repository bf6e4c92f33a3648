"""The `balancer` command line: parse, call the library, print. No game logic here."""

from __future__ import annotations

import json
import signal
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from balancer import __version__, games
from balancer.errors import GameFault, UserError

EXIT_INTERRUPTED = 130  # 128 + SIGINT
EXIT_TERMINATED = 143  # 128 + SIGTERM


class Terminated(BaseException):
    """SIGTERM arrived: unwind like Ctrl-C, so every clean-up runs."""


def _on_sigterm(signum: int, frame: Any) -> None:
    raise Terminated


def _load_variant(path: str, games_: int | None = None, seed: int | None = None):  # noqa: ANN202
    from balancer import variant

    return variant.load(path).with_overrides(games=games_, seed=seed)


# -- shared options ------------------------------------------------------------

workers_option = click.option(
    "--workers",
    "-w",
    type=click.IntRange(1, 256),
    default=1,
    show_default=True,
    help="Processes to play games in; results don't depend on it.",
)
quiet_option = click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
check_option = click.option(
    "--check", is_flag=True, help="Check conservation of cards (and chips) after every move."
)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="balancer")
def cli() -> None:
    """Balance card games by simulation: seeded bot play, reports, diffs."""


@cli.command()
@click.argument("variants", nargs=-1, required=True, type=click.Path(dir_okay=False))
@click.option("--games", "-n", type=click.IntRange(1, 100_000_000), help="Override games.")
@click.option("--seed", "-s", type=click.IntRange(0, 2**63 - 1), help="Override the seed.")
@workers_option
@click.option(
    "--out",
    "-o",
    type=click.Path(file_okay=False),
    help="Report folder (default reports/<name>/); only with one variant.",
)
@quiet_option
@check_option
@click.option(
    "--move-time-limit",
    type=click.FloatRange(0.001),
    default=10.0,
    show_default=True,
    help="Seconds a plugin bot may take for one move.",
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
        folder = Path(out) if out else Path("reports") / variant.name
        report = run_variant(variant, folder, workers, quiet, check, move_time_limit)
        from balancer.report import headline

        click.echo(headline(report))
        click.echo(f"\nreport: {folder}/")


def run_variant(
    variant: Any,
    folder: Path,
    workers: int = 1,
    quiet: bool = True,
    check: bool = False,
    move_time_limit: float = 10.0,
) -> dict[str, Any]:
    """Play a variant and write its report folder; shared by run, diff and sweep."""
    from balancer import report, runner

    with _progress(variant.games, f"{variant.name}", quiet) as advance:
        try:
            result = runner.run(
                variant,
                workers=workers,
                check=check,
                plugin_move_limit=move_time_limit,
                progress=advance,
            )
        except GameFault as fault:
            raise UserError(
                f"{fault}. Nothing was written. Replay it: "
                f"balancer replay {variant.path} --game {fault.index} --seed {fault.seed}"
            ) from None
    return report.write_report(result, folder)


class _progress:
    """A progress bar on stderr, only for a terminal and only when not quiet."""

    def __init__(self, total: int, label: str, quiet: bool) -> None:
        self.bar = None
        if not quiet and sys.stderr.isatty():
            self.bar = click.progressbar(
                length=total, label=label, file=sys.stderr, show_eta=True, show_pos=True
            )

    def __enter__(self) -> Callable[[int], None]:
        if self.bar is None:
            return lambda n: None
        self.bar.__enter__()
        return self.bar.update

    def __exit__(self, *exc: object) -> None:
        if self.bar is not None:
            self.bar.__exit__(*exc)


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
                default = json.dumps(k.default, ensure_ascii=False)
                click.echo(f"  {k.name}: {default}    # {k.kind}: {k.meaning}")
    from balancer import bots

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
    from balancer import report, reportio

    data = reportio.load(Path(report_dir))
    target = Path(out) if out else Path(report_dir)
    try:
        target.mkdir(parents=True, exist_ok=True)
        written = report.write_csv_tables(data.report, data.frame, target, excel=excel)
    except OSError as exc:
        raise UserError(f"can't write: {exc.strerror}", file=str(target)) from None
    for path in written:
        click.echo(str(path))


@cli.command()
@click.argument("variant_path", metavar="VARIANT", type=click.Path(dir_okay=False))
@click.option("--game", "-g", "index", type=click.IntRange(0), required=True, help="Game index.")
@click.option("--seed", "-s", type=click.IntRange(0, 2**63 - 1), help="The run's seed.")
@click.option("--seat", type=click.IntRange(0), help="Show only what this seat could see.")
def replay(variant_path: str, index: int, seed: int | None, seat: int | None) -> None:
    """Print a play-by-play of game I of VARIANT, exactly as the run played it."""
    from balancer import replay as replay_mod

    variant = _load_variant(variant_path, seed=seed)
    if seat is not None and seat >= variant.players:
        raise UserError(f"seat {seat} does not exist with {variant.players} players", key="--seat")
    click.echo(replay_mod.replay_text(variant, index, seat))


def _register_optional_commands() -> None:
    """Commands that live in their own modules."""
    return


def main(argv: list[str] | None = None) -> int:
    """Entry point: user errors exit 2, interrupts 130/143, bugs keep their traceback."""
    _register_optional_commands()
    previous = signal.signal(signal.SIGTERM, _on_sigterm)
    try:
        cli.main(args=argv, prog_name="balancer", standalone_mode=False)
    except click.exceptions.Exit as done:
        return done.exit_code
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
    return 0


if __name__ == "__main__":
    sys.exit(main())
