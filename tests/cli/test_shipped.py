"""The shipped variants are package data: found by name from any folder."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from balancer.cli import main
from balancer.config.shipped import find, shipped_dir
from tests.helpers import ROOT

pytestmark = pytest.mark.usefixtures("engine_unchecked")


def test_the_variants_are_inside_the_package_and_declared_as_its_data() -> None:
    import balancer

    assert shipped_dir() == Path(balancer.__file__).resolve().parent / "variants"
    assert len(list(shipped_dir().glob("*.yaml"))) >= 30
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert "variants/*.yaml" in config["tool"]["setuptools"]["package-data"]["balancer"]
    # The clone's variants/ is the same folder, so `balancer run variants/fdc-5p.yaml` works.
    assert (ROOT / "variants").resolve() == shipped_dir()


def test_a_bare_name_finds_a_shipped_variant_unless_a_file_is_in_the_way(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    assert find("fdc-5p") == shipped_dir() / "fdc-5p.yaml"
    assert find("fdc-5p.yaml") == shipped_dir() / "fdc-5p.yaml"
    assert find("no-such-variant") is None
    assert find("sub/fdc-5p.yaml") is None  # a path is a path
    (tmp_path / "fdc-5p.yaml").write_text("mine\n")
    assert find("fdc-5p.yaml") is None  # the user's file wins


def test_variants_and_run_by_name_work_from_any_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["variants"]) == 0
    assert "fdc-5p " in capsys.readouterr().out
    assert main(["run", "fdc-3p", "-n", "10", "-q"]) == 0
    assert (tmp_path / "reports" / "fdc-3p" / "report.json").is_file()
    assert main(["validate", "kk-4p"]) == 0
    assert main(["run", "no-such-variant", "-n", "10", "-q"]) == 2


def test_a_built_package_would_carry_every_shipped_variant(tmp_path: Path) -> None:
    """What setuptools' build_py puts beside the modules in a wheel (the package data),
    read from pyproject.toml on a copy of the project: no build, no network.

    The control is a copy without the package-data table: then no variant goes in,
    the way `balancer variants` once failed outside the clone.
    """
    import os
    import shutil
    import warnings

    setuptools_config = pytest.importorskip("setuptools.config.pyprojecttoml")
    from setuptools.dist import Distribution

    def packaged_yaml(pyproject_text: str, into: Path) -> set[str]:
        shutil.copytree(
            ROOT / "balancer", into / "balancer", ignore=shutil.ignore_patterns("__pycache__")
        )
        (into / "pyproject.toml").write_text(pyproject_text)
        (into / "README.md").write_text("readme\n")
        here = Path.cwd()
        os.chdir(into)  # setuptools reads the project from the working directory
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                dist = Distribution()
                dist.script_name = "setup.py"
                setuptools_config.apply_configuration(dist, "pyproject.toml")
                build_py = dist.get_command_obj("build_py")
                build_py.ensure_finalized()
                return {
                    Path(package.replace(".", "/"), name).as_posix()
                    for package, _, _, names in build_py.data_files
                    for name in names
                    if name.endswith(".yaml")
                }
        finally:
            os.chdir(here)

    config = (ROOT / "pyproject.toml").read_text()
    shipped = {f"balancer/variants/{p.name}" for p in shipped_dir().glob("*.yaml")}
    game_files = ROOT / "balancer" / "games" / "roles" / "shipped"
    shipped |= {f"balancer/games/roles/shipped/{p.name}" for p in game_files.glob("*.yaml")}
    (tmp_path / "with").mkdir()
    assert packaged_yaml(config, tmp_path / "with") == shipped
    table = (
        "[tool.setuptools.package-data]\n"
        'balancer = ["variants/*.yaml", "docs/*.md", "docs/games/*.md"]\n'
        '"balancer.games.roles" = ["shipped/*.yaml"]\n'
    )
    assert table in config
    (tmp_path / "without").mkdir()
    assert packaged_yaml(config.replace(table, ""), tmp_path / "without") == set()
