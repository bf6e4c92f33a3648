"""The library's exceptions: plain Python, no command line here.

A `UserError` is a mistake in the user's input (a variant file, a flag, a
report folder); the command line prints it as one line and exits 2. Anything
else is a bug and keeps its traceback (exit 1).
"""

from __future__ import annotations

import difflib
from typing import Any


class UserError(Exception):
    """A mistake in the user's input, said in one line naming the file, line and key."""

    def __init__(
        self,
        message: str,
        *,
        file: str | None = None,
        line: int | None = None,
        key: str | None = None,
    ) -> None:
        self.file, self.line, self.key = file, line, key
        where = ""
        if file is not None:
            where = str(file)
            if line is not None:
                where += f":{line}"
            where += ": "
        if key:
            message = f"{key}: {message}"
        self.message = one_line(f"{where}{message}")
        super().__init__(self.message)

    def format_message(self) -> str:
        return self.message


# The longest run of characters without a space a message shows whole.
MAX_WORD = 200


def attempt(problems: list[UserError], check: Any, *args: Any) -> Any:
    """`check(*args)`, or None with its UserError added to `problems`: a reader that
    reports every mistake of a file at once, not only its first."""
    try:
        return check(*args)
    except UserError as exc:
        problems.append(exc)
        return None


def one_line(text: str) -> str:
    """`text` as an error line: one line whatever it holds, and no word in it longer than
    a line (a value of 991 digits says no more than its ends do)."""
    return " ".join(map(_cut_word, text.split()))


def _cut_word(word: str) -> str:
    if len(word) <= MAX_WORD:
        return word
    return f"{word[:120]}...({len(word) - 160} characters)...{word[-40:]}"


# The most of a user's value a message quotes (its repr): enough to recognise it.
MAX_SHOWN = 60


def shown(value: Any, limit: int = MAX_SHOWN) -> str:
    """A user's value as a message quotes it: its repr cut to `limit` characters (saying
    how long it was), and YAML's empty value as what the user wrote, not Python's None."""
    if value is None:
        return "null (empty)"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int) and abs(value) >= 10**18:
        # Not str(value): Python refuses to write an int of more than 4300 digits.
        digits = int(abs(value).bit_length() * 0.30103) + 1  # log10(2): about right
        return f"a {'negative ' if value < 0 else ''}number of about {digits} digits"
    text = repr(value)
    if len(text) <= limit:
        return text
    return f"{text[: limit - 20]}…({len(text)} characters)"


class Terminated(BaseException):
    """SIGTERM arrived: unwinds like Ctrl-C, so every clean-up runs (exit 143)."""


class InvariantError(AssertionError):
    """An engine invariant (cards or chips conserved) failed: always a bug."""


class GameFault(Exception):
    """A bot broke a game: it raised, returned an illegal move or ran out of time.

    Carries what is needed to replay the game alone.
    """

    def __init__(self, reason: str, *, index: int, seed: int, seat: int, bot: str) -> None:
        self.reason = reason
        self.index = index
        self.seed = seed
        self.seat = seat
        self.bot = bot
        # A trusted (in-process) plugin's own traceback, shown to its author.
        self.plugin_traceback: str | None = None
        super().__init__(f"game {index} (seed {seed}), seat {seat}, bot {bot!r}: {reason}")

    def __reduce__(self) -> tuple[Any, ...]:  # crosses process boundaries, traceback too
        fields = (self.reason, self.index, self.seed, self.seat, self.bot, self.plugin_traceback)
        return (_rebuild_fault, fields)


def _rebuild_fault(
    reason: str, index: int, seed: int, seat: int, bot: str, plugin_traceback: str | None
) -> GameFault:
    fault = GameFault(reason, index=index, seed=seed, seat=seat, bot=bot)
    fault.plugin_traceback = plugin_traceback
    return fault


def nearest(word: Any, valid: list[str]) -> str:
    """How a message about an unknown name ends: the closest valid one, or all of them."""
    close = difflib.get_close_matches(str(word), valid, n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else f" (valid: {', '.join(valid)})"
