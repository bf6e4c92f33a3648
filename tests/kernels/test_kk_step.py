"""Plugin games stepped on the Kimekimera kernel are the Python engine's games.

sim/kernel_step.py drives kimekimera/kernel.py's StepGame as it drives fdc's;
tests/kernels/test_kernel_step.py's helpers play both paths. Game for game (records
equal: scores, length, every event, the held kinds) over every shipped kk
variant with one plugin seat and with plugins in every seat, and over rule
sets that move every knob; a plugin playing random replays the compiled run;
a plugin that reads its view sees exactly the Python engine's view; the
plugin's rng is its seat's stream, drawn ahead by the kernel; the stepping
entry is compiled by the warm-up; and the same games with the kernels as
plain Python (BALANCER_JIT=0).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from balancer import jit
from balancer.config.variant import SeatSpec, Variant, load
from balancer.games.kimekimera import engine as kk
from balancer.games.kimekimera import kernel as K
from balancer.sim import compiled, kernel_step
from tests.helpers import kernel_view_matches
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
from tests.kernels.test_kk_kernel import KNOB_CASES

ROOT = Path(__file__).parents[2]
VARIANTS = sorted(p for p in (ROOT / "variants").glob("kk-*.yaml") if p.stem != "kk-base")


def knob_variant(case: int) -> Variant:
    """test_kk_kernel.py's KNOB_CASES[case] as a variant: every knob is off its
    default in some case, its bots beside `expected`, `random` and `cautious`."""
    changes, players, extra = KNOB_CASES[case]
    base = load(ROOT / "variants" / "kk-base.yaml").with_knobs(changes)
    assert kk.unplayable(base.rules, players) is None
    bots = [*extra, ("expected", {}), ("random", {}), ("cautious", {}), ("random", {})]
    seats = tuple(SeatSpec(name, params) for name, params in bots[:players])
    return replace(
        base, players=players, seats=seats, seat_rotation=case % 2 == 0, name=f"knobs-{case}"
    )


# -- the Python engine's games ------------------------------------------------------


@pytest.mark.parametrize("path", VARIANTS, ids=lambda p: p.stem)
def test_every_variant_with_plugin_seats_plays_the_engines_games(path: Path) -> None:
    """One plugin among the variant's own bots (seat 1, or seat 0 alone), seats rotated
    or not as the variant says; then a plugin in every seat."""
    variant = load(path)
    one = with_plugins(variant, [min(1, variant.players - 1)])
    assert kernel_step.can_step(one) and not compiled.can_compile(one)
    assert_same_records(stepped(one, 200, 400), engine(one, 200, 400), path.stem)
    every = with_plugins(variant, range(variant.players))
    assert_same_records(stepped(every, 0, 300), engine(every, 0, 300), path.stem)


@pytest.mark.parametrize("case", range(len(KNOB_CASES)))
def test_every_knob_off_default_with_plugins_plays_the_engines_games(case: int) -> None:
    variant = knob_variant(case)
    mixed = with_plugins(variant, sorted({0, variant.players - 1}))
    assert_same_records(stepped(mixed, 0, 300), engine(mixed, 0, 300), variant.name)


def test_the_knob_cases_move_every_rule_knob() -> None:
    """So the knob test above can fail for any knob the kernel reads wrong."""
    moved = {
        knob.name
        for changes, _, _ in KNOB_CASES
        for knob in kk.KNOBS
        if knob.name in changes and changes[knob.name] != knob.default
    }
    assert moved == {knob.name for knob in kk.KNOBS}


def test_a_random_plugin_replays_the_compiled_runs_games() -> None:
    """Plugins drawing legal[rng.randrange(n)] in random seats: every seat's figures are
    the compiled run's, the scripted seats' included (each built-in seat keeps its
    compiled logic and its kernel stream)."""
    bots = load(ROOT / "variants" / "kk-4p-bots.yaml")  # expected, cautious, random, random
    assert bots.seat_rotation
    for slots in ([2], [3], [2, 3]):
        assert_replays_compiled(bots, slots, 1000, 1600)
    every = load(ROOT / "variants" / "kk-4p-random.yaml")
    for slots in ([1], [0, 3], [0, 1, 2, 3]):
        assert_replays_compiled(every, slots, 0, 600)


@pytest.mark.parametrize("name", ["kk-4p-bots", "kk-4p-no-reshuffle", "kk-1p"])
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
        steer = view.deck_size + view.discard_size + sum(view.totals) + sum(view.my_chimera())
        return legal[(rng.randrange(len(legal)) + steer) % len(legal)]


@pytest.mark.parametrize(
    "variant",
    [
        load(ROOT / "variants" / "kk-4p-bots.yaml"),
        load(ROOT / "variants" / "kk-4p-no-reshuffle.yaml"),
        knob_variant(3),  # breeding optional: KEEP among the moves
        knob_variant(5),  # leftover free, no reshuffle, 8 rounds
        knob_variant(7),  # no reshuffle, 12 rounds: the deck runs dry, slots empty
    ],
    ids=lambda v: v.name,
)
def test_a_plugin_reading_its_view_sees_exactly_the_engines_view(variant: Variant) -> None:
    """Every field of every view, and the legal moves as listed: the same on both paths."""
    reader = Reader()
    both_paths(variant, reader, sorted({0, variant.players - 1}), range(300))
    half = len(reader.seen) // 2  # the stepped games' decisions, then the engine's
    assert half > 1000
    for (a, text_a, legal_a), (b, text_b, legal_b) in zip(
        reader.seen[:half], reader.seen[half:], strict=True
    ):
        assert kernel_view_matches(a, b, text_a, text_b) and legal_a == legal_b
        assert [type(x) for x in legal_a] == [type(x) for x in legal_b]


def test_views_show_what_the_knob_cases_are_for() -> None:
    """The view test's rule sets reach the positions they are chosen for: a KEEP among
    the moves, empty free slots, a dry deck."""
    reader = Reader()
    both_paths(knob_variant(3), reader, [0], range(40))
    assert any(kk.KEEP in legal for _, _, legal in reader.seen)
    reader = Reader()
    both_paths(knob_variant(7), reader, [0], range(40))
    assert any(-1 in view.free for view, _, _ in reader.seen)
    assert any(view.deck_size == 0 for view, _, _ in reader.seen)


def test_a_deal_stops_at_the_first_seat_that_breeds() -> None:
    """Round 1 starts at seat 0; a robot (a chimera with grey) dealt there is replaced
    without asking (a forced move), so the first decision is the first seat without
    grey, choosing among the 4 free chimeras (breeding is not optional by default)."""
    variant = load(ROOT / "variants" / "kk-4p.yaml")
    steps = kernel_step.stepper("kimekimera", variant.rules, 4, [None] * 4)
    robots_first = 0
    for game in range(60):
        code = steps.deal(variant.seed, game, range(4))
        seat = code & 7
        view = steps.view(seat)
        assert steps.legal(code) == [0, 1, 2, 3] and code >> 3 == 4
        assert view.round == 1 and view.totals == (0, 0, 0, 0)
        assert all(c < kk.FIRST_GREY for c in view.my_chimera())
        robots_first += seat != 0
    assert robots_first > 0  # some deal gave seat 0 a robot (2 greys in 54 cards: ~15%)


def test_an_outside_seats_rng_is_its_stream_drawn_ahead() -> None:
    assert_drawn_ahead("kimekimera", load(ROOT / "variants" / "kk-4p.yaml").rules, 4, K.AHEAD)


def test_a_stepgame_refuses_slots_not_one_a_player() -> None:
    with pytest.raises(ValueError, match="3 bot slots for 4 players"):
        K.StepGame({}, 4, [None] * 3)


# -- compiled before anyone plays --------------------------------------------------------


@pytest.mark.skipif(not jit.ENABLED, reason="nothing is compiled without numba")
def test_the_warm_up_compiles_the_stepping_entry() -> None:
    variant = with_plugins(load(ROOT / "variants" / "kk-4p-bots.yaml"), [2])
    assert_warm_up_compiles_the_step_entry(variant, K)


# -- without numba -----------------------------------------------------------------------


def plain_games() -> list[list[Any]]:
    """A few stepped games of two rule sets (for the BALANCER_JIT=0 child)."""
    return plain_records(
        [
            with_plugins(load(ROOT / "variants" / "kk-4p-bots.yaml"), [2]),
            with_plugins(knob_variant(5), [0, 3]),
        ],
        6,
    )


def test_without_numba_the_same_functions_play_the_same_games() -> None:
    same_without_numba("tests.kernels.test_kk_step", plain_games)
