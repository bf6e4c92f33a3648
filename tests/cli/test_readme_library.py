"""The README's library example runs as written from an empty folder, and pairs its comparison."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from tests.helpers import ROOT, SAFETY_TIMEOUT


def library_example() -> str:
    """The README's first Python block under "## The library", as a reader would copy it."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("## The library") :]
    found = re.search(r"```python\n(.*?)```", section, re.S)
    assert found is not None, "no ```python block under ## The library"
    return found.group(1)


def test_the_library_example_runs_verbatim_from_an_empty_folder(tmp_path: Path) -> None:
    code = library_example()
    assert 'load_variant("fdc-5p"' in code  # a shipped name, not a path into the clone
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONSAFEPATH": "1"}
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=SAFETY_TIMEOUT,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    share, paired_and_changed = done.stdout.strip().split("\n")
    assert share.startswith("0.") and "Interval(low=" in share
    # Paired: both runs were played from one seed and game count, as the comment says.
    assert paired_and_changed.split()[0] == "True"
    assert (tmp_path / "reports" / "fdc-5p-no-neko" / "report.json").is_file()
