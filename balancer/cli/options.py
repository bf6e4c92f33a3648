"""Command-line options shared by every command that plays games: one spelling everywhere."""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from balancer.sim import DEFAULT_PLUGIN_MOVE_LIMIT

MAX_GAMES = 100_000_000
MAX_SEED = 2**63 - 1

games_option = click.option(
    "--games",
    "-n",
    type=click.IntRange(1, MAX_GAMES),
    help="Games to play (overrides the variant).",
)
seed_option = click.option(
    "--seed", "-s", type=click.IntRange(0, MAX_SEED), help="The seed (overrides the variant)."
)
MAX_WORKERS = 256


class VariantPath(click.ParamType):
    """A variant file's path, or a shipped variant's name (`fdc-5p`): works from any folder."""

    name = "VARIANT"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> str:
        from balancer.config.shipped import find

        text = str(value)
        shipped = find(text)
        return str(shipped) if shipped is not None else text

    def shell_complete(self, ctx: click.Context, param: click.Parameter, incomplete: str) -> Any:
        from balancer.cli.completion import complete_variant

        return complete_variant(ctx, param, incomplete)


VARIANT_PATH = VariantPath()


class VariantOrReport(click.ParamType):
    """A variant file, a report folder, or a shipped variant's name (diff, replay):
    a path that exists always means that path, as for VariantPath."""

    name = "VARIANT|REPORT"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Path:
        from balancer.config.shipped import find

        shipped = find(str(value))
        return shipped if shipped is not None else Path(value)

    def shell_complete(self, ctx: click.Context, param: click.Parameter, incomplete: str) -> Any:
        from balancer.cli.completion import complete_variant

        return complete_variant(ctx, param, incomplete)


VARIANT_OR_REPORT = VariantOrReport()


class ReportFolder(click.ParamType):
    """A report folder; a shipped variant's name means the folder `balancer run NAME`
    writes (reports/NAME/), as a designer who ran `balancer run fdc-4p` would call it."""

    name = "REPORT"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> str:
        from balancer.config.shipped import find

        text = str(value)
        shipped = find(text)
        if shipped is None:
            return text
        ran = Path("reports") / shipped.stem
        if not ran.is_dir():
            self.fail(
                f"{text} is a shipped variant, not a report: `balancer run {shipped.stem}` "
                f"writes its report into {ran}/",
                param,
                ctx,
            )
        return str(ran)

    def shell_complete(self, ctx: click.Context, param: click.Parameter, incomplete: str) -> Any:
        from click.shell_completion import CompletionItem

        return [CompletionItem(incomplete, type="dir")]


REPORT_FOLDER = ReportFolder()


class WorkerCount(click.ParamType):
    """A number of worker processes, or `auto`: every core this process may use."""

    name = "N|auto"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> int:
        if isinstance(value, int):
            return value
        if str(value).strip().lower() == "auto":
            from balancer.sim.backends.local import available_cores

            return min(MAX_WORKERS, available_cores())
        try:
            count = int(value)
        except ValueError:
            self.fail(f"{value!r} is neither a number of workers nor 'auto'", param, ctx)
        if not 1 <= count <= MAX_WORKERS:
            self.fail(f"{count} is not between 1 and {MAX_WORKERS}", param, ctx)
        return count


workers_option = click.option(
    "--workers",
    "-w",
    type=WorkerCount(),
    default="auto",
    show_default=True,
    help="Processes to play games in (auto: every core); results don't depend on it.",
)
backend_option = click.option(
    "--backend",
    type=click.Choice(["local", "dask"]),
    default="local",
    show_default=True,
    help="Where games are played: this machine, or a Dask cluster (pip install 'balancer[dask]').",
)
scheduler_option = click.option(
    "--scheduler",
    metavar="tcp://HOST:PORT",
    help="With --backend dask: an existing cluster's scheduler (default: start a local one).",
)
quiet_option = click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
check_option = click.option(
    "--check", is_flag=True, help="Check conservation of cards (and chips) after every move."
)
MAX_MOVE_TIME_LIMIT = 3600.0


