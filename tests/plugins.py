"""Deliberately broken plugin bots, named in variant files as `tests.plugins:NAME`."""

from __future__ import annotations

import contextlib
import pickle
import random
import sys
import time
from collections.abc import Hashable, Sequence
from typing import Any


class Illegal:
    """Answers a move that is never legal."""

    def act(self, view: Any, legal: Sequence[Hashable], rng: random.Random) -> Hashable:
        return "not a move"


class Raises:
    """Fails with an exception of its own."""

    def act(self, view: Any, legal: Sequence[Hashable], rng: random.Random) -> Hashable:
        raise RuntimeError("the plugin broke")


class Slow:
    """Takes longer than any sane time limit."""

    def __init__(self, seconds: float = 30.0) -> None:
        self.seconds = seconds

    def act(self, view: Any, legal: Sequence[Hashable], rng: random.Random) -> Hashable:
        time.sleep(self.seconds)
        return legal[0]


class FirstLegal:
    """A well-behaved plugin: always the first legal move."""

    def act(self, view: Any, legal: Sequence[Hashable], rng: random.Random) -> Hashable:
        return legal[0]


class BusyCatchingExceptions:
    """Busy for `seconds`, swallowing every Exception it meets on the way: were
    the time-out an Exception, it would dodge the time limit, and when its time
    is up it fails saying it was never stopped."""

    def __init__(self, seconds: float = 3.0) -> None:
        self.seconds = seconds

    def act(self, view: Any, legal: Sequence[Hashable], rng: random.Random) -> Hashable:
        deadline = time.monotonic() + self.seconds
        while time.monotonic() < deadline:
            try:
                while time.monotonic() < deadline:
                    pass
            except Exception:
                continue
        raise RuntimeError(f"busy for {self.seconds:g}s and never stopped")


class SwallowsTheTimeout:
    """Sleeps through the alarm, swallowing even a BaseException, then answers."""

    def __init__(self, seconds: float = 3.0) -> None:
        self.seconds = seconds

    def act(self, view: Any, legal: Sequence[Hashable], rng: random.Random) -> Hashable:
        with contextlib.suppress(BaseException):
            time.sleep(self.seconds)
        return legal[0]


class Exits:
    """Calls sys.exit in the middle of a game."""

    def act(self, view: Any, legal: Sequence[Hashable], rng: random.Random) -> Hashable:
        sys.exit("the plugin quit")


class RaisesBaseException:
    """Fails with a BaseException subclass of its own."""

    def act(self, view: Any, legal: Sequence[Hashable], rng: random.Random) -> Hashable:
        raise _Boom("not an Exception")


class _Boom(BaseException):
    pass


class Smuggler:
    """Adds a move of its own to the legal moves it was handed, then plays it."""

    def act(self, view: Any, legal: Sequence[Hashable], rng: random.Random) -> Hashable:
        if isinstance(legal, list):
            legal.append("smuggled")
        return "smuggled"


class Forks:
    """Leaves a process of its own behind, holding every descriptor its bot had
    (stdout, stderr, pipes): a run must end anyway, and take it along."""

    def __init__(self) -> None:
        import os

        if os.fork() == 0:
            try:
                time.sleep(3600)
            finally:
                os._exit(0)

    def act(self, view: Any, legal: Sequence[Hashable], rng: random.Random) -> Hashable:
        return legal[0]


class DiesOnce:
    """Kills its whole process the first time any copy of it is built (the file
    `marker` records that it did), then plays the first legal move: a lost worker."""

    def __init__(self, marker: str) -> None:
        import os

        try:
            os.close(os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY))
        except FileExistsError:
            return
        os._exit(1)

    def act(self, view: Any, legal: Sequence[Hashable], rng: random.Random) -> Hashable:
        return legal[0]


class UniformLegal:
    """A designer's first plugin: a uniform legal move, drawn from the rng it is handed.

    It must play exactly the games the built-in `random` bot plays, on every path.
    """

    uses_view = False

    def act(self, view: Any, legal: Sequence[Hashable], rng: random.Random) -> Hashable:
        return legal[rng.randrange(len(legal))]


# -- issue 13: plugins that cheat, hang, fork, print or lie -------------------


class RandomLike:
    """What the built-in `random` bot does, as a plugin: must draw exactly what it draws."""

    def act(self, view: Any, legal: Sequence[Hashable], rng: Any) -> Hashable:
        return legal[rng.randrange(len(legal))]


