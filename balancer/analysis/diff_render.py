"""How a diff reads: the terminal table, Markdown, CSV and JSON of a DiffTable.

analysis/diff.py compares; this module only writes down what it found.
"""

from __future__ import annotations

import csv
import io
import json
import math
import re
import textwrap
from collections.abc import Callable

from balancer import i18n, numbers
from balancer.analysis.diff import DiffTable
from balancer.errors import UserError
from balancer.escape import code_span, markdown, terminal
from balancer.i18n.phrases import phrase
from balancer.stats.compare import Row

_HEADERS = ("figure", "A", "B", "B−A", "95% interval", "test", "p", "adjusted p", "verdict")
_NUMERIC = {1, 2, 3, 4, 6, 7}
# Headers that are symbols, the same in every language (the rest are looked up in i18n).
_SYMBOLS = frozenset({"A", "B", "B−A", "B − A", "p", "p (Holm)"})


def _num(x: float, signed: bool = False, digits: int = 4) -> str:
    if x == 0:
        return "0"
    if not math.isfinite(x):
        return "-"
    return f"{x:+.{digits}g}" if signed else f"{x:.{digits}g}"


def _pfmt(p: float) -> str:
    # Below this the approximations behind the number mean nothing, and the
    # smallest p-values underflow to 0; csv and json keep the raw value.
    if p < 1e-16:
        return "<1e-16"
    return f"{p:.2g}" if p < 0.001 else f"{p:.3f}"


def _adjusted(row: Row) -> str:
    """The adjusted p, or why the row has none of its own."""
    if row.duplicate_of is not None:
        return f"{_pfmt(row.p_adjusted)} (= {row.duplicate_of})"
    if not row.in_family:
        return "-"  # no variation: nothing to test, not counted in Holm's family
    return _pfmt(row.p_adjusted)


def _cells(row: Row) -> list[str]:
    low, high = row.ci95
    return [
        row.figure,
        _num(row.a),
        _num(row.b),
        _num(row.change, signed=True, digits=3),
        f"[{_num(low, signed=True, digits=3)}, {_num(high, signed=True, digits=3)}]",
        row.test,
        _pfmt(row.p_value) if row.in_family or row.duplicate_of else "-",
        _adjusted(row),
        row.verdict,
    ]


def verdict_word(verdict: str, lang: str | None = None) -> str:
    """`changed`, `equivalent` or blank, in `lang` (the records keep the English word)."""
    return i18n.text(f"diff.verdict.{verdict}", lang) if verdict else ""


def _summary(table: DiffTable, lang: str | None = None) -> str:
    changed = sum(row.verdict == "changed" for row in table.rows)
    same = sum(row.verdict == "equivalent" for row in table.rows)
    what = (
        i18n.text("diff.n_changed", lang, n=changed)
        if changed
        else i18n.text("diff.nothing_changed", lang)
    )
    line = i18n.text(
        "diff.summary",
        lang,
        what=what,
        same=same,
        unknown=len(table.rows) - changed - same,
        family=table.family_size,
        rows=len(table.rows),
        alpha=f"{table.alpha:g}",
    )
    return f"{phrase(table.stopping, lang)}\n{line}" if table.stopping else line


def _notes(table: DiffTable, lang: str | None = None) -> list[str]:
    return [f"{row.figure}: {phrase(row.note, lang)}" for row in table.rows if row.note]


# --- the terminal table: 100 columns, the change with its interval ------------

WIDTH = 100  # every line of the terminal table fits a 100-column terminal
# A header line longer than this (a game file's value kept whole, megabytes of it) is cut
# before it is wrapped: wrapping a word is quadratic in its length, and fifty lines of one
# value say no more than its ends do (--format json keeps it whole).
HEADER_CHARS = 8 * WIDTH
# Rows are named as everywhere else (`expect:`, `tune --target`, `sweep --figure`):
# a section per family of names, headed by its pattern; a row's label is what varies.
_SECTIONS = (
    (re.compile(r"seat_win_share\.(\d+)"), "seat_win_share.<seat>"),
    (re.compile(r"bots\.(.+)\.win_share"), "bots.<bot>.win_share"),
    (re.compile(r"seat_score_mean\.(\d+)"), "seat_score_mean.<seat>"),
    (re.compile(r"events\.(.+)\.per_game"), "events.<event>.per_game"),
    (re.compile(r"events\.(.+)\.share_of_games"), "events.<event>.share_of_games"),
    (re.compile(r"how_it_plays\.(.+)"), "how_it_plays.<figure>"),
)
_GAME = "game"


