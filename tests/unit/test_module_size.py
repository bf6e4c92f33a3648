"""No module of the library is over 800 lines (issue 38): past that a module holds
more than one job, and is split by job (as bots/host.py, kimekimera/engine.py and the
role kernel's interpreter.py were).
"""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LIMIT = 800


def lines_of(path: Path) -> int:
    return len(path.read_text(encoding="utf-8").splitlines())


def modules_over(root: Path, package: str, limit: int = LIMIT) -> dict[str, int]:
    """Each module under root/package longer than `limit` lines, by its path from root."""
    return {
        path.relative_to(root).as_posix(): size
        for path in sorted((root / package).rglob("*.py"))
        if (size := lines_of(path)) > limit
    }


def test_no_module_of_the_library_is_over_800_lines() -> None:
    over = modules_over(ROOT, "balancer")
    assert not over, f"split these by job (at most {LIMIT} lines each): {over}"


def test_the_count_sees_a_module_one_line_too_long(tmp_path: Path) -> None:
    """The control: the check above finds a module of 801 lines, and lets one of 800 be."""
    package = tmp_path / "pkg"
    (package / "inner").mkdir(parents=True)
    (package / "inner" / "long.py").write_text("x = 1\n" * (LIMIT + 1), encoding="utf-8")
    (package / "short.py").write_text("x = 1\n" * LIMIT, encoding="utf-8")
    assert modules_over(tmp_path, "pkg") == {"pkg/inner/long.py": LIMIT + 1}
