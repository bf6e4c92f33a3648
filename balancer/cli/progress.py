"""The progress bar on stderr: only for a terminal, and never with --quiet."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

import click


class Progress:
    """`with Progress(total, label, quiet) as advance:` then `advance(n)` per n games done."""

    def __init__(self, total: int, label: str, quiet: bool) -> None:
        self.bar: Any = None
        if not quiet and sys.stderr.isatty():
            self.bar = click.progressbar(
                length=total, label=label, file=sys.stderr, show_eta=True, show_pos=True
            )

    def __enter__(self) -> Callable[[int], None]:
        if self.bar is None:
            return lambda n: None
        self.bar.__enter__()
        return self.bar.update  # type: ignore[no-any-return]

    def __exit__(self, *exc: object) -> None:
        if self.bar is not None:
            self.bar.__exit__(*exc)
