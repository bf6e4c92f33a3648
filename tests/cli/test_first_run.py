"""A fresh clone's first run: `make run` compiles only what its variant plays,
`make test` everything, and a run whose kernel would compile first says so.

Compiling is most of a fresh clone's setup (every game's kernels: minutes on
two cores); sim/warm.py splits it so a first run waits for one game's loop.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from balancer import jit
from balancer.config.variant import load
from balancer.sim import compiled, warm
from tests.helpers import ROOT, VARIANTS

FDC = "fish-dash-cash"


def test_a_run_warms_only_its_game_whole_game_loop_and_everything_warms_every_piece() -> None:
    assert warm.jobs_for_variant(str(VARIANTS / "fdc-5p.yaml")) == [(FDC, "games")]
    assert warm.jobs_for_variant("kk-4p") == [("kimekimera", "games")]  # a shipped name
    from balancer import games

    games.canonical("fish-dash-cash-roles")  # a game file registered: no job of its own
    every = warm.every_job()
    # Three games with kernels, every piece, and the role games' one interpreter: its
    # whole-game loop and its stepping entry points (a search on a game file).
    assert len(every) == 3 * len(warm.PIECES) + 2
    assert {game for game, _ in every} == {FDC, "kimekimera", "da-qi-zi", "mega-racer"}
    assert every[0][1] == "games"  # the longest pieces first
    assert ("mega-racer", "games") in every and ("mega-racer", "steps") in every


def test_a_variant_with_a_plugin_seat_warms_no_whole_game_loop(tmp_path: Path) -> None:
    path = tmp_path / "plugin.yaml"
    path.write_text(
        f"extends: {VARIANTS / 'fdc-3p.yaml'}\nseats:\n  - bot: heuristic\n"
        "  - bot: heuristic\n  - bot: my_bots:Greedy\n"
    )
    variant = load(path)
    assert not compiled.can_compile(variant)  # the control: the plugin seat makes it so
    assert warm.jobs_for_variant(str(path)) == []


@pytest.mark.skipif(not jit.ENABLED, reason="numba is off")
def test_has_code_is_false_until_a_function_without_a_cache_is_compiled() -> None:
    import numba

    @numba.njit
    def twice(x: int) -> int:
        return 2 * x

    assert not jit.has_code(twice)
    assert twice(21) == 42
    assert jit.has_code(twice)


@pytest.mark.skipif(not jit.ENABLED, reason="numba is off")
def test_a_kernel_counts_as_compiled_only_with_code_in_the_cache(tmp_path: Path) -> None:
    """An empty numba cache (NUMBA_CACHE_DIR) is a fresh clone's; the worktree's own
    cache, warmed before the tests (make test), is the control."""
    code = f"from balancer.sim import compiled; print(compiled.needs_compiling({FDC!r}))"
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env["PYTHONPATH"] = str(ROOT)
    warm_cache = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    fresh = subprocess.run(
        [sys.executable, "-c", code],
        env={**env, "NUMBA_CACHE_DIR": str(tmp_path)},
        capture_output=True,
        text=True,
        check=True,
    )
    assert (warm_cache.stdout.strip(), fresh.stdout.strip()) == ("False", "True")


@pytest.mark.skipif(shutil.which("make") is None, reason="no make")
def test_make_run_warms_its_variant_and_make_test_everything(tmp_path: Path) -> None:
    """`make -n` on a copy with no virtual environment: the commands a fresh clone runs."""
    (tmp_path / "balancer").mkdir()  # SOURCES: find balancer
    shutil.copy(ROOT / "Makefile", tmp_path / "Makefile")
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")

    def planned(target: str) -> list[str]:
        out = subprocess.run(
            ["make", "-n", "--no-print-directory", target],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            check=True,
        )
        return out.stdout.splitlines()

    run, test = planned("run"), planned("test")
    everything = ".venv/bin/python -m balancer.sim.warm"
    assert f"{everything} --for variants/fdc-5p.yaml" in run
    assert everything not in run
    assert everything in test
    for plan in (run, test):
        installs = [line for line in plan if "pip" in line and " install " in line]
        assert installs and all("--quiet" in line for line in installs)


def test_the_progress_lines_name_games_as_a_list_reads() -> None:
    assert warm.listed(["fdc"]) == "fdc"
    assert warm.listed(["dqz", "kk"]) == "dqz and kk"
    assert warm.listed(["dqz", "fdc", "kk"]) == "dqz, fdc and kk"
