"""Writing a report (or sweep, or CSV) folder: all or nothing, and only over balancer's own.

Ownership is proved, not guessed: every folder balancer writes holds a
manifest (`MANIFEST`) listing every file in it with its size and SHA-256. A
folder is replaced only when it is missing, empty, or holds exactly what its
manifest lists (nothing added, removed, changed, linked or write-protected);
anything else is the user's and is refused before any game is played.

A run holds a lock (`flock` on a file beside the folder) from the check to the
swap, so a second run onto the same folder is refused rather than both
"succeeding"; the lock dies with its process, so a killed run never blocks
the next one, which also removes the killed run's temporary folders.

The folder is written beside its final place and swapped in only when every
file is complete, so a failed or interrupted run leaves the previous report
as it was. The swap is one step where the system has one (Linux's renameat2
with RENAME_EXCHANGE: the new folder and the old trade places, and the old is
then removed), so there is no moment without a folder at the name; elsewhere
it is two renames (the old folder aside as `.NAME.old-PID`, the new one in),
and a run killed between them leaves the old folder aside and nothing at the
name: whoever next reads or writes there puts it back (`restore_interrupted`).
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import hashlib
import json
import os
import re
import shutil
import stat
import sys
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from balancer.errors import UserError

REPORT_JSON = "report.json"
MANIFEST = ".balancer-manifest.json"
MANIFEST_FORMAT = 1
# A manifest is a few lines per file; a bigger one is not ours.
MAX_MANIFEST_BYTES = 16 * 1024 * 1024
# The longest name one path component may have; an output folder's own name
# leaves room for the lock and temporary names written beside it.
MAX_NAME_BYTES = 255
MAX_FOLDER_NAME_BYTES = MAX_NAME_BYTES - len(".tmp-XXXXXXXX.")


_RUST_OS_ERROR = re.compile(r"\(os error (\d+)\)")


def _os_error_code(exc: Exception) -> int | None:
    """The errno a Rust library's error names ("... (os error 28)"), if it names one."""
    found = _RUST_OS_ERROR.search(str(exc))
    return int(found.group(1)) if found else None


def _clip_path(text: str, limit: int = 120) -> str:
    return text if len(text) <= limit else f"{text[:60]}...{text[-50:]}"


def _oserror(exc: OSError, file: str) -> UserError:
    """An OSError as one line with its reason (a full disk says "No space left on device").

    polars raises OSError with no errno, its text ending "(os error 28)": the
    system's words for that code are said alone, as for Python's own OSError.
    """
    code = exc.errno if exc.strerror else _os_error_code(exc)
    reason = exc.strerror or (os.strerror(code) if code is not None else str(exc))
    return UserError(f"can't write: {reason}", file=file)


@dataclass(frozen=True)
class Place:
    """Where a folder goes: its real parent (links resolved) and its own name (never a link)."""

    given: str
    parent: Path
    name: str

    @property
    def target(self) -> Path:
        return self.parent / self.name

    @property
    def lock(self) -> Path:
        return self.parent / f".{self.name}.lock"

    def leftovers(self) -> list[Path]:
        """Temporary folders of an earlier run onto this place (killed before it cleaned up)."""
        try:
            entries = list(self.parent.iterdir())
        except OSError:
            return []
        prefixes = (f".{self.name}.tmp-", f".{self.name}.old-")
        return [p for p in entries if p.name.startswith(prefixes) and _is_real_dir(p)]


def _is_real_dir(path: Path) -> bool:
    try:
        return stat.S_ISDIR(os.lstat(path).st_mode)
    except OSError:
        return False


