"""reports/index.html: what has been tried so far, newest first, a line and a link each.

Rewritten after every command that writes into `reports/` (run, sweep, a diff
of variant files, ladder and tune with `-o` there, design), from what the
folders hold: a run's report.json, a sweep's sweep.json, a diff's page
(diff.html, which a diff of variant files writes beside its two runs under
reports/diff/), a ladder's or tune's CSV, a design search's design.json. Each
entry has when it was made (its marker file's time, in UTC), a one-line
headline (a run's seat win shares and seat-advantage p, a sweep's knobs and
points, a diff's changed figures, a ladder's best bot, a tune's best
candidate, a design search's answer) and a relative link, so the folder can
be moved whole.

A user's edit is kept, as an edited file in a report folder is (report/folder.py
tells it by the SHA-256 its manifest records; here `.balancer-index.json` records
the index's): an index.html balancer did not write, or changed since it did, is
left alone, the overview is written beside it (`index.balancer.html`) and one
line on stderr says so. The page is swapped in whole. It is a convenience: a
folder it can't read is skipped, and a failure to write it never fails the
command that just succeeded.
"""

from __future__ import annotations

import csv
import html
import json
import os
import re
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

from balancer.numbers import CI95_HIGH, CI95_LOW, percent, percent_decimals, with_interval

INDEX = "index.html"
BESIDE = "index.balancer.html"  # the overview, when index.html is the user's
RECORD = ".balancer-index.json"  # the SHA-256 of the index.html balancer last wrote
GENERATOR = "balancer overview"
REPORTS = Path("reports")
DIFF_PAGE = "diff.html"  # a diff's own page in its folder (cli/diff.py writes it)
# A diff page's headline, in its head (analysis/diff_html.py writes it).
_DESCRIPTION = re.compile(rb'<meta name="description" content="([^"]*)">')


@dataclass(frozen=True)
class Entry:
    kind: str  # run, sweep, diff, ladder, tune, design
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
        # At the decimals of report.html's seat table (numbers.py): one precision per column.
        places = percent_decimals(
            (float(seat["win_ci95"][0]), float(seat["win_ci95"][1]))
            for seat in document["seats"]
            if isinstance(seat.get("win_ci95"), list) and len(seat["win_ci95"]) == 2
        )
        low, high = percent(min(shares), places), percent(max(shares), places)
        parts.append(f"seat win shares {low}–{high}")
        p = (document.get("seat_advantage") or {}).get("p_value")
        if isinstance(p, int | float):
            parts.append(f"seat advantage p = {p:.2g}")
        if document.get("command_line"):
            parts.append("with " + " ".join(map(str, document["command_line"])))
    except (AttributeError, KeyError, TypeError, ValueError):  # a damaged file: what it has
        pass
    return "; ".join(parts)


def _rows(path: Path) -> list[dict[str, str]]:
    try:
        with path.open(newline="", encoding="utf-8") as handle:
            return list(csv.DictReader(handle))
    except (OSError, ValueError, csv.Error):
        return []


def _number(row: dict[str, str], key: str) -> float | None:
    try:
        return float(row[key])
    except (KeyError, TypeError, ValueError):
        return None


def _ends(row: dict[str, str], figure: str) -> tuple[float | None, float | None]:
    """`figure`'s interval in a CSV row: FIGURE.ci95_low/high (or the older low/high)."""
    low = _number(row, figure + CI95_LOW)
    high = _number(row, figure + CI95_HIGH)
    if low is None or high is None:
        low, high = _number(row, "low"), _number(row, "high")
    return low, high


def _ladder_headline(path: Path) -> str:
    """`3 bots; best heuristic, win share 41% [40%, 43%]` from ladder.csv."""
    bots = [
        r for r in _rows(path) if r.get("kind") == "bot" and _number(r, "win_share") is not None
    ]
    if not bots:
        return ""
    best = max(bots, key=lambda r: _number(r, "win_share") or 0.0)
    share = _number(best, "win_share") or 0.0
    low, high = _ends(best, "win_share")
    if low is None or high is None:
        shown = percent(share, None)
    else:
        places = percent_decimals([(low, high)])
        shown = f"{percent(share, places)} [{percent(low, places)}, {percent(high, places)}]"
    return f"{len(bots)} bots; best {best.get('bot', '?')}, win share {shown}"


_TUNE_COLUMNS = {"games", "reused_games", "last_round", "estimate", "low", "high", "best",
                 "not_ruled_out", "estimate" + CI95_LOW, "estimate" + CI95_HIGH}  # fmt: skip


def _tune_headline(path: Path) -> str:
    """`8 candidates; best rounds=7: 7.0 [6.9, 7.1]` from tune.csv."""
    rows = _rows(path)
    best = [r for r in rows if str(r.get("best", "")).lower() == "true"]
    if not best:
        return ""
    knobs = " ".join(f"{k}={v}" for k, v in best[0].items() if k not in _TUNE_COLUMNS)
    value = _number(best[0], "estimate")
    shown = "" if value is None else ": " + with_interval(value, *_ends(best[0], "estimate"))
    return f"{len(rows)} candidates; best {knobs}{shown}"


