"""Play a variant and write its report folder: what `run`, `diff` and `sweep` share.

The folder is checked before any game is played (never after an hour of
play), a progress bar follows the games, and a bot's fault becomes one line
naming the game to replay.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from balancer.cli.progress import Progress
from balancer.errors import GameFault, UserError

if TYPE_CHECKING:
    from balancer.config.variant import Variant
    from balancer.report.model import Report


def simulate(
    variant: Variant,
    folder: Path,
    workers: int = 1,
    quiet: bool = True,
    check: bool = False,
    move_time_limit: float | None = None,
    what: str = "",
) -> Report:
    """Play every game of `variant`, write the report folder and return the Report.

    `what` names the run in a fault's message (a sweep names its point).
    """
    import balancer
    from balancer.report.folder import claim
    from balancer.report.model import REPORT_JSON

    # Checked and locked before the first game, held until the report is saved.
    with claim(folder, REPORT_JSON):
        with Progress(variant.games, variant.name, quiet) as advance:
            try:
                report = balancer.run(
                    variant,
                    workers=workers,
                    check=check,
                    move_time_limit=move_time_limit,
                    progress=advance,
                )
            except GameFault as fault:
                where = f" ({what})" if what else ""
                raise UserError(
                    f"{fault}{where}. Nothing was written to {folder}. Replay it: "
                    f"balancer replay {variant.path} --game {fault.index} --seed {fault.seed}"
                ) from None
        report.save(folder)
    return report