class Peeker:
    """Looks for the engine's game state through gc and the call stack; plays a
    move that is never legal if it finds one (so finding it is seen as a fault)."""

    def act(self, view: Any, legal: Sequence[Hashable], rng: Any) -> Hashable:
        import gc

        frame = sys._getframe()
        while frame is not None:
            if any(hasattr(v, "check_invariants") for v in frame.f_locals.values()):
                return "found the state"
            frame = frame.f_back
        for obj in gc.get_objects():
            kind = type(obj)  # the engine's classes may be loaded; a state is an instance
            if kind.__module__.startswith("balancer.games") and hasattr(kind, "apply_action"):
                return "found the state"
        return legal[0]


class RulesRewriter:
    """Rewrites the 'read-only' rules it is shown, then plays the first legal move."""

    def act(self, view: Any, legal: Sequence[Hashable], rng: Any) -> Hashable:
        rules = getattr(view, "rules", None)
        if isinstance(rules, dict):
            dict.__setitem__(rules, "neko_ni_koban", not rules.get("neko_ni_koban"))
        return legal[0]


class _AlwaysEqual(int):
    def __eq__(self, other: object) -> bool:
        return True

    def __hash__(self) -> int:
        return 0


class EqualToEverything:
    """Answers an int subclass that claims to equal every move (a card it doesn't hold)."""

    def act(self, view: Any, legal: Sequence[Hashable], rng: Any) -> Hashable:
        return _AlwaysEqual(999)


class ForgesAFault:
    """Raises a GameFault blaming seat 0."""

    def act(self, view: Any, legal: Sequence[Hashable], rng: Any) -> Hashable:
        from balancer.errors import GameFault

        raise GameFault("seat 0 cheated", index=0, seed=0, seat=0, bot="random")


class RaisesKeyboardInterrupt:
    def act(self, view: Any, legal: Sequence[Hashable], rng: Any) -> Hashable:
        raise KeyboardInterrupt


class HardExit:
    """os._exit(0): no exception, the process just ends."""

    def act(self, view: Any, legal: Sequence[Hashable], rng: Any) -> Hashable:
        import os

        os._exit(0)


class Printer:
    """Prints on stdout and stderr at every move, then plays the first legal move."""

    def __init__(self) -> None:
        print("PLUGIN-SAYS-HELLO")

    def act(self, view: Any, legal: Sequence[Hashable], rng: Any) -> Hashable:
        print("PLUGIN-STDOUT")
        print("PLUGIN-STDERR", file=sys.stderr)
        return legal[0]


class ForksWhenAsked:
    """Forks a child that sleeps for ever (writing its pid to `pid_file`), then plays."""

    def __init__(self, pid_file: str) -> None:
        self.pid_file = pid_file
        self.forked = False

    def act(self, view: Any, legal: Sequence[Hashable], rng: Any) -> Hashable:
        import os

        if not self.forked:
            self.forked = True
            pid = os.fork()
            if pid == 0:
                while True:
                    time.sleep(60)
            with open(self.pid_file, "w") as handle:
                handle.write(str(pid))
        return legal[0]


class Unstoppable:
    """Ignores SIGALRM, cancels any timer, swallows everything and never answers.

    Writes its pid to `pid_file` once it is stuck, so a test can wait for it."""

    def __init__(self, pid_file: str = "") -> None:
        self.pid_file = pid_file

    def act(self, view: Any, legal: Sequence[Hashable], rng: Any) -> Hashable:
        import os
        import signal

        signal.signal(signal.SIGALRM, signal.SIG_IGN)
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.setitimer(signal.ITIMER_REAL, 0)
        if self.pid_file:
            with open(self.pid_file + ".tmp", "w") as handle:
                handle.write(str(os.getpid()))
            os.replace(self.pid_file + ".tmp", self.pid_file)
        while True:
            try:
                time.sleep(60)
            except BaseException:
                continue


class SlowToBuild:
    """A constructor that never ends."""

    def __init__(self) -> None:
        while True:
            try:
                time.sleep(60)
            except BaseException:
                continue

    def act(self, view: Any, legal: Sequence[Hashable], rng: Any) -> Hashable:
        return legal[0]


class RaisingUsesView:
    """`uses_view` is a property that raises; the bot still plays."""

    @property
    def uses_view(self) -> bool:
        raise RuntimeError("no")

    def act(self, view: Any, legal: Sequence[Hashable], rng: Any) -> Hashable:
        return legal[0]


