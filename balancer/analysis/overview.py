"""reports/index.html: what has been tried so far, newest first, a line and a link each.

Rewritten after every command that writes into `reports/` (run, sweep, a diff
of variant files, ladder and tune with `-o` there), from what the folders
hold: a run's report.json, a sweep's sweep.json, a diff's two runs under
reports/diff/, a ladder's or tune's CSV. Each entry has its headline (a
run's seat win shares and seat-advantage p, a sweep's knobs and points) and
a relative link, so the folder can be moved whole.

Only ever balancer's own page: an index.html it did not write (no generator
mark) is left alone, and the page is swapped in whole. It is a convenience:
a folder it can't read is skipped, and a failure to write it never fails
the command that just succeeded.
"""

from __future__ import annotations

import html
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

INDEX = "index.html"
GENERATOR = "balancer overview"
REPORTS = Path("reports")


@dataclass(frozen=True)
class Entry:
    kind: str  # run, sweep, diff, ladder, tune
    name: str
    when: float  # the marker file's modification time
    headline: str
    link: str  # relative to reports/


def _read_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def _run_headline(document: Any) -> str:
    if not isinstance(document, dict):
        return ""
    parts = []
    try:
        parts.append(
            f"{document['game']}, {document['players']} players, {document['games']:,} games"
        )
        shares = [float(seat["win_share"]) for seat in document["seats"]]
        parts.append(f"seat win shares {min(shares):.1%}–{max(shares):.1%}")
        p = (document.get("seat_advantage") or {}).get("p_value")
        if isinstance(p, int | float):
            parts.append(f"seat advantage p = {p:.2g}")
        if document.get("command_line"):
            parts.append("with " + " ".join(map(str, document["command_line"])))
    except (KeyError, TypeError, ValueError):
        pass
    return "; ".join(parts)


def _entry(folder: Path, reports: Path) -> Entry | None:
    relative = folder.relative_to(reports).as_posix()
    sweep = folder / "sweep.json"
    if sweep.is_file():
        data = _read_json(sweep)
        knobs = data.get("knobs") if isinstance(data, dict) else None
        what = ""
        if isinstance(knobs, dict):
            what = " ".join(f"{k}={','.join(map(str, v))}" for k, v in knobs.items()
                            if isinstance(v, list))  # fmt: skip
        points = sum(1 for p in folder.iterdir() if (p / "report.json").is_file())
        return Entry("sweep", relative, sweep.stat().st_mtime, f"{points} points: {what}",
                     f"{relative}/index.html")  # fmt: skip
    report = folder / "report.json"
    if report.is_file():
        document = _read_json(report)
        name = relative
        if isinstance(document, dict) and isinstance(document.get("variant"), dict):
            name = str(document["variant"].get("name", relative))
        return Entry("run", name, report.stat().st_mtime, _run_headline(document),
                     f"{relative}/report.html")  # fmt: skip
    for kind, marker, page in (("ladder", "ladder.csv", "ladder.html"),
                               ("tune", "tune.csv", "tune.html")):  # fmt: skip
        if (folder / marker).is_file():
            return Entry(kind, relative, (folder / marker).stat().st_mtime, "",
                         f"{relative}/{page}")  # fmt: skip
    if (folder / "a" / "report.json").is_file() and (folder / "b" / "report.json").is_file():
        a, b = (_run_headline(_read_json(folder / side / "report.json")) for side in "ab")
        when = (folder / "b" / "report.json").stat().st_mtime
        return Entry("diff", folder.name, when, f"A: {a} | B: {b}", f"{relative}/a/report.html")
    return None


def entries(reports: Path) -> list[Entry]:
    """Every run, sweep, diff, ladder and tune under `reports`, newest first."""
    found = []
    candidates = [p for p in reports.iterdir() if p.is_dir() and not p.is_symlink()]
    diffs = reports / "diff"
    if diffs.is_dir():
        candidates += [p for p in diffs.iterdir() if p.is_dir() and not p.is_symlink()]
    for folder in candidates:
        try:
            entry = _entry(folder, reports)
        except OSError:
            continue
        if entry is not None:
            found.append(entry)
    return sorted(found, key=lambda e: (-e.when, e.kind, e.name))


def render(found: list[Entry]) -> str:
    """The page, in report.html's style."""
    from balancer.report.html import CSS

    def e(text: str) -> str:
        return html.escape(text, quote=True)

    rows = [
        f'<tr><td>{e(entry.kind)}</td><td><a href="{e(quote(entry.link, safe="/=,"))}">'
        f"{e(entry.name)}</a></td><td>{e(entry.headline)}</td></tr>"
        for entry in found
    ]
    return "\n".join(
        [
            "<!DOCTYPE html>",
            '<html lang="en">',
            "<head>",
            '<meta charset="utf-8">',
            '<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; '
            "style-src 'unsafe-inline'; img-src data:\">",
            '<meta name="viewport" content="width=device-width, initial-scale=1">',
            f'<meta name="generator" content="{GENERATOR}">',
            "<title>balancer: what has been tried</title>",
            f"<style>{CSS}</style>",
            "</head>",
            "<body>",
            "<main>",
            "<header><h1>What has been tried</h1>",
            f'<p class="sub">{len(found)} runs, sweeps, diffs, ladders and tunes in this '
            "folder, newest first.</p></header>",
            '<section><div class="table-wrap"><table><thead><tr><th>kind</th><th>name</th>'
            "<th>headline</th></tr></thead><tbody>",
            *rows,
            "</tbody></table></div></section>",
            "</main>",
            "<footer>balancer overview</footer>",
            "</body>",
            "</html>",
            "",
        ]
    )


def _ours(path: Path) -> bool:
    try:
        with path.open("rb") as handle:
            return f'<meta name="generator" content="{GENERATOR}">'.encode() in handle.read(2000)
    except OSError:
        return False


def refresh(reports: Path = REPORTS) -> Path | None:
    """Rewrite reports/index.html (module docstring); the page, or None when it was not."""
    target = reports / INDEX
    if not reports.is_dir() or target.is_symlink() or (target.exists() and not _ours(target)):
        return None
    partial = reports / f".{INDEX}.tmp-{os.getpid()}"
    try:
        partial.write_text(render(entries(reports)), encoding="utf-8")
        os.replace(partial, target)
    except OSError:
        return None
    finally:
        partial.unlink(missing_ok=True)
    return target


def refresh_for(folder: Path) -> None:
    """Rewrite the index when `folder` (just written) is under ./reports."""
    try:
        inside = folder.resolve().is_relative_to(REPORTS.resolve())
    except OSError:
        return
    if inside:
        refresh(REPORTS)
