"""Plugin bots out of process: each plugin seat's bot lives in a process of its own.

The engine sends the bot's process its view (a frozen dataclass of ints and
tuples, pickled), the legal moves (a tuple) and a few numbers of its seat's
random stream; the process answers with the *index* of its chosen move in
JSON, never a pickle, so nothing it sends can run code here. The engine then
plays its own copy of that move. The plugin shares no memory with the engine:
no frame or gc walk reaches the state, and rewriting the rules changes only
the plugin's copy.

Limits are kept from outside: the bot's constructor and each move get a
deadline, a process past it is killed, and the process may map at most
`--plugin-memory` bytes (setrlimit RLIMIT_AS). A plugin that exits, raises
anything (KeyboardInterrupt and SystemExit included), answers nonsense, runs
out of memory or dies is reported as the bot's fault (`PluginFailure`), never
as the user's interrupt. The process runs in a session of its own, so the
terminal's Ctrl-C reaches only balancer, which stops the run and kills it.

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
never into balancer's own output. The log may grow by `log_limit()` bytes per
command, all its bots' processes together (their keepers share the count through
the file's own size, under a lock); then one line says the rest is cut, and the
keepers go on reading the bots' output and dropping it, so no bot ever blocks.

Randomness: the plugin is handed a `rng.Stream` that replays numbers the
engine drew from the seat's stream (asking for more when it runs out), and
the engine advances its stream by as many as the plugin used, so a plugin's
`legal[rng.randrange(len(legal))]` draws exactly what the built-in `random`
bot draws. The stream's key never leaves the engine.

`--trust-plugins` (`trusting(True)`) runs plugins in this process instead,
for speed and debugging: their own tracebacks, no isolation.
"""

from __future__ import annotations

import atexit
import contextlib
import json
import os
import pickle
import resource
import select
import signal
import socket
import stat
import subprocess
import sys
import time
import weakref
from collections.abc import Hashable, Iterator, Mapping, MutableSequence, Sequence
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from balancer.bot import PluginFailure
from balancer.rng import Stream

LOG_ENV = "BALANCER_PLUGIN_LOG"
# Seconds for a plugin's process to start, import the plugin and build the bot.
BUILD_TIME_LIMIT = 20.0
# Numbers of the seat's stream sent with each move; more are sent on request.
# (A uniform pick needs one; a plugin needing more asks, at the cost of a round trip.)
FIRST_DRAWS = 4
# The biggest answer a plugin's process may send (an index and a count fit in far less).
MAX_ANSWER = 64 * 1024
# Bytes of output one command's plugins may add to $BALANCER_PLUGIN_LOG before it is
# cut, unless $BALANCER_PLUGIN_LOG_LIMIT gives another size.
LOG_LIMIT = 10 << 20
LOG_LIMIT_ENV = "BALANCER_PLUGIN_LOG_LIMIT"
# Bytes of address space a bot's process may map (--plugin-memory): far above a bot's
# needs (a plugin's process with a game loaded maps some 25 MB), far below a machine's.
DEFAULT_MEMORY_LIMIT = 4 << 30
# Seconds the keeper has to kill a bot's processes once told to, before it is killed itself.
KEEPER_GRACE = 5.0

_PR_SET_PDEATHSIG = 1  # <linux/prctl.h>
_PR_SET_CHILD_SUBREAPER = 36

_trusted = False
_memory_limit = DEFAULT_MEMORY_LIMIT
# The size at which the log is cut for the command under way: the log's size when the
# command began (`trusting`) plus log_limit(); set before any worker process forks.
# None outside a command.
_log_end: int | None = None
# Whether keepers become child subreapers. Only tests turn it off, to show that a
# detached grandchild nothing else reaches does outlive the run (their count's control).
_subreaper = True


def trusted() -> bool:
    """Whether plugins run in this process (`--trust-plugins`)."""
    return _trusted


@contextlib.contextmanager
def trusting(flag: bool) -> Iterator[None]:
    """Run plugins in-process (True) or each in its own process (False) within the block.

    Process-wide, so worker processes forked inside the block inherit it. Every
    command that plays enters it once, before it forks any worker, so the plugin
    log's budget for the command (`log_limit()`) starts here too.
    """
    global _trusted, _log_end
    before = _trusted, _log_end
    _trusted, _log_end = flag, _log_size() + log_limit()
    try:
        yield
    finally:
        _trusted, _log_end = before


