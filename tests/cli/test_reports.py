"""Reading reports back: csv regeneration, replay, diff of real runs, sweeps, damage."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import polars as pl
import pytest

from balancer.analysis import diff
from balancer.cli import main
from balancer.cli.diff import EXIT_CHANGED
from balancer.config import variant
from balancer.report import build
from balancer.report.build import from_run
from balancer.report.model import Report
from balancer.report.tables import REPORT_TABLES
from balancer.sim import runner
from tests.helpers import VARIANTS, load_report, one_error_line, variant_file

# About reports, the command line and diffs, not the engine: runs play as a user's do
# (compiled where they can), not step by step as the suite's forced --check would.
pytestmark = pytest.mark.usefixtures("engine_unchecked")


@pytest.fixture(scope="module")
def fdc_report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("reports") / "fdc"
    assert (
        main(["run", "-q", str(VARIANTS / "fdc-5p-vs-random.yaml"), "-n", "60", "-o", str(out)])
        == 0
    )
    return out


def test_csv_regenerates_byte_for_byte(fdc_report: Path, tmp_path: Path) -> None:
    assert main(["csv", str(fdc_report), "-o", str(tmp_path)]) == 0
    for name in REPORT_TABLES:
        assert (tmp_path / name).read_bytes() == (fdc_report / name).read_bytes(), name
    # In place, too: the run's own files come back the same, and the per-game table
    # (which a run leaves out: DESIGN.md's report folder) is the one -o wrote.
    before = {n: (fdc_report / n).read_bytes() for n in REPORT_TABLES}
    assert main(["csv", str(fdc_report)]) == 0
    assert {n: (fdc_report / n).read_bytes() for n in REPORT_TABLES} == before
    assert (fdc_report / "games.csv").read_bytes() == (tmp_path / "games.csv").read_bytes()


def test_csv_excel_has_a_bom(fdc_report: Path, tmp_path: Path) -> None:
    assert main(["csv", str(fdc_report), "-o", str(tmp_path), "--excel"]) == 0
    data = (tmp_path / "seats.csv").read_bytes()
    assert data.startswith(b"\xef\xbb\xbf")
    assert data[3:] == (fdc_report / "seats.csv").read_bytes()


def test_csv_tables_hold_what_the_report_says(fdc_report: Path, tmp_path: Path) -> None:
    seats = pl.read_csv(fdc_report / "seats.csv")
    data = json.loads((fdc_report / "report.json").read_text())
    # Every digit of report.json (docs/figures-and-outputs.md: CSVs keep full precision).
    assert seats["win_share"].to_list() == [s["win_share"] for s in data["seats"]]
    scores = pl.read_csv(fdc_report / "scores.csv")
    assert scores["seat_0"].sum() == 60  # every game counted once per seat
    events = pl.read_csv(fdc_report / "events.csv")
    assert events["event"].to_list() == list(data["events"])
    assert main(["csv", str(fdc_report), "-o", str(tmp_path)]) == 0
    games = pl.read_csv(tmp_path / "games.csv")  # the per-game table, from `balancer csv`
    assert games.height == 60 and games["game"].to_list() == list(range(60))
    # Every interval of report.json is two columns, FIGURE.ci95_low and FIGURE.ci95_high,
    # holding its ends exactly.
    for figure, key in (("win_share", "win_ci95"), ("score_mean", "score_mean_ci95")):
        pairs = zip(seats[f"{figure}.ci95_low"], seats[f"{figure}.ci95_high"], strict=True)
        for pair, seat in zip(pairs, data["seats"], strict=True):
            assert list(pair) == seat[key]
    for figure in ("per_game", "share_of_games"):
        pairs = zip(events[f"{figure}.ci95_low"], events[f"{figure}.ci95_high"], strict=True)
        for pair, event in zip(pairs, data["events"].values(), strict=True):
            assert list(pair) == event[f"{figure}_ci95"]


def test_summary_shows_the_intervals(fdc_report: Path) -> None:
    data = json.loads((fdc_report / "report.json").read_text())
    summary = (fdc_report / "summary.md").read_text()
    low, high = data["margin"]["ci95"]
    assert f"mean {data['margin']['mean']:.2f} [{low:.2f}, {high:.2f}]" in summary
    low, high = data["seats"][0]["score_mean_ci95"]
    assert f"| {data['seats'][0]['score']['mean']:.2f} | [{low:.2f}, {high:.2f}] |" in summary
    from balancer.numbers import column_decimals, fixed

    # The per-game column: one precision, the one its intervals back (numbers.py).
    places = column_decimals(tuple(e["per_game_ci95"]) for e in data["events"].values())
    assert places is not None
    name, event = next(iter(data["events"].items()))
    low, high = (fixed(v, places) for v in event["per_game_ci95"])
    assert f"| {name} | {fixed(event['per_game'], places)} [{low}, {high}] |" in summary
    assert "seat advantage: T²" in summary
    assert "\nverdict: " in summary and "\nrules fired " in summary
    # Each event's row ends with what one count of it is.
    from balancer.cli.events import event_meanings

    assert summary.count(f"| {event_meanings('fdc')[name]} |") == 1


def test_fixed_seats_with_different_bots_claim_no_seat_advantage(tmp_path: Path) -> None:
    """Heuristic always in seat 0: its edge is the bot's, so no seat-advantage p anywhere."""
    fixed = variant_file(tmp_path, "fdc-5p-vs-random.yaml", "seat_rotation: false\n")
    out = tmp_path / "r"
    assert main(["run", "-q", str(fixed), "-n", "40", "-o", str(out)]) == 0
    advantage = load_report(out)["seat_advantage"]
    assert advantage["p_value"] is None and advantage["statistic"] is None
    assert "confounded" in advantage["note"]
    summary = (out / "summary.md").read_text()
    assert "seat advantage: not tested (" in summary and "confounded" in summary
    # The verdict in words says why, and claims no edge for any seat.
    assert "verdict: seat and bot are confounded" in summary and "edge" not in summary
    page = (out / "report.html").read_text()
    assert "No seat-advantage test:" in page
    assert "Seat advantage: the seats" not in page and "No clear seat advantage" not in page
    report = Report.open(out)
    assert report.seat_advantage is not None and report.seat_advantage.p_value is None
    assert report.json_text() == (out / "report.json").read_text()  # null read back as null


