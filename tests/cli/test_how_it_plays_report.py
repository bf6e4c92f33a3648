"""How the games played, in every output: games.parquet's columns, report.json's block
(streamed counts against the table), csv, diff rows, expect:, sweep, and the section of
report.html and summary.md (absent from an older report).

The per-game figures themselves are worked out by hand in tests/kernels/test_progress.py
and tests/unit/test_how_it_plays.py; here, hand-made per-game rows check where they go.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl
import pytest

import balancer
from balancer import table
from balancer.analysis import expect
from balancer.analysis.plays import Games
from balancer.cli import main
from balancer.config.variant import Variant, load
from balancer.errors import UserError
from balancer.report.html import render_html
from balancer.report.model import Report
from balancer.report.text import summary_markdown
from balancer.sim.chunks import ChunkResult
from balancer.sim.sink import GamesFile, GamesWriter
from balancer.stats.figures import RunData, diff_rows, figure_pairs
from balancer.stats.how_it_plays import FIGURES, run_figures
from tests.helpers import VARIANTS, write_file

pytestmark = pytest.mark.usefixtures("engine_unchecked")

NAN = math.nan
# Three games' figures in NAMES order (lead changes, decided at, comeback, drama, leader
# wins at 25/50/75%), made up by hand: game 1 had no sole leader at 25% nor at 75%. Only
# where they go is tested here, so they need not be a game's (its scores are made up apart).
ROWS = np.array(
    [
        [2.0, 0.75, 0.0, 0.5, 1.0, 0.0, 1.0],
        [0.0, 0.25, 0.0, 0.0, NAN, 1.0, NAN],
        [1.0, 1.0, 0.5, 0.25, 0.0, 0.5, 1.0],
    ]
)


def _kk(games: int) -> Variant:
    return balancer.load_variant(VARIANTS / "kk-4p.yaml", games=games, seed=3)


def _close(a: Any, b: Any) -> bool:
    """Two JSON documents alike, their numbers to rounding (sums taken in another order)."""
    if isinstance(a, dict):
        return isinstance(b, dict) and a.keys() == b.keys() and all(_close(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return isinstance(b, list) and len(a) == len(b) and all(map(_close, a, b))
    if isinstance(a, float):
        return isinstance(b, int | float) and math.isclose(a, b, rel_tol=1e-12, abs_tol=1e-15)
    return bool(a == b)


def _chunk(start: int, figures: np.ndarray | None) -> ChunkResult:
    """Hand-made games start.. of kk-4p (every seat scoring 0) with `figures` as they played
    (three games without a record of their steps when None)."""
    n = 3 if figures is None else len(figures)
    events = np.zeros((n, len(_kk(1).spec.events)))
    return ChunkResult(start, np.zeros((n, 4)), np.full(n, 5), events, None, figures=figures)


# --- games.parquet's columns ---------------------------------------------------------


def test_the_columns_hold_each_games_figures_and_null_where_undefined() -> None:
    v = _kk(3)
    writer = GamesWriter(v, GamesFile())
    writer.add(_chunk(0, ROWS))
    writer.finish()
    frame = writer.file.read()
    for k, name in enumerate(table.HOW_IT_PLAYS):
        expected = [None if math.isnan(x) else x for x in ROWS[:, k]]
        assert frame[name].to_list() == expected, name
    assert frame.schema["leader_wins_25"] == pl.Float64
    assert table.has_how_it_plays(frame)
    assert np.array_equal(table.how_it_plays_matrix(frame), ROWS, equal_nan=True)


def test_games_without_a_record_of_their_steps_leave_the_columns_null() -> None:
    # The control of the test above: the same columns, all null, and no block.
    v = _kk(3)
    writer = GamesWriter(v, GamesFile())
    writer.add(_chunk(0, None))
    writer.finish()
    frame = writer.file.read()
    assert all(frame[name].null_count() == 3 for name in table.HOW_IT_PLAYS)
    assert not table.has_how_it_plays(frame)
    assert writer.how_it_plays() is None


# --- the counts, merged chunk by chunk -------------------------------------------------


def test_chunks_counted_apart_merge_into_the_whole_tables_figures() -> None:
    v = _kk(6)
    writer = GamesWriter(v, GamesFile(), batch_rows=2)
    writer.add(_chunk(0, ROWS[:2]))
    writer.add(_chunk(2, ROWS[2:]))
    writer.add(_chunk(3, ROWS[::-1]))
    writer.finish()
    counted = writer.how_it_plays()
    assert counted is not None and counted.games == 6
    whole = run_figures(np.vstack([ROWS[:2], ROWS[2:], ROWS[::-1]]))
    # By hand: lead changes (2 + 0 + 1) × 2 / 6 = 1; leader wins at 25% over the 4 games
    # with a leader: (1 + 0 + 0 + 1) / 4 = 0.5.
    assert counted.figures().lead_changes.estimate == pytest.approx(1.0)
    assert counted.figures().leader_wins[0] is not None
    assert counted.figures().leader_wins[0].estimate == pytest.approx(0.5)
    assert _close(counted.figures().to_json(), whole.to_json())


def test_one_chunk_without_a_record_makes_the_runs_block_unknown() -> None:
    v = _kk(6)
    writer = GamesWriter(v, GamesFile())
    writer.add(_chunk(0, ROWS))
    writer.add(_chunk(3, None))
    writer.finish()
    assert writer.how_it_plays() is None


# --- a run's report.json against its games.parquet ---------------------------------


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> Report:
    """kk-4p, 400 games on two worker processes: many chunks, counted apart and merged."""
    folder = tmp_path_factory.mktemp("kk") / "r"
    return balancer.run(_kk(400), workers=2).save(folder)


def test_the_block_is_run_figures_over_the_tables_columns(report: Report) -> None:
    """The property the issue asks for: what was streamed is what the table says."""
    assert report.folder is not None
    document = json.loads((report.folder / "report.json").read_text(encoding="utf-8"))
    frame = pl.read_parquet(report.folder / "games.parquet")
    columns = np.column_stack([frame[name].to_numpy() for name in table.HOW_IT_PLAYS])
    assert columns.shape == (400, FIGURES)
    decisions = table.decisions_matrix(frame)
    assert _close(document["how_it_plays"], run_figures(columns, decisions).to_json())
    assert document["how_it_plays"]["decision_share"]["n"] == 400
    # Not a block of nothing: kk-4p's games change leader and leave checkpoints tied.
    assert document["how_it_plays"]["lead_changes"]["mean"] > 0
    assert 0 < frame["leader_wins_25"].null_count() < 400


def test_one_worker_and_two_write_the_same_block(report: Report) -> None:
    alone = balancer.run(_kk(400), workers=1)
    assert alone.how_it_plays is not None
    assert alone.to_json()["how_it_plays"] == report.to_json()["how_it_plays"]


def test_the_csv_table_is_the_block(report: Report, tmp_path: Path) -> None:
    assert report.folder is not None and report.how_it_plays is not None
    assert main(["csv", str(report.folder), "-o", str(tmp_path / "c")]) == 0
    rows = pl.read_csv(tmp_path / "c" / "how_it_plays.csv")
    assert rows["figure"].to_list() == [
        *table.HOW_IT_PLAYS[:4],
        "decision_share",
        *table.HOW_IT_PLAYS[4:],
    ]
    played = report.how_it_plays
    figures = [*played.means().values(), *played.leader_wins()]
    assert all(f is not None for f in figures)  # kk-4p's games have leaders at each point
    assert rows["value"].to_list() == [f.mean for f in figures if f is not None]
    assert rows["value.ci95_low"].to_list() == [f.ci95.low for f in figures if f is not None]
    assert (tmp_path / "c" / "how_it_plays.csv").read_bytes() == (
        report.folder / "how_it_plays.csv"
    ).read_bytes()


# --- a report from before the block ------------------------------------------------


def _without_block(report: Report, tmp_path: Path) -> Path:
    """A copy of the report's folder whose report.json has no how_it_plays, as an older one."""
    assert report.folder is not None
    old = tmp_path / "old"
    old.mkdir()
    for name in ("report.json", "games.parquet"):
        (old / name).write_bytes((report.folder / name).read_bytes())
    document = json.loads((old / "report.json").read_text(encoding="utf-8"))
    del document["how_it_plays"]
    (old / "report.json").write_text(json.dumps(document), encoding="utf-8")
    return old


