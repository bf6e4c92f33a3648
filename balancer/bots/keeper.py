"""The plugin's side of a hosted plugin bot (bots/host.py is the engine's).

Every process a plugin starts dies with it, however it detached: the bot's
process is the child of a *keeper* (`keep`, plain code of ours, no plugin in
it), which on Linux is a child subreaper (prctl PR_SET_CHILD_SUBREAPER), so
a descendant whose parent dies, one that called setsid included, becomes
the keeper's child rather than init's. The keeper holds one end of a socket
(the lifeline) whose other end only the engine holds: when the engine closes
it, or dies in any way (SIGKILL too: the kernel closes it), the keeper kills
its children until it has none left, then exits. Where there is no subreaper
(not Linux) the keeper kills the bot's process group: a descendant that left
that group can outlive the run (docs/plugins.md).

The plugin's stdout and stderr go to /dev/null, or, through the keeper, are
appended to the file named by the environment variable `BALANCER_PLUGIN_LOG`:
never into balancer's own output. The log may grow by host.log_limit() bytes per
command, all its bots' processes together (their keepers share the count through
the file's own size, under a lock); then one line says the rest is cut, and the
keepers go on reading the bots' output and dropping it, so no bot ever blocks.

The bot's process (`_serve`) builds the bot, then answers each move with the
index of its choice (bots/plugin_answers.py), drawing its random numbers from
those the engine sent (`_Draws`), asking for more when they run out.
"""

from __future__ import annotations

import contextlib
import json
import os
import select
import signal
import socket
import stat
import sys
import time
from collections.abc import Iterator, MutableSequence
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from balancer.bots.plugin_answers import choose, describe
from balancer.bots.plugin_limits import LOG_LIMIT_ENV, limit_memory, size_text
from balancer.rng import Stream

# Numbers of the seat's stream sent with each move; more are sent on request.
# (A uniform pick needs one; a plugin needing more asks, at the cost of a round trip.)
FIRST_DRAWS = 4

_PR_SET_PDEATHSIG = 1  # <linux/prctl.h>
_PR_SET_CHILD_SUBREAPER = 36


class _Draws(Stream):
    """A Stream that replays numbers the engine drew, asking it for more when they run out."""

    __slots__ = ("_buffer", "_used", "_ask")

    def __init__(self, buffer: list[int], ask: Any) -> None:
        self.key, self.counter = 0, 0  # the real key stays with the engine
        self._buffer, self._used, self._ask = buffer, 0, ask

    def next_u64(self) -> int:
        if self._used == len(self._buffer):
            self._buffer.extend(self._ask(max(FIRST_DRAWS, len(self._buffer))))
        value = self._buffer[self._used]
        self._used += 1
        self.counter += 1
        return value

    # Stream writes its hash out in below and shuffle; here they draw through next_u64.

    def below(self, n: int) -> int:
        if n < 1:
            raise ValueError("below(n) needs n >= 1")
        threshold = (1 << 64) % n  # the kernel's (0 - n) % n in uint64
        while True:
            x = self.next_u64()
            if x >= threshold:
                return x % n

    def shuffle(self, values: MutableSequence[Any]) -> None:
        for i in range(len(values) - 1, 0, -1):
            j = self.below(i + 1)
            values[i], values[j] = values[j], values[i]

    def copy(self) -> Stream:
        raise TypeError("a plugin's stream can't be copied")


def _say(conn: Connection, **answer: Any) -> None:
    conn.send_bytes(json.dumps(answer).encode())


def _failure(exc: BaseException) -> str:
    from balancer.errors import GameFault

    try:
        if isinstance(exc, GameFault):  # a forged fault names no seat but the plugin's
            return f"GameFault: {exc.reason}"
        return f"{type(exc).__name__}: {exc}"
    except BaseException:  # a __str__ that raises is still the plugin's failure
        return type(exc).__name__


def _prctl(option: int, value: int) -> bool:
    """prctl(2) where there is one (Linux); whether it took effect."""
    try:
        import ctypes

        return bool(ctypes.CDLL(None, use_errno=True).prctl(option, value, 0, 0, 0) == 0)
    except (OSError, AttributeError):
        return False


