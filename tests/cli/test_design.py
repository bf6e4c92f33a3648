"""`balancer design`: an answer known by the rules, a study continued and one killed
mid-trial and continued, folders that are not its own left alone, and the same answer on
a Dask cluster as on one machine."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path
from urllib.parse import quote

import pytest

from balancer.analysis import design_study
from balancer.cli import main
from balancer.sim.runner import CHECK_ENV
from tests.helpers import VARIANTS, Processes, one_error_line

KK4 = str(VARIANTS / "kk-4p.yaml")
# Kimekimera lasts `rounds` rounds (RULES.md): the length is known in every game.
SEARCH = [KK4, "--knob", "rounds=4..5", "--goal", "length.mean=5", "-n", "30", "-q", "-w", "1"]


@pytest.fixture(autouse=True)
def compiled_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(CHECK_ENV, raising=False)


def answer_of(folder: Path) -> dict:
    return json.loads((folder / "design.json").read_text(encoding="utf-8"))


def study_trials(folder: Path) -> list:
    import optuna

    study = optuna.load_study(
        study_name=design_study.STUDY_NAME, storage=f"sqlite:///{folder / design_study.STUDY_DB}"
    )
    return study.get_trials()


def test_a_length_known_by_the_rules_is_the_answer(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "d"
    assert main(["design", *SEARCH, "--trials", "8", "--finalists", "2", "-o", str(out)]) == 0
    said = capsys.readouterr().out
    assert "best: rounds=5" in said
    found = answer_of(out)
    assert found["answer"] == "best" and found["settings"][0]["point"] == {"rounds": 5}
    assert found["settings"][0]["goals"]["length.mean=5"]["interval"] == [5.0, 5.0]
    # Every trial and finalist is a report folder a designer can open, linked from the page.
    page = (out / "design.html").read_text(encoding="utf-8")
    for trial in found["trials"]:
        assert (out / trial["folder"] / "report.json").is_file()
        assert f"{quote(trial['folder'])}/report.html" in page
    for finalist in found["finalists"]:
        assert (out / finalist["folder"] / "report.html").is_file()
    assert (out / "design.csv").read_text().startswith("trial,rounds,length.mean,")


def test_a_study_is_continued_not_replayed(tmp_path: Path) -> None:
    out = tmp_path / "d"
    assert main(["design", *SEARCH, "--trials", "3", "-o", str(out)]) == 0
    first = {p.name: p.stat().st_mtime_ns for p in (out / "trials").iterdir()}
    assert main(["design", *SEARCH, "--trials", "6", "-o", str(out)]) == 0
    done = [t for t in study_trials(out) if t.state.name == "COMPLETE"]
    assert len(done) == 6
    # The first run's trial reports are kept as they were, not played again.
    assert {n: t for n, t in ((p.name, p.stat().st_mtime_ns) for p in (out / "trials").iterdir())
            if n in first} == first  # fmt: skip


def test_a_killed_search_loses_only_the_trial_in_flight(tmp_path: Path) -> None:
    out = tmp_path / "d"
    # Not quiet: the search says "trial N: ..." on stderr as each new trial begins.
    args = [sys.executable, "-m", "balancer", "design", KK4, "--knob", "rounds=1..20",
            "--goal", "length.mean=7", "-n", "3000", "--trials", "40", "-w", "1",
            "-o", str(out)]  # fmt: skip
    env = {**os.environ, CHECK_ENV: "0"}
    search = subprocess.Popen(
        args, env=env, start_new_session=True, stderr=subprocess.PIPE, text=True
    )
    assert search.stderr is not None
    begun = 0
    try:
        # Killed when the second trial begins (the first was stored before it began):
        # each line is read as the search writes it, no clock involved.
        for line in search.stderr:
            begun += line.startswith("trial ")
            if begun == 2:
                break
        assert begun == 2, "the search ended before its second trial began"
        os.killpg(search.pid, signal.SIGKILL)
    finally:
        search.wait()
        search.stderr.close()
    stored = [t for t in study_trials(out) if t.state.name == "COMPLETE"]
    assert stored, "the search was killed before it finished a trial"
    kept = {t.number: t.user_attrs["folder"] for t in stored}
    resumed = ["design", KK4, "--knob", "rounds=1..20", "--goal", "length.mean=7", "-n", "3000",
               "--trials", str(len(stored) + 1), "-q", "-w", "1", "-o", str(out)]  # fmt: skip
    assert main(resumed) == 0
    after = study_trials(out)
    assert not [t for t in after if t.state.name == "RUNNING"]
    assert len([t for t in after if t.state.name == "COMPLETE"]) == len(stored) + 1
    for folder in kept.values():
        assert (out / folder / "report.json").is_file()
    assert not [p for p in (out / "trials").iterdir() if p.name.startswith(".")]


def test_another_setup_or_a_users_folder_is_left_alone(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "d"
    assert main(["design", *SEARCH, "--trials", "2", "-o", str(out)]) == 0
    capsys.readouterr()
    other = [KK4, "--knob", "rounds=4..5", "--goal", "length.mean=4", "-n", "30", "-q"]
    assert main(["design", *other, "--trials", "2", "-o", str(out)]) == 2
    assert "another setup" in one_error_line(capsys)
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "notes.txt").write_text("keep me")
    assert main(["design", *SEARCH, "--trials", "2", "-o", str(mine)]) == 2
    assert "left alone" in one_error_line(capsys)
    assert [p.name for p in mine.iterdir()] == ["notes.txt"]


def test_a_cluster_gives_the_same_answer(tmp_path: Path) -> None:
    distributed = pytest.importorskip("distributed")
    cluster = distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
        dashboard_address=None, scheduler_kwargs={"dashboard_address": "127.0.0.1:0"},
    )  # fmt: skip
    search = [KK4, "--knob", "rounds=2..6", "--knob", "free_chimeras=3..4", "--goal",
              "length.mean=4", "--goal", "seat_win_share.spread min", "-n", "60", "-q",
              "--trials", "6", "--finalists", "3"]  # fmt: skip
    try:
        here, there = tmp_path / "here", tmp_path / "there"
        assert main(["design", *search, "-w", "1", "-o", str(here)]) == 0
        on_cluster = ["--backend", "dask", "--scheduler", cluster.scheduler_address]
        assert main(["design", *search, *on_cluster, "-o", str(there)]) == 0
    finally:
        cluster.close()
    assert answer_of(here) == answer_of(there)


def test_a_cluster_of_separate_processes_gives_the_same_answer(
    tmp_path: Path, processes: Processes
) -> None:
    """A scheduler and a worker started as processes of their own (as on real machines)."""
    distributed = pytest.importorskip("distributed")
    import socket

    with socket.socket() as probe:  # a free port for the scheduler
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    address = f"tcp://127.0.0.1:{port}"
    dask = str(Path(sys.executable).with_name("dask"))
    processes.start([dask, "scheduler", "--host", "127.0.0.1", "--port", str(port),
                     "--no-dashboard"])  # fmt: skip
    processes.start([dask, "worker", address, "--nworkers", "1", "--nthreads", "1",
                     "--no-dashboard"])  # fmt: skip
    with distributed.Client(address, timeout=120) as client:
        client.wait_for_workers(1, timeout=120)
    search = [KK4, "--knob", "rounds=2..6", "--goal", "length.mean=4", "--goal",
              "seat_win_share.spread min", "-n", "60", "-q", "--trials", "4",
              "--finalists", "2"]  # fmt: skip
    here, there = tmp_path / "here", tmp_path / "there"
    assert main(["design", *search, "-w", "1", "-o", str(here)]) == 0
    assert main(["design", *search, "--backend", "dask", "--scheduler", address,
                 "-o", str(there)]) == 0  # fmt: skip
    assert answer_of(here) == answer_of(there)


def test_unplayable_settings_are_steered_away_from_not_the_end(tmp_path: Path) -> None:
    # 24 cards (numbers 1..4) can't deal 7 to each of 4 players: half the space is
    # unplayable. The search goes on; no unplayable setting is a trial or a finalist.
    variant = tmp_path / "mr.yaml"
    variant.write_text("game: mega-racer\nplayers: 4\nbots: random\n")
    small = "{colours: [red, blue], roles: [speed, accident, block], numbers: [1, 4], copies: 1}"
    out = tmp_path / "d"
    args = ["design", str(variant), "--knob", "hand_size=4..7", "--knob", f"deck={small}",
            "--goal", "length.mean=5", "-n", "40", "--trials", "6", "--finalists", "2",
            "-q", "-w", "1", "-o", str(out)]  # fmt: skip
    assert main(args) == 0
    found = answer_of(out)
    assert len(found["trials"]) == 6
    assert all(t["point"]["hand_size"] <= 6 for t in found["trials"] + found["finalists"])
    told = [t for t in study_trials(out) if "unplayable" in t.user_attrs]
    assert all(t.params["hand_size"] == 3 for t in told)  # index 3: hand_size=7
