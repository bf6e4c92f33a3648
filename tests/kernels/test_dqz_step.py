"""Plugin games stepped on the Da Qi Zi kernel are the Python engine's games.

sim/kernel_step.py drives daqizi/kernel.py's StepGame as it drives fdc's and
kk's; tests/kernels/test_kernel_step.py's helpers play both paths. Game for game
(records equal: scores, length, every event, the held kinds) over every
shipped dqz variant with one plugin seat and with plugins in every seat, and
over rule sets and bot parameters off their defaults (test_dqz_kernel.py's);
a plugin playing random replays the compiled run; a plugin that reads its
view sees exactly the Python engine's view (this trick's and this deal's
face-up plays among it); the plugin's rng is its seat's stream, drawn ahead
by the kernel; the stepping entry is compiled by the warm-up; and the same
games with the kernels as plain Python (BALANCER_JIT=0).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from balancer import jit
from balancer.config.variant import SeatSpec, Variant, load
from balancer.games.daqizi import engine as daqizi
from balancer.games.daqizi import kernel as K
from balancer.sim import compiled, kernel_step
from tests.helpers import kernel_view_matches
from tests.kernels.test_dqz_kernel import ODD_PARAMS, ODD_RULES
from tests.kernels.test_kernel_step import (
    assert_compiled_seats_play_to_the_end,
    assert_drawn_ahead,
    assert_replays_compiled,
    assert_same_records,
    assert_warm_up_compiles_the_step_entry,
    both_paths,
    engine,
    plain_records,
    same_without_numba,
    stepped,
    with_plugins,
)

ROOT = Path(__file__).parents[2]
VARIANTS = sorted(p for p in (ROOT / "variants").glob("dqz-*.yaml") if p.stem != "dqz-base")


def knob_variant(case: int) -> Variant:
    """test_dqz_kernel.py's ODD_RULES[case] as a variant (between them every knob is
    off its default), its heuristic seats with ODD_PARAMS beside `random` ones."""
    base = load(ROOT / "variants" / "dqz-base.yaml").with_knobs(ODD_RULES[case])
    assert daqizi.unplayable(base.rules, 4) is None
    bots = [("heuristic", ODD_PARAMS[case]), ("random", {}), ("heuristic", ODD_PARAMS[1 - case])]
    seats = tuple(SeatSpec(name, params) for name, params in [*bots, ("random", {})])
    return replace(base, seats=seats, seat_rotation=case == 0, name=f"knobs-{case}")


# -- the Python engine's games ------------------------------------------------------


@pytest.mark.parametrize("path", VARIANTS, ids=lambda p: p.stem)
def test_every_variant_with_plugin_seats_plays_the_engines_games(path: Path) -> None:
    """One plugin among the variant's own bots (seat 1, seats rotated or not as the
    variant says); then a plugin in every seat."""
    variant = load(path)
    one = with_plugins(variant, [1])
    assert kernel_step.can_step(one) and not compiled.can_compile(one)
    assert_same_records(stepped(one, 200, 350), engine(one, 200, 350), path.stem)
    every = with_plugins(variant, range(4))
    assert_same_records(stepped(every, 0, 150), engine(every, 0, 150), path.stem)


@pytest.mark.parametrize("case", range(len(ODD_RULES)))
def test_every_knob_off_default_with_plugins_plays_the_engines_games(case: int) -> None:
    variant = knob_variant(case)
    for slots in ([0, 3], [1]):
        mixed = with_plugins(variant, slots)
        assert_same_records(stepped(mixed, 0, 200), engine(mixed, 0, 200), variant.name)


def test_the_knob_cases_move_every_rule_knob() -> None:
    """So the knob test above can fail for any knob the kernel reads wrong."""
    moved = {
        knob.name
        for changes in ODD_RULES
        for knob in daqizi.KNOBS
        if knob.name in changes and changes[knob.name] != knob.default
    }
    assert moved == {knob.name for knob in daqizi.KNOBS}


def test_a_random_plugin_replays_the_compiled_runs_games() -> None:
    """Plugins drawing legal[rng.randrange(n)] in random seats: every seat's figures are
    the compiled run's, the heuristic's included (each built-in seat keeps its compiled
    logic and its kernel stream)."""
    mixed = load(ROOT / "variants" / "dqz-4p-vs-random.yaml")  # heuristic, random x 3
    assert mixed.seat_rotation
    for slots in ([1], [2, 3]):
        assert_replays_compiled(mixed, slots, 1000, 1300)
    every = load(ROOT / "variants" / "dqz-4p-random.yaml")
    for slots in ([0], [0, 1, 2, 3]):
        assert_replays_compiled(every, slots, 0, 300)


@pytest.mark.parametrize("name", ["dqz-4p", "dqz-4p-vs-random", "dqz-4p-mixed-pairs"])
def test_the_step_entry_plays_compiled_seats_to_the_end(name: str) -> None:
    """With no outside seat, one `deal` plays the whole game: the compiled path's game."""
    assert_compiled_seats_play_to_the_end(load(ROOT / "variants" / f"{name}.yaml"), 80)


