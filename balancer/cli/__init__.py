"""The `balancer` command line: parse, call the library, print. No game logic here.

Each command lives in its own module, imported only when that command is
asked for (`--help` imports them all, for their one-line help), and imports
what it uses only when it runs, so `balancer --version` pays for none of it.
"""

# ruff: noqa: E402  (the start-up handlers are installed before the imports that take time)
from __future__ import annotations

import contextlib
import os
import signal
import sys
from typing import Any

try:  # the C module: `signal` itself takes a moment to build its enums
    import _signal as early_signal
except ImportError:  # pragma: no cover - every CPython has it
    import signal as early_signal

EXIT_INTERRUPTED = 130  # 128 + SIGINT
EXIT_TERMINATED = 143  # 128 + SIGTERM


def _stopped_while_starting(signum: int, frame: Any) -> None:
    """Ctrl-C or SIGTERM while the command's modules load: nothing is open, nothing written."""
    interrupted = signum == early_signal.SIGINT
    said = "interrupted" if interrupted else "terminated"
    os.write(2, f"balancer: {said}; nothing was written.\n".encode())
    os._exit(EXIT_INTERRUPTED if interrupted else EXIT_TERMINATED)


def _started_as_the_command() -> bool:
    """Whether this process is `balancer` itself (the console script or python -m balancer)."""
    spec = getattr(sys.modules.get("__main__"), "__spec__", None)
    if spec is not None and spec.name in ("balancer", "balancer.__main__"):
        return True
    return bool(sys.argv) and os.path.basename(sys.argv[0]) == "balancer"


# Loading click and the commands takes a moment; a Ctrl-C in it would print
# Python's traceback. Installed first, only when this process is the command
# (a test or a library user importing this module keeps its own handlers),
# and replaced by main()'s own as soon as it runs.
if _started_as_the_command():
    early_signal.signal(early_signal.SIGINT, _stopped_while_starting)
    early_signal.signal(early_signal.SIGTERM, _stopped_while_starting)

import importlib

import click

from balancer import __version__
from balancer.cli.base import Command, UserFacingError
from balancer.errors import Terminated, UserError, one_line
from balancer.escape import terminal

# Every command of balancer's own: its name, its module and the click command in it.
# A game contributes commands of its own through its definition (`kk-odds`).
COMMANDS = {
    "cards": ("balancer.cli.cards", "cards_command"),
    "check": ("balancer.cli.check", "check"),
    "csv": ("balancer.cli.csv", "csv_command"),
    "design": ("balancer.cli.design", "design"),
    "diff": ("balancer.cli.diff", "diff_command"),
    "docs": ("balancer.cli.docs", "docs_command"),
    "events": ("balancer.cli.events", "events_command"),
    "init": ("balancer.cli.init", "init_command"),
    "knobs": ("balancer.cli.knobs", "knobs_command"),
    "ladder": ("balancer.cli.ladder", "ladder"),
    "plays": ("balancer.cli.plays", "plays"),
    "replay": ("balancer.cli.replay", "replay"),
    "run": ("balancer.cli.run", "run"),
    "show": ("balancer.cli.show", "show_command"),
    "sweep": ("balancer.cli.sweep", "sweep"),
    "tune": ("balancer.cli.tune", "tune"),
    "validate": ("balancer.cli.validate", "validate"),
    "variants": ("balancer.cli.variants", "variants_command"),
}


class _Commands(click.Group):
    """The group of COMMANDS, each module imported when its command is looked up."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        from balancer import games

        return sorted({*COMMANDS, *games.contributed_commands()})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        where = COMMANDS.get(cmd_name) or _contributed(cmd_name)
        if where is None:
            return None
        found = getattr(importlib.import_module(where[0]), where[1])
        assert isinstance(found, Command) and found.name == cmd_name, cmd_name
        return found


def _contributed(cmd_name: str) -> tuple[str, str] | None:
    """(module, attribute) of a command a game contributes, as its definition names it."""
    from balancer import games

    game = games.contributed_commands().get(cmd_name)
    if game is None:
        return None
    module, _, attribute = games.definition(game).commands[cmd_name].partition(":")
    return module, attribute


def _on_sigterm(signum: int, frame: Any) -> None:
    raise Terminated


@click.group(cls=_Commands, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="balancer")
def cli() -> None:
    """Balance card games by simulation: seeded bot play, reports, diffs."""


def main(argv: list[str] | None = None) -> int:
    """Entry point: user errors exit 2, interrupts 130/143, bugs keep their traceback."""
    from balancer import interrupts

    previous = signal.getsignal(signal.SIGTERM)
    previous_int = signal.getsignal(signal.SIGINT)
    if previous_int is _stopped_while_starting:
        # Once the command has run, an interrupt no longer means "nothing was written".
        previous, previous_int = signal.SIG_DFL, signal.default_int_handler
    # A shell starts background jobs with SIGINT ignored; `kill -INT` must still
    # stop a run cleanly, so Ctrl-C's handler is installed whatever we inherited.
    # Both note that a signal really came (issue 13: a plugin raising
    # KeyboardInterrupt is the plugin's fault, not the user's interrupt).
    interrupts.arm()
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
        message = terminal(one_line(exc.format_message()))
        click.echo(f"balancer: error: {message} (see '{command} --help')", err=True)
        return 2
    except UserError as exc:  # raised outside any command (none today): still one line
        UserFacingError(exc.message).show()
        return UserFacingError.exit_code
    except click.ClickException as exc:
        exc.show()
        return exc.exit_code
    except (KeyboardInterrupt, click.exceptions.Abort):
        click.echo("balancer: interrupted; nothing was written.", err=True)
        return _stopped(EXIT_INTERRUPTED, argv)
    except Terminated:
        click.echo("balancer: terminated; nothing was written.", err=True)
        return _stopped(EXIT_TERMINATED, argv)
    finally:
        interrupts.disarm()
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)
        if previous_int is not None:
            signal.signal(signal.SIGINT, previous_int)


def _stopped(code: int, argv: list[str] | None) -> int:
    """Exit at once after an interrupt, when this is the program (not main() called in-process).

    By now the workers are killed and reaped, the scratch files removed and
    the folder's lock released (the `finally`s the interrupt ran through);
    what is left is the interpreter tearing down numba, polars and the rest,
    a few tenths of a second a Ctrl-C should not wait for.
    """
    if argv is not None:
        return code
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            stream.flush()
    os._exit(code)


if __name__ == "__main__":
    sys.exit(main())
