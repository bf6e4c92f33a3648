"""What every game and every shipped variant must do (OpenSpiel's random_sim_test, our way).

Each shipped variant plays a few games with its own bots, checking at every
step: a player to move and legal actions while not over, distinct legal
actions, conservation (check_invariants), the record's shape, and the game's
length bound. Plus the contract every game module keeps: knobs with defaults
that pass their own checks, events named as RULES.md §5 names them, and views
that are frozen.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from click.testing import CliRunner

from balancer import games, knobs
from balancer.bots import registry as bots
from balancer.cli import cli
from balancer.config.variant import load
from balancer.rng import CHANCE, bot_stream
from balancer.sim.play import derive_rng
from balancer.sim.runner import build_seats

ROOT = Path(__file__).parent.parent
SHIPPED = sorted((ROOT / "variants").glob("*.yaml"))
PLAYABLE = [p for p in SHIPPED if not p.name.endswith("-base.yaml")]

# The most moves a game can take, far above any real one: a hang is a failure.
MOVE_BOUND = 20_000


@pytest.mark.parametrize("path", PLAYABLE, ids=[p.stem for p in PLAYABLE])
def test_shipped_variant_plays_by_the_contract(path: Path) -> None:
    variant = load(path)
    spec = variant.spec
    seats = build_seats(variant, 10.0)
    for index in range(3):
        state = spec.new_state(variant.rules, variant.players, derive_rng(7, index, CHANCE))
        state.log = None
        rngs = [derive_rng(7, index, bot_stream(s)) for s in range(variant.players)]
        state.check_invariants()
        moves = 0
        while not state.is_terminal():
            seat = state.current_player()
            assert 0 <= seat < variant.players
            legal = state.legal_actions()
            assert legal, "no legal action before the end"
            assert len(set(legal)) == len(legal), "legal actions repeat"
            slot = seats[variant.bot_slot(seat, index)]
            action = (
                legal[0] if len(legal) == 1 else slot.bot.act(state.view(seat), legal, rngs[seat])
            )
            assert action in legal
            state.apply_action(action)
            state.check_invariants()
            moves += 1
            assert moves < MOVE_BOUND
        record = state.record()
        assert len(record.scores) == variant.players
        assert set(record.events) == set(spec.events)
        assert record.length >= 1
        assert all(isinstance(v, int | float) for v in record.events.values())


@pytest.mark.parametrize("name", games.names())
def test_game_module_contract(name: str) -> None:
    spec = games.get(name)
    assert games.canonical(spec.short) == name
    assert 1 <= spec.min_players <= spec.max_players
    assert spec.rules_version >= 1
    assert set(spec.value_events) <= set(spec.events)
    defaults = knobs.defaults(spec.knobs)
    for knob in spec.knobs:
        assert knob.check(knob.default) == knob.default or knob.default is None, knob.name
        assert knob.meaning and knob.section in knobs.SECTIONS
    assert len({k.name for k in spec.knobs}) == len(spec.knobs)
    assert spec.unplayable(defaults, spec.max_players) is None
    registry = bots.builtin(name)
    assert "random" in registry and len(registry) >= 2
    state = spec.new_state(defaults, spec.min_players, derive_rng(1, 0, CHANCE))
    view = state.view(state.current_player())
    assert dataclasses.is_dataclass(view)
    with pytest.raises(dataclasses.FrozenInstanceError):
        view.seat = 99  # type: ignore[misc]


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


@pytest.mark.parametrize("name", games.names())
def test_events_are_named_as_rules_md_names_them(name: str) -> None:
    assert sorted(games.get(name).events) == sorted(EVENTS[name])


def test_every_command_has_help_and_is_in_the_readme() -> None:
    readme = (ROOT / "README.md").read_text()
    runner = CliRunner()
    for name, command in cli.commands.items():
        assert command.help, name
        assert f"balancer {name}" in readme, name
        result = runner.invoke(cli, [name, "--help"])
        assert result.exit_code == 0 and "Usage" in result.output


def test_readme_starts_with_the_two_commands() -> None:
    head = (ROOT / "README.md").read_text()[:400]
    assert head.index("make run") < head.index("make test")


def test_every_variant_the_readme_lists_exists() -> None:
    readme = (ROOT / "README.md").read_text()
    for path in PLAYABLE:
        assert f"`{path.stem}`" in readme, path.stem
