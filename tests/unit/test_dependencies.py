"""Every library balancer imports is one pyproject.toml declares, and nothing more is declared.

A library imported but not declared breaks `pip install` on a clean machine; one
declared but not imported (matplotlib, once the charts became the SVG kit's) is
minutes of install and megabytes for nothing. Imports inside functions count
(a lazy import is still a dependency).
"""

from __future__ import annotations

import ast
import re
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# Distribution names whose import name differs.
IMPORT_NAME = {"pyyaml": "yaml", "dask": "distributed"}


def imported_libraries(package: Path) -> set[str]:
    """Top-level names of the third-party modules imported anywhere under `package`."""
    found: set[str] = set()
    for path in package.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                found |= {alias.name.split(".")[0] for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                found.add(node.module.split(".")[0])
    return {name for name in found if name not in sys.stdlib_module_names} - {package.name}


def declared_libraries(pyproject: dict) -> set[str]:
    """Import names of the run-time dependencies and the optional extras but the tools'
    (`dev`, `mutate`: test and mutation tools, never imported by balancer)."""
    project = pyproject["project"]
    specs = list(project["dependencies"])
    for extra, more in project.get("optional-dependencies", {}).items():
        if extra not in ("dev", "mutate"):
            specs += more
    names = {re.match(r"[A-Za-z0-9_.\-]+", spec).group(0).lower() for spec in specs}  # type: ignore[union-attr]
    return {IMPORT_NAME.get(name, name) for name in names}


def test_the_imports_are_the_declared_dependencies() -> None:
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert imported_libraries(ROOT / "balancer") == declared_libraries(pyproject)
    assert "matplotlib" not in declared_libraries(pyproject)


def test_the_check_sees_an_undeclared_import_and_an_unused_dependency(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    package.mkdir()
    source = "import os\nfrom pkg import b\n\ndef f():\n    import matplotlib.pyplot\n"
    (package / "a.py").write_text(source)
    assert imported_libraries(package) == {"matplotlib"}
    pyproject = {"project": {"dependencies": ["PyYAML>=6", "numpy>=1.26"]}}
    assert declared_libraries(pyproject) == {"yaml", "numpy"}
