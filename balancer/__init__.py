"""balancer: balance card games by simulation.

The library is the product; the `balancer` command is a thin shell over it::

    import balancer

    base = balancer.load_variant("fdc-5p", games=2000)  # a shipped variant, by name
    face = balancer.load_variant("fdc-5p", games=2000, cash_value="face")
    a, b = balancer.run(base, workers=2), balancer.run(face, workers=2)
    b.save("reports/fdc-5p-face")
    print(b.seats[0].win_share, b.seats[0].win_ci95)
    print(balancer.compare(a, b).changed)  # same seed and games: a paired comparison

Errors a user can cause are `balancer.errors.UserError` (one line, naming the
file, line and key); a bot that breaks a game raises `balancer.errors.GameFault`.

Importing balancer is cheap: each function imports what it needs when called.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from balancer._version import __version__

if TYPE_CHECKING:
    from balancer.analysis.diff import DiffTable
    from balancer.config.variant import Variant
    from balancer.report.model import Report

__all__ = ["Report", "compare", "load_variant", "open_report", "run", "__version__"]


def load_variant(
    path: str | Path,
    *,
    games: int | None = None,
    seed: int | None = None,
    **knobs: Any,
) -> Variant:
    """Read and check a variant file, or a shipped variant by name (`"fdc-5p"`, from any
    folder, as the command line takes it); `games`, `seed` and any knob override the file's."""
    from balancer.config.shipped import find
    from balancer.config.variant import load

    variant = load(find(str(path)) or path).with_overrides(games=games, seed=seed)
    return variant.with_checked_knobs(knobs) if knobs else variant


def run(
    variant: Variant,
    *,
    workers: int = 1,
    progress: Callable[[int], None] | None = None,
    started: Callable[[int], None] | None = None,
    check: bool = False,
    move_time_limit: float | None = None,
    backend: str = "local",
    scheduler: str | None = None,
    until: str | None = None,
    scratch: str | Path | None = None,
) -> Report:
    """Play every game of `variant` and return its Report (not yet saved anywhere).

    `progress(n)` is told of every n games done, `started(workers)` once the
    workers are playing. Results do not depend on `workers` or `backend`:
    "local" plays in `workers` processes here, "dask" on a Dask cluster (a
    local one started for the run, or the one whose scheduler is at
    `scheduler`, e.g. "tcp://10.0.0.5:8786"). A bot that
    breaks a game raises GameFault naming the game.

    `until` ("win_ci<=0.02") stops early, between chunks, once every seat's
    and every bot's win share has a 95% confidence sequence at most that
    wide (stats.sequential: valid however often it is looked at); the
    variant's `games` is then the most it plays. The Report says where it
    stopped (`stopped_at`) and by which rule (`until`). A bad rule is a
    UserError.

    The games are written to disk as they are played (in a folder made under
    `scratch`, default the system's temporary folder), never held in memory;
    `report.games` reads them when asked, and `report.save` puts the file in
    the report folder.
    """
    from balancer.report.build import from_run
    from balancer.sim import runner
    from balancer.stats.sequential import UntilWatch, parse_until

    watch = None
    if until is not None:
        watch = UntilWatch(
            parse_until(until),
            [s.label for s in variant.seats],
            variant.seat_rotation,
            variant.spec.higher_is_better,
        )

    limit = runner.DEFAULT_PLUGIN_MOVE_LIMIT if move_time_limit is None else move_time_limit
    result = runner.run(
        variant,
        workers=workers,
        check=check,
        plugin_move_limit=limit,
        progress=progress,
        started=started,
        backend=backend,
        scheduler=scheduler,
        on_chunk=watch,
        scratch=scratch,
    )
    if watch is None:
        return from_run(result)
    early = watch.stopped_at if result.games < variant.games else None
    return from_run(result, until=until, stopped_at=early)


def open_report(folder: str | Path) -> Report:
    """Read a report folder back, checked; damage is a UserError naming the file."""
    from balancer.report.model import Report

    return Report.open(folder)


def compare(a: Report, b: Report, *, alpha: float = 0.05) -> DiffTable:
    """What changed from A to B, row by row, with tests corrected for the whole table.

    The comparison is paired (game g of both dealt alike, the luck of the deal
    cancelling) when A and B were played with the same seed and game count;
    else it is not, and `.paired` and `.warnings` say so. `.changed` is one bool
    for the whole table: whether any row's verdict is "changed" (its p, adjusted
    by Holm over every row tested, at most `alpha`)."""
    from balancer.analysis.diff import compare as compare_reports

    return compare_reports(a, b, alpha=alpha)


def __getattr__(name: str) -> Any:
    # `balancer.Report` without importing polars for every `balancer --version`.
    if name == "Report":
        from balancer.report.model import Report

        return Report
    raise AttributeError(f"module 'balancer' has no attribute {name!r}")