def place_of(folder: str | Path) -> Place:
    """Resolve where `folder` is, refusing what balancer must never write to."""
    given = str(folder)
    if not given.strip():
        raise UserError("the output folder is an empty name", key="--out")
    if "\x00" in given:
        raise UserError("the output folder's name holds a NUL byte", key="--out")
    absolute = Path(os.path.abspath(given))
    if not absolute.name:
        raise UserError("is the root folder, which holds the current folder", file=given)
    longest = max(len(os.fsencode(part)) for part in absolute.parts)
    if len(os.fsencode(absolute.name)) > MAX_FOLDER_NAME_BYTES or longest > MAX_NAME_BYTES:
        # Beside the folder go `.NAME.lock` and `.NAME.tmp-XXXXXXXX`: those must fit too.
        raise UserError(
            f"the name is too long for the file system (an output folder's name holds at "
            f"most {MAX_FOLDER_NAME_BYTES} bytes)",
            file=_clip_path(given),
        )
    try:
        parent = absolute.parent.resolve(strict=False)
        cwd = Path.cwd().resolve()
    except RuntimeError:  # a loop of symbolic links
        raise UserError("lies under a loop of symbolic links", file=given) from None
    except OSError as exc:
        raise _oserror(exc, given) from None
    place = Place(given, parent, absolute.name)
    target = place.target
    if cwd.is_relative_to(target) or cwd.is_relative_to(absolute):
        raise UserError("is the current folder or holds it; name a folder below it", file=given)
    return place


def check_target(folder: str | Path, marker: str = REPORT_JSON) -> Place:
    """Refuse to replace anything but balancer's own output, before any work is done.

    `folder` may be missing, an empty writable folder, or a folder holding
    exactly what its manifest lists (and the manifest names `marker`).
    Anything else is refused with one line and left untouched.
    """
    place = place_of(folder)
    given, target = place.given, place.target
    try:
        info = os.lstat(target)
    except FileNotFoundError:
        return place
    except OSError as exc:
        if exc.errno == errno.ENAMETOOLONG:
            raise UserError("the name is too long for the file system", file=given) from None
        if exc.errno == errno.ELOOP:
            raise UserError("lies under a loop of symbolic links", file=given) from None
        raise _oserror(exc, given) from None
    if stat.S_ISLNK(info.st_mode):
        raise UserError("is a link; name the folder itself", file=given)
    if not stat.S_ISDIR(info.st_mode):
        raise UserError(
            f"exists and is {_kind(info.st_mode)}; balancer only replaces its own output",
            file=given,
        )
    if not info.st_mode & stat.S_IWUSR or not os.access(target, os.W_OK | os.X_OK):
        raise UserError("is write-protected, so it is left alone", file=given)
    try:
        entries = sorted(_walk(target))
    except OSError as exc:
        raise UserError(
            f"can't be read: {(exc.strerror or str(exc)).lower()}", file=given
        ) from None
    if not entries:
        return place
    why = _not_ours(target, entries, marker)
    if why:
        raise UserError(f"{why}, so it is left alone; name another output folder", file=given)
    return place


def _kind(mode: int) -> str:
    if stat.S_ISREG(mode):
        return "a file"
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a folder"


def _walk(top: Path) -> Iterator[str]:
    """Every entry under `top` (files, folders, links, anything), as relative POSIX paths."""
    for root, dirs, files in os.walk(top, onerror=_raise):
        here = Path(root)
        for name in dirs + files:
            yield (here / name).relative_to(top).as_posix()


def _raise(exc: OSError) -> None:
    raise exc


def digest(path: Path) -> str:
    """A file's SHA-256, as a manifest records it: how an edit of balancer's file is told
    (here, and for reports/index.html in analysis/overview.py)."""
    sha = hashlib.sha256()
    with open(path, "rb") as handle:
        while block := handle.read(1 << 20):
            sha.update(block)
    return sha.hexdigest()


