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
move_time_limit_option = click.option(
    "--move-time-limit",
    type=click.FloatRange(0.001),
    default=DEFAULT_PLUGIN_MOVE_LIMIT,
    show_default=True,
    help="Seconds a plugin bot may take for one move.",
)


def simulation_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """--games, --seed, --workers, --quiet, --check and --move-time-limit, in that order."""
    for option in reversed(
        (
            games_option,
            seed_option,
            workers_option,
            quiet_option,
            check_option,
            move_time_limit_option,
        )
    ):
        command = option(command)
    return command