def section_title(section: str, lang: str | None = None) -> str:
    """A section's heading: a figure-name pattern as it is, the game's own figures in `lang`."""
    return i18n.text("diff.section.game", lang) if section == _GAME else section


def section_of(figure: str) -> tuple[str, str]:
    """(section, label): `events.koban.per_game` is `koban` under `events.<event>.per_game`."""
    for pattern, section in _SECTIONS:
        match = pattern.fullmatch(figure)
        if match:
            return section, match.group(1)
    return _GAME, figure


def decimals(row: Row) -> int | None:
    """Decimals the row's interval backs (balancer/numbers.py); None: no interval.

    Per row, not per column: each row of a diff is a different figure."""
    return numbers.decimals(*row.ci95)


def _fixed(x: float, places: int | None, signed: bool = False) -> str:
    if not math.isfinite(x):
        return "-"
    if places is None:
        return _num(x, signed)
    if round(x, places) == 0:
        return f"{0:.{places}f}"  # no sign on a change that rounds to nothing
    return f"{x:+.{places}f}" if signed else f"{x:.{places}f}"


def interval_text(row: Row, lang: str | None = None) -> str:
    """`[-0.024, +0.061]`, at the interval's precision; `no variation` when there is none."""
    places = decimals(row)
    if places is None:
        return i18n.text("diff.no_variation", lang) if row.ci95 == (0.0, 0.0) else "-"
    low, high = row.ci95
    return f"[{_fixed(low, places, True)}, {_fixed(high, places, True)}]"


def _terminal_cells(row: Row, label: str, lang: str | None = None) -> list[str]:
    places = decimals(row)
    p = _pfmt(row.p_adjusted) if row.in_family or row.duplicate_of else "-"
    return [
        label,
        _fixed(row.a, places),
        _fixed(row.b, places),
        _fixed(row.change, places, signed=True),
        interval_text(row, lang),
        p,
        verdict_word(row.verdict, lang),
    ]


def _terminal_headers(lang: str | None) -> tuple[str, ...]:
    t = i18n.text
    return ("", "A", "B", "B−A", t("diff.interval", lang), "p (Holm)", t("diff.verdict", lang))


_TERMINAL_RIGHT = {1, 2, 3, 5}


def _fit(text: str, width: int) -> str:
    if i18n.width(text) <= width:
        return text
    while i18n.width(text) > width - 1:
        text = text[:-1]
    return text + "…"