def _not_ours(target: Path, entries: list[str], marker: str) -> str | None:
    """Why the folder is not exactly balancer's output, or None when it is."""
    manifest_path = target / MANIFEST
    mine = "it is not balancer's output"
    if MANIFEST not in entries:
        if marker in entries:
            return f"it holds a {marker} but no balancer manifest ({MANIFEST}): {mine}"
        return f"it holds no {marker}: {mine}"
    try:
        info = os.lstat(manifest_path)
        if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_MANIFEST_BYTES:
            return f"its {MANIFEST} is not a manifest"
        manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
        files = manifest["files"]
        assert isinstance(files, dict) and manifest["format"] == MANIFEST_FORMAT
        kind = manifest["kind"]
    except (OSError, ValueError, KeyError, TypeError, AssertionError, RecursionError):
        return f"its {MANIFEST} is not a manifest: {mine}"
    if kind != marker:
        # A report is not replaced by a lone CSV table, nor a sweep by a report.
        found = _OUTPUT_KINDS.get(kind) if isinstance(kind, str) else None
        return (
            f"it is {found or 'balancer output of kind ' + _short(kind)}, "
            f"not {_OUTPUT_KINDS.get(marker, marker)}"
        )
    if marker not in files:
        return f"its manifest lists no {marker}: {mine}"
    listed = set(files)
    folders = {str(Path(name).parent.as_posix()) for name in files} - {"."}
    # Every folder a listed file sits in, and all of their parents.
    for name in list(folders):
        parent = Path(name).parent
        while str(parent) != ".":
            folders.add(parent.as_posix())
            parent = parent.parent
    present = set(entries) - {MANIFEST}
    extra = sorted(present - listed - folders)
    if extra:
        return f"it holds {extra[0]!r}, which balancer did not write"
    missing = sorted(listed - present)
    if missing:
        return f"{missing[0]!r} of its manifest is missing"
    for name, expected in files.items():
        path = target / name
        try:
            info = os.lstat(path)
        except OSError:
            return f"{name!r} can't be read"
        if name in folders or not stat.S_ISREG(info.st_mode):
            return f"{name!r} is not the file balancer wrote"
        if not isinstance(expected, dict) or info.st_size != expected.get("size"):
            return f"{name!r} was changed since balancer wrote it"
        try:
            if digest(path) != expected.get("sha256"):
                return f"{name!r} was changed since balancer wrote it"
        except OSError:
            return f"{name!r} can't be read"
    for name in folders:
        if not _is_real_dir(target / name):
            return f"{name!r} is not the folder balancer wrote"
    return None


# What each kind of output folder is, named by the file its manifest is marked with.
_OUTPUT_KINDS = {
    REPORT_JSON: "a report folder (report.json)",
    "sweep.csv": "a sweep folder (sweep.csv)",
    "games.csv": "a folder of CSV tables (games.csv)",
    "ladder.csv": "a ladder folder (ladder.csv)",
    "tune.csv": "a tune folder (tune.csv)",
}


def output_kind(folder: str | Path) -> str | None:
    """What kind of balancer output `folder` is, said as a message says it ("a sweep
    folder (sweep.csv)"), from its manifest; None when it has no readable one. Only
    for telling a user what a folder is: `check_target` decides what may be replaced."""
    path = Path(folder) / MANIFEST
    try:
        info = os.lstat(path)
        if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_MANIFEST_BYTES:
            return None
        kind = json.loads(path.read_text(encoding="utf-8")).get("kind")
    except (OSError, ValueError, AttributeError, RecursionError):
        return None
    return _OUTPUT_KINDS.get(kind) if isinstance(kind, str) else None


def _short(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def write_manifest(folder: Path, marker: str) -> None:
    """List every file under `folder` (its size and hash): the proof that it is ours."""
    files = {}
    for name in sorted(_walk(folder)):
        path = folder / name
        if name == MANIFEST or _is_real_dir(path):
            continue
        files[name] = {"size": os.lstat(path).st_size, "sha256": digest(path)}
    text = json.dumps(
        {"format": MANIFEST_FORMAT, "kind": marker, "files": files}, indent=1, sort_keys=True
    )
    (folder / MANIFEST).write_text(text + "\n", encoding="utf-8")


_AT_FDCWD = -100  # <fcntl.h>: a path relative to the current folder
_RENAME_EXCHANGE = 2  # <linux/fs.h>


def _renameat2() -> Any:
    """libc's renameat2 (glibc 2.28 and later, on Linux), or None where there is none."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        import ctypes

        found = ctypes.CDLL(None, use_errno=True).renameat2
    except (OSError, AttributeError):
        return None
    found.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
    found.restype = ctypes.c_int
    return found


def exchange(a: Path, b: Path) -> bool:
    """Swap what `a` and `b` name in one step; False where the system or the file system
    can't (then nothing was changed). Any other failure is an OSError."""
    renameat2 = _renameat2()
    if renameat2 is None:
        return False
    import ctypes

    if renameat2(_AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), _RENAME_EXCHANGE) == 0:
        return True
    code = ctypes.get_errno()
    if code in (errno.EINVAL, errno.ENOSYS, errno.EOPNOTSUPP, errno.ENOTSUP):
        return False
    raise OSError(code, os.strerror(code), str(b))