def test_an_older_report_opens_and_renders_without_the_section(
    report: Report, tmp_path: Path
) -> None:
    older = Report.open(_without_block(report, tmp_path))
    assert older.how_it_plays is None
    assert "how_it_plays" not in older.to_json()
    page, summary = render_html(older, "en"), summary_markdown(older, "en")
    assert 'id="how-it-plays"' not in page and 'data-chart="leader-wins"' not in page
    assert "## How it plays" not in summary
    # The control: the report as written has the section, on both.
    mine = Report.open(report.folder)  # type: ignore[arg-type]
    assert 'id="how-it-plays"' in render_html(mine, "en")
    assert 'data-chart="leader-wins"' in render_html(mine, "en")
    assert "## How it plays" in summary_markdown(mine, "en")


def test_a_damaged_block_is_one_line_naming_the_key(report: Report, tmp_path: Path) -> None:
    old = _without_block(report, tmp_path)
    document = json.loads((old / "report.json").read_text(encoding="utf-8"))
    document["how_it_plays"] = {"lead_changes": {"mean": "many"}}
    (old / "report.json").write_text(json.dumps(document), encoding="utf-8")
    with pytest.raises(UserError, match=r"how_it_plays\.lead_changes\.mean"):
        Report.open(old)


# --- diff rows -------------------------------------------------------------------------


