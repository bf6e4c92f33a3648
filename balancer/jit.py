"""The one switch between compiled and plain-Python kernels.

`njit` compiles with numba (cached on disk, so a process pays compilation
once per machine, not once per run) when numba imports and `BALANCER_JIT` is
not "0"; otherwise it returns the function unchanged, and the same kernels
run as ordinary Python: slower, with identical results. Kernels are written
so that both readings mean the same thing (fixed-width numpy integers
where they wrap, no Python-only constructs).
"""

from __future__ import annotations

import copy
import hashlib
import os
import warnings
from collections.abc import Callable
from typing import Any, TypeVar, overload

from balancer import environment

F = TypeVar("F", bound=Callable[..., Any])

JIT_ENV = environment.JIT


def _numba() -> Any:
    if not environment.jit_wanted():
        return None
    try:
        import numba
    except ImportError:
        return None
    _share_inlined_ir()
    _stamp_kernel_packages()
    return numba


class _SharedMemoCopy:
    """The `copy` module as numba's inline_closurecall sees it: deepcopy shares
    `memo` across calls while it is set (one inline_ir call), else plain."""

    memo: dict[int, Any] | None = None

    def deepcopy(self, x: Any, memo: dict[int, Any] | None = None) -> Any:
        return copy.deepcopy(x, self.memo if memo is None else memo)

    def __getattr__(self, name: str) -> Any:
        return getattr(copy, name)


def _share_inlined_ir() -> None:
    """Make numba build each `inline="always"` function's IR once per compilation.

    numba inlines such a function by running its whole untyped pipeline at every
    call site, and that pipeline inlines the function's own callees the same way:
    the work grows with the fully expanded call tree, and a game kernel whose
    entry points inline the whole engine spent most of its compile time there.
    The IR a function gets is the same at every site of one compilation (same
    function, same compiler flags), and numba copies it before splicing it in, so
    it is built once and reused; the code compiled is the same.
    """
    import numba
    from numba.core import inline_closurecall

    worker = inline_closurecall.InlineWorker
    if getattr(worker, "_balancer_shared", False) or not (
        # The numba internals this relies on (InlineWorker.inline_function and
        # inline_ir, read in 0.68: inline_ir copies the callee's IR before it
        # changes anything); in another numba, numba is left alone.
        tuple(int(part) for part in numba.__version__.split(".")[:2]) == (0, 68)
        and getattr(inline_closurecall, "copy", None) is copy
        and hasattr(worker, "inline_ir")
        and hasattr(worker, "run_untyped_passes")
    ):
        return
    # inline_ir deep-copies the callee block by block, each with a memo of its
    # own, and a block's variables reach the function's whole scope: every block
    # copied the scope with all its variables again (quadratic; 70% of fdc's
    # compile time). One memo for the call copies the scope once.
    shared_copy = _SharedMemoCopy()
    setattr(inline_closurecall, "copy", shared_copy)  # noqa: B010 (stands in for a module)
    # The flags object is one compilation's (the outer function's, handed down to
    # every nested inlining), so IR built under it is reused only under it.
    built: dict[int, tuple[Any, dict[Any, Any]]] = {}

    def inline_function(
        self: Any, caller_ir: Any, block: Any, i: int, function: Any, arg_typs: Any = None
    ) -> Any:
        flags = self.flags
        entry = built.get(id(flags))
        if entry is None or entry[0] is not flags:
            if len(built) > 8:  # finished compilations: drop their IR
                built.clear()
            entry = built[id(flags)] = (flags, {})
        irs = entry[1]
        callee_ir = irs.get(function)
        if callee_ir is None:
            callee_ir = irs[function] = self.run_untyped_passes(function)
        freevars = function.__code__.co_freevars
        # inline_ir copies callee_ir before changing anything, so it can be reused.
        shared_copy.memo = {}
        try:
            return self.inline_ir(caller_ir, block, i, callee_ir, freevars, arg_typs=arg_typs)
        finally:
            shared_copy.memo = None

    setattr(worker, "inline_function", inline_function)  # noqa: B010 (mypy: no method assign)
    setattr(worker, "_balancer_shared", True)  # noqa: B010


