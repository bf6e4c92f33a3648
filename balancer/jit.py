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
from typing import Any, TypeVar, overload

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


@overload
def njit(function: F, /) -> F: ...
@overload
def njit(function: None = None, /, **options: Any) -> Callable[[F], F]: ...


def njit(function: F | None = None, /, **options: Any) -> F | Callable[[F], F]:
    """Compile `function` in nopython mode with an on-disk cache, or leave it as Python.

    Bare (`@njit`) or with numba options (`@njit(inline="always",
    error_model="numpy")`), which are passed to numba.njit over the defaults
    cache=True, nogil=True, and ignored when compiling is off.
    """

    def decorate(f: F) -> F:
        if _NUMBA is None:
            return f
        compiled: F = _NUMBA.njit(**{"cache": True, "nogil": True, **options})(f)
        return compiled

    return decorate if function is None else decorate(function)