def keep() -> None:
    """The keeper: start the bot's process, copy its output to the log, and when the
    engine lets go of the lifeline (or dies), kill every process the bot started.

    Its arguments (argv, as `keeper_command` lays them out): the bot's channel's
    descriptor, the lifeline's, the bytes of output the command's plugins may add to
    the log (0: the output goes straight to /dev/null), the log's size at which it is
    cut (0: no budget shared, this keeper counts its own), the bot's memory limit in
    bytes, and 1 to become a child subreaper (0 only in tests).
    """
    channel, lifeline, log_limit, log_end, memory, reaper = (int(a) for a in sys.argv[1:7])
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    linux = sys.platform.startswith("linux")
    subreaper = bool(reaper) and linux and _prctl(_PR_SET_CHILD_SUBREAPER, 1)
    keeper = os.getpid()
    relay_out, relay_in = os.pipe() if log_limit else (-1, -1)
    bot = os.fork()
    if bot == 0:  # the bot's process
        try:
            os.close(lifeline)
            if log_limit:
                os.close(relay_out)
                os.dup2(relay_in, 1)
                os.dup2(relay_in, 2)
                os.close(relay_in)
            os.setpgid(0, 0)  # a group of its own, so the keeper can kill it and its forks
            _prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
            if os.getppid() != keeper:  # the keeper died before the line above took effect
                os._exit(0)
            limit_memory(memory)
            _serve(Connection(channel))
        finally:
            os._exit(0)
    os.close(channel)
    if log_limit:
        os.close(relay_in)
    with contextlib.suppress(OSError):
        os.setpgid(bot, bot)  # whichever of the two runs first
    life = socket.socket(fileno=lifeline)
    watched = _Watch(life, bot)
    try:
        watched.run(relay_out, _Log(log_limit, log_end))
    finally:
        _kill_descendants(bot, watched.bot_ended, subreaper)
        os._exit(0)


class _Watch:
    """The keeper's watch over the bot's process, until the engine lets go of the lifeline."""

    def __init__(self, life: socket.socket, bot: int) -> None:
        self.life, self.bot = life, bot
        self.bot_ended = False

    def run(self, relay: int, log: _Log) -> None:
        """Copy the bot's output to the log, and reap whatever dies, until the engine
        closes the lifeline or dies."""
        life = self.life
        wake_out, wake_in = os.pipe()
        os.set_blocking(wake_in, False)
        signal.signal(signal.SIGCHLD, lambda *_: None)  # only to wake the poll below
        signal.set_wakeup_fd(wake_in, warn_on_full_buffer=False)
        poll = select.poll()
        poll.register(life.fileno(), select.POLLIN)
        poll.register(wake_out, select.POLLIN)
        if relay >= 0:
            poll.register(relay, select.POLLIN)
        while True:
            self.reap()
            for fd, _ in poll.poll():
                if fd == life.fileno():
                    # The engine closed it, or died (the engine never writes on it).
                    # Whatever the bot wrote before its last answer is in the pipe
                    # already: copy it before the bot is killed, or a log loses its end.
                    if relay >= 0:
                        self._drain(relay, log)
                    return
                if fd == wake_out:
                    os.read(wake_out, 4096)
                elif fd == relay:
                    data = os.read(relay, 1 << 16)
                    if not data:
                        poll.unregister(relay)
                        relay = -1
                        continue
                    log.add(data)

    @staticmethod
    def _drain(relay: int, log: _Log) -> None:
        """Copy what is waiting in the pipe now, without waiting for more."""
        os.set_blocking(relay, False)
        with contextlib.suppress(BlockingIOError, OSError):
            while data := os.read(relay, 1 << 16):
                log.add(data)

    def reap(self) -> None:
        """Collect every child that has ended; tell the engine how the bot's process ended."""
        while True:
            try:
                pid, status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                return
            if pid == 0:
                return
            if pid == self.bot:
                self.bot_ended = True
                with contextlib.suppress(OSError):
                    self.life.send(f"{os.waitstatus_to_exitcode(status)}\n".encode())