# Kernel package folder -> other kernel package folders whose functions it inlines.
_STAMPED_WITH: dict[str, tuple[str, ...]] = {}


def stamp_with(folder: str, *others: str) -> None:
    """Make `folder`'s cached kernels stale when a module of `others` changes too: a
    kernel package that inlines another's functions (fdc's kernel and the role games'
    inline the trick procedure's, games/trick/kernel/; the role kernel's fdc bridge
    fdc's heuristic) calls this when it is imported. Calls add up, in any order (the
    stamp reads the folders sorted): each module that inlines another package's
    kernels names that package where it imports it."""
    key = os.path.abspath(folder)
    joined = set(_STAMPED_WITH.get(key, ())) | {os.path.abspath(o) for o in others}
    _STAMPED_WITH[key] = tuple(sorted(joined))


def stamped_with(folder: str) -> tuple[str, ...]:
    """The folders `folder`'s stamp reads besides its own (`stamp_with`), sorted."""
    return _STAMPED_WITH.get(os.path.abspath(folder), ())


def package_stamp(folder: str) -> bytes:
    """The hash of every module (.py file) of `folder`, names and contents, and of the
    folders it is stamped with (`stamp_with`)."""
    digest = hashlib.sha256()
    for each in (folder, *stamped_with(folder)):
        for name in sorted(os.listdir(each)):
            if name.endswith(".py"):
                with open(os.path.join(each, name), "rb") as f:
                    digest.update(name.encode() + b"\0" + f.read() + b"\0")
    return digest.digest()


def _stamp_kernel_packages() -> None:
    """Make a cached function of a kernel package stale when any module of the package changes.

    numba keeps a function's compiled code until the source file the function is
    defined in changes (its stamp is that file's hash). A kernel split into a
    package (games/<game>/kernel/) inlines kernels from its sibling modules:
    after an edit to the rules module, the chunk loop's cached code would still
    be the old rules. For a function defined in a package directory named
    `kernel`, the stamp is the hash of every module of that directory.
    """
    from numba.core import caching

    if getattr(caching, "_balancer_package_stamp", False) or not (
        hasattr(caching, "InTreeCacheLocator")
        and caching.InTreeCacheLocator in getattr(caching.CacheImpl, "_locator_classes", ())
    ):
        return

    class KernelPackageLocator(caching.InTreeCacheLocator):
        @classmethod
        def from_function(cls, py_func: Any, py_file: str) -> Any:
            folder = os.path.dirname(py_file)
            if os.path.basename(folder) != "kernel" or not os.path.exists(
                os.path.join(folder, "__init__.py")
            ):
                return None
            return super().from_function(py_func, py_file)

        def get_source_stamp(self) -> Any:
            return package_stamp(os.path.dirname(self._py_file))

    # Before numba's in-tree locator, which it stands in for (a NUMBA_CACHE_DIR set
    # by the user still comes first, and stamps by the one file).
    locators = caching.CacheImpl._locator_classes
    locators.insert(locators.index(caching.InTreeCacheLocator), KernelPackageLocator)
    setattr(caching, "_balancer_package_stamp", True)  # noqa: B010


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


def has_code(function: Any) -> bool:
    """Whether calling a compiled function runs at once: it has code in this process,
    or numba's on-disk cache holds code for its current source (loaded, not compiled).

    Always True with compiling off. Reads numba's cache index (a private layout,
    hence the fallback): an unreadable one counts as no code.
    """
    if _NUMBA is None or getattr(function, "signatures", None):
        return True
    index = getattr(getattr(function, "_cache", None), "_cache_file", None)
    try:
        return bool(index._load_index()) if index is not None else False
    except Exception:
        return False


def in_force() -> dict[str, Any]:
    """How this process compiles (empty with numba off): whether inlined IR is shared."""
    if _NUMBA is None:
        return {}
    from numba.core import inline_closurecall

    shared = getattr(inline_closurecall.InlineWorker, "_balancer_shared", False)
    return {"shared inlined IR": shared}
