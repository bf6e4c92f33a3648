"""How balancer takes SIGINT and SIGTERM: whether an interrupt is real, and holding them.

The command line installs `on_sigint` and `on_sigterm`, which note the signal
before raising; a KeyboardInterrupt or Terminated that an in-process plugin
raises without a signal is then the plugin's fault, not the user's. Without
these handlers (the library used alone) every interrupt counts as real.

`held()` keeps both signals' handlers from running inside a block that an
exception must not leave half done, or where Python would swallow it (see
there); they run at its end instead.
"""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Callable, Iterator
from typing import Any

from balancer.errors import Terminated

HELD = (signal.SIGINT, signal.SIGTERM)

_armed = False
_signalled = False


def arm() -> None:
    """Install the noting handlers (the command line's entry point does)."""
    global _armed, _signalled
    _armed, _signalled = True, False
    signal.signal(signal.SIGINT, on_sigint)
    signal.signal(signal.SIGTERM, on_sigterm)


def disarm() -> None:
    global _armed
    _armed = False


def real() -> bool:
    """Whether the interrupt being handled came from a signal (or can't be told apart)."""
    return _signalled or not _armed


def on_sigint(signum: int, frame: Any) -> None:
    global _signalled
    _signalled = True
    raise KeyboardInterrupt


def on_sigterm(signum: int, frame: Any) -> None:
    global _signalled
    _signalled = True
    raise Terminated


@contextlib.contextmanager
def held() -> Iterator[None]:
    """SIGINT and SIGTERM wait for the end of the block; their handlers then run,
    in the order the signals came, as they would have when the signals came.

    Made for os.fork(). Python runs the at-fork hooks that modules register
    (logging's, for one) where an exception can't propagate: a handler that ran
    inside one would raise its KeyboardInterrupt or Terminated there, Python would
    print "Exception ignored" and drop it, and the interrupted run would go on
    playing. And an interrupt between the fork and the pool noting the new worker
    would leave that worker out of the pool's clean-up.

    Only the main thread runs Python's signal handlers and may replace them;
    elsewhere the block runs as it is, since no handler can run inside it then.
    A signal whose handler is not a Python function (SIG_DFL, SIG_IGN) is left
    alone: the kernel acts on it, no Python code can drop it.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    came: list[int] = []

    def note(signum: int, frame: Any) -> None:
        came.append(signum)

    handlers: dict[int, Callable[[int, Any], Any]] = {}
    for sig in HELD:
        handler = signal.getsignal(sig)
        if callable(handler):
            handlers[sig] = handler
            signal.signal(sig, note)
    try:
        yield
    finally:
        for held_sig, handler in handlers.items():
            signal.signal(held_sig, handler)
        for signum in came:  # the first handler that raises ends the loop, as it would have
            handlers[signum](signum, None)
