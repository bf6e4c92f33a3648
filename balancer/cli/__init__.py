"""The `balancer` command line: parse, call the library, print. No game logic here.

Each command lives in its own module and imports what it uses only when it
runs, so `balancer --version` or `--help` pays for none of it.
"""

from __future__ import annotations

import signal
import sys
from typing import Any

import click

from balancer import __version__
from balancer.cli.base import Command, UserFacingError
from balancer.cli.cards import cards_command
from balancer.cli.csv import csv_command
from balancer.cli.diff import diff_command
from balancer.cli.events import events_command
from balancer.cli.init import init_command
from balancer.cli.kk_odds import kk_odds
from balancer.cli.knobs import knobs_command
from balancer.cli.replay import replay
from balancer.cli.run import run
from balancer.cli.show import show_command
from balancer.cli.sweep import sweep
from balancer.cli.validate import validate
from balancer.cli.variants import variants_command
from balancer.errors import Terminated, UserError

EXIT_INTERRUPTED = 130  # 128 + SIGINT
EXIT_TERMINATED = 143  # 128 + SIGTERM


def _on_sigterm(signum: int, frame: Any) -> None:
    raise Terminated


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="balancer")
def cli() -> None:
    """Balance card games by simulation: seeded bot play, reports, diffs."""


for _command in (
    run,
    validate,
    knobs_command,
    events_command,
    init_command,
    variants_command,
    show_command,
    csv_command,
    replay,
    diff_command,
    kk_odds,
    sweep,
    cards_command,
):
    assert isinstance(_command, Command)
    cli.add_command(_command)


def main(argv: list[str] | None = None) -> int:
    """Entry point: user errors exit 2, interrupts 130/143, bugs keep their traceback."""
    from balancer import interrupts

    previous = signal.getsignal(signal.SIGTERM)
    previous_int = signal.getsignal(signal.SIGINT)
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
        message = " ".join(exc.format_message().split())
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
        return EXIT_INTERRUPTED
    except Terminated:
        click.echo("balancer: terminated; nothing was written.", err=True)
        return EXIT_TERMINATED
    finally:
        interrupts.disarm()
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)
        if previous_int is not None:
            signal.signal(signal.SIGINT, previous_int)


if __name__ == "__main__":
    sys.exit(main())
