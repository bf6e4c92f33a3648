"""Whether an interrupt is real: SIGINT or SIGTERM arrived, or a plugin raised one itself.

The command line installs `on_sigint` and `on_sigterm`, which note the signal
before raising; a KeyboardInterrupt or Terminated that an in-process plugin
raises without a signal is then the plugin's fault, not the user's. Without
these handlers (the library used alone) every interrupt counts as real.
"""

from __future__ import annotations

import signal
from typing import Any

from balancer.errors import Terminated

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
