"""`balancer cards REPORT`: card impact (stats/card_tally.py) from a report's stored games."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path
from typing import TYPE_CHECKING

import click

from balancer.cli.base import command
from balancer.cli.options import REPORT_FOLDER, format_option, lang_option
from balancer.errors import UserError

if TYPE_CHECKING:
    from collections.abc import Sequence

    from balancer.stats.card_tally import CardImpact
    from balancer.stats.role_impact import RoleImpact

FORMATS = ("table", "csv", "json")


@command("cards")
@click.argument("report_dir", metavar="REPORT", type=REPORT_FOLDER)
@click.option(
    "--out",
    "-o",
    type=click.Path(dir_okay=False),
    help="Where to write the table as CSV: a new file, or a cards.csv balancer wrote "
    "(default: REPORT/cards.csv, where the run wrote it).",
)
@lang_option
@format_option("Print a table, the CSV cards.csv holds, or JSON for tools.", FORMATS)
def cards_command(report_dir: str, out: str | None, fmt: str) -> None:
    """Print, for every card kind, the win share of seats that held it against seats
    that did not, with a 95% interval (clustered by game), largest effect first;
    and write it as CSV into the report folder (or where -o says), never into the
    current folder unasked. Needs a report whose games table records the cards
    held (fdc: opening hands)."""
    import sys

    from balancer.cli.colour import painter
    from balancer.report import cards
    from balancer.report import model as reportio
    from balancer.stats.card_tally import card_impact, has_cards

    source = Path(report_dir)
    data = reportio.load_report(source)
    where = str(source / "report.json")
    loaded = cards.variant_of(data, where)
    kinds_of = loaded.spec.card_kinds
    if kinds_of is None:
        raise UserError(f"{data.game} records no cards held: no card impact", file=where)
    if not has_cards(data.games):
        raise UserError(
            "games.parquet has no held_* columns (written before card impact): run it again",
            file=str(source / "games.parquet"),
        )
    rows = card_impact(data.games, data.players, kinds_of(loaded.rules))
    from balancer import i18n
    from balancer.cli.options import chosen_lang

    recorded = data.variant.get("lang")
    lang = i18n.choose(chosen_lang(), recorded if isinstance(recorded, str) else None)
    by_role = cards.roles_of_report(data)

    def show() -> None:
        if fmt == "csv":  # the card rows alone, as cards.csv holds them (roles: `csv`)
            click.echo(cards.csv_text(rows), nl=False)
            return
        if fmt == "json":
            click.echo(json_text(rows, by_role))
            return
        click.echo(cards.render(rows, painter(sys.stdout), lang))
        if by_role:  # a game whose cards have roles: what one more of each is worth
            click.echo("\n" + cards.render_roles(by_role, painter(sys.stdout), lang))

    if out is None:
        target = _into_report(source, rows)
        show()
        click.echo(i18n.text("cards.written", lang, target=target), err=True)
        return
    target = Path(out)
    if target.exists() and not any(_ours(target, h) for h in cards.OUR_CSV_HEADERS):
        raise UserError(
            "exists and is not a cards.csv balancer wrote: not overwritten", key="--out", file=out
        )
    tmp = target.with_name(f".{target.name}.tmp{os.getpid()}")
    try:
        cards.write_csv(rows, tmp)
        os.replace(tmp, target)
    except OSError as exc:
        raise UserError(f"cannot write: {exc.strerror or exc}", file=out) from None
    finally:
        tmp.unlink(missing_ok=True)
    show()
    click.echo(i18n.text("cards.written", lang, target=target), err=True)


def json_text(rows: Sequence[CardImpact], by_role: Sequence[RoleImpact] | None) -> str:
    """Every card kind's row (and each role's, for a game file) as JSON, numbers unrounded;
    a figure with nothing to compare (no seat held the kind) is null, not NaN."""
    import dataclasses
    import json
    import math

    def plain(row: CardImpact | RoleImpact) -> dict[str, object]:
        fields = dataclasses.asdict(row)
        for key, value in fields.items():
            if isinstance(value, float) and not math.isfinite(value):
                fields[key] = None
        return {**fields, "significant": row.significant}

    document = {"cards": [plain(r) for r in rows], "roles": [plain(r) for r in by_role or ()]}
    return json.dumps(document, indent=2, ensure_ascii=False)


def _into_report(source: Path, rows: list[CardImpact]) -> Path:
    """REPORT/cards.csv, the report folder rewritten whole (its manifest kept true);
    left as it is when its cards.csv already holds these rows byte for byte."""
    from balancer.cli.csv import copy_report
    from balancer.report import cards
    from balancer.report.folder import REPORT_JSON, write_folder

    target = source / cards.CSV_NAME
    with contextlib.suppress(OSError):
        if target.is_file() and target.read_bytes() == cards.csv_text(rows).encode():
            return target  # nothing to change: the folder is left as it is

    def fill(tmp: Path) -> None:
        copy_report(source, tmp)
        cards.write_csv(rows, tmp / cards.CSV_NAME)

    write_folder(source, fill, marker=REPORT_JSON)
    return target


def _ours(path: Path, header: tuple[str, ...]) -> bool:
    """Whether `path` is a file whose first line is cards.csv's header."""
    try:
        with path.open(encoding="utf-8") as f:
            return path.is_file() and f.readline().strip() == ",".join(header)
    except (OSError, UnicodeDecodeError):
        return False
