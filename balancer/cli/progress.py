"""The progress bar on stderr: only for a terminal, and never with --quiet."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

import click


class Progress:
    """`with Progress(total, label, quiet) as advance:` then `advance(n)` per n games done.

    Not quiet and not on a terminal, `started` prints one line instead when
    the games start: a log shows the run is under way (and tests wait for it).
    """

    def __init__(self, total: int, label: str, quiet: bool) -> None:
        self.bar: Any = None
        self.total, self.label = total, label
        self.announce = not quiet and not sys.stderr.isatty()
        if not quiet and not self.announce:
            self.bar = click.progressbar(
                length=total, label=label, file=sys.stderr, show_eta=True, show_pos=True
            )

    def started(self, workers: int) -> None:
        if self.announce:
            on = f"{workers} worker" + ("s" if workers != 1 else "")
            click.echo(f"balancer: playing {self.total} games of {self.label} on {on}", err=True)

    def __enter__(self) -> Callable[[int], None]:
        if self.bar is None:
            return lambda n: None
        self.bar.__enter__()
        return self.bar.update  # type: ignore[no-any-return,unused-ignore]

    def __exit__(self, *exc: object) -> None:
        if self.bar is not None:
            self.bar.__exit__(*exc)
