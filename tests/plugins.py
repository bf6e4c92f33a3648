"""Deliberately broken plugin bots, named in variant files as `tests.plugins:NAME`."""

from __future__ import annotations

import contextlib
import random
import sys
import time
from collections.abc import Hashable, Sequence
from typing import Any


class Illegal:
    """Answers a move that is never legal."""

    def act(self, view: Any, legal: Sequence[Hashable], rng: random.Random) -> Hashable:
        return "not a move"


class Raises:
    """Fails with an exception of its own."""

    def act(self, view: Any, legal: Sequence[Hashable], rng: random.Random) -> Hashable:
        raise RuntimeError("the plugin broke")


class Slow:
    """Takes longer than any sane time limit."""

    def __init__(self, seconds: float = 30.0) -> None:
        self.seconds = seconds

    def act(self, view: Any, legal: Sequence[Hashable], rng: random.Random) -> Hashable:
        time.sleep(self.seconds)
        return legal[0]


class FirstLegal:
    """A well-behaved plugin: always the first legal move."""

    def act(self, view: Any, legal: Sequence[Hashable], rng: random.Random) -> Hashable:
        return legal[0]


class BusyCatchingExceptions:
    """Busy for `seconds`, swallowing every Exception it meets on the way: were
    the time-out an Exception, it would dodge the time limit, and when its time
    is up it fails saying it was never stopped."""

    def __init__(self, seconds: float = 3.0) -> None:
        self.seconds = seconds

    def act(self, view: Any, legal: Sequence[Hashable], rng: random.Random) -> Hashable:
        deadline = time.monotonic() + self.seconds
        while time.monotonic() < deadline:
            try:
                while time.monotonic() < deadline:
                    pass
            except Exception:
                continue
        raise RuntimeError(f"busy for {self.seconds:g}s and never stopped")


class SwallowsTheTimeout:
    """Sleeps through the alarm, swallowing even a BaseException, then answers."""

    def __init__(self, seconds: float = 3.0) -> None:
        self.seconds = seconds

    def act(self, view: Any, legal: Sequence[Hashable], rng: random.Random) -> Hashable:
        with contextlib.suppress(BaseException):
            time.sleep(self.seconds)
        return legal[0]


class Exits:
    """Calls sys.exit in the middle of a game."""

    def act(self, view: Any, legal: Sequence[Hashable], rng: random.Random) -> Hashable:
        sys.exit("the plugin quit")


class RaisesBaseException:
    """Fails with a BaseException subclass of its own."""

    def act(self, view: Any, legal: Sequence[Hashable], rng: random.Random) -> Hashable:
        raise _Boom("not an Exception")


class _Boom(BaseException):
    pass


class Smuggler:
    """Adds a move of its own to the legal moves it was handed, then plays it."""

    def act(self, view: Any, legal: Sequence[Hashable], rng: random.Random) -> Hashable:
        if isinstance(legal, list):
            legal.append("smuggled")
        return "smuggled"


class Forks:
    """Leaves a process of its own behind, holding every descriptor its bot had
    (stdout, stderr, pipes): a run must end anyway, and take it along."""

    def __init__(self) -> None:
        import os

        if os.fork() == 0:
            try:
                time.sleep(3600)
            finally:
                os._exit(0)

    def act(self, view: Any, legal: Sequence[Hashable], rng: random.Random) -> Hashable:
        return legal[0]


class DiesOnce:
    """Kills its whole process the first time any copy of it is built (the file
    `marker` records that it did), then plays the first legal move: a lost worker."""

    def __init__(self, marker: str) -> None:
        import os

        try:
            os.close(os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY))
        except FileExistsError:
            return
        os._exit(1)

    def act(self, view: Any, legal: Sequence[Hashable], rng: random.Random) -> Hashable:
        return legal[0]


class UniformLegal:
    """A designer's first plugin: a uniform legal move, drawn from the rng it is handed.

    It must play exactly the games the built-in `random` bot plays, on every path.
    """

    uses_view = False

    def act(self, view: Any, legal: Sequence[Hashable], rng: random.Random) -> Hashable:
        return legal[rng.randrange(len(legal))]