def memory_limit() -> int:
    """The bytes of address space each plugin bot's process may map (`--plugin-memory`)."""
    return _memory_limit


def set_memory_limit(limit: int) -> None:
    """Set `memory_limit()` for the bots built from now on, in this process and the worker
    processes it forks (the command line sets it from --plugin-memory)."""
    global _memory_limit
    if limit < 1:
        raise ValueError("a memory limit is a positive number of bytes")
    _memory_limit = limit


_UNITS = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}


def parse_size(text: str) -> int:
    """Bytes from a size as --plugin-memory and $BALANCER_PLUGIN_LOG_LIMIT take it: a
    number, with K, M, G or T (powers of 1024) and an optional B: 4G, 512M, 1.5g, 1000.
    A ValueError says why a text is none."""
    plain = text.strip().upper().removesuffix("B")
    unit = plain[-1:] if plain[-1:] in ("K", "M", "G", "T") else ""
    number = plain.removesuffix(unit) if unit else plain
    try:
        amount = float(number)
    except ValueError:
        amount = float("nan")
    if not amount > 0 or amount == float("inf"):  # nan fails every comparison
        raise ValueError(
            f"{text[:40]!r} is not a size (a number of bytes, or with K, M, G: 4G, 512M)"
        )
    return int(amount * _UNITS[unit])


def log_limit() -> int:
    """The bytes one command's plugins may add to $BALANCER_PLUGIN_LOG:
    $BALANCER_PLUGIN_LOG_LIMIT, else LOG_LIMIT. A ValueError names the variable when
    its value is no size."""
    value = os.environ.get(LOG_LIMIT_ENV)
    if not value:
        return LOG_LIMIT
    try:
        return parse_size(value)
    except ValueError as exc:
        raise ValueError(f"{LOG_LIMIT_ENV}: {exc}") from None


def _log_size() -> int:
    """The size of $BALANCER_PLUGIN_LOG now: 0 when it is unset, missing or unreadable."""
    log = os.environ.get(LOG_ENV)
    try:
        return os.stat(log).st_size if log else 0
    except (OSError, ValueError):
        return 0


def size_text(limit: int) -> str:
    """A number of bytes as --plugin-memory would take it: 4G, 512M, 1500K, 123."""
    for unit, size in (("G", 1 << 30), ("M", 1 << 20), ("K", 1 << 10)):
        if limit % size == 0:
            return f"{limit // size}{unit}"
    return str(limit)


# -- the exact type check both modes share -------------------------------------

_PLAIN = (int, str, bool, float, bytes, type(None))


def same_move(answer: Any, move: Any) -> bool:
    """`answer` is `move` in exact built-in types: no subclass, so no __eq__ of a plugin's."""
    kind = type(move)
    if type(answer) is not kind:
        return False
    if kind is tuple:
        return len(answer) == len(move) and all(map(same_move, answer, move))
    if kind in _PLAIN:
        return bool(answer == move)
    return False


def choose(answer: Any, legal: Sequence[Hashable]) -> int | None:
    """The index of `answer` among the legal moves, compared exactly; None if it is none."""
    kind = type(answer)
    if kind is int or kind is str:
        # The common answer, found by the list's own search: an exact int or
        # str compares by its built-in ==, so no code of the plugin's runs.
        # The first equal move must be of its very type (1 == True == 1.0).
        try:
            index = legal.index(answer)
        except ValueError:
            return None
        if type(legal[index]) is kind:
            return index
    for index, move in enumerate(legal):
        if same_move(answer, move):
            return index
    return None


def describe(answer: Any) -> str:
    """A short, safe description of a bot's answer: its repr only for plain built-in values."""
    if type(answer) in _PLAIN or (
        type(answer) is tuple and all(type(item) in _PLAIN for item in answer)
    ):
        text = repr(answer)
        return text if len(text) <= 60 else text[:57] + "..."
    return f"a {type(answer).__qualname__[:40]} (not a move)"


# -- the engine's side ----------------------------------------------------------

_live: weakref.WeakSet[HostedBot] = weakref.WeakSet()


def _kill_all() -> None:
    for bot in list(_live):
        bot.close()


atexit.register(_kill_all)