@pytest.mark.parametrize(
    ("damage", "names"),
    [
        (lambda f: (f / "report.json").unlink(), "report.json"),
        (lambda f: (f / "games.parquet").unlink(), "games.parquet"),
        (lambda f: (f / "report.json").write_text('{"game": "fish-dash-'), "report.json"),
        (lambda f: _truncate(f / "games.parquet"), "games.parquet"),
        (lambda f: _edit_json(f, players=4), "report.json"),
        (lambda f: _edit_json(f, games=61), "games.parquet"),
        # Hand edits to what csv, replay and diff read: each named, key path too.
        (lambda f: _edit_report(f, lambda r: r["seats"][0].pop("score")), "seats[0].score"),
        (
            lambda f: _edit_report(f, lambda r: r["seats"][2]["score"].pop("q3")),
            "seats[2].score.q3",
        ),
        (lambda f: _edit_json(f, seats=[1, 2, 3, 4, 5]), "report.json: seats[0]"),
        (lambda f: _edit_report(f, lambda r: r["seats"][1].update(win_share=1.5)), "win_share"),
        (lambda f: _edit_report(f, lambda r: r["seats"][1].update(win_ci95=[0.1])), "win_ci95"),
        (lambda f: _edit_report(f, lambda r: r["seats"][0].update(bot=None)), "seats[0].bot"),
        (lambda f: _edit_report(f, lambda r: r["events"].update(steals={})), "events.steals"),
        (lambda f: _edit_report(f, lambda r: r["events"].update(steals=5)), "events.steals"),
        (
            lambda f: _edit_report(f, lambda r: r["events"]["steals"].update(per_game="x")),
            "events.steals.per_game",
        ),
        (lambda f: _edit_report(f, lambda r: r.pop("variant")), "report.json"),
        (lambda f: _edit_json(f, variant=[1]), "report.json: variant"),
        (lambda f: _edit_json(f, seed=-1), "report.json: seed"),
        (lambda f: _edit_text(f, '"seed": ', '"seed": 1' + "0" * 5000 + ', "s": '), "report.json"),
        (lambda f: _edit_text(f, '"mean": ', '"mean": Infinity, "x": '), "report.json"),
        (lambda f: _edit_games(f, "score_0", float("inf")), "games.parquet"),
        (lambda f: _edit_games(f, "ev_steals", float("-inf")), "games.parquet"),
        (lambda f: _edit_games(f, "win_1", 2.0), "games.parquet"),
        (lambda f: (f / "report.json").write_text("[" * 100_000), "report.json"),
    ],
)
@pytest.mark.parametrize("command", ["csv", "replay", "diff"])
def test_damaged_report_is_one_line_naming_the_file(
    fdc_report: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    damage: object,
    names: str,
    command: str,
) -> None:
    broken = tmp_path / "broken"
    shutil.copytree(fdc_report, broken)
    damage(broken)  # type: ignore[operator]
    args = {
        "csv": ["csv", str(broken), "-o", str(tmp_path / "csv")],
        "replay": ["replay", str(broken), "--game", "0"],
        "diff": ["diff", str(fdc_report), str(broken)],
    }[command]
    capsys.readouterr()
    assert main(args) == 2
    assert names in one_error_line(capsys)


