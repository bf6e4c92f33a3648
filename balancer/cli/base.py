"""Where library errors become the command line's: one line on stderr, exit 2.

Every command is a `Command`, so a `UserError` raised anywhere below a
command is translated here and nowhere else, whether the command runs under
the `balancer` group or is invoked alone (as tests do).
"""

from __future__ import annotations

from typing import Any

import click

from balancer.errors import UserError
from balancer.escape import terminal

EXIT_USER_ERROR = 2


class UserFacingError(click.ClickException):
    """A UserError as click shows it."""

    exit_code = EXIT_USER_ERROR

    def show(self, file: Any = None) -> None:
        # A key, value or parameter quoted in the message may hold escape sequences.
        click.echo(f"balancer: error: {terminal(self.format_message())}", err=True)


class Command(click.Command):
    def format_epilog(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        from balancer.cli.examples import write_examples

        super().format_epilog(ctx, formatter)
        write_examples(self.name or "", formatter)

    def invoke(self, ctx: click.Context) -> Any:
        from balancer.errors import GameFault

        try:
            check_environment()
            return super().invoke(ctx)
        except UserError as exc:
            raise UserFacingError(exc.message) from None
        except GameFault as fault:
            # A bot that broke a game is the user's bot: one line and exit 2 from every
            # command (run, sweep and diff name the replay too; tune, check and ladder
            # play many variants at once, and say which game and seat).
            if fault.plugin_traceback:  # a trusted plugin's own traceback, for its author
                click.echo(fault.plugin_traceback.rstrip(), err=True)
            raise UserFacingError(
                UserError(f"{terminal(str(fault))}. Nothing was written.").message
            ) from None


def check_environment() -> None:
    """The environment a command reads, checked alike by every command before it starts:
    a $BALANCER_LANG that names no language is refused by `diff` as by `run`, even
    where a flag or a variant's lang: would have chosen first (see balancer.environment);
    a $BALANCER_PLUGIN_LOG_LIMIT that is no size is refused even where no plugin plays."""
    from balancer import environment
    from balancer.bots import host

    environment.check_all()
    try:
        host.log_limit()
    except ValueError as exc:
        raise UserError(str(exc)) from None


def command(name: str | None = None, **attrs: Any) -> Any:
    """`click.command` with balancer's error translation."""
    return click.command(name, cls=Command, **attrs)


def note_game_file(game: str) -> None:
    """Say on stderr what checking game `game`'s file said without refusing it (an
    inherited event no effect counts any more, dropped): `run`, `knobs` and `events` play
    or list the game without it, so the designer hears why it is gone from every command
    that reads the file, not only from `validate`."""
    from balancer.games import portable

    for note in getattr(portable(game), "notes", ()):
        click.echo(terminal(f"balancer: note: {note}"), err=True)