class HostedBot:
    """A plugin bot in its own process, asked like any bot: `act(view, legal, rng)`."""

    def __init__(
        self,
        name: str,
        params: Mapping[str, Any],
        move_limit: float,
        build_limit: float | None = None,
        preload: Sequence[str] = (),
    ) -> None:
        self.name = name
        self.move_limit = move_limit
        self.memory = _within_hard_limit(memory_limit())
        self.uses_view = True
        self._proc: subprocess.Popen[bytes] | None = None  # the keeper
        self._conn: Connection | None = None  # to the bot's process
        self._lifeline: socket.socket | None = None  # to the keeper
        if build_limit is None:
            build_limit = BUILD_TIME_LIMIT
        self._start()
        _live.add(self)
        try:
            # The game's modules are imported at build time, so unpickling the
            # first view costs no import inside the first move's time limit.
            self._send(("init", list(sys.path), name, dict(params), tuple(preload)))
            answer = self._receive(build_limit, build_limit, "build the bot")
        except BaseException:
            self.close()
            raise
        if "error" in answer:
            self.close()
            raise PluginFailure(self._raised("building the bot raised", answer["error"]))
        self.uses_view = answer.get("uses_view") is not False

    def _start(self) -> None:
        ours, theirs = socket.socketpair()
        life_ours, life_theirs = socket.socketpair()
        log = os.environ.get(LOG_ENV) or os.devnull
        root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(p for p in (root, env.get("PYTHONPATH")) if p)
        if log == os.devnull:
            limit = end = 0  # no relay: the output goes straight to /dev/null
        else:
            limit = log_limit()
            # A bot built outside any command (a Dask worker's) has no command's budget
            # to share: its keeper counts `limit` bytes of its own (end 0).
            end = 0 if _log_end is None else _log_end
        try:
            with open(log, "ab") as output:
                self._proc = subprocess.Popen(
                    keeper_command(theirs.fileno(), life_theirs.fileno(), limit, end, self.memory),
                    stdin=subprocess.DEVNULL,
                    stdout=output,
                    stderr=output,
                    pass_fds=(theirs.fileno(), life_theirs.fileno()),
                    env=env,
                    start_new_session=True,  # the terminal's Ctrl-C is balancer's alone
                    close_fds=True,
                )
        except OSError as exc:
            ours.close()
            life_ours.close()
            raise PluginFailure(f"can't start the bot's process: {exc.strerror}") from None
        finally:
            theirs.close()
            life_theirs.close()
        self._lifeline = life_ours
        self._conn = Connection(ours.detach())
        # Polled directly: Connection.poll builds a selector for every call, every move.
        self._poll = select.poll()
        self._poll.register(self._conn.fileno(), select.POLLIN)

    def _send(self, message: Any) -> None:
        assert self._conn is not None
        data = pickle.dumps(message, -1)  # can't pickle it: balancer's bug, never the bot's
        try:
            self._conn.send_bytes(data)
        except (OSError, ValueError) as exc:
            raise PluginFailure(self._ended(f"can't be sent its move ({exc})")) from None

    def _receive(self, remaining: float, limit: float, doing: str) -> dict[str, Any]:
        """The process's answer within `remaining` seconds (of `limit`); a late one is killed."""
        assert self._conn is not None
        deadline = time.monotonic() + remaining
        while True:
            ready = self._poll.poll(max(0, int(remaining * 1000) + 1))
            if ready:
                break
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                self.close()
                if doing == "build the bot":
                    raise PluginFailure(f"building the bot took longer than {limit:g}s")
                raise PluginFailure(f"no move within the time limit of {limit:g}s")
        try:
            raw = self._conn.recv_bytes(MAX_ANSWER)
        except (EOFError, OSError):
            raise PluginFailure(self._ended(f"ended while asked to {doing}")) from None
        try:
            answer = json.loads(raw.decode("utf-8"))
        except (ValueError, UnicodeDecodeError, RecursionError):
            answer = None
        if not isinstance(answer, dict):
            self.close()
            raise PluginFailure("the bot's process answered something that is not an answer")
        return answer

    def _ended(self, what: str) -> str:
        code = self._exit_code()
        self.close()
        status = f" (exit code {code})" if code is not None and code >= 0 else ""
        if code is not None and code < 0:
            status = f" (killed by signal {-code})"
            if -code in (signal.SIGABRT, signal.SIGSEGV, signal.SIGBUS):
                # What a C library does when an allocation fails and it can't say so.
                status += f"; it may have hit its memory limit of {size_text(self.memory)}"
        return f"the bot's process {what}{status}"

    def _exit_code(self) -> int | None:
        """How the bot's process ended, as its keeper saw it (a negative signal number):
        None when that is not known within a second."""
        life = self._lifeline
        if life is None:
            return None
        life.settimeout(1.0)
        try:
            said = life.recv(64)
        except OSError:
            return None
        try:
            return int(said.decode("ascii").split()[0])
        except (ValueError, IndexError, UnicodeDecodeError):
            return None

    def _raised(self, doing: str, error: Any) -> str:
        """What a bot's failure says, a bot out of memory told as such."""
        text = _text(error)
        if text.startswith("MemoryError"):
            return (
                f"the bot ran out of memory: its process may map at most "
                f"{size_text(self.memory)} (--plugin-memory)"
            )
        return f"{doing} {text}"

    def act(self, view: Any, legal: Sequence[Hashable], rng: Stream) -> Hashable:
        if self._conn is None:
            raise PluginFailure("the bot's process is gone")
        source = rng.copy()
        draws = [source.next_u64() for _ in range(FIRST_DRAWS)]
        deadline = time.monotonic() + self.move_limit
        self._send(("act", view, tuple(legal), draws))
        while True:
            remaining = max(0.0, deadline - time.monotonic())
            answer = self._receive(remaining, self.move_limit, "move")
            if "more" not in answer:
                break
            wanted = answer["more"]
            if type(wanted) is not int or not 0 < wanted <= 1 << 16:
                self.close()
                raise PluginFailure("the bot's process answered something that is not an answer")
            self._send(("draws", [source.next_u64() for _ in range(wanted)]))
        if "error" in answer:
            raise PluginFailure(self._raised("the bot raised", answer["error"]))
        if "illegal" in answer:
            raise PluginFailure(f"illegal move {_text(answer['illegal'])}")
        index, used = answer.get("move"), answer.get("used")
        given = source.counter - rng.counter
        if type(index) is not int or not 0 <= index < len(legal):
            raise PluginFailure("the bot's process answered something that is not a move")
        if type(used) is not int or not 0 <= used <= given:
            raise PluginFailure("the bot's process answered something that is not an answer")
        rng.counter += used
        # The engine's own copy of the chosen move, never an object the plugin made.
        return legal[index]

    def close(self) -> None:
        """End the bot's process and every process it started, however they detached.

        Closing the lifeline tells the keeper to kill them all and exit; a keeper
        that doesn't within KEEPER_GRACE is killed itself.
        """
        conn, proc, life = self._conn, self._proc, self._lifeline
        self._conn, self._proc, self._lifeline = None, None, None
        if conn is not None:
            conn.close()
        if life is not None:
            life.close()
        if proc is not None:
            try:
                proc.wait(timeout=KEEPER_GRACE)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.killpg(proc.pid, signal.SIGKILL)
                with contextlib.suppress(ProcessLookupError):
                    proc.kill()
                proc.wait()
        _live.discard(self)

    def __del__(self) -> None:
        with contextlib.suppress(Exception):
            self.close()


