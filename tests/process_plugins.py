"""Plugin bots for tests/cli/test_plugin_hosted_bot.py, named `tests.process_plugins:NAME`:
one draws more of its stream than a move is sent, one writes on its stdout, and two act
on their own process, as a hostile or broken plugin could: one writes its own answer on
the bot's channel (the engine must check what arrives, not trust the keeper's code to
have sent it), one ends its process with a signal."""

from __future__ import annotations

import json
import os
import resource
import sys
from collections.abc import Hashable, Sequence
from typing import Any


class ClaimsDraws:
    """Answers the first legal move, claiming it used `used` of the stream's numbers
    (the bot's process counts the numbers it really drew; this answer comes first)."""

    def __init__(self, used: int) -> None:
        self.used = used

    def act(self, view: Any, legal: Sequence[Hashable], rng: Any) -> Hashable:
        frame = sys._getframe(1)
        while "conn" not in frame.f_locals:  # the bot's process's loop holds the channel
            assert frame.f_back is not None
            frame = frame.f_back
        answer = {"move": 0, "used": self.used}
        frame.f_locals["conn"].send_bytes(json.dumps(answer).encode())
        return legal[0]


class KillsItself:
    """Sends its own process `signum` when asked to move (SIGSEGV: as a C library that
    can't allocate does)."""

    def __init__(self, signum: int) -> None:
        self.signum = signum

    def act(self, view: Any, legal: Sequence[Hashable], rng: Any) -> Hashable:
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))  # SIGSEGV leaves no core file
        os.kill(os.getpid(), self.signum)
        return legal[0]


class DrawsMany:
    """Draws `draws` numbers of its stream and plays legal[last number % len(legal)]."""

    def __init__(self, draws: int) -> None:
        self.draws = draws

    def act(self, view: Any, legal: Sequence[Hashable], rng: Any) -> Hashable:
        last = 0
        for _ in range(self.draws):
            last = rng.next_u64()
        return legal[last % len(legal)]


class SaysLastWords:
    """Writes `words` on its stdout (flushed) in its move, then plays the first move."""

    def __init__(self, words: str) -> None:
        self.words = words

    def act(self, view: Any, legal: Sequence[Hashable], rng: Any) -> Hashable:
        print(self.words, flush=True)
        return legal[0]