def _page_headline(page: Path) -> str:
    """The headline a diff page carries in its head, or ''."""
    try:
        with page.open("rb") as handle:
            found = _DESCRIPTION.search(handle.read(4000))
    except OSError:
        return ""
    return html.unescape(found.group(1).decode("utf-8", "replace")) if found else ""


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
    design = folder / "design.json"
    if design.is_file():
        return Entry("design", relative, design.stat().st_mtime,
                     _design_headline(_read_json(design)), f"{relative}/design.html")  # fmt: skip
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
            headline = (_ladder_headline if kind == "ladder" else _tune_headline)(folder / marker)
            return Entry(kind, relative, (folder / marker).stat().st_mtime, headline,
                         f"{relative}/{page}")  # fmt: skip
    if (folder / DIFF_PAGE).is_file():
        diff_page = folder / DIFF_PAGE
        return Entry("diff", folder.name, diff_page.stat().st_mtime, _page_headline(diff_page),
                     f"{relative}/{DIFF_PAGE}")  # fmt: skip
    if (folder / "a" / "report.json").is_file() and (folder / "b" / "report.json").is_file():
        # A diff from before diffs wrote their page: its two runs, and A's report.
        a, b = (_run_headline(_read_json(folder / side / "report.json")) for side in "ab")
        when = (folder / "b" / "report.json").stat().st_mtime
        return Entry("diff", folder.name, when, f"A: {a} | B: {b}", f"{relative}/a/report.html")
    return None


def _design_headline(document: Any) -> str:
    """A design search's answer: its best setting, or how many make its front."""
    if not isinstance(document, dict) or not isinstance(document.get("settings"), list):
        return ""
    settings = [s for s in document["settings"] if isinstance(s, dict)]
    trials = document.get("trials")
    tried = ""
    if isinstance(trials, list):
        tried = f" ({len(trials)} trial{'' if len(trials) == 1 else 's'})"
    if document.get("answer") == "best" and len(settings) == 1:
        point = settings[0].get("point")
        if isinstance(point, dict):
            return "best: " + " ".join(f"{k}={v}" for k, v in point.items()) + tried
    return f"a front of {len(settings)} settings the games can't tell apart{tried}"


def made(when: float) -> str:
    """When an entry was made, as the page shows it: `2026-12-06 02:19 UTC`."""
    return time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(when))


def entries(reports: Path) -> list[Entry]:
    """Every run, sweep, diff, ladder, tune and design search under `reports`, newest first."""
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
        f'{e(entry.name)}</a></td><td class="num">{e(made(entry.when))}</td>'
        f"<td>{e(entry.headline)}</td></tr>"
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
            f'<p class="sub">{len(found)} runs, sweeps, diffs, ladders, tunes and design '
            "searches in this folder, newest first.</p></header>",
            '<section><div class="table-wrap"><table><thead><tr><th>kind</th><th>name</th>'
            "<th>made</th><th>headline</th></tr></thead><tbody>",
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


def _recorded(reports: Path) -> str | None:
    """The SHA-256 of the index.html balancer last wrote, or None."""
    document = _read_json(reports / RECORD)
    return document.get(INDEX) if isinstance(document, dict) else None


def _kept(target: Path, reports: Path) -> bool:
    """Whether `target` (index.html) is the user's: not balancer's page, or edited since
    balancer wrote it (its SHA-256 is not the one recorded). A page of balancer's from
    before the record existed counts as balancer's."""
    from balancer.report.folder import digest

    if not target.exists():
        return False
    if target.is_symlink() or not target.is_file() or not _ours(target):
        return True
    recorded = _recorded(reports)
    try:
        return recorded is not None and digest(target) != recorded
    except OSError:
        return True


def _swap_in(text: str, target: Path) -> None:
    partial = target.with_name(f".{target.name}.tmp-{os.getpid()}")
    try:
        partial.write_text(text, encoding="utf-8")
        os.replace(partial, target)
    finally:
        partial.unlink(missing_ok=True)


def _say(line: str) -> None:
    print(f"balancer: {line}", file=sys.stderr)


def refresh(reports: Path = REPORTS, say: Callable[[str], None] = _say) -> Path | None:
    """Rewrite reports/index.html (module docstring); the page written, or None when none
    was. When index.html is the user's, the page goes beside it and `say` says so."""
    from balancer.report.folder import digest

    target = reports / INDEX
    if not reports.is_dir():
        return None
    try:
        page = render(entries(reports))
        if _kept(target, reports):
            beside = reports / BESIDE
            if beside.is_symlink() or (beside.exists() and not _ours(beside)):
                return None  # that one is the user's too
            _swap_in(page, beside)
            say(f"{target} was edited (or is not balancer's), so it is kept as it is; "
                f"the overview is written beside it: {beside}")  # fmt: skip
            return beside
        _swap_in(page, target)
        _swap_in(json.dumps({INDEX: digest(target)}) + "\n", reports / RECORD)
    except OSError:
        return None
    return target


def refresh_for(folder: Path) -> None:
    """Rewrite the index when `folder` (just written) is under ./reports."""
    try:
        inside = folder.resolve().is_relative_to(REPORTS.resolve())
    except OSError:
        return
    if inside:
        refresh(REPORTS)
