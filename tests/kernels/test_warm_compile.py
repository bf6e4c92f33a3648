"""The shared inlined IR of balancer/jit.py (compiling fdc's kernels in half the time).

Every process that compiles (this one: an xdist worker; warm's spawned
pieces; a run's workers) must have it: it comes with importing balancer.
"""

from __future__ import annotations

import concurrent.futures
import multiprocessing
import os
import subprocess
import sys

import pytest

from balancer import jit

pytestmark = pytest.mark.skipif(not jit.ENABLED, reason="numba is off")

EXPECTED = {"shared inlined IR": True}


def test_it_is_in_force_in_this_process() -> None:
    assert jit.in_force() == EXPECTED


def test_it_is_in_force_in_a_spawned_process_as_warm_starts_them() -> None:
    context = multiprocessing.get_context("spawn")
    with concurrent.futures.ProcessPoolExecutor(1, mp_context=context) as pool:
        assert pool.submit(jit.in_force).result() == EXPECTED


def test_a_fresh_interpreter_gets_them_from_importing_balancer() -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("NUMBA_")}
    code = "from balancer import jit; print(jit.in_force())"
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == repr(EXPECTED)


def test_an_inlined_function_is_built_once_per_compilation_and_computes_the_same(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import numba
    from numba.core.inline_closurecall import InlineWorker

    built: list[str] = []
    untyped = InlineWorker.run_untyped_passes

    def counting(self: InlineWorker, func: object, enable_ssa: bool = False) -> object:
        built.append(func.__name__)  # type: ignore[attr-defined]
        return untyped(self, func, enable_ssa)

    monkeypatch.setattr(InlineWorker, "run_untyped_passes", counting)

    @numba.njit(inline="always")
    def clamp(x: int, lo: int, hi: int) -> int:
        if x < lo:
            return lo
        if x > hi:
            return hi
        return x

    @numba.njit(inline="always")
    def clamp_sum(x: int) -> int:
        return clamp(x, 0, 10) + clamp(3 * x, 0, 10)

    @numba.njit
    def outer(x: int) -> int:
        return clamp_sum(x) + clamp_sum(x + 1) + clamp(x, 1, 2)

    # x=2: (2 + 6) + (3 + 9) + 2; x=5: (5 + 10) + (6 + 10) + 2; x=-1: 0 + (0 + 0) + 1
    assert [outer(2), outer(5), outer(-1)] == [22, 33, 1]
    # Unshared: clamp_sum twice (each building clamp twice) and clamp once: 7 builds.
    assert sorted(built) == ["clamp", "clamp_sum"]


def test_deepcopy_outside_an_inlining_is_plain() -> None:
    from numba.core import inline_closurecall

    shared = inline_closurecall.copy
    assert shared.memo is None  # type: ignore[attr-defined]
    inner = [1]
    twice = shared.deepcopy([inner, inner])
    assert twice == [[1], [1]] and twice[0] is twice[1] and twice[0] is not inner
    assert shared.deepcopy(inner) is not shared.deepcopy(inner)


def test_an_inlined_function_is_copied_with_one_scope_not_one_per_block(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import numba
    from numba.core.inline_closurecall import InlineWorker

    scopes: list[int] = []
    inline_ir = InlineWorker.inline_ir

    def watching(self: InlineWorker, *args: object, **kwargs: object) -> object:
        result = inline_ir(self, *args, **kwargs)
        copied = result[0]  # the untouched copy of the callee's IR numba returns
        assert len(copied.blocks) > 1
        scopes.append(len({id(block.scope) for block in copied.blocks.values()}))
        return result

    monkeypatch.setattr(InlineWorker, "inline_ir", watching)

    @numba.njit(inline="always")
    def sign(x: int) -> int:
        if x < 0:
            return -1
        if x > 0:
            return 1
        return 0

    @numba.njit
    def outer(x: int) -> int:
        return sign(x) + 10 * sign(x - 5)

    assert [outer(-3), outer(3), outer(5), outer(9)] == [-11, -9, 1, 11]
    # Block by block, each with a memo of its own, every block got a scope of its own.
    assert scopes == [1, 1]