def _swap_in(tmp: Path, target: Path, old: Path) -> None:
    """Put the folder `tmp` at `target`, whose folder ends at `tmp`'s name (atomic where
    `exchange` can) or at `old` (two renames); the caller removes it."""
    if exchange(tmp, target):
        return
    os.rename(target, old)
    # A kill here leaves nothing at `target`: restore_interrupted puts `old` back.
    try:
        os.rename(tmp, target)
    except BaseException:
        os.rename(old, target)
        raise


class Claim:
    """A place checked and locked for this process until released."""

    def __init__(self, place: Place, marker: str, fd: int) -> None:
        self.place, self.marker, self.fd = place, marker, fd
        self.more: list[Callable[[Path], None]] = []

    def also(self, fill: Callable[[Path], None]) -> None:
        """`fill(tmp)` writes more files into the folder `write` writes, after its own: a
        run's trace.parquet beside the report's files, in the same all-or-nothing swap."""
        self.more.append(fill)

    def write(self, fill: Callable[[Path], None]) -> None:
        """`fill(tmp)` (and each `also`) writes the files; then tmp, with its manifest,
        replaces the folder."""
        place = self.place
        # Checked again: the folder may have changed while the games were played.
        check_target(place.given, self.marker)
        parent, target = place.parent, place.target
        try:
            tmp = Path(tempfile.mkdtemp(prefix=f".{place.name}.tmp-", dir=parent))
            # mkdtemp makes the folder private (0700); a report is as readable as any file.
            umask = os.umask(0)
            os.umask(umask)
            tmp.chmod(0o777 & ~umask)
        except OSError as exc:
            raise _oserror(exc, place.given) from None  # the folder asked for
        old = parent / f".{place.name}.old-{os.getpid()}"
        try:
            try:
                fill(tmp)
                for more in self.more:
                    more(tmp)
                write_manifest(tmp, self.marker)
                if os.path.lexists(target):
                    _swap_in(tmp, target, old)  # the old folder is now at tmp or old
                    shutil.rmtree(old, ignore_errors=True)
                else:
                    os.rename(tmp, target)
            except OSError as exc:
                raise _oserror(exc, place.given) from None
            except UserError:
                raise
            except Exception as exc:
                # polars writes through Rust and raises its own error on a full disk.
                code = _os_error_code(exc)
                if code is None:
                    raise
                raise _oserror(OSError(code, os.strerror(code)), place.given) from None
        finally:
            shutil.rmtree(tmp, ignore_errors=True)


# The places this process holds, by their real path: a run claims its folder
# before playing, and the report's save writes through that same claim.
_held: dict[Path, Claim] = {}


@contextlib.contextmanager
def claim(folder: str | Path, marker: str = REPORT_JSON) -> Iterator[Claim]:
    """Check `folder` is balancer's to replace, lock it, and hold it until the block ends.

    A place this process already holds is handed back as it is. A lock held by
    another run is refused at once (one line), never waited for.
    """
    place = place_of(folder)
    if place.target in _held:
        yield _held[place.target]
        return
    check_target(folder, marker)
    fd = _lock(place)
    held = Claim(place, marker, fd)
    _held[place.target] = held
    try:
        _clean_leftovers(place)
        # Checked again under the lock: what a finished run left is now the folder.
        check_target(folder, marker)
        yield held
    finally:
        del _held[place.target]
        _unlock(place, fd)


