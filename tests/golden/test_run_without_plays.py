"""A run of a variant without `plays:` writes what it wrote before the key existed, byte for
byte: report.json, summary.md, every CSV and games.parquet (golden files in
run_without_plays/, written by the code before `plays:` was added; the game file's folder,
which differs from machine to machine, written as {FOLDER})."""

from __future__ import annotations

import hashlib
from pathlib import Path

from balancer.cli import main
from tests import plays_games

GOLDEN = Path(__file__).parent / "run_without_plays"


def test_a_run_without_plays_is_byte_for_byte_as_before(tmp_path: Path) -> None:
    folder = plays_games.game_file(plays_games.SUM).parent
    variant = folder / "v.yaml"  # the golden run's name: v
    variant.write_text(
        "game: ./hp-sum.yaml\nplayers: 2\ngames: 40\nseed: 7\nbots: random\n", encoding="utf-8"
    )
    out = tmp_path / "out"
    assert main(["run", "-q", str(variant), "--out", str(out)]) == 0
    report = (out / "report.json").read_text(encoding="utf-8").replace(str(folder), "{FOLDER}")
    assert report == (GOLDEN / "report.json").read_text(encoding="utf-8")
    written = sorted(p.name for p in GOLDEN.iterdir() if p.suffix in (".csv", ".md"))
    assert written == sorted(p.name for p in out.iterdir() if p.suffix in (".csv", ".md"))
    for name in written:
        assert (out / name).read_bytes() == (GOLDEN / name).read_bytes(), name
    digest = hashlib.sha256((out / "games.parquet").read_bytes()).hexdigest()
    assert digest == (GOLDEN / "games.parquet.sha256").read_text().strip()