def _data(figures: np.ndarray | None) -> RunData:
    n = 3
    wins = np.tile([1.0, 0.0], (n, 1))
    return RunData(
        scores=wins,
        wins=wins,
        bot_labels=np.full((n, 2), "random"),
        lengths=np.full(n, 5.0),
        events={},
        figures=figures,
    )


def test_diff_rows_have_their_kind_and_a_leader_wins_share_is_a_ratio() -> None:
    b = ROWS.copy()
    b[:, 4] = [0.0, 1.0, NAN]  # B: leaders at 25% in games 0 and 1, none in game 2
    pairs, warnings = figure_pairs(_data(ROWS), _data(b))
    kinds = {fa.name: fa.kind for fa, _ in pairs if fa.name.startswith("how_it_plays.")}
    assert kinds == {
        "how_it_plays.lead_changes.mean": "play",
        "how_it_plays.decided_at.mean": "play",
        "how_it_plays.comeback.share": "share",
        "how_it_plays.drama.mean": "play",
        "how_it_plays.leader_wins_25.share": "share",
        "how_it_plays.leader_wins_50.share": "share",
        "how_it_plays.leader_wins_75.share": "share",
    }
    assert not warnings
    rows = {row.figure: row for row in diff_rows(_data(ROWS), _data(b), paired=True).rows}
    # By hand: A's leader at 25% won in game 0 (1) and lost in game 2 (0), game 1 had none:
    # 1 / 2. B's lost in game 0 and won in game 1: 1 / 2. Lead changes: (2 + 0 + 1) / 3.
    leader = rows["how_it_plays.leader_wins_25.share"]
    assert (leader.a, leader.b, leader.change) == (0.5, 0.5, 0.0)
    assert rows["how_it_plays.lead_changes.mean"].a == pytest.approx(1.0)
    assert rows["how_it_plays.comeback.share"].a == pytest.approx(0.5 / 3)
    assert rows["how_it_plays.leader_wins_75.share"].a == pytest.approx(1.0)  # 2 of 2


def test_diff_leaves_out_what_one_side_doesnt_know() -> None:
    pairs, warnings = figure_pairs(_data(ROWS), _data(None))
    assert not [fa for fa, _ in pairs if fa.name.startswith("how_it_plays.")]
    assert warnings == ["how the games played is known only in A, not compared"]
    # A leader-wins row where one run never had a sole leader there: no ratio to take.
    never = ROWS.copy()
    never[:, 6] = NAN
    names = [fa.name for fa, _ in figure_pairs(_data(ROWS), _data(never))[0]]
    assert "how_it_plays.leader_wins_75.share" not in names
    assert "how_it_plays.leader_wins_50.share" in names


# --- expect:, tune, sweep ------------------------------------------------------------


def test_a_leader_wins_target_reads_only_the_games_with_a_leader() -> None:
    n = len(ROWS)
    games = Games(0, np.zeros((n, 4)), np.zeros((n, 4)), np.full((n, 4), "x"), np.full(n, 5.0),
                  {}, ROWS)  # fmt: skip
    v = _kk(3)
    leader = expect.resolve("how_it_plays.leader_wins_25.share", v)
    assert list(leader.members[0].per_game(games)) == [1.0, 0.0]  # game 1 had no leader
    assert leader.value(games) == 0.5
    assert expect.resolve("how_it_plays.drama.mean", v).value(games) == pytest.approx(0.25)


