"""The sizes a hosted plugin lives under, read on both sides of its process boundary.

The engine's side (bots/host.py) takes them from --plugin-memory and
$BALANCER_PLUGIN_LOG_LIMIT; the keeper and the bot's process (bots/keeper.py)
apply them.
"""

from __future__ import annotations

import contextlib
import resource

# Bytes of output one command's plugins may add to $BALANCER_PLUGIN_LOG before it is
# cut, unless $BALANCER_PLUGIN_LOG_LIMIT gives another size.
LOG_LIMIT = 10 << 20
LOG_LIMIT_ENV = "BALANCER_PLUGIN_LOG_LIMIT"
# Bytes of address space a bot's process may map (--plugin-memory): far above a bot's
# needs (a plugin's process with a game loaded maps some 25 MB), far below a machine's.
DEFAULT_MEMORY_LIMIT = 4 << 30

_UNITS = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}


def parse_size(text: str) -> int:
    """Bytes from a size as --plugin-memory and $BALANCER_PLUGIN_LOG_LIMIT take it: a
    number, with K, M, G or T (powers of 1024) and an optional B: 4G, 512M, 1.5g, 1000.
    A ValueError says why a text is none."""
    plain = text.strip().upper().removesuffix("B")
    unit = plain[-1:] if plain[-1:] in ("K", "M", "G", "T") else ""
    number = plain.removesuffix(unit) if unit else plain
    try:
        amount = float(number)
    except ValueError:
        amount = float("nan")
    if not amount > 0 or amount == float("inf"):  # nan fails every comparison
        raise ValueError(
            f"{text[:40]!r} is not a size (a number of bytes, or with K, M, G: 4G, 512M)"
        )
    return int(amount * _UNITS[unit])


def size_text(limit: int) -> str:
    """A number of bytes as --plugin-memory would take it: 4G, 512M, 1500K, 123."""
    for unit, size in (("G", 1 << 30), ("M", 1 << 20), ("K", 1 << 10)):
        if limit % size == 0:
            return f"{limit // size}{unit}"
    return str(limit)


def within_hard_limit(memory: int) -> int:
    """`memory`, or this process's hard RLIMIT_AS where that is lower: the bot's process
    inherits it and can't raise it, so that is what the bot gets (and is told)."""
    try:
        _, hard = resource.getrlimit(resource.RLIMIT_AS)
    except (ValueError, OSError):
        return memory
    return memory if hard == resource.RLIM_INFINITY else min(memory, hard)


def limit_memory(memory: int) -> None:
    """Let this process map at most `memory` bytes (at most its hard limit)."""
    memory = within_hard_limit(memory)
    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