def _lock(place: Place) -> int:
    """flock a lock file beside the folder; retried if the file was swapped while we waited."""
    try:
        place.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise _oserror(exc, str(place.parent)) from None
    for _ in range(10):
        try:
            fd = os.open(place.lock, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o644)
        except OSError as exc:
            if exc.errno == errno.ELOOP:
                raise UserError(
                    "its lock file is a link; remove it", file=str(place.lock)
                ) from None
            raise _oserror(exc, place.given) from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            holder = _read_pid(fd)
            os.close(fd)
            by = f" (process {holder})" if holder else ""
            raise UserError(
                f"another balancer run{by} is writing this folder; wait for it or choose another",
                file=place.given,
            ) from None
        # The holder before us unlinks the file before unlocking it: if the
        # file we locked is no longer the one at the path, lock the new one.
        try:
            same = os.fstat(fd).st_ino == os.lstat(place.lock).st_ino
        except FileNotFoundError:
            same = False
        if same:
            try:
                os.ftruncate(fd, 0)
                os.write(fd, f"{os.getpid()}\n".encode())
            except OSError as exc:  # a full disk: no lock, and no empty lock file left
                _unlock(place, fd)
                reason = exc.strerror or str(exc)
                raise UserError(
                    f"can't write the lock file {place.lock.name} beside it: {reason}",
                    file=place.given,
                ) from None
            return fd
        os.close(fd)
    raise UserError("the lock beside this folder keeps changing; try again", file=place.given)


def _read_pid(fd: int) -> str:
    try:
        text = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
    except OSError:
        return ""
    return text if text.isdigit() else ""


def _unlock(place: Place, fd: int) -> None:
    # Unlinked while still locked, so no other run can lock a file that is gone.
    with contextlib.suppress(OSError):
        os.unlink(place.lock)
    os.close(fd)


def _clean_leftovers(place: Place) -> None:
    """Remove what a killed run onto this place left; restore its previous report if needed.

    Called under the lock, so no live run is using these. A run killed
    between its two renames left the previous folder as `.NAME.old-PID` and
    nothing at NAME: that previous folder is put back first.
    """
    aside = _set_aside(place)
    if aside and not os.path.lexists(place.target):
        # The latest set aside is the report the user last had (as restore_interrupted).
        with contextlib.suppress(OSError):
            os.rename(aside[-1], place.target)
    for path in place.leftovers():
        shutil.rmtree(path, ignore_errors=True)


def restore_interrupted(folder: str | Path) -> None:
    """Put back the folder a run killed between the two renames of its swap left aside
    (`.NAME.old-PID`, nothing at NAME), for a reader or writer about to use `folder`.

    Restored rather than only named: the folder set aside is the whole previous
    report (it was renamed, never written into), and the lock proves no run is
    between its renames, so putting it back is what that run would have done had
    it failed instead of being killed. When the lock is held (a run is at it) or
    the folder can't be put back (a read-only parent), the reader is told where
    the previous one is instead.
    """
    target = Path(os.path.abspath(folder))
    if not target.name or os.path.lexists(target):
        return
    place = Place(str(folder), target.parent, target.name)
    if not _set_aside(place):
        return
    fd = _try_lock(place)
    if fd is not None:
        try:
            _clean_leftovers(place)  # the latest put back, the killed run's temp folders gone
        finally:
            _unlock(place, fd)
    if not os.path.lexists(target) and (aside := _set_aside(place)):
        raise UserError(
            f"is missing: a run replacing it was stopped (or is still running), and the "
            f"previous one is at {aside[-1].name}; once no run is writing it, rename that "
            f"back to {target.name}",
            file=str(folder),
        )


def _set_aside(place: Place) -> list[Path]:
    """The folders a swap onto `place` set aside (`.NAME.old-PID`), the latest last."""
    prefix = f".{place.name}.old-"
    found = [p for p in place.leftovers() if p.name.startswith(prefix)]
    return sorted(found, key=lambda p: os.lstat(p).st_mtime_ns)


def _try_lock(place: Place) -> int | None:
    """The folder's lock if no run holds it (and it can be made here), else None."""
    try:
        fd = os.open(place.lock, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o644)
    except OSError:
        return None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        if os.fstat(fd).st_ino == os.lstat(place.lock).st_ino:
            return fd
    except OSError:
        pass
    os.close(fd)
    return None


def write_folder(
    folder: str | Path, fill: Callable[[Path], None], marker: str = REPORT_JSON
) -> None:
    """Write a folder atomically: `fill(tmp)` writes the files, then tmp replaces `folder`.

    A failure or interrupt at any point leaves `folder` exactly as it was and
    removes the temporary folder. Only balancer's own output (see
    `check_target`) is ever replaced.
    """
    with claim(folder, marker) as held:
        held.write(fill)