def _text(value: Any) -> str:
    """Text the plugin's process sent, cut short (escaped where it is shown)."""
    text = value if isinstance(value, str) else "something"
    return text if len(text) <= 200 else text[:197] + "..."


# -- the plugin's side ------------------------------------------------------------


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


def keeper_command(
    channel: int, lifeline: int, log_limit: int, log_end: int, memory: int
) -> list[str]:
    """The command line that starts a keeper (`keep`), given the descriptors it inherits
    and the bot's limits: the one place its arguments are laid out."""
    arguments = (channel, lifeline, log_limit, log_end, memory, int(_subreaper))
    code = "from balancer.bots.host import keep; keep()"
    return [sys.executable, "-c", code, *map(str, arguments)]


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
            _limit_memory(memory)
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


def _within_hard_limit(memory: int) -> int:
    """`memory`, or this process's hard RLIMIT_AS where that is lower: the bot's process
    inherits it and can't raise it, so that is what the bot gets (and is told)."""
    try:
        _, hard = resource.getrlimit(resource.RLIMIT_AS)
    except (ValueError, OSError):
        return memory
    return memory if hard == resource.RLIM_INFINITY else min(memory, hard)


def _limit_memory(memory: int) -> None:
    """Let this process map at most `memory` bytes (at most its hard limit)."""
    memory = _within_hard_limit(memory)
    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))


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