def _finite_limit(ctx: click.Context, param: click.Parameter, value: float) -> float:
    # FloatRange lets nan (no comparison fails) and inf through: neither is a limit.
    if not 0.001 <= value <= MAX_MOVE_TIME_LIMIT:
        raise click.BadParameter(f"{value} is not a number of seconds from 0.001 to 3600")
    return value


move_time_limit_option = click.option(
    "--move-time-limit",
    type=float,
    callback=_finite_limit,
    default=DEFAULT_PLUGIN_MOVE_LIMIT,
    show_default=True,
    help="Seconds a plugin bot may take for one move.",
)


MIN_PLUGIN_MEMORY = 16 << 20


def _plugin_memory(ctx: click.Context, param: click.Parameter, value: str) -> None:
    # Set for the whole command (bots/host.py keeps it process-wide, as --trust-plugins),
    # so every command that plays takes it without its signature changing.
    from balancer.bots import host

    try:
        limit = host.parse_size(value)
    except ValueError as exc:
        raise click.BadParameter(str(exc)) from None
    if limit < MIN_PLUGIN_MEMORY:
        raise click.BadParameter(f"{value[:40]!r} is too small: at least 16M")
    host.set_memory_limit(limit)


plugin_memory_option = click.option(
    "--plugin-memory",
    metavar="SIZE",
    default="4G",
    show_default=True,
    expose_value=False,
    callback=_plugin_memory,
    help="Memory each plugin bot's process may map (K, M, G): past it, the run fails "
    "naming the bot.",
)

trust_plugins_option = click.option(
    "--trust-plugins",
    is_flag=True,
    help="Run plugin bots inside balancer's own process: faster, with the plugin's own "
    "traceback on failure, but a plugin can then read every hand, rewrite the game and "
    "hang the run. By default each plugin seat runs in a process of its own, killed at "
    "its time limit, its output discarded (or appended to $BALANCER_PLUGIN_LOG).",
)
allow_plugins_option = click.option(
    "--allow-plugins",
    is_flag=True,
    help="Run the plugin bots a report names. A plugin is Python code that runs with your "
    "permissions; a report is only data, so its plugins are refused unless you trust "
    "whoever wrote it.",
)


LANG_META = "balancer.lang"


def _remember_lang(ctx: click.Context, param: click.Parameter, value: str | None) -> None:
    # Kept on the context, not passed as an argument: every command that plays
    # games takes --lang without its signature changing, and cli/simulate.py,
    # which writes the reports, reads it (chosen_lang).
    ctx.meta[LANG_META] = value


lang_option = click.option(
    "--lang",
    type=click.Choice(["en", "ja"]),
    default=None,
    expose_value=False,
    callback=_remember_lang,
    help="Language of the pages and tables this command writes (default: the variant's "
    "lang:, else $BALANCER_LANG, else en).",
)


def chosen_lang() -> str | None:
    """The --lang of the command being run, or None when it was not given."""
    ctx = click.get_current_context(silent=True)
    return None if ctx is None else ctx.meta.get(LANG_META)


def simulation_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """--games, --seed, --workers, --backend, --scheduler, --quiet, --check,
    --move-time-limit, --plugin-memory, --trust-plugins and --lang, in that order."""
    for option in reversed(
        (
            games_option,
            seed_option,
            workers_option,
            backend_option,
            scheduler_option,
            quiet_option,
            check_option,
            move_time_limit_option,
            plugin_memory_option,
            trust_plugins_option,
            lang_option,
        )
    ):
        command = option(command)
    return command


def budget_option(help: str) -> Callable[..., Any]:
    """--games/-n as a budget over many runs (ladder, tune): 20,000 by default."""
    return click.option(
        "--games",
        "-n",
        type=click.IntRange(1, 100_000_000),
        default=20_000,
        show_default=True,
        help=help,
    )


