"""A run's way of playing is decided once (sim/plan.py), and each kind of run gets its own.

The table below is worked out by hand from the rule: --check always plays on
the Python engine; every seat compiled plays compiled; a plugin in a process
of its own (the default, and always on Dask) plays on the engine, whose views
are cheaper for it; a trusted plugin with every other seat compiled steps the
kernel, where the kernel can be stepped (a game file's can't); a built-in bot
the kernel doesn't play (`search`) sends the run to the engine.
"""

from __future__ import annotations

import pickle
from collections.abc import Iterator, Sequence
from dataclasses import replace
from typing import Any

import pytest

from balancer.bots import build
from balancer.bots import host as plugin_host
from balancer.config.shipped import shipped_dir
from balancer.config.variant import SeatSpec, Variant, load
from balancer.sim import compiled, kernel_step, runner
from balancer.sim import plan as planning
from balancer.sim.plan import PlayPath

PLUGIN = "tests.plugins:UniformLegal"
COMPILED, STEPPED, ENGINE = PlayPath.COMPILED, PlayPath.STEPPED, PlayPath.ENGINE


def variant_of(name: str, first_bot: str | None = None, games: int = 40) -> Variant:
    """A shipped variant, its first bot slot's bot replaced by `first_bot` if given."""
    variant = load(shipped_dir() / f"{name}.yaml").with_overrides(games=games)
    if first_bot is None:
        return variant
    return replace(variant, seats=(SeatSpec(first_bot), *variant.seats[1:]))


# (variant, first slot's bot, --check, plugins trusted, backend) -> the path
CASES = [
    ("fdc-5p", None, False, False, "local", COMPILED),
    ("fdc-5p", None, True, False, "local", ENGINE),
    ("kk-4p", None, False, False, "local", COMPILED),
    ("dqz-4p", None, False, False, "local", COMPILED),
    ("mega-racer-4p-vs-random", None, False, False, "local", COMPILED),  # lookahead, random
    ("mega-racer-4p-vs-random", None, True, False, "local", ENGINE),
    ("fdc-5p", PLUGIN, False, True, "local", STEPPED),
    ("kk-4p", PLUGIN, False, True, "local", STEPPED),
    ("dqz-4p", PLUGIN, False, True, "local", STEPPED),
    ("fdc-5p", PLUGIN, True, True, "local", ENGINE),  # --check beats stepping
    ("fdc-5p", PLUGIN, False, False, "local", ENGINE),  # hosted
    ("fdc-5p", PLUGIN, False, True, "dask", ENGINE),  # a Dask worker hosts its plugins
    ("mega-racer-4p-vs-random", PLUGIN, False, True, "local", ENGINE),  # no step_game
    ("fdc-5p", "search", False, False, "local", ENGINE),  # not a compiled bot
    ("fdc-5p", "search", False, True, "local", ENGINE),  # nor steppable around it
]


@pytest.mark.parametrize(
    ("name", "first_bot", "check", "trusted", "backend", "path"),
    CASES,
    ids=[f"{c[0]}-{c[1] or 'builtin'}-check{c[2]:d}-trust{c[3]:d}-{c[4]}" for c in CASES],
)
def test_each_kind_of_run_gets_its_path(
    name: str, first_bot: str | None, check: bool, trusted: bool, backend: str, path: PlayPath
) -> None:
    variant = variant_of(name, first_bot)
    with plugin_host.trusting(trusted):
        plan = planning.decide(variant, check=check, backend=backend)
    assert plan.path is path, plan.why
    # The kernel travels with the plan exactly when a kernel plays.
    assert (plan.kernel is None) == (path is ENGINE)


def test_the_seats_bots_are_resolved_with_their_defaults_and_their_hosting() -> None:
    variant = variant_of("kk-4p", PLUGIN)
    searching = SeatSpec("search", {"samples": 3})
    variant = replace(variant, seats=(variant.seats[0], searching, *variant.seats[2:]))
    with plugin_host.trusting(False):
        plan = planning.decide(variant, plugin_move_limit=3.0)
    first, second = plan.slots[:2]
    assert (first.name, first.plugin, first.hosted, dict(first.params)) == (PLUGIN, True, True, {})
    # The search bot: the parameter given kept, its others' defaults added (the rollout).
    assert (second.name, second.plugin, second.hosted) == ("search", False, False)
    assert second.params["samples"] == 3 and "rollout" in second.params
    assert second.label == searching.label == "search(samples=3)"
    assert plan.kernel_slots()[:2] == [None, ("search", second.params)]
    assert plan.plugin_move_limit == 3.0


def test_a_plan_sent_to_a_dask_worker_leaves_its_kernel_behind_and_finds_it_there() -> None:
    plan = planning.decide(variant_of("fdc-5p-random"))
    assert plan.kernel is not None
    sent = pickle.loads(pickle.dumps(plan))
    assert sent.kernel is None  # a kernel's compiled code isn't shipped with each task
    assert sent.kernel_to_play() is compiled.kernel_of(plan.variant.game)
    assert (sent.path, sent.slots, sent.variant) == (plan.path, plan.slots, plan.variant)


# -- decided once -----------------------------------------------------------------------


def in_this_process(chunks: Sequence[runner.Chunk], workers: int, started: Any) -> Iterator[Any]:
    """A backend playing every chunk here, where the counters below can see it."""
    return map(runner.play_chunk, chunks)


@pytest.mark.parametrize(
    ("first_bot", "check", "path"),
    [(None, False, COMPILED), (PLUGIN, False, STEPPED), (PLUGIN, True, ENGINE)],
)
def test_a_run_decides_once_and_resolves_its_bots_once(
    monkeypatch: pytest.MonkeyPatch, first_bot: str | None, check: bool, path: PlayPath
) -> None:
    # 64 games in 16 chunks: a choice made per chunk would be counted 16 times.
    variant = variant_of("fdc-5p-random", first_bot, games=64)
    monkeypatch.setenv(runner.CHECK_ENV, "0")  # the suite forces --check (conftest.py)
    decided: list[PlayPath] = []
    resolved: list[int] = []
    real_decide, real_slot_bots = planning.decide, build.slot_bots

    def decide(*args: Any, **kwargs: Any) -> planning.Plan:
        plan = real_decide(*args, **kwargs)
        decided.append(plan.path)
        return plan

    def slot_bots(*args: Any) -> Any:
        resolved.append(1)
        return real_slot_bots(*args)

    monkeypatch.setattr(planning, "decide", decide)
    # Every way a path resolves bot names on its own (bots/build.py's slot_bots).
    monkeypatch.setattr(planning, "slot_bots", slot_bots)
    monkeypatch.setattr(compiled, "slot_bots", slot_bots)
    monkeypatch.setattr(kernel_step, "slot_bots_of", slot_bots)
    with plugin_host.trusting(True):
        result = runner.run(variant, check=check, backend=in_this_process)
    result.games_file.remove()
    assert result.games == 64
    assert decided == [path]
    assert resolved == [1]
