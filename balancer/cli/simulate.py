"""Play a variant and write its report folder: what `run`, `diff` and `sweep` share.

The progress bar lives here (stderr, only on a terminal, never with quiet;
elsewhere, in a log or CI, one line says when the games start), and a bot's
fault becomes one line for the user naming the game to replay.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from balancer.config.variant import Variant
from balancer.errors import GameFault, UserError
from balancer.report import build as report
from balancer.report import html
from balancer.report import model as reportio
from balancer.sim import runner


def simulate(
    variant: Variant,
    folder: Path,
    workers: int = 1,
    quiet: bool = True,
    check: bool = False,
    move_time_limit: float = runner.DEFAULT_PLUGIN_MOVE_LIMIT,
    what: str = "",
) -> dict[str, Any]:
    """Play every game of `variant` and write the report folder; returns report.json's data.

    `what` names the run in a fault's message (a sweep names its point).
    """
    # Refuse a folder that isn't ours before playing, not after an hour of it.
    report.check_target(folder, reportio.REPORT_JSON)
    progress = Progress(variant.games, variant.name, quiet)
    with progress as advance:
        try:
            result = runner.run(
                variant,
                workers=workers,
                check=check,
                plugin_move_limit=move_time_limit,
                progress=advance,
                started=progress.started,
            )
        except GameFault as fault:
            where = f" ({what})" if what else ""
            raise UserError(
                f"{fault}{where}. Nothing was written. Replay it: "
                f"balancer replay {variant.path} --game {fault.index} --seed {fault.seed}"
            ) from None
    return report.write_report(result, folder, html=html.write_html)


class Progress:
    """A progress bar on stderr, only for a terminal and only when not quiet.

    Not quiet and not on a terminal, `started` prints one line instead when
    the games start: a log shows the run is under way (and tests wait for it).
    """

    def __init__(self, total: int, label: str, quiet: bool) -> None:
        self.bar = None
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
        return self.bar.update

    def __exit__(self, *exc: object) -> None:
        if self.bar is not None:
            self.bar.__exit__(*exc)