def _cut(line: str) -> str:
    """A header line of at most HEADER_CHARS characters: its start and end, and how much
    was left out between them."""
    if len(line) <= HEADER_CHARS:
        return line
    head, tail = line[: HEADER_CHARS // 2], line[-HEADER_CHARS // 4 :]
    return f"{head} ... ({len(line) - len(head) - len(tail)} characters more) ... {tail}"


def _wrapped(text: str, indent: str = "  ", lang: str | None = None) -> list[str]:
    # A word longer than a line (a bot label with its parameters) is cut across
    # lines; a folder's path is not, so that it can be copied.
    path_line = text.startswith(("A: ", "B: "))
    if lang == "ja":
        return _wrapped_wide(text, indent)
    return textwrap.wrap(
        text,
        WIDTH,
        subsequent_indent=indent,
        break_long_words=not path_line,
        break_on_hyphens=False,
    ) or [""]


_BREAK_AFTER = " 、。）:;"  # where a Japanese line may break without cutting a word or number
_LOOK_BACK = 24  # columns a line may fall short to break at one of them


def _wrapped_wide(text: str, indent: str) -> list[str]:
    """Japanese has few spaces to break at: break after a space or punctuation near the
    column (else at the column), counting wide characters as two."""
    lines: list[str] = []
    line = ""
    for char in text:
        if i18n.width(line + char) > WIDTH:
            cut = max(line.rfind(c) for c in _BREAK_AFTER) + 1
            if cut <= len(indent) or i18n.width(line[cut:]) > _LOOK_BACK:
                cut = len(line)
            lines.append(line[:cut].rstrip())
            line = indent + line[cut:].lstrip()
        line += char
    lines.append(line.rstrip())
    return lines


def _main_test(table: DiffTable) -> str:
    tests = [row.test for row in table.rows if row.in_family]
    return max(dict.fromkeys(tests), key=tests.count) if tests else ""


def _terminal_notes(table: DiffTable, lang: str | None = None) -> list[str]:
    """The notes, and each tested row whose test is not the table's usual one."""
    usual = _main_test(table)
    notes = _notes(table, lang)
    notes += [
        i18n.text("diff.tested_by", lang, figure=row.figure, test=phrase(row.test, lang))
        for row in table.rows
        if row.in_family and row.test != usual
    ]
    return notes


def _header(table: DiffTable, lang: str | None = None) -> list[str]:
    if table.setup is not None:
        lines = table.setup.lines()
    else:
        lines = [f"A: {table.a} ({table.a_about})", f"B: {table.b} ({table.b_about})"]
    lines = [phrase(line, lang) for line in lines]
    usual = _main_test(table)
    game = table.setup.game if table.setup is not None and table.setup.game else ""
    game = phrase(game, lang) + i18n.text("diff.game_sep", lang) if game else ""
    tested = i18n.text("diff.each_tested_by", lang, test=phrase(usual, lang)) if usual else ""
    lines.append(f"{game}{phrase(table.mode, lang)}{tested}")
    warning = i18n.text("diff.warning", lang)
    lines += [f"{warning}: {phrase(w, lang)}" for w in table.warnings]
    return lines


def _render_table(table: DiffTable, lang: str | None = None) -> str:
    """The diff for a terminal: every line fits WIDTH columns; the details are in md and json."""
    lines: list[str] = []
    # Names can't rewrite the terminal.
    for line in (terminal(_cut(line)) for line in _header(table, lang)):
        indent = " " * (len(line) - len(line.lstrip()) + 2)
        lines += _wrapped(line, indent, lang)
    sections: dict[str, list[tuple[str, Row]]] = {}
    for row in table.rows:
        section, label = section_of(row.figure)
        sections.setdefault(section, []).append((label, row))
    headers = _terminal_headers(lang)
    grid = [list(headers)]
    kinds: list[str] = ["header"]
    for section, rows in sections.items():
        grid.append([section_title(section, lang)])
        kinds.append("section")
        for label, row in rows:
            grid.append(_terminal_cells(row, "  " + terminal(label), lang))
            kinds.append("row")
    widths = [
        max(i18n.width(r[i]) for r, k in zip(grid, kinds, strict=True) if k != "section")
        for i in range(len(headers))
    ]
    # The figure column gives way when the others need the room.
    room = WIDTH - sum(widths[1:]) - 2 * (len(widths) - 1)
    widths[0] = max(12, min(widths[0], room))
    lines.append("")
    for cells, kind in zip(grid, kinds, strict=True):
        if kind == "section":
            lines.append(_fit(cells[0], WIDTH))
            continue
        cells = [_fit(cells[0], widths[0]), *cells[1:]]
        parts = [
            i18n.rjust(c, w) if j in _TERMINAL_RIGHT else i18n.ljust(c, w)
            for j, (c, w) in enumerate(zip(cells, widths, strict=True))
        ]
        lines.append("  ".join(parts).rstrip())
        if kind == "header":
            lines.append("  ".join("-" * w for w in widths))
    lines.append("")
    lines += _wrapped(phrase(table.games_needed, lang), lang=lang)
    note_word = i18n.text("diff.note", lang)
    for note in _terminal_notes(table, lang):
        lines += _wrapped(terminal(f"{note_word}: {note}"), lang=lang)
    lines.append("")
    for part in _summary(table, lang).split("\n"):
        lines += _wrapped(part, lang=lang)
    lines += _wrapped(i18n.text("diff.key", lang, alpha=f"{table.alpha:g}"), lang=lang)
    return "\n".join(lines)


def _render_md(table: DiffTable, lang: str | None = None) -> str:
    lines = []
    warning = i18n.text("diff.warning", lang) + ": "
    for line in _header(table, lang):
        if line.startswith("  "):  # an item of the list above it
            lines.append(f"- {code_span(line.strip())}")
            continue
        if lines and lines[-1].startswith("- "):
            lines.append("")  # a list ends with a blank line
        letter, sep, rest = line.partition(": ")
        opening, closing = (" (", ")") if lang != "ja" else ("（", "）")
        if letter in ("A", "B") and sep:
            folder, _, about = rest.partition(opening)
            line = (
                f"**{letter}** {code_span(folder)}{opening}"
                f"{markdown(about.removesuffix(closing))}{closing}"
            )
        elif line.startswith(warning):
            line = f"> {line}"
        lines.append(f"{line}  ")
    lines.append("")
    headers = [h if h in _SYMBOLS else i18n.text(f"diff.md.{h}", lang) for h in _HEADERS]
    lines.append("| " + " | ".join(headers) + " |")
    lines.append(
        "|" + "|".join("---:" if i in _NUMERIC else "---" for i in range(len(_HEADERS))) + "|"
    )
    for row in table.rows:
        cells = _cells(row)
        cells[5] = phrase(cells[5], lang)
        if row.verdict:
            cells[-1] = f"**{verdict_word(row.verdict, lang)}**"
        lines.append("| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |")
    lines += ["", phrase(table.games_needed, lang) + "  "]
    note_word = i18n.text("diff.note", lang)
    lines += [f"{note_word}: {n}  " for n in _notes(table, lang)]
    lines += ["", _summary(table, lang).replace("\n", "  \n")]  # a Markdown line break
    return "\n".join(lines)


_CSV_FIELDS = [
    "figure",
    "a",
    "b",
    "change",
    *numbers.ends("change"),  # the change's interval, spelled as in every file (numbers.py)
    "test",
    "paired",
    "p_value",
    "p_adjusted",
    "verdict",
    "kind",
    "tolerance",
    "p_equivalence",
    "games_needed",
    "in_family",
    "duplicate_of",
    "note",
]


def _csv_record(row: Row) -> dict[str, object]:
    record = row.record()
    interval: tuple[float, float] = record.pop("ci95")  # type: ignore[assignment]
    record.update(zip(numbers.ends("change"), interval, strict=True))
    return {key: record[key] for key in _CSV_FIELDS}


def _render_csv(table: DiffTable) -> str:
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=_CSV_FIELDS, lineterminator="\n")
    writer.writeheader()
    for row in table.rows:
        writer.writerow(
            {
                k: repr(v) if isinstance(v, float) else ("" if v is None else v)
                for k, v in _csv_record(row).items()
            }
        )
    return out.getvalue().rstrip("\n")


