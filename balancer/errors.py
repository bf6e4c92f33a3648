"""Errors a user can cause, and how they reach the terminal.

A `UserError` is one line for the user (exit code 2); anything else is a bug
and keeps its traceback (exit code 1).
"""

from __future__ import annotations

import click


class UserError(click.ClickException):
    """A mistake in the user's input: one line on stderr, exit code 2."""

    exit_code = 2

    def __init__(
        self,
        message: str,
        *,
        file: str | None = None,
        line: int | None = None,
        key: str | None = None,
    ) -> None:
        where = ""
        if file is not None:
            where = str(file)
            if line is not None:
                where += f":{line}"
            where += ": "
        if key:
            message = f"{key}: {message}"
        # Keep it to one line whatever the message holds.
        super().__init__(" ".join(f"{where}{message}".split()))

    def show(self, file=None) -> None:  # noqa: ANN001 - click's signature
        click.echo(f"balancer: error: {self.format_message()}", err=True)


class Terminated(BaseException):
    """SIGTERM arrived: unwinds like Ctrl-C, so every clean-up runs (exit 143)."""


class InvariantError(AssertionError):
    """An engine invariant (cards or chips conserved) failed: always a bug."""


class GameFault(Exception):
    """A bot broke a game: it raised, returned an illegal move or ran out of time.

    Carries what is needed to replay the game alone.
    """

    def __init__(self, reason: str, *, index: int, seed: int, seat: int, bot: str) -> None:
        self.reason = reason
        self.index = index
        self.seed = seed
        self.seat = seat
        self.bot = bot
        super().__init__(f"game {index} (seed {seed}), seat {seat}, bot {bot!r}: {reason}")

    def __reduce__(self):  # noqa: ANN204 - crosses process boundaries from workers
        return (_rebuild_fault, (self.reason, self.index, self.seed, self.seat, self.bot))


def _rebuild_fault(reason: str, index: int, seed: int, seat: int, bot: str) -> GameFault:
    return GameFault(reason, index=index, seed=seed, seat=seat, bot=bot)
