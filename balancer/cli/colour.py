"""Coloured verdicts on a terminal: only there, and never when NO_COLOR is set.

https://no-color.org: a set, non-empty NO_COLOR turns colour off whatever
else is true. Output to a file or a pipe is never coloured, so what a tool
or a log reads is the plain text every other format has.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import IO

# SGR codes per verdict: changed / fail / helps in red-ish yellow would be a judgement;
# a change is not bad, so: changed bold yellow, equivalent green, pass green, fail red,
# undecided dim.
_CODES = {
    "changed": "1;33",
    "equivalent": "32",
    "pass": "32",
    "fail": "1;31",
    "undecided": "2",
}


def wanted(stream: IO[str]) -> bool:
    """Colour on `stream`: a terminal, and NO_COLOR unset or empty."""
    if os.environ.get("NO_COLOR"):
        return False
    isatty = getattr(stream, "isatty", None)
    try:
        return bool(isatty and isatty())
    except ValueError:  # a closed stream
        return False


def paint(text: str, verdict: str) -> str:
    """`text` in the verdict's colour (plain for a verdict with none)."""
    code = _CODES.get(verdict)
    return f"\033[{code}m{text}\033[0m" if code and text else text


def painter(stream: IO[str]) -> Callable[[str, str], str] | None:
    """`paint` when `stream` wants colour, else None (callers then print plain text)."""
    return paint if wanted(stream) else None