def test_a_shipped_variants_targets_pass_and_fail(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write_file(
        tmp_path,
        f"extends: {VARIANTS / 'kk-4p.yaml'}\ngames: 300\nexpect:\n"
        # kk-4p: about 5% of wins from last at halfway (drama, the figure beside it in
        # the table, about 0.22); the leader at 50% wins about 62%.
        "  how_it_plays.comeback.share: {at_most: 0.15}\n"
        "  how_it_plays.leader_wins_50.share: {at_least: 0.95}\n",
    )
    capsys.readouterr()
    assert main(["check", str(path), "-q", "--format", "json"]) == 3
    (checked,) = json.loads(capsys.readouterr().out)["variants"]
    verdicts = {t["figure"]: t["verdict"] for t in checked["targets"]}
    assert verdicts == {
        "how_it_plays.comeback.share": "pass",
        "how_it_plays.leader_wins_50.share": "fail",
    }


def test_a_leader_wins_share_is_never_paired_with_another_figure(tmp_path: Path) -> None:
    path = write_file(
        tmp_path,
        f"extends: {VARIANTS / 'kk-4p.yaml'}\nexpect:\n"
        "  how_it_plays.leader_wins_50.share: {above: how_it_plays.comeback.share}\n",
    )
    with pytest.raises(UserError, match="sole leader at its checkpoint"):
        expect.load_targets(load(path))
    # The control: two figures over every game are compared.
    write_file(
        tmp_path,
        f"extends: {VARIANTS / 'kk-4p.yaml'}\nexpect:\n"
        "  how_it_plays.drama.mean: {above: how_it_plays.comeback.share}\n",
    )
    assert len(expect.load_targets(load(path))) == 1


def test_a_sweep_charts_comebacks(tmp_path: Path) -> None:
    out = tmp_path / "sw"
    kk = str(VARIANTS / "kk-4p.yaml")
    args = ["sweep", kk, "--set", "rules.rounds=4,5", "--figure", "how_it_plays.comeback.share"]
    assert main([*args, "-n", "60", "-q", "-o", str(out)]) == 0
    rows = pl.read_csv(out / "sweep.csv")
    figure = "how_it_plays.comeback.share"
    for row, point in zip(rows.iter_rows(named=True), sorted(out.glob("0*")), strict=True):
        block = json.loads((point / "report.json").read_text(encoding="utf-8"))["how_it_plays"]
        assert row[figure] == block["comeback"]["mean"]
        assert [row[figure + ".ci95_low"], row[figure + ".ci95_high"]] == block["comeback"]["ci95"]


# --- a comeback margin -----------------------------------------------------------------


def test_a_comeback_margin_reaches_the_report_its_pages_and_diff(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """kk-4p at margin 0 (a winner not tied for the lowest total at halfway came back)
    against "last only": more comebacks, the margin in report.json, on the pages and
    in diff's list of what differs; every other figure as it was."""
    base = VARIANTS / "kk-4p.yaml"
    margin = write_file(tmp_path, f"extends: {base}\ncomeback_margin: 0\n", "m.yaml")
    folders = {}
    for name, path in (("last", base), ("zero", margin)):
        folders[name] = tmp_path / name
        args = ["run", str(path), "-n", "300", "-s", "3", "-q", "-o", str(folders[name])]
        assert main(args) == 0
    blocks = {
        name: json.loads((f / "report.json").read_text(encoding="utf-8"))["how_it_plays"]
        for name, f in folders.items()
    }
    assert "comeback_margin" not in blocks["last"] and blocks["zero"]["comeback_margin"] == 0
    assert blocks["zero"]["comeback"]["mean"] > blocks["last"]["comeback"]["mean"]
    for figure in ("lead_changes", "decided_at", "drama", "leader_wins_50"):
        assert blocks["zero"][figure] == blocks["last"][figure]
    summary = (folders["zero"] / "summary.md").read_text(encoding="utf-8")
    assert "more than 0 points behind" in summary
    assert "points behind" not in (folders["last"] / "summary.md").read_text(encoding="utf-8")
    capsys.readouterr()
    assert main(["diff", str(folders["last"]), str(folders["zero"])]) == 0
    out = capsys.readouterr().out
    assert "comeback_margin" in out, out
