"""Plugin bots that write their own answer on the bot's channel, as a hostile plugin
could: the engine must check what arrives, not trust the keeper's code to have sent it.
Named `tests.forging_plugins:NAME` (tests/cli/test_plugin_hosted_bot.py)."""

from __future__ import annotations

import json
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
