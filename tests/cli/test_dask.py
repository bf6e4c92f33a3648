"""--backend dask: the same report as a local run, a lost worker's chunk played again,
and a worker without a plugin module named in one line."""

from __future__ import annotations

import json
import sys
import types
from collections.abc import Iterator
from pathlib import Path

import pytest

import balancer
from balancer.cli import main
from tests.plugins import FirstLegal

distributed = pytest.importorskip("distributed")

VARIANTS = Path(__file__).parents[2] / "variants"


@pytest.fixture(scope="module")
def scheduler() -> Iterator[str]:
    """A LocalCluster of 2 worker processes on 127.0.0.1, for the module's tests."""
    cluster = distributed.LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=True,
        host="127.0.0.1",
        dashboard_address=None,
        scheduler_kwargs={"dashboard_address": "127.0.0.1:0"},
    )
    try:
        yield cluster.scheduler_address
    finally:
        cluster.close()


def test_a_cluster_gives_the_local_report(scheduler: str) -> None:
    variant = balancer.load_variant(VARIANTS / "fdc-5p-vs-random.yaml", games=120, seed=3)
    seen = []
    on_cluster = balancer.run(variant, backend="dask", scheduler=scheduler, progress=seen.append)
    here = balancer.run(variant, workers=1)
    assert on_cluster.to_json() == here.to_json()
    # How the games played, counted on the workers and merged here, is part of it.
    assert on_cluster.how_it_plays is not None
    assert sum(seen) == 120 and len(seen) > 1  # the progress follows the tasks


def test_run_backend_dask_starts_and_stops_its_own_cluster(tmp_path: Path) -> None:
    variant = str(VARIANTS / "kk-4p.yaml")
    assert main(["run", "-q", variant, "-n", "60", "-w", "2", "--backend", "dask",
                 "-o", str(tmp_path / "d")]) == 0  # fmt: skip
    assert main(["run", "-q", variant, "-n", "60", "-w", "1", "-o", str(tmp_path / "l")]) == 0
    d = json.loads((tmp_path / "d" / "report.json").read_text())
    assert d == json.loads((tmp_path / "l" / "report.json").read_text())


def test_a_lost_workers_chunk_is_played_again(scheduler: str, tmp_path: Path) -> None:
    """DiesOnce kills the first worker process that builds it; the cluster
    replaces the worker and plays the chunk again, with the same result."""
    path = tmp_path / "v.yaml"
    marker = tmp_path / "died"
    dies_once = f"{{bot: 'tests.plugins:DiesOnce', params: {{marker: '{marker}'}}}}"
    path.write_text(
        f"extends: {VARIANTS / 'fdc-base.yaml'}\nplayers: 3\nseats: [random, {dies_once}, random]\n"
    )
    variant = balancer.load_variant(path, games=40, seed=5)
    on_cluster = balancer.run(variant, backend="dask", scheduler=scheduler)
    assert marker.exists()  # a worker did die
    assert on_cluster.to_json() == balancer.run(variant, workers=1).to_json()


@pytest.fixture
def parent_only_plugin() -> Iterator[str]:
    """A plugin module that exists in this process only, never on a worker."""
    name = "balancer_test_parent_only_plugin"
    module = types.ModuleType(name)
    module.FirstLegal = FirstLegal  # type: ignore[attr-defined]
    sys.modules[name] = module
    yield name
    del sys.modules[name]


def test_a_plugin_missing_on_a_worker_is_one_line_naming_module_and_worker(
    scheduler: str,
    parent_only_plugin: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = tmp_path / "v.yaml"
    path.write_text(
        f"extends: {VARIANTS / 'fdc-base.yaml'}\nplayers: 3\n"
        f"seats: [random, '{parent_only_plugin}:FirstLegal', random]\n"
    )
    out = tmp_path / "r"
    args = ["run", "-q", str(path), "-n", "6", "-o", str(out)]
    code = main([*args, "--backend", "dask", "--scheduler", scheduler])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2
    assert len(err) == 1, err
    for part in (f"plugin module '{parent_only_plugin}'", "Dask worker tcp://127.0.0.1:"):
        assert part in err[0], err[0]
    assert not out.exists()


def test_an_unreachable_scheduler_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # distributed's Client would retry a refused connection until its timeout: the run
    # must say so before the Client is ever made (so no timeout is waited here).
    def no_client(*_: object, **__: object) -> None:
        raise AssertionError("a Client was made for a refused address")

    monkeypatch.setattr("distributed.Client", no_client)
    args = ["run", "-q", str(VARIANTS / "kk-4p.yaml"), "-n", "6", "-o", str(tmp_path / "r")]
    # Port 1 on the loopback: nothing listens, the connection is refused at once.
    code = main([*args, "--backend", "dask", "--scheduler", "tcp://127.0.0.1:1"])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2
    assert len(err) == 1 and "can't reach a Dask scheduler at tcp://127.0.0.1:1" in err[0], err


SHIPPED_RACE = Path(balancer.__file__).parent / "games" / "roles" / "shipped" / "mega-racer.yaml"


def _designer_race(folder: Path, name: str, goal: int) -> Path:
    """A designer's own game file (mega-racer under a new name and goal) and a variant
    that plays it: a game only this process has read, never a worker."""
    text = SHIPPED_RACE.read_text(encoding="utf-8")
    text = text.replace("name: mega-racer", f"name: {name}").replace("short: mr", f"short: {name}")
    assert "    default: 8\n" in text
    (folder / "race.yaml").write_text(text.replace("    default: 8\n", f"    default: {goal}\n"))
    variant = folder / "v.yaml"
    variant.write_text("game: ./race.yaml\nplayers: 3\nbots: random\ngames: 90\nseed: 11\n")
    return variant


def test_a_designers_game_file_plays_on_the_cluster_as_here(scheduler: str, tmp_path: Path) -> None:
    """The workers (spawned, not forked) have never seen the file: the run hands them
    the validated game. A second run after the designer edits the file (a new goal)
    plays the edited game on the same workers, not the one they learnt first."""
    from balancer import games

    for goal in (8, 5):
        variant_file = _designer_race(tmp_path, "dask-race", goal)
        try:
            variant = balancer.load_variant(variant_file)
            on_cluster = balancer.run(variant, backend="dask", scheduler=scheduler)
            here = balancer.run(variant, workers=1)
        finally:
            games.unregister("dask-race")
        assert on_cluster.to_json() == here.to_json()
        lengths = here.to_json()["length"]["mean"]
        if goal == 8:
            long_race = lengths
    assert lengths < long_race  # the edit reached the workers: a nearer goal, shorter races
