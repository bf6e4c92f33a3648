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

The processes on the plugin's side (the keeper that outlives none of the
bot's processes, the bot's process answering moves, the log relay) are
bots/keeper.py; the sizes and memory limits both sides read,
bots/plugin_limits.py; what counts as a bot's answer, bots/plugin_answers.py.

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
import select
import signal
import socket
import subprocess
import sys
import time
import weakref
from collections.abc import Hashable, Iterator, Mapping, Sequence
from multiprocessing.connection import Connection
from typing import Any

from balancer.bot import PluginFailure
from balancer.bots.keeper import FIRST_DRAWS
from balancer.bots.keeper import keep as keep  # keeper_command's entry point
from balancer.bots.plugin_answers import choose as choose
from balancer.bots.plugin_answers import describe as describe
from balancer.bots.plugin_answers import same_move as same_move
from balancer.bots.plugin_limits import DEFAULT_MEMORY_LIMIT as DEFAULT_MEMORY_LIMIT
from balancer.bots.plugin_limits import LOG_LIMIT as LOG_LIMIT
from balancer.bots.plugin_limits import LOG_LIMIT_ENV as LOG_LIMIT_ENV
from balancer.bots.plugin_limits import parse_size as parse_size
from balancer.bots.plugin_limits import size_text as size_text
from balancer.bots.plugin_limits import within_hard_limit
from balancer.rng import Stream

LOG_ENV = "BALANCER_PLUGIN_LOG"
# Seconds for a plugin's process to start, import the plugin and build the bot.
BUILD_TIME_LIMIT = 20.0
# The biggest answer a plugin's process may send (an index and a count fit in far less).
MAX_ANSWER = 64 * 1024
# Seconds the keeper has to kill a bot's processes once told to, before it is killed itself.
KEEPER_GRACE = 5.0

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
        self.memory = within_hard_limit(memory_limit())
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


def keeper_command(
    channel: int, lifeline: int, log_limit: int, log_end: int, memory: int
) -> list[str]:
    """The command line that starts a keeper (`keep`), given the descriptors it inherits
    and the bot's limits: the one place its arguments are laid out."""
    arguments = (channel, lifeline, log_limit, log_end, memory, int(_subreaper))
    code = "from balancer.bots.host import keep; keep()"
    return [sys.executable, "-c", code, *map(str, arguments)]