def _render_json(table: DiffTable) -> str:
    """The diff JSON contract: changed, stopped_at, rows (figure, a, b, change, ci95, ...)."""
    document = {
        "changed": table.changed,
        "stopped_at": table.stopped_at,
        "anytime": table.anytime,
        "stopping": table.stopping or None,
        "a": {"folder": table.a, "about": table.a_about},
        "b": {"folder": table.b, "about": table.b_about},
        "paired": table.paired,
        "mode": table.mode,
        "alpha": table.alpha,
        "correction": "holm",
        "family_size": table.family_size,
        "games_needed": table.games_needed,
        "warnings": table.warnings,
        # What differs between A and B (knobs, bots, other settings): {what, a, b} each.
        "setup": table.setup.record() if table.setup is not None else None,
        "rows": [row.record() for row in table.rows],
    }
    # allow_nan=False: a NaN slipping through is a bug, not something to hand a parser.
    return json.dumps(document, indent=2, ensure_ascii=False, allow_nan=False)


_RENDERERS: dict[str, Callable[[DiffTable, str | None], str]] = {
    "table": _render_table,
    "md": _render_md,
    # CSV and JSON are for programs: their words are the contract's, in English.
    "csv": lambda table, lang: _render_csv(table),
    "json": lambda table, lang: _render_json(table),
}


def render(table: DiffTable, fmt: str, lang: str | None = None) -> str:
    """The table as aligned terminal text ("table"), Markdown, CSV or JSON; the first two
    in `lang`."""
    try:
        renderer = _RENDERERS[fmt]
    except KeyError:
        known = ", ".join(_RENDERERS)
        raise UserError(f"unknown format {fmt!r}; choose from {known}") from None
    return renderer(table, lang)
