"""`balancer csv REPORT`: the CSV tables again, from the report's stored games."""

from __future__ import annotations

from pathlib import Path

import click

from balancer.cli.base import command
from balancer.errors import UserError


@command("csv")
@click.argument("report_dir", metavar="REPORT", type=click.Path())
@click.option("--out", "-o", type=click.Path(file_okay=False), help="Where to write the CSVs.")
@click.option("--excel", is_flag=True, help="UTF-8 with a BOM, for spreadsheet programs.")
def csv_command(report_dir: str, out: str | None, excel: bool) -> None:
    """Regenerate the CSV tables of REPORT from its games.parquet, without simulating."""
    from balancer.report import model as reportio
    from balancer.report.tables import write_csv_tables

    data = reportio.load_report(Path(report_dir))
    for note in reportio.version_notes(data, str(Path(report_dir) / "report.json")):
        click.echo(f"balancer: note: {note}", err=True)
    if out is not None and not out.strip():
        raise UserError("the output folder is an empty name", key="--out")
    target = Path(out) if out is not None else Path(report_dir)
    try:
        target.mkdir(parents=True, exist_ok=True)
        written = write_csv_tables(data, target, excel=excel)
    except OSError as exc:
        raise UserError(f"can't write: {exc.strerror}", file=str(target)) from None
    for path in written:
        click.echo(str(path))
