"""How a diff reads: the terminal table, Markdown, CSV and JSON of a DiffTable.

analysis/diff.py compares; this module only writes down what it found.
"""

from __future__ import annotations

import csv
import io
import json
import math
from collections.abc import Callable

from balancer.analysis.diff import DiffTable
from balancer.errors import UserError
from balancer.stats.compare import Row

_HEADERS = ("figure", "A", "B", "B−A", "95% interval", "test", "p", "adjusted p", "verdict")
_NUMERIC = {1, 2, 3, 4, 6, 7}


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


def _summary(table: DiffTable) -> str:
    changed = sum(row.verdict == "changed" for row in table.rows)
    same = sum(row.verdict == "equivalent" for row in table.rows)
    what = f"{changed} changed" if changed else "nothing changed"
    return (
        f"{what}, {same} equivalent within tolerance, {len(table.rows) - changed - same} "
        f"can't tell yet; Holm's family: {table.family_size} of {len(table.rows)} rows, "
        f"alpha {table.alpha:g}"
    )


def _notes(table: DiffTable) -> list[str]:
    return [f"{row.figure}: {row.note}" for row in table.rows if row.note]


def _render_table(table: DiffTable) -> str:
    lines = [f"A: {table.a} ({table.a_about})", f"B: {table.b} ({table.b_about})", table.mode]
    lines += [f"warning: {w}" for w in table.warnings]
    grid = [list(_HEADERS), *(_cells(row) for row in table.rows)]
    widths = [max(len(r[i]) for r in grid) for i in range(len(_HEADERS))]
    lines.append("")
    for i, cells in enumerate(grid):
        parts = [
            c.rjust(w) if j in _NUMERIC else c.ljust(w)
            for j, (c, w) in enumerate(zip(cells, widths, strict=True))
        ]
        lines.append("  ".join(parts).rstrip())
        if i == 0:
            lines.append("  ".join("-" * w for w in widths))
    lines += ["", table.games_needed]
    lines += [f"note: {n}" for n in _notes(table)]
    lines += ["", _summary(table)]
    return "\n".join(lines)


def _render_md(table: DiffTable) -> str:
    lines = [
        f"**A** `{table.a}` ({table.a_about})  ",
        f"**B** `{table.b}` ({table.b_about})  ",
        f"*{table.mode}*",
        "",
    ]
    lines += [f"> warning: {w}" for w in table.warnings]
    if table.warnings:
        lines.append("")
    lines.append("| " + " | ".join(_HEADERS) + " |")
    lines.append(
        "|" + "|".join("---:" if i in _NUMERIC else "---" for i in range(len(_HEADERS))) + "|"
    )
    for row in table.rows:
        cells = _cells(row)
        if row.verdict:
            cells[-1] = f"**{row.verdict}**"
        lines.append("| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |")
    lines += ["", table.games_needed + "  "]
    lines += [f"note: {n}  " for n in _notes(table)]
    lines += ["", _summary(table)]
    return "\n".join(lines)


_CSV_FIELDS = [
    "figure",
    "a",
    "b",
    "change",
    "ci95_low",
    "ci95_high",
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
    record["ci95_low"], record["ci95_high"] = interval
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
        "a": {"folder": table.a, "about": table.a_about},
        "b": {"folder": table.b, "about": table.b_about},
        "paired": table.paired,
        "mode": table.mode,
        "alpha": table.alpha,
        "correction": "holm",
        "family_size": table.family_size,
        "games_needed": table.games_needed,
        "warnings": table.warnings,
        "rows": [row.record() for row in table.rows],
    }
    # allow_nan=False: a NaN slipping through is a bug, not something to hand a parser.
    return json.dumps(document, indent=2, ensure_ascii=False, allow_nan=False)


_RENDERERS: dict[str, Callable[[DiffTable], str]] = {
    "table": _render_table,
    "md": _render_md,
    "csv": _render_csv,
    "json": _render_json,
}


def render(table: DiffTable, fmt: str) -> str:
    """The table as aligned terminal text ("table"), Markdown, CSV or JSON."""
    try:
        renderer = _RENDERERS[fmt]
    except KeyError:
        known = ", ".join(_RENDERERS)
        raise UserError(f"unknown format {fmt!r}; choose from {known}") from None
    return renderer(table)
