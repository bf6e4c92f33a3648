"""`balancer csv REPORT`: the CSV tables again, from the report's stored games."""

from __future__ import annotations

import shutil
from pathlib import Path

import click

from balancer.cli.base import command
from balancer.cli.options import REPORT_FOLDER
from balancer.errors import UserError

# What a folder of `csv -o` holds; the manifest names it so a report is never taken for one.
CSV_MARKER = "games.csv"


@command("csv")
@click.argument("report_dir", metavar="REPORT", type=REPORT_FOLDER)
@click.option(
    "--out",
    "-o",
    type=click.Path(file_okay=False),
    help="A new folder for the CSVs (or one an earlier `csv -o` wrote); default: REPORT itself.",
)
@click.option("--excel", is_flag=True, help="UTF-8 with a BOM, for spreadsheet programs.")
def csv_command(report_dir: str, out: str | None, excel: bool) -> None:
    """Regenerate the CSV tables of REPORT from its games.parquet, without simulating.

    Only into balancer's own folders: REPORT itself (rewritten whole, with
    its manifest), or an --out folder that is missing, empty or an earlier
    `csv -o` output. A user's own files are never overwritten.
    """
    from balancer.report import model as reportio
    from balancer.report.folder import REPORT_JSON, place_of, write_folder
    from balancer.report.tables import write_csv_tables

    source = Path(report_dir)
    data = reportio.load_report(source)
    for note in reportio.version_notes(data, str(source / "report.json")):
        click.echo(f"balancer: note: {note}", err=True)
    if out is not None and not out.strip():
        raise UserError("the output folder is an empty name", key="--out")
    in_place = out is None or place_of(out).target == place_of(source).target
    target = source if in_place else Path(out)  # type: ignore[arg-type]
    names: list[str] = []

    from balancer.report import cards

    # Every CSV the run wrote, cards.csv too (when its game records the cards held). Its
    # card names come from the variant's rules: a report whose variant no longer loads
    # here (a bot this balancer doesn't know) still gets its other tables, and is told.
    role_rows = None
    try:
        card_rows = cards.of_report(data)
        kinds = cards.kinds_of_report(data)
        if card_rows is not None:
            role_rows = cards.roles_of_report(data)
    except UserError as exc:
        card_rows = kinds = None
        click.echo(f"balancer: note: cards.csv not written: {exc.message}", err=True)
    # games.csv names the cards each seat held instead of the parquet's bitmask words.
    tables_of = data
    if kinds is not None:
        from dataclasses import replace

        tables_of = replace(data, games=cards.readable_held(data.games, data.players, kinds))

    def fill(tmp: Path) -> None:
        if in_place:
            copy_report(source, tmp)
        written = write_csv_tables(tables_of, tmp, excel=excel)
        if card_rows is not None:
            cards.write_csv(card_rows, tmp / cards.CSV_NAME, excel=excel)
            written.append(tmp / cards.CSV_NAME)
        if role_rows is not None:
            cards.write_roles_csv(role_rows, tmp / cards.ROLES_CSV_NAME, excel=excel)
            written.append(tmp / cards.ROLES_CSV_NAME)
        names.extend(path.name for path in written)

    write_folder(target, fill, marker=REPORT_JSON if in_place else CSV_MARKER)
    for name in names:
        click.echo(str(target / name))


def copy_report(source: Path, tmp: Path) -> None:
    """Every file of a report folder but its manifest into `tmp`, to be rewritten in place.

    write_folder checked the folder holds exactly its manifest before this runs.
    """
    from balancer.report.folder import MANIFEST

    for path in sorted(source.rglob("*")):
        relative = path.relative_to(source)
        if path.is_dir() or relative.as_posix() == MANIFEST:
            continue
        (tmp / relative).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, tmp / relative)
