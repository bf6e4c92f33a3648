"""The one switch between compiled and plain-Python kernels.

`njit` compiles with numba (cached on disk, so a process pays compilation
once per machine, not once per run) when numba imports and `BALANCER_JIT` is
not "0"; otherwise it returns the function unchanged, and the same kernels
run as ordinary Python: slower, with identical results. Kernels are written
so that both readings mean the same thing (fixed-width numpy integers
where they wrap, no Python-only constructs).
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Callable
from typing import Any, TypeVar

F = TypeVar("F", bound=Callable[..., Any])

JIT_ENV = "BALANCER_JIT"


def _numba() -> Any:
    if os.environ.get(JIT_ENV, "1") == "0":
        return None
    try:
        import numba
    except ImportError:
        return None
    return numba


_NUMBA = _numba()
ENABLED = _NUMBA is not None

if not ENABLED:
    # Compiled uint64 arithmetic wraps modulo 2**64 silently; numpy scalars in
    # plain Python wrap the same way but warn. The kernels rely on the wrap.
    warnings.filterwarnings("ignore", "overflow encountered in scalar", RuntimeWarning)


def njit(function: F) -> F:
    """Compile `function` in nopython mode with an on-disk cache, or leave it as Python."""
    if _NUMBA is None:
        return function
    compiled: F = _NUMBA.njit(cache=True, nogil=True)(function)
    return compiled
