"""`balancer csv REPORT`: the CSV tables again, from the report's stored games."""

from __future__ import annotations

import shutil
from pathlib import Path

import click

from balancer.cli.base import command
from balancer.errors import UserError

# What a folder of `csv -o` holds; the manifest names it so a report is never taken for one.
CSV_MARKER = "games.csv"


@command("csv")
@click.argument("report_dir", metavar="REPORT", type=click.Path())
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
    from balancer.report import build as report
    from balancer.report import model as reportio
    from balancer.report.folder import MANIFEST, REPORT_JSON, place_of, write_folder

    source = Path(report_dir)
    data = reportio.load_report(source)
    for note in reportio.version_notes(data.report, str(source / "report.json")):
        click.echo(f"balancer: note: {note}", err=True)
    if out is not None and not out.strip():
        raise UserError("the output folder is an empty name", key="--out")
    in_place = out is None or place_of(out).target == place_of(source).target
    target = source if in_place else Path(out)  # type: ignore[arg-type]
    names: list[str] = []

    def fill(tmp: Path) -> None:
        if in_place:
            # The folder was checked to hold exactly its manifest: copy it, then the tables.
            for path in sorted(source.rglob("*")):
                relative = path.relative_to(source)
                if path.is_dir() or relative.as_posix() == MANIFEST:
                    continue
                (tmp / relative).parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(path, tmp / relative)
        written = report.write_csv_tables(data.report, data.games, tmp, excel=excel)
        names.extend(path.name for path in written)

    write_folder(target, fill, marker=REPORT_JSON if in_place else CSV_MARKER)
    for name in names:
        click.echo(str(target / name))
