"""Writing a report (or sweep) folder: all or nothing, and only over balancer's own output.

The folder is written beside its final place and swapped in only when every
file is complete, so a failed or interrupted run leaves the previous report
as it was.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path

from balancer.errors import UserError

REPORT_JSON = "report.json"


def check_target(folder: Path, marker: str) -> None:
    """Refuse to replace anything but our own output, before any work is done.

    `folder` may be missing, an empty folder, or a folder holding `marker`
    (report.json for a report, sweep.csv for a sweep): anything else is the
    user's and is never replaced.
    """
    given = str(folder)
    if not given.strip():
        raise UserError("the output folder is an empty name", key="--out")
    path = Path(folder)
    if path.is_symlink():
        raise UserError("is a link; name the folder itself", file=given)
    resolved = path.resolve()
    if Path.cwd().resolve().is_relative_to(resolved):
        raise UserError("is the current folder or holds it; name a folder below it", file=given)
    if not path.exists():
        return
    if not path.is_dir():
        raise UserError(
            "exists and is not a folder; balancer only replaces its own output", file=given
        )
    if not (path / marker).is_file() and any(path.iterdir()):
        raise UserError(
            f"exists and holds no {marker}: it is not balancer's output, so it is left alone",
            file=given,
        )


def write_folder(folder: Path, fill: Callable[[Path], None], marker: str = REPORT_JSON) -> None:
    """Write a folder atomically: `fill(tmp)` writes the files, then tmp replaces `folder`.

    A failure or interrupt at any point leaves `folder` exactly as it was and
    removes the temporary folder. Only balancer's own output (see
    `check_target`) is ever replaced.
    """
    check_target(folder, marker)
    folder = Path(folder)
    parent = folder.resolve().parent
    name = folder.resolve().name
    try:
        parent.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(prefix=f".{name}.tmp-", dir=parent))
        # mkdtemp makes the folder private (0700); a report is as readable as any file.
        umask = os.umask(0)
        os.umask(umask)
        tmp.chmod(0o777 & ~umask)
    except OSError as exc:
        raise UserError(f"can't write here: {exc.strerror}", file=str(parent)) from None
    target = parent / name
    old = parent / f".{name}.old-{os.getpid()}"
    try:
        try:
            fill(tmp)
            if target.exists():
                os.rename(target, old)
                try:
                    os.rename(tmp, target)
                except BaseException:
                    os.rename(old, target)
                    raise
                shutil.rmtree(old, ignore_errors=True)
            else:
                os.rename(tmp, target)
        except OSError as exc:
            raise UserError(f"can't write: {exc.strerror}", file=str(folder)) from None
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
