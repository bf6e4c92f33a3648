"""What a path the user named is, said in words, before anything opens it.

Opening a FIFO blocks until someone writes to it and /dev/zero never ends,
so every input (a variant, its extends, a report folder and its files) is
looked at first: a regular file is read, anything else is named for what it
is ("is a FIFO (named pipe)"), never "no such file" and never a hang. A name
the file system can't hold, or a loop of links, is one line too.
"""

from __future__ import annotations

import errno
import os
import stat

from balancer.errors import UserError

FILE = "file"
FOLDER = "a folder"
# The longest name one path component may have on the file systems balancer runs on.
MAX_NAME_BYTES = 255


def describe_mode(mode: int) -> str:
    """A file's type in words: FILE, FOLDER, "a FIFO (named pipe)", ..."""
    if stat.S_ISREG(mode):
        return FILE
    if stat.S_ISDIR(mode):
        return FOLDER
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISCHR(mode):
        return "a character device"
    if stat.S_ISBLK(mode):
        return "a block device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def in_words(kind: str) -> str:
    """What `kind_of` found, said after "is": FILE is "a file" there."""
    return "a file" if kind == FILE else kind


def kind_of(path: str | os.PathLike[str], *, name: str | None = None) -> str | None:
    """What `path` is (links followed), or None when nothing is there.

    A name too long, a loop of links, a NUL byte or a folder that can't be
    searched is a UserError naming `name` (default: the path).
    """
    shown = name if name is not None else os.fsdecode(path)
    try:
        return describe_mode(os.stat(path).st_mode)
    except FileNotFoundError:
        return None
    except NotADirectoryError:
        return None
    except ValueError:  # a NUL byte
        raise UserError("the name holds a NUL byte", file=repr(shown)) from None
    except OSError as exc:
        raise path_error(exc, shown) from None


def path_error(exc: OSError, shown: str) -> UserError:
    """An OSError from looking a path up, as one line."""
    if exc.errno == errno.ENAMETOOLONG:
        return UserError(
            f"the name is too long for the file system (a folder or file name holds at most "
            f"{MAX_NAME_BYTES} bytes)",
            file=_clipped(shown),
        )
    if exc.errno == errno.ELOOP:
        return UserError("lies under a loop of symbolic links", file=_clipped(shown))
    if exc.errno == errno.EACCES:
        return UserError("permission denied", file=_clipped(shown))
    return UserError(f"can't be read: {exc.strerror or exc}", file=_clipped(shown))


def _clipped(text: str, limit: int = 120) -> str:
    # A 4000-byte path in an error line says nothing more than its ends do.
    return text if len(text) <= limit else f"{text[:60]}...{text[-50:]}"


def check_regular(path: str | os.PathLike[str], *, name: str | None = None) -> None:
    """A UserError, one line naming `name` (default: the path), unless `path` is a
    regular file (links followed): nothing there, a folder, a FIFO, a device, a loop of
    links. What every reader of a user's path calls before it opens or resolves it."""
    shown = name if name is not None else os.fsdecode(path)
    kind = kind_of(path, name=shown)
    if kind is None:
        raise UserError("no such file", file=_clipped(shown))
    if kind != FILE:
        what = "a directory" if kind == FOLDER else kind  # as yamlsafe.load_yaml says it
        raise UserError(f"is {what}, not a file", file=_clipped(shown))


def regular_file_bytes(path: str | os.PathLike[str], most: int) -> bytes:
    """The first `most` + 1 bytes of the regular file at `path` (enough for its reader to
    say it is too large), after `check_regular`; opened non-blocking, should it have been
    swapped for a FIFO since the look (then it reads as empty)."""
    check_regular(path)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
        with os.fdopen(fd, "rb") as fh:
            return fh.read(most + 1)
    except OSError as exc:
        raise path_error(exc, os.fsdecode(path)) from None