TABLE_OR_JSON = ("table", "json")


def format_option(
    help: str, formats: tuple[str, ...] = TABLE_OR_JSON
) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """`--format` (one of `formats`, `table` by default), the one output switch of every
    command, with `--json` kept as its alias; the command receives `fmt`."""

    def decorate(command: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(command)
        def chosen(*args: Any, fmt: str | None, as_json: bool, **kwargs: Any) -> Any:
            if as_json and fmt not in (None, "json"):
                from balancer.errors import UserError

                raise UserError(f"--json is --format json, not --format {fmt}", key="--json")
            return command(*args, fmt="json" if as_json else (fmt or "table"), **kwargs)

        chosen = click.option("--json", "as_json", is_flag=True, help="Same as --format json.")(
            chosen
        )
        return click.option(
            "--format",
            "fmt",
            type=click.Choice(formats),
            default=None,
            help=f"{help} [default: table]",
        )(chosen)

    return decorate


def out_folder_option(help: str) -> Callable[..., Any]:
    return click.option("--out", "-o", type=click.Path(file_okay=False), help=help)


def many_runs_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """--seed, --workers, --quiet, --move-time-limit, --plugin-memory, --trust-plugins and
    --lang, in that order: what a command playing many runs of one setup (ladder, tune) takes."""
    for option in reversed(
        (
            seed_option,
            workers_option,
            quiet_option,
            move_time_limit_option,
            plugin_memory_option,
            trust_plugins_option,
            lang_option,
        )
    ):
        command = option(command)
    return command


# The schemes a Dask scheduler listens at over a network.
SCHEDULER_SCHEMES = ("tcp", "tls", "ws", "wss", "ucx")


def check_placement(backend: str, scheduler: str | None) -> None:
    """--scheduler only means something with --backend dask, and names an address that can be.

    The address is read here, before any connection: else a port that can't exist is
    "refused", as if a scheduler might be there, and a malformed one is Python's words.
    """
    if scheduler is None:
        return
    import re

    from balancer.errors import UserError, shown

    if backend != "dask":
        raise UserError("a scheduler is for --backend dask", key="--scheduler")
    form = "write it [SCHEME://]HOST:PORT, like tcp://127.0.0.1:8786"
    found = re.fullmatch(
        r"(?:(?P<scheme>[^:/]*)://)?(?P<host>\[[^\]]*\]|[^:/\[\]]*)(?::(?P<port>[^/]*))?",
        scheduler,
    )
    if found is None:
        raise UserError(f"{shown(scheduler)} is not an address: {form}", key="--scheduler")
    scheme, host, port = found.group("scheme"), found.group("host"), found.group("port")
    if scheme is not None and scheme not in SCHEDULER_SCHEMES:
        raise UserError(
            f"unknown scheme {shown(scheme)} (Dask listens at "
            f"{', '.join(s + '://' for s in SCHEDULER_SCHEMES)})",
            key="--scheduler",
        )
    if not host.strip("[]"):
        raise UserError(f"{shown(scheduler)} names no host: {form}", key="--scheduler")
    if not re.fullmatch(r"\[[\w:.%]+\]|[\w.-]+", host):
        raise UserError(f"host {shown(host)} is not a host's name or address", key="--scheduler")
    if port is None:
        raise UserError(f"{shown(scheduler)} names no port: {form}", key="--scheduler")
    digits = port.lstrip("0")
    if not port.isascii() or not port.isdigit():
        raise UserError(
            f"port {shown(port)} is not a number: a port is a number from 1 to 65535",
            key="--scheduler",
        )
    number = digits or "0"
    if len(number) > 5 or not 0 < int(number) <= 65535:
        said = number if len(number) <= 12 else f"of {len(number)} digits"
        raise UserError(
            f"port {said} can't exist: a port is a number from 1 to 65535", key="--scheduler"
        )