def _truncate(path: Path) -> None:
    path.write_bytes(path.read_bytes()[:200])


def _edit_json(folder: Path, **changes: object) -> None:
    path = folder / "report.json"
    data = json.loads(path.read_text())
    data.update(changes)
    path.write_text(json.dumps(data))


def _edit_report(folder: Path, change: Callable[[dict], object]) -> None:
    path = folder / "report.json"
    data = json.loads(path.read_text())
    change(data)
    path.write_text(json.dumps(data))


def _edit_text(folder: Path, old: str, new: str) -> None:
    """Replace the first `old` in report.json's text (for what json.dumps won't write)."""
    path = folder / "report.json"
    path.write_text(path.read_text().replace(old, new, 1))


def _edit_games(folder: Path, column: str, value: float) -> None:
    """Set `column` of game 0 in games.parquet to `value`."""
    path = folder / "games.parquet"
    games = pl.read_parquet(path)
    changed = pl.when(pl.col("game") == 0).then(value).otherwise(pl.col(column))
    games.with_columns(changed.cast(pl.Float64).alias(column)).write_parquet(path)


def test_a_report_from_other_rules_says_so(
    fdc_report: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old = tmp_path / "old"
    shutil.copytree(fdc_report, old)
    _edit_json(old, rules_version=0, balancer_version="0.0.1")
    capsys.readouterr()
    # Edited by hand, the folder is no longer provably balancer's: the tables go elsewhere.
    assert main(["csv", str(old), "-o", str(tmp_path / "csv")]) == 0
    err = capsys.readouterr().err
    assert "rules version 0" in err and "balancer 0.0.1" in err


@pytest.mark.parametrize(
    ("name", "index"),
    [("fdc-5p-vs-random.yaml", 7), ("kk-4p.yaml", 3), ("dqz-4p-random.yaml", 2)],
)
def test_replay_is_the_game_the_run_played(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str, index: int
) -> None:
    out = tmp_path / "r"
    assert main(["run", "-q", str(VARIANTS / name), "-n", "10", "-s", "99", "-o", str(out)]) == 0
    row = pl.read_parquet(out / "games.parquet").row(index, named=True)
    capsys.readouterr()
    for source in (str(out), str(VARIANTS / name)):
        assert main(["replay", source, "--game", str(index), "--seed", "99"]) == 0
        text = capsys.readouterr().out
        players = load_report(out)["players"]
        scores = ", ".join(f"seat {s} {row[f'score_{s}']:g}" for s in range(players))
        assert f"scores: {scores}" in text
        assert f"length: {row['length']} " in text
        for key, value in row.items():
            if key.startswith("ev_"):
                assert f"{key[3:]} {value:g}" in text


def test_replay_for_one_seat_hides_the_other_hands(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(VARIANTS / "fdc-3p.yaml"), "--game", "0"]) == 0
    everything = capsys.readouterr().out
    assert "seat 1's hand" in everything and "seat 0's hand" in everything
    assert main(["replay", str(VARIANTS / "fdc-3p.yaml"), "--game", "0", "--seat", "0"]) == 0
    seat0 = capsys.readouterr().out
    assert "seat 0's hand" in seat0 and "seat 1's hand" not in seat0
    assert "seat 1 draws a card" in seat0