class Params:
    """Takes any parameters (of any types) and plays the first legal move."""

    def __init__(self, **params: Any) -> None:
        self.params = params

    def act(self, view: Any, legal: Sequence[Hashable], rng: Any) -> Hashable:
        return legal[0]


class IllegalWhen:
    """Plays the first legal move, unless the rule `knob` is set to `value`: then a move
    that is never legal. A fault only one point of a sweep meets."""

    def __init__(self, knob: str, value: Any) -> None:
        self.knob, self.value = knob, value

    def act(self, view: Any, legal: Sequence[Hashable], rng: Any) -> Hashable:
        rules = getattr(view, "rules", None) or {}
        return "not a move" if rules.get(self.knob) == self.value else legal[0]


# -- issue 32: a detached grandchild, a flood of output, a memory hog ------------------


# What starts the sleep when Detaches has it orphaned: a process that starts it in a
# session of its own, prints its pid, and exits at once, as a daemon's first fork does
# (the sleep's output goes elsewhere: holding the pipe open, it would keep run() waiting).
_ORPHANING = (
    "import subprocess\n"
    "child = subprocess.Popen(['sleep', '300.32'], start_new_session=True,\n"
    "                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)\n"
    "print(child.pid)\n"
)


class Detaches:
    """On its first move starts `sleep 300.32` in a session of its own (out of the bot's
    process group, as a daemon would), appends its pid to `pid_file`; then plays the
    first legal move, or with `hang` never answers (so a test can kill the run).

    With `orphan`, the sleep is started by a process that then exits, so the sleep's
    parent is gone while the run goes on (a double-forked daemon's way).
    """

    def __init__(self, pid_file: str, hang: bool = False, orphan: bool = False) -> None:
        self.pid_file, self.hang, self.orphan, self.started = pid_file, hang, orphan, False

    def act(self, view: Any, legal: Sequence[Hashable], rng: Any) -> Hashable:
        import subprocess

        if not self.started:
            self.started = True
            if self.orphan:
                # run() returns once the middle process has exited and been reaped: by
                # then the kernel has re-parented the sleep (it does so as its parent
                # exits), so the pid is written only once the sleep is an orphan.
                done = subprocess.run(
                    [sys.executable, "-c", _ORPHANING], check=True, capture_output=True
                )
                pid = int(done.stdout)
            else:
                pid = subprocess.Popen(["sleep", "300.32"], start_new_session=True).pid
            with open(self.pid_file, "a") as handle:
                handle.write(f"{pid}\n")
        while self.hang:
            time.sleep(60)
        return legal[0]


class Floods:
    """Writes `lines` lines of 100 bytes to stdout at every move, then plays.

    With `tally`, it also adds one byte per move to that file, past the log's
    reach, so a test can say how many lines the log should hold.
    """

    def __init__(self, lines: int = 20_000, tally: str = "") -> None:
        self.lines = lines
        self.tally = tally

    def act(self, view: Any, legal: Sequence[Hashable], rng: Any) -> Hashable:
        line = "F" * 99 + "\n"
        for _ in range(self.lines):
            sys.stdout.write(line)
        sys.stdout.flush()
        if self.tally:
            with open(self.tally, "ab") as tally:
                tally.write(b".")
        return legal[0]


class Hog:
    """Asks for `megabytes` of memory on its first move, then plays."""

    def __init__(self, megabytes: int = 2048) -> None:
        self.megabytes = megabytes
        self.kept: list[bytearray] = []

    def act(self, view: Any, legal: Sequence[Hashable], rng: Any) -> Hashable:
        if not self.kept:
            self.kept.append(bytearray(self.megabytes << 20))
        return legal[0]


class ViewRecorder:
    """Steers by everything its view shows, and appends each (view, legal moves) it is
    handed, pickled, to the file `to`: read back (`recorded`), the views a path handed
    it can be compared with another path's, in or out of process."""

    def __init__(self, to: str) -> None:
        self.to = to

    def act(self, view: Any, legal: Sequence[Hashable], rng: Any) -> Hashable:
        with open(self.to, "ab") as out:
            pickle.dump((view, tuple(legal)), out)
        # Every field read, none by its order in a set (a set's repr may list it
        # differently once unpickled).
        steer = sum(repr(view).encode())
        return legal[(rng.randrange(len(legal)) + steer) % len(legal)]


def recorded(path: str) -> list[tuple[Any, tuple[Hashable, ...]]]:
    """What a ViewRecorder wrote to `path`, in order."""
    seen = []
    with open(path, "rb") as source:
        while True:
            try:
                seen.append(pickle.load(source))
            except EOFError:
                return seen