# -- what a plugin is handed ---------------------------------------------------------


class Reader:
    """Reads its whole view at every decision (keeping it), and lets it steer the move."""

    def __init__(self) -> None:
        self.seen: list[tuple[Any, str, tuple[Hashable, ...]]] = []

    def act(self, view: Any, legal: Sequence[Hashable], rng: Any) -> Hashable:
        self.seen.append((view, repr(view), tuple(legal)))
        steer = len(view.history) + len(view.trick) + view.trick_discards + sum(view.public)
        return legal[(rng.randrange(len(legal)) + steer) % len(legal)]


@pytest.mark.parametrize(
    "variant",
    [
        load(ROOT / "variants" / "dqz-4p.yaml"),
        load(ROOT / "variants" / "dqz-4p-vs-random.yaml"),
        knob_variant(0),  # mixed combinations, may discard, no last-trick rule, random dealer
        knob_variant(1),  # other scoring, random dealer
    ],
    ids=lambda v: v.name,
)
def test_a_plugin_reading_its_view_sees_exactly_the_engines_view(variant: Variant) -> None:
    """Every field of every view, and the legal moves as listed: the same on both paths."""
    reader = Reader()
    both_paths(variant, reader, [0, 3], range(40))
    half = len(reader.seen) // 2  # the stepped games' decisions, then the engine's
    assert half > 1000
    for (a, text_a, legal_a), (b, text_b, legal_b) in zip(
        reader.seen[:half], reader.seen[half:], strict=True
    ):
        assert kernel_view_matches(a, b, text_a, text_b) and legal_a == legal_b
        assert [type(x) for x in legal_a] == [type(x) for x in legal_b]
    views = [view for view, _, _ in reader.seen[:half]]
    # Views that only a kept history shows were among them. (A last trick is never
    # among them: its follows are forced, each hand holding just the cards led.)
    assert any(len(v.trick) >= 2 for v in views)
    assert any(v.trick_discards > 0 and v.trick for v in views)
    assert any(len(v.history) > 8 for v in views)
    assert any(v.deal > 2 and v.streak > 0 and v.multiplier > 0 for v in views)
    assert any(any(sum(c) for c in v.captured) for v in views)


def test_an_outside_seats_rng_is_its_stream_drawn_ahead() -> None:
    assert_drawn_ahead("da-qi-zi", load(ROOT / "variants" / "dqz-4p.yaml").rules, 4, K.AHEAD)


def test_a_stepgame_refuses_slots_not_one_a_player() -> None:
    with pytest.raises(ValueError, match="3 bot slots for 4 players"):
        K.StepGame({}, 4, [None] * 3)
    rules = load(ROOT / "variants" / "dqz-4p.yaml").rules
    with pytest.raises(ValueError, match="needs 4 players"):
        K.StepGame(rules, 3, [None] * 3)


# -- compiled before anyone plays --------------------------------------------------------


@pytest.mark.skipif(not jit.ENABLED, reason="nothing is compiled without numba")
def test_the_warm_up_compiles_the_stepping_entry() -> None:
    variant = with_plugins(load(ROOT / "variants" / "dqz-4p-vs-random.yaml"), [2])
    assert_warm_up_compiles_the_step_entry(variant, K)


# -- without numba -----------------------------------------------------------------------


def plain_games() -> list[list[Any]]:
    """A few stepped games of two rule sets (for the BALANCER_JIT=0 child)."""
    return plain_records(
        [
            with_plugins(load(ROOT / "variants" / "dqz-4p-vs-random.yaml"), [2]),
            with_plugins(knob_variant(0), [0, 3]),
        ],
        3,
    )


def test_without_numba_the_same_functions_play_the_same_games() -> None:
    same_without_numba("tests.kernels.test_dqz_step", plain_games)
