"""A designer's first commands from an empty folder, against balancer as a wheel lays it out.

The package is built once per module with setuptools' build_py from a copy of
the checkout (what a wheel holds: the modules and the package data
pyproject.toml declares, links followed, nothing else of the clone), and run
with only that on the path: no docs/ or variants/ of the clone to lean on,
no editable install. Kernels play as plain Python (BALANCER_JIT=0) on a few
games, so nothing compiles: every test here takes a second or two.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.helpers import ROOT, SAFETY_TIMEOUT

Run = Callable[..., subprocess.CompletedProcess[str]]


def build_package(into: Path) -> Path:
    """The folder an install of this checkout would put on sys.path (holding balancer/)."""
    source = into / "source"
    source.mkdir()
    caches = shutil.ignore_patterns("__pycache__", "*.pyc", "*.nbi", "*.nbc")
    # symlinks=True: balancer/docs stays the link it is in the clone, as pip sees it.
    shutil.copytree(ROOT / "balancer", source / "balancer", symlinks=True, ignore=caches)
    shutil.copytree(ROOT / "docs", source / "docs", ignore=caches)
    for name in ("pyproject.toml", "README.md"):
        shutil.copyfile(ROOT / name, source / name)
    site = into / "site"
    subprocess.run(
        [sys.executable, "-c", "import setuptools; setuptools.setup()", "-q", "build_py"]
        + ["--build-lib", str(site)],
        cwd=source,
        check=True,
        capture_output=True,
        timeout=SAFETY_TIMEOUT,
    )
    shutil.rmtree(source)  # nothing of the checkout is left to find
    return site


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_package(tmp_path_factory.mktemp("installed"))


@pytest.fixture()
def run(site: Path, tmp_path: Path) -> Run:
    """`python -m balancer ARGS` in an empty folder, seeing only the built package."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("BALANCER_", "PYTHON"))}
    env.update(PYTHONPATH=str(site), BALANCER_JIT="0", NO_COLOR="1", PYTHONSAFEPATH="1")
    folder = tmp_path / "empty"
    folder.mkdir()

    def balancer(*args: str, code: int = 0) -> subprocess.CompletedProcess[str]:
        done = subprocess.run(
            [sys.executable, "-m", "balancer", *args],
            cwd=folder,
            env=env,
            capture_output=True,
            text=True,
            timeout=SAFETY_TIMEOUT,
        )
        assert done.returncode == code, (args, done.stdout[-2000:], done.stderr[-2000:])
        return done

    balancer.folder = folder  # type: ignore[attr-defined]
    return balancer


def test_the_package_runs_from_its_build_not_the_checkout(site: Path, run: Run) -> None:
    # The control of every test below: they see the built package, never this clone.
    where = subprocess.run(
        [sys.executable, "-c", "import balancer; print(balancer.__file__)"],
        cwd=run.folder,  # type: ignore[attr-defined]
        env={**os.environ, "PYTHONPATH": str(site), "PYTHONSAFEPATH": "1"},
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    assert Path(where).parent == site / "balancer"
    installed = site / "balancer" / "docs"
    assert not installed.is_symlink()  # the pages themselves, copied
    # Every page of the clone: what tests/cli/test_pointers.py resolves pointers against.
    pages = {p.relative_to(ROOT / "docs") for p in (ROOT / "docs").rglob("*.md")}
    assert {p.relative_to(installed) for p in installed.rglob("*.md")} == pages


def test_the_readme_getting_started_diff_from_an_empty_folder(run: Run) -> None:
    run("init", "fdc", "my-fdc.yaml")
    mine = run.folder / "my-fdc.yaml"  # type: ignore[attr-defined]
    text = mine.read_text(encoding="utf-8")
    assert "  neko_ni_koban: true\n" in text
    mine.write_text(text.replace("  neko_ni_koban: true\n", "  neko_ni_koban: false\n"))
    done = run("diff", "fdc-4p", "my-fdc.yaml", "-n", "20", "-w", "1", "-q")
    assert "rules.neko_ni_koban: true → false" in done.stdout
    assert "paired: same seed and games" in done.stdout


@pytest.mark.parametrize("variant", ["fdc-4p", "mega-racer-4p"])
def test_replay_takes_a_shipped_variant_name(run: Run, variant: str) -> None:
    done = run("replay", variant, "--game", "0")
    assert done.stdout.startswith(f"{variant}: game 0 of seed ")


def test_extends_finds_a_shipped_base_by_name_from_any_folder(run: Run) -> None:
    folder: Path = run.folder  # type: ignore[attr-defined]
    (folder / "mine.yaml").write_text("extends: fdc-base.yaml\nplayers: 3\n")
    shown = run("show", "mine.yaml").stdout
    assert "game: fish-dash-cash" in shown and "players: 3" in shown
    # A file of that name beside the child comes first: the name falls back, never shadows.
    (folder / "fdc-base.yaml").write_text("game: kk\nplayers: 2\nbots: random\n")
    assert "game: kimekimera" in run("show", "mine.yaml").stdout
    (folder / "other.yaml").write_text("extends: fdc-bass.yaml\nplayers: 3\n")
    refused = run("show", "other.yaml", code=2)
    assert refused.stderr.count("\n") == 1, refused.stderr
    assert "other.yaml:1: extends: no such variant file 'fdc-bass.yaml'" in refused.stderr


def test_csv_of_a_shipped_name_reads_the_report_run_wrote(run: Run) -> None:
    told = run("csv", "fdc-3p", code=2)
    assert "fdc-3p is a shipped variant, not a report: `balancer run fdc-3p`" in told.stderr
    assert told.stderr.count("\n") == 1, told.stderr
    run("run", "fdc-3p", "-n", "20", "-w", "1", "-q")
    done = run("csv", "fdc-3p")
    assert str(Path("reports") / "fdc-3p" / "games.csv") in done.stdout.split("\n")


def test_docs_prints_the_installed_pages(run: Run) -> None:
    listed = run("docs").stdout
    for page in ("rules", "new-game", "figures-and-outputs", "statistics"):
        assert f"\n{page} " in f"\n{listed}", page
    assert run("docs", "rules", "4").stdout.startswith("## 4. The `random` bot\n")
    assert run("docs", "mega-racer").stdout.startswith("# MEGA RACER")