class _Log:
    """The keeper's end of $BALANCER_PLUGIN_LOG (its stdout): the bot's output added
    until the file is `end` bytes long, then one line saying the rest is cut.

    Every keeper of a command appends to the same file with the same `end`, so the
    file's own size, read under an flock, is the count they share: the output of a
    command's plugins, all seats and workers together, stops at `limit` bytes past
    the log's size when the command began, and only the keeper that crosses the mark
    writes the line. A log that is no plain file (a pipe, a terminal) has no size to
    share, nor has a bot built outside a command (`end` 0): each keeper then counts
    its own `limit` bytes.
    """

    def __init__(self, limit: int, end: int) -> None:
        try:
            shared = end > 0 and stat.S_ISREG(os.fstat(1).st_mode)
        except OSError:
            shared = False
        self.limit, self.end, self.shared = limit, end, shared
        self.written = 0
        self.cut = False  # from then on, output is read and dropped

    def add(self, data: bytes) -> None:
        if self.cut:
            return
        with self._locked():
            try:
                room = self.end - os.fstat(1).st_size if self.shared else self.limit - self.written
            except OSError:
                room = -1
            kept = data[: max(0, room)]
            _append(kept)
            self.written += len(kept)
            if len(kept) < len(data):
                self.cut = True
                if room >= 0:  # else another keeper's line is there already
                    _append(self._cut_line())

    def _cut_line(self) -> bytes:
        whose = "this command's plugin bots" if self.shared else "this bot's process"
        return (
            f"\n[balancer: {whose} wrote more than {size_text(self.limit)} of output "
            f"(${LOG_LIMIT_ENV}); the rest is cut]\n"
        ).encode()

    @contextlib.contextmanager
    def _locked(self) -> Iterator[None]:
        """The log to this keeper alone (flock), where the file can be locked."""
        import fcntl

        try:
            fcntl.flock(1, fcntl.LOCK_EX)
        except OSError:
            yield
            return
        try:
            yield
        finally:
            with contextlib.suppress(OSError):
                fcntl.flock(1, fcntl.LOCK_UN)


def _append(data: bytes) -> None:
    """Add to the log; a log that can't be written (a full disk) is no failure of the run."""
    with contextlib.suppress(OSError):
        while data:
            data = data[os.write(1, data) :]


def _kill_descendants(bot: int, reaped: bool, subreaper: bool) -> None:
    """Kill the bot's process and every descendant, until this process has no child.

    A child's children become this process's when it dies (a subreaper's), so each
    round kills what the last one orphaned; a process that forks while being killed
    only adds one more round. No wait blocks: /proc's list of children may miss one
    that is being orphaned as it is read, and a blocking wait would then wait on a
    live child nobody killed; each round reads the list again instead. Having no
    child at all means having no descendant (each one's chain of parents leads to a
    live child), so the loop ends only when none is left. Without a subreaper, the
    bot's process group is all that can be reached. Only pids not yet reaped are
    named, so none is another process's: once the bot's process is reaped
    (`reaped`), a subreaper has its leftovers as children, and without one its group
    lives on only while a member does, which keeps the group's number from being
    reused.
    """
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    if not (reaped and subreaper):
        with contextlib.suppress(OSError):
            os.killpg(bot, signal.SIGKILL)
    alive = None if reaped else bot
    while True:
        for pid in {*([alive] if alive is not None else []), *_children()}:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        try:
            done, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        except OSError:
            continue
        if done == 0:
            time.sleep(0.001)  # killed, not yet ended: a kill takes effect in microseconds
        elif done == alive:
            alive = None


def _children() -> list[int]:
    """This process's children, from /proc (Linux); none where there is no /proc."""
    me = os.getpid()
    try:
        return [int(pid) for pid in Path(f"/proc/{me}/task/{me}/children").read_text().split()]
    except (OSError, ValueError):
        pass
    found = []
    try:
        names = os.listdir("/proc")
    except OSError:
        return []
    for name in names:
        if not name.isdigit():
            continue
        try:
            stat = Path(f"/proc/{name}/stat").read_text()
        except OSError:
            continue
        # "pid (command) state ppid ...": the command may hold spaces and parentheses.
        fields = stat.rpartition(")")[2].split()
        if len(fields) > 1 and fields[1] == str(me):
            found.append(int(name))
    return found


def _serve(conn: Connection) -> None:
    """The bot's process: build the bot, then answer moves until the engine hangs up."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        _, path, name, params, preload = conn.recv()
        sys.path[:] = path
        try:
            import importlib

            from balancer.bots.registry import load_plugin

            for module in preload:
                importlib.import_module(module)

            bot = load_plugin(name).factory(**params)
            try:
                uses_view = bot.uses_view if hasattr(bot, "uses_view") else True
            except BaseException:
                uses_view = True
            _say(conn, uses_view=uses_view is not False)
        except BaseException as exc:
            _say(conn, error=_failure(exc))
            return
        while True:
            kind, view, legal, draws = conn.recv()

            def ask(n: int) -> list[int]:
                _say(conn, more=n)
                return list(conn.recv()[1])

            rng = _Draws(list(draws), ask)
            try:
                answer = bot.act(view, legal, rng)
            except BaseException as exc:
                _say(conn, error=_failure(exc))
                continue
            try:
                index = choose(answer, legal)
                text = describe(answer)
            except BaseException as exc:
                _say(conn, error=_failure(exc))
                continue
            if index is None:
                _say(conn, illegal=text)
            else:
                _say(conn, move=index, used=rng._used)
    except (EOFError, OSError, KeyboardInterrupt):
        pass
