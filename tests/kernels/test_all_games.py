"""What the whole project keeps: events named as RULES.md §5 names them, every
command with help and in the README's table of commands, every shipped variant
listed there.

The engine contract (every game, every shipped variant played and checked at
every step) is tests/kernels/test_conformance.py.
"""

from __future__ import annotations

from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from balancer import games
from balancer.cli import cli

ROOT = Path(__file__).parents[2]
SHIPPED = sorted((ROOT / "variants").glob("*.yaml"))
PLAYABLE = [p for p in SHIPPED if not p.name.endswith("-base.yaml")]

EVENTS = {
    "fish-dash-cash": [
        "neko_ni_koban",
        "cards_cancelled",
        "steals",
        "protects",
        "cash_events",
        "fish_cashed",
        "fish_uncashed_at_end",
        "lead_changes",
    ],
    "kimekimera": ["colour_bonus_1", "colour_bonus_2", "exact_hits", "robots_made", "reshuffles"],
    "da-qi-zi": [
        "deals",
        "tricks",
        "busts",
        "max_multiplier",
        "dealer_wins",
        "zero_capture",
        "last_trick_rule",
        "lead_single",
        "lead_pair",
        "lead_triple",
        "lead_sequence",
        "lead_four",
        "lead_five",
    ],
}


@pytest.mark.parametrize("name", sorted(EVENTS))
def test_events_are_named_as_rules_md_names_them(name: str) -> None:
    # The games RULES.md §5 names events for; a game it doesn't know (a toy, a
    # designer's own) is held to its declared events by test_conformance.py.
    assert sorted(games.get(name).events) == sorted(EVENTS[name])


def test_every_command_has_help_and_is_in_the_readme() -> None:
    readme = (ROOT / "README.md").read_text()
    runner = CliRunner()
    context = click.Context(cli)
    names = cli.list_commands(context)
    assert len(names) >= 16, names  # the commands are looked up lazily: all of them
    for name in names:
        command = cli.get_command(context, name)
        assert command is not None and command.help, name
        # A row of the README's table of commands, not a mention anywhere.
        assert f"\n| `balancer {name} " in readme or f"\n| `balancer {name}`" in readme, name
        result = runner.invoke(cli, [name, "--help"])
        assert result.exit_code == 0 and "Usage" in result.output


def test_readme_starts_with_the_two_commands() -> None:
    head = (ROOT / "README.md").read_text()[:400]
    assert head.index("make run") < head.index("make test")


def test_every_variant_the_readme_lists_exists() -> None:
    readme = (ROOT / "README.md").read_text()
    for path in PLAYABLE:
        assert f"`{path.stem}`" in readme, path.stem