def _in_memory(path: Path, games: int, seed: int) -> Report:
    v = variant.load(path).with_overrides(games=games, seed=seed)
    return replace(from_run(runner.run(v)), folder=Path(v.name))


def test_a_large_rule_change_is_flagged() -> None:
    a = _in_memory(VARIANTS / "fdc-5p-random.yaml", 300, 5)
    no_neko = variant.load(VARIANTS / "fdc-5p-random.yaml").with_knobs({"neko_ni_koban": False})
    result = runner.run(no_neko.with_overrides(games=300, seed=5))
    b = replace(build.build_report(result, build.games_frame(result)), folder=Path("b"))
    table = diff.compare(a, b)
    assert table.paired
    flagged = {row.figure for row in table.rows if row.verdict == "changed"}
    assert any("neko_ni_koban" in figure for figure in flagged), flagged


def test_diff_runs_variant_files_first(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    no_neko = variant_file(
        tmp_path, "fdc-5p-random.yaml", "rules:\n  neko_ni_koban: false\n", name="no-neko.yaml"
    )
    args = ["diff", str(VARIANTS / "fdc-5p-random.yaml"), str(no_neko)]
    code = main([*args, "-n", "200", "-q", "--fail-on-change"])
    out = capsys.readouterr().out
    assert code == EXIT_CHANGED
    assert "paired" in out and "neko_ni_koban" in out
    scratch = tmp_path / "reports" / "diff" / "fdc-5p-random-vs-no-neko"
    assert (scratch / "a" / "report.json").is_file()
    assert (scratch / "b" / "report.json").is_file()
    # Without --fail-on-change a change is no failure. Asked of the two reports just
    # written (variant files are run into them, then diffed as these folders are) rather
    # than by playing both variants again.
    assert main(["diff", str(scratch / "a"), str(scratch / "b")]) == 0
    assert "neko_ni_koban" in capsys.readouterr().out


def test_sweep_writes_a_row_per_point_and_a_chart(tmp_path: Path) -> None:
    out = tmp_path / "sweep"
    args = ["sweep", str(VARIANTS / "kk-4p.yaml"), "-n", "40", "-q", "-o", str(out)]
    args += ["--set", "scoring.colour_bonus={1: 2, 2: 5},{1: 3, 2: 7},{1: 4, 2: 9}"]
    assert main(args) == 0
    table = pl.read_csv(out / "sweep.csv")
    assert table.height == 3
    assert table["colour_bonus"].to_list() == ["{1:2,2:5}", "{1:3,2:7}", "{1:4,2:9}"]
    named = {"margin.mean", "seat_win_share.0", "seat_win_share.0.ci95_low"}
    assert named | {"events.colour_bonus_1.per_game"} <= set(table.columns)
    assert table["seat_advantage.p_value"].is_between(0, 1).all()  # kk-4p rotates: a p-value
    assert (out / "sweep.svg").read_text().lstrip().startswith("<?xml")
    points = sorted(p for p in out.iterdir() if p.is_dir())
    assert len(points) == 3
    # Common seeds: every point dealt the same first theme, so per-point reports share a seed.
    seeds = {load_report(p)["seed"] for p in points}
    assert len(seeds) == 1


def test_sweep_rejects_a_bad_setting(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for setting in ("rules.no_such=1,2", "rules.rounds=3,zero", "colour_bonus"):
        args = ["sweep", str(VARIANTS / "kk-4p.yaml"), "-o", str(tmp_path / "s"), "--set", setting]
        assert main(args) == 2
        one_error_line(capsys)
    assert not (tmp_path / "s").exists()
