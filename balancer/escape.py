"""Text from users and plugins, made safe for where it is shown.

A name, key or parameter can hold anything: newlines and backticks that
break Markdown, a leading `=` a spreadsheet runs as a formula, escape
sequences that rewrite the terminal, right-to-left overrides that make text
read other than it is. Each output escapes it here.
"""

from __future__ import annotations

import re
import unicodedata
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import polars as pl

# Unicode's bidirectional controls: they reorder how text reads (the "Trojan source" trick).
BIDI_CONTROLS = frozenset(
    "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c"
)
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def has_bidi(text: str) -> bool:
    return any(ch in BIDI_CONTROLS for ch in text)


# Letters and marks that draw nothing, outside Unicode's format characters: the Hangul
# fillers, the braille blank and the combining grapheme joiner ("a\u3164b" looks like "a b").
BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800\u034f")


def is_hidden(ch: str) -> bool:
    """A character that changes how text reads without showing: a bidi control, an
    invisible format character (Unicode's Cf: zero-width joiner, soft hyphen, ...), or
    a letter that draws nothing (BLANK_LETTERS)."""
    return ch in BIDI_CONTROLS or ch in BLANK_LETTERS or unicodedata.category(ch) == "Cf"


def hidden_in(value: object, depth: int = 0) -> str | None:
    """The first hidden character (`is_hidden`) in a text, or in the keys and values of
    a mapping or list (nested): a name holding one looks like a name it is not."""
    if isinstance(value, str):
        return next((c for c in value if is_hidden(c)), None)
    if depth > 64:  # the YAML loader bounds nesting; this only keeps the walk bounded too
        return None
    if isinstance(value, dict):
        items: list[object] = [*value.keys(), *value.values()]
    elif isinstance(value, list | tuple):
        items = list(value)
    else:
        return None
    return next((c for item in items if (c := hidden_in(item, depth + 1))), None)


def hidden_message(ch: str) -> str:
    """What a refusal of a name holding `ch` says (the key it is in goes before it)."""
    if ch in BIDI_CONTROLS:
        what = f"the bidirectional control U+{ord(ch):04X}, which makes text read"
    elif ch in BLANK_LETTERS:
        what = f"the blank character U+{ord(ch):04X}, which makes text look"
    else:
        what = f"the invisible format character U+{ord(ch):04X}, which makes text look"
    return f"must not hold {what} other than it is"


def terminal(text: str) -> str:
    """Control, escape, format and bidi characters shown as \\xNN / \\uNNNN, the rest as is."""
    out = []
    for ch in text:
        if ch == "\n" or ch == "\t":
            out.append(" ")
        elif unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp") or ch in BIDI_CONTROLS:
            code = ord(ch)
            out.append(f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}")
        else:
            out.append(ch)
    return "".join(out)


def visible(text: str) -> str:
    """Every control, format and bidi character as \\xNN / \\uNNNN, newlines and tabs too.

    For text that names something (a bot's label with its parameters): unlike
    `terminal`, two texts that differ only in their invisible characters stay
    two names.
    """
    out = []
    for ch in text:
        if unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp") or ch in BIDI_CONTROLS:
            code = ord(ch)
            out.append(f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}")
        else:
            out.append(ch)
    return "".join(out)


def contrast(a: object, b: object, limit: int = 60) -> tuple[str, str]:
    """Two values a message says differ, shown so that they do: their reprs, with
    every non-ASCII character escaped when they would look alike (an "é" composed
    and one decomposed, a zero-width joiner), and a long one cut around where the
    two first differ rather than both at the same place."""
    first, second = repr(a), repr(b)
    if first != second and (
        terminal(first) == terminal(second)
        or unicodedata.normalize("NFKC", first) == unicodedata.normalize("NFKC", second)
    ):
        first, second = ascii(a), ascii(b)
    at = next(
        (i for i, (x, y) in enumerate(zip(first, second, strict=False)) if x != y),
        min(len(first), len(second)),
    )
    start = max(0, at - limit // 3)

    def cut(text: str) -> str:
        if len(text) <= limit:
            return text
        begin = start if len(text) > start else 0
        piece = text[begin : begin + limit]
        return ("..." if begin else "") + piece + ("..." if begin + limit < len(text) else "")

    return cut(first), cut(second)


def code_block(text: str) -> str:
    """`text` as a fenced Markdown code block that nothing in it can close or escape.

    Each line is terminal-safe, and the fence is longer than any run of
    backticks in the text (a line of ``` in a bot's parameters stays text).
    """
    lines = [terminal(line) for line in text.split("\n")]
    longest = max((len(run) for line in lines for run in re.findall("`+", line)), default=0)
    fence = "`" * max(3, longest + 1)
    return "\n".join([fence, *lines, fence])


def markdown(text: str) -> str:
    """Inline Markdown text: one line, terminal-safe, Markdown's punctuation backslashed."""
    safe = terminal(text)
    return "".join(f"\\{ch}" if ch in "\\`*_{}[]()<>#+-.!|~" else ch for ch in safe)


def code_span(text: str) -> str:
    """`text` as an inline code span that no backtick or newline in it can close."""
    safe = terminal(text)
    fence = "`"
    while fence in safe:
        fence += "`"
    return f"{fence} {safe} {fence}"


def csv_cell(value: str) -> str:
    """A text cell a spreadsheet shows as text: a leading = + - @ gets a quote mark first."""
    return "'" + value if value.startswith(FORMULA_STARTS) else value


def csv_frame(frame: pl.DataFrame) -> pl.DataFrame:
    """`frame` with `csv_cell` applied to every text column (numbers are left as they are)."""
    import polars as pl

    starts = "^[" + re.escape("".join(FORMULA_STARTS)) + "]"
    text = [name for name, kind in frame.schema.items() if kind == pl.String]
    return frame.with_columns(
        pl.when(pl.col(name).str.contains(starts))
        .then(pl.lit("'") + pl.col(name))
        .otherwise(pl.col(name))
        .alias(name)
        for name in text
    )
