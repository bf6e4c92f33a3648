"""Deliberately broken plugin bots, named in variant files as `tests.plugins:NAME`."""

from __future__ import annotations

import random
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
