"""Command-line options shared by every command that plays games: one spelling everywhere."""

from __future__ import annotations

from collections.abc import Callable
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
workers_option = click.option(
    "--workers",
    "-w",
    type=click.IntRange(1, 256),
    default=1,
    show_default=True,
    help="Processes to play games in; results don't depend on it.",
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


def simulation_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """--games, --seed, --workers, --quiet, --check, --move-time-limit and --trust-plugins."""
    for option in reversed(
        (
            games_option,
            seed_option,
            workers_option,
            quiet_option,
            check_option,
            move_time_limit_option,
            trust_plugins_option,
        )
    ):
        command = option(command)
    return command
