"""balancer run --json: one JSON list on stdout, a summary per variant, nothing else there."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from balancer.cli import main
from tests.helpers import VARIANTS

# About reports, the command line and diffs, not the engine: runs play as a user's do
# (compiled where they can), not step by step as the suite's forced --check would.
pytestmark = pytest.mark.usefixtures("engine_unchecked")


def test_run_json_prints_only_the_summaries(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    args = ["run", str(VARIANTS / "fdc-3p.yaml"), str(VARIANTS / "kk-2p.yaml"), "-n", "12"]
    assert main([*args, "--json"]) == 0
    out, err = capsys.readouterr()
    summaries = json.loads(out)  # the whole of stdout is the document
    assert [s["name"] for s in summaries] == ["fdc-3p", "kk-2p"]
    for summary in summaries:
        folder = tmp_path / summary["folder"]
        report = json.loads((folder / "report.json").read_text())
        for key in ("game", "players", "games", "seed", "seats", "events", "margin"):
            assert summary[key] == report[key], key
        assert summary["games"] == 12
    assert summaries[0]["folder"] == str(Path("reports") / "fdc-3p")
    # The headline and the "report:" line are for people; stderr has only the start lines.
    assert "report:" not in out and "report:" not in err
    assert err.count("balancer: playing 12 games") == 2


def test_run_json_with_a_mistake_prints_no_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["run", "--json", str(tmp_path / "nope.yaml")]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1


def test_workers_default_to_every_core(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import click

    from balancer.cli import cli
    from balancer.sim.backends.local import available_cores

    for name in ("run", "diff", "sweep"):
        command = cli.get_command(click.Context(cli), name)
        assert command is not None, name
        [workers] = [p for p in command.params if p.name == "workers"]
        assert workers.default == "auto", name
    cores = available_cores()
    args = ["run", str(VARIANTS / "fdc-3p.yaml"), "-n", "40", "-o", str(tmp_path / "r")]
    assert main(args) == 0
    on = f"{cores} worker" + ("s" if cores != 1 else "")
    assert capsys.readouterr().err == f"balancer: playing 40 games of fdc-3p on {on}\n"
