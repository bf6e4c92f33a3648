"""The environment variables balancer reads, each read and checked in one place.

Every command checks them all before it starts (`check_all`, called by the
command line's `Command`), so a value that means nothing is refused by
`diff` exactly as by `run`, even by a command that would not have read it:
a standing setting that is wrong is said at once, not the day a command
first needs it. The readers below are what the library uses; they take
the same values and read an unset or empty variable as not set.

- BALANCER_LANG: the language of reports and messages when no flag or
  variant says (en or ja).
- BALANCER_JIT: 0 runs the kernels as plain Python; 1 (the default)
  compiles them with numba when it is installed.
- BALANCER_CHECK: 1 checks every game against the engine's invariants as it
  is played (slower); 0 (the default) does not.
- BALANCER_PLUGIN_LOG: a file that plugin bots' output is appended to.
"""

from __future__ import annotations

import os
import stat

from balancer.errors import UserError

LANG = "BALANCER_LANG"
JIT = "BALANCER_JIT"
CHECK = "BALANCER_CHECK"
PLUGIN_LOG = "BALANCER_PLUGIN_LOG"

LANGS = ("en", "ja")
SWITCH = ("0", "1")


def _value(name: str) -> str | None:
    """The variable's value; None when it is unset or empty (as a shell's `X=` leaves it)."""
    value = os.environ.get(name)
    return value or None


def _checked(name: str, valid: tuple[str, ...]) -> str | None:
    value = _value(name)
    if value is not None and value not in valid:
        raise UserError(f"expected {' or '.join(valid)}, not {value!r}", key=name)
    return value


def lang() -> str | None:
    """$BALANCER_LANG: the language asked for, None when unset; a UserError if it names none."""
    return _checked(LANG, LANGS)


def jit_wanted() -> bool:
    """Whether $BALANCER_JIT allows compiling. Read when the kernels are imported, which
    may be before a command checks the environment: a wrong value reads as the default
    here, and the command refuses it before any game is played."""
    return _value(JIT) != "0"


def check_requested() -> bool:
    """Whether $BALANCER_CHECK asks for every game to be checked as it is played."""
    return _checked(CHECK, SWITCH) == "1"


def plugin_log() -> str | None:
    """$BALANCER_PLUGIN_LOG: the file plugin output is appended to; a UserError when it
    can't be one (a folder, a name under no folder), said before any game is played."""
    path = _value(PLUGIN_LOG)
    if path is None:
        return None
    if "\x00" in path:
        raise UserError("the file's name holds a NUL byte", key=PLUGIN_LOG)
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        folder = os.path.dirname(os.path.abspath(path))
        if not os.path.isdir(folder):
            raise UserError(f"{path!r} lies in no folder that exists", key=PLUGIN_LOG) from None
        return path
    except OSError as exc:
        raise UserError(f"{path!r} can't be used: {exc.strerror}", key=PLUGIN_LOG) from None
    if stat.S_ISDIR(mode):
        raise UserError(f"{path!r} is a folder; name a file to append to", key=PLUGIN_LOG)
    return path


def check_all() -> None:
    """Every variable above, checked: the first wrong one is a UserError naming it."""
    lang()
    _checked(JIT, SWITCH)
    check_requested()
    plugin_log()
