"""Plugin bots out of process: each plugin seat's bot lives in a process of its own.

The engine sends the bot's process its view (a frozen dataclass of ints and
tuples, pickled), the legal moves (a tuple) and a few numbers of its seat's
random stream; the process answers with the *index* of its chosen move in
JSON, never a pickle, so nothing it sends can run code here. The engine then
plays its own copy of that move. The plugin shares no memory with the engine:
no frame or gc walk reaches the state, and rewriting the rules changes only
the plugin's copy.

Limits are kept from outside: the bot's constructor and each move get a
deadline, and a process past it is killed with its whole process group (so a
plugin that forks dies with its children). A plugin that exits, raises
anything (KeyboardInterrupt and SystemExit included), answers nonsense or
dies is reported as the bot's fault (`PluginFailure`), never as the user's
interrupt. The process runs in a session of its own, so the terminal's
Ctrl-C reaches only balancer, which stops the run and kills the process.

The plugin's stdout and stderr go to /dev/null, or appended to the file named
by the environment variable `BALANCER_PLUGIN_LOG`: never into balancer's own
output.

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
from collections.abc import Hashable, Iterator, Mapping, MutableSequence, Sequence
from multiprocessing.connection import Connection
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

_trusted = False


def trusted() -> bool:
    """Whether plugins run in this process (`--trust-plugins`)."""
    return _trusted


@contextlib.contextmanager
def trusting(flag: bool) -> Iterator[None]:
    """Run plugins in-process (True) or each in its own process (False) within the block.

    Process-wide, so worker processes forked inside the block inherit it.
    """
    global _trusted
    before, _trusted = _trusted, flag
    try:
        yield
    finally:
        _trusted = before


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
        self.uses_view = True
        self._proc: subprocess.Popen[bytes] | None = None
        self._conn: Connection | None = None
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
            raise PluginFailure(f"building the bot raised {answer['error']}")
        self.uses_view = answer.get("uses_view") is not False

    def _start(self) -> None:
        ours, theirs = socket.socketpair()
        log = os.environ.get(LOG_ENV) or os.devnull
        root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(p for p in (root, env.get("PYTHONPATH")) if p)
        try:
            with open(log, "ab") as output:
                self._proc = subprocess.Popen(
                    [sys.executable, "-c", "from balancer.bots.host import serve; serve()"],
                    stdin=subprocess.DEVNULL,
                    stdout=output,
                    stderr=output,
                    pass_fds=(theirs.fileno(),),
                    env={
                        **env,
                        "BALANCER_HOST_FD": str(theirs.fileno()),
                        "BALANCER_HOST_PARENT": str(os.getpid()),
                    },
                    start_new_session=True,  # the terminal's Ctrl-C is balancer's alone
                    close_fds=True,
                )
        except OSError as exc:
            ours.close()
            raise PluginFailure(f"can't start the bot's process: {exc.strerror}") from None
        finally:
            theirs.close()
        self._conn = Connection(ours.detach())
        # Polled directly: Connection.poll builds a selector for every call, every move.
        self._poll = select.poll()
        self._poll.register(self._conn.fileno(), select.POLLIN)

    def _send(self, message: Any) -> None:
        assert self._conn is not None
        try:
            self._conn.send(message)
        except (OSError, ValueError, pickle.PicklingError) as exc:
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
        code = None
        if self._proc is not None:
            with contextlib.suppress(subprocess.TimeoutExpired):
                code = self._proc.wait(timeout=1.0)
        self.close()
        status = f" (exit code {code})" if code is not None and code >= 0 else ""
        if code is not None and code < 0:
            status = f" (killed by signal {-code})"
        return f"the bot's process {what}{status}"

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
            raise PluginFailure(f"the bot raised {_text(answer['error'])}")
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
        """Kill the process and everything it started (its process group)."""
        conn, proc, self._conn, self._proc = self._conn, self._proc, None, None
        if conn is not None:
            conn.close()
        if proc is not None:
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


def serve() -> None:
    """The plugin's process: build the bot, then answer moves until the engine hangs up."""
    # Die with the engine even when it is killed outright (Linux only).
    with contextlib.suppress(Exception):
        import ctypes

        ctypes.CDLL(None).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    # An engine killed before the line above ran sends no signal: then it is gone already.
    if os.getppid() != int(os.environ.pop("BALANCER_HOST_PARENT", os.getppid())):
        os._exit(0)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    conn = Connection(int(os.environ.pop("BALANCER_HOST_FD")))
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
    finally:
        os._exit(0)
