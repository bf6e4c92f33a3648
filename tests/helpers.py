"""What the tests share: where things are, writing variant files, reading what a
run wrote, and `balancer` processes that never outlive their test.

A test that needs a run to be under way waits for a line the run prints, never
for a length of time; SAFETY_TIMEOUT only turns a hang into a clear failure.
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).parent.parent
VARIANTS = ROOT / "balancer" / "variants"  # package data (variants/ at the top links here)
FDC3 = str(VARIANTS / "fdc-3p.yaml")

# Seconds before a wait for something that takes a second or so gives up and
# fails the test saying what it waited for. A safety net on a hang, not a
# measure of speed: no test passes or fails by how fast the machine is.
SAFETY_TIMEOUT = 120.0


# -- files --------------------------------------------------------------------


def write_file(tmp_path: Path, content: str | bytes, name: str = "v.yaml") -> Path:
    """`content` (text as UTF-8, or bytes as they are) in tmp_path/name."""
    path = tmp_path / name
    path.write_bytes(content.encode("utf-8") if isinstance(content, str) else content)
    return path


def variant_file(tmp_path: Path, extends: str, text: str = "", name: str = "v.yaml") -> Path:
    """A variant in tmp_path that extends the shipped variant `extends` with `text`."""
    return write_file(tmp_path, f"extends: {VARIANTS / extends}\n{text}", name)


def load_report(folder: Path) -> dict[str, Any]:
    return json.loads((folder / "report.json").read_text())


def contents(folder: Path) -> dict[str, bytes]:
    """Every file under `folder`, by relative path: to show a folder was left as it was."""
    return {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


def assert_untouched(out: Path, before: dict[str, bytes]) -> None:
    """`out` holds what it held, and nothing half-written (a dot-file) is left beside it."""
    assert contents(out) == before
    leftovers = [p.name for p in out.parent.iterdir() if p.name.startswith(".")]
    assert leftovers == []


# -- the command line -----------------------------------------------------------


def one_error_line(capsys: pytest.CaptureFixture[str]) -> str:
    """What a failed command printed on stderr, which must be one line and no traceback."""
    err = capsys.readouterr().err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert "Traceback" not in err
    return lines[0]


@contextlib.contextmanager
def safety_net(what: str, seconds: float = SAFETY_TIMEOUT) -> Iterator[None]:
    """Fail if the block took longer than `seconds`: for work that must stay bounded
    (a hostile file must not expand without end), never a claim about speed."""
    started = time.monotonic()
    yield
    elapsed = time.monotonic() - started
    assert elapsed < seconds, f"{what} took {elapsed:.0f}s, past the {seconds:.0f}s safety net"


# -- processes ------------------------------------------------------------------


def balancer_command(*args: str) -> list[str]:
    """`balancer ARGS` as this interpreter runs it, from this checkout."""
    return [sys.executable, "-m", "balancer", *args]


def subprocess_env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(ROOT)}


class Running:
    """A process started by `Processes.start`, its stderr read line by line as it comes."""

    def __init__(self, proc: subprocess.Popen[str]) -> None:
        self.proc = proc
        self.pid = proc.pid
        self.stderr: list[str] = []  # every line read so far
        self._lines: queue.Queue[str | None] = queue.Queue()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        assert self.proc.stderr is not None
        for line in self.proc.stderr:
            self._lines.put(line.rstrip("\n"))
        self._lines.put(None)

    def _next_line(self, deadline: float, waiting_for: str) -> str | None:
        try:
            line = self._lines.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            pytest.fail(
                f"no {waiting_for} on stderr within {SAFETY_TIMEOUT:.0f}s; "
                f"stderr so far: {self.stderr}"
            )
        if line is not None:
            self.stderr.append(line)
        return line

    def wait_for_line(self, starts_with: str, timeout: float = SAFETY_TIMEOUT) -> str:
        """Block until the process prints a line starting with `starts_with` on stderr."""
        deadline = time.monotonic() + timeout
        while True:
            line = self._next_line(deadline, f"line starting {starts_with!r}")
            if line is None:
                pytest.fail(
                    f"exited with code {self.proc.wait()} before printing {starts_with!r}; "
                    f"stderr: {self.stderr}"
                )
            if line.startswith(starts_with):
                return line

    def finish(self, timeout: float = SAFETY_TIMEOUT) -> tuple[int, list[str]]:
        """Wait for the process to end: its exit code and the stderr lines not yet read."""
        deadline = time.monotonic() + timeout
        rest = []
        while (line := self._next_line(deadline, "end of output")) is not None:
            rest.append(line)
        try:
            code = self.proc.wait(timeout=max(0.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            pytest.fail(f"still running {timeout:.0f}s on; stderr: {self.stderr}")
        return code, rest


class Processes:
    """Starts processes, each the leader of a process group of its own, and on
    `kill_all` kills every group with SIGKILL and reaps its leader: a run and
    its workers end with the test, whether it passed or failed."""

    def __init__(self) -> None:
        self._started: list[subprocess.Popen[str]] = []
        self._readers: list[threading.Thread] = []

    def start(self, command: list[str], **popen: Any) -> Running:
        """`command` running, stdout discarded, stderr read by the returned Running."""
        popen.setdefault("env", subprocess_env())
        popen.setdefault("stdout", subprocess.DEVNULL)
        running = Running(self._popen(command, stderr=subprocess.PIPE, **popen))
        self._readers.append(running.reader)
        return running

    def run(
        self, command: list[str], timeout: float = SAFETY_TIMEOUT, **popen: Any
    ) -> subprocess.CompletedProcess[str]:
        """Like subprocess.run(..., capture_output=True, text=True, check=True)."""
        popen.setdefault("env", subprocess_env())
        proc = self._popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, **popen)
        try:
            out, err = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            pytest.fail(f"{command[0]} still running {timeout:.0f}s on: {command}")
        if proc.returncode != 0:
            raise subprocess.CalledProcessError(proc.returncode, command, out, err)
        return subprocess.CompletedProcess(command, proc.returncode, out, err)

    def _popen(self, command: list[str], **popen: Any) -> subprocess.Popen[str]:
        proc = subprocess.Popen(command, text=True, start_new_session=True, **popen)
        self._started.append(proc)
        return proc

    def kill_all(self) -> None:
        started, self._started = self._started, []
        readers, self._readers = self._readers, []
        for proc in started:
            # The group outlives its leader: workers of a run that has exited are still in it.
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        # With every group gone no one holds the pipes: the readers are at their end.
        for reader in readers:
            reader.join(SAFETY_TIMEOUT)
            assert not reader.is_alive(), "a process left its group and still holds a pipe"
        for proc in started:
            for stream in (proc.stdout, proc.stderr):
                if stream is not None:
                    stream.close()


def _fails_at_7_and_30(x: int) -> int:
    if x in (7, 30):
        raise ValueError(f"chunk {x}")
    return x


def assert_the_first_failing_chunk_raises_in_order(
    pool: Callable[[Callable[[int], int], Sequence[int], int], Iterator[int]],
) -> None:
    """A backend's pool (threads or processes) raises the first failing chunk's error,
    after yielding every chunk before it, as one process playing them in order would."""
    results = []
    with pytest.raises(ValueError, match="chunk 7"):
        for result in pool(_fails_at_7_and_30, range(40), 3):
            results.append(result)
    assert results == list(range(7))


# -- positions stepped on a kernel --------------------------------------------


def play_forced(py: Any) -> None:
    """The engine's forced moves (one legal move), which a kernel plays itself."""
    while not py.is_terminal() and len(py.legal_actions()) == 1:
        py.apply_action(py.legal_actions()[0])


def kernel_view_matches(
    kernel: Any, engine: Any, kernel_text: str = "", engine_text: str = ""
) -> bool:
    """A compiled kernel's step view shows what the engine's view shows: every field
    equal, the perfect-recall fields included (every kernel's stepping keeps them now,
    docs/determinize.md), and, given the two views' texts, the same text."""
    return type(kernel) is type(engine) and kernel == engine and kernel_text == engine_text


def assert_plays_on_as_the_engine(steps: Any, code: int, py: Any, rngs: Sequence[Any]) -> None:
    """A StepGame at `code` (every seat outside) and the Python State `py` at the same
    position play on by the same draws (seat s picks from rngs[s]): the same seat to act,
    legal moves and view at every decision, and the same record at the end."""
    play_forced(py)
    while code:
        seat = code & 7
        assert seat == py.current_player() and steps.legal(code) == py.legal_actions()
        assert kernel_view_matches(steps.view(seat), py.view(seat))
        action = steps.legal(code)[rngs[seat].randrange(code >> 3)]
        code = steps.play(action)
        py.apply_action(action)
        play_forced(py)
    assert py.is_terminal() and steps.record() == py.record()


def stopped_mid_game(variant: Any, seed: int, index: int, decisions: int) -> tuple[Any, list[Any]]:
    """Game `index` of `seed` played by the engine to its `decisions`-th real choice, each
    seat choosing uniformly from its own stream; the State and the seats' streams as they
    stand."""
    from balancer.rng import CHANCE, Stream, bot_stream

    players = variant.players
    py = variant.spec.new_state(variant.rules, players, Stream(seed, index, CHANCE))
    rngs = [Stream(seed, index, bot_stream(s)) for s in range(players)]
    made = 0
    while not py.is_terminal() and made < decisions:
        legal = py.legal_actions()
        if len(legal) > 1:
            made += 1
        py.apply_action(legal[rngs[py.current_player()].randrange(len(legal))])
    return py, rngs


def assert_compiled_seats_play_positions_out(
    variant: Any, builtin: Any, seed: int, games: int, decisions: Callable[[int], int]
) -> None:
    """A rollout with every seat compiled: game i of `seed` stopped at its decisions(i)-th
    choice (`stopped_mid_game`) and loaded, the kernel plays it to the end in one call,
    and its record (held kinds too) is the engine's with the variant's bots (`builtin`:
    the game's built-in bots) from there, their streams from their start."""
    from balancer.bot import bot_params_with_defaults
    from balancer.rng import Stream, bot_stream
    from balancer.sim import kernel_step

    players = variant.players
    slots = [
        (s.bot, dict(bot_params_with_defaults(builtin[s.bot], s.params))) for s in variant.seats
    ]
    steps = kernel_step.stepper(variant.game, variant.rules, players, slots)
    for index in range(games):
        py, _ = stopped_mid_game(variant, seed, index, decisions(index))
        if py.is_terminal():
            continue
        assert steps.load(py.clone(), range(players), seed, index) == 0
        bots = [builtin[name].factory(**params) for name, params in slots]
        rngs = [Stream(seed, index, bot_stream(s)) for s in range(players)]
        while not py.is_terminal():
            seat, legal = py.current_player(), py.legal_actions()
            # As the engine: a bot is asked (and may draw) only when it has a choice.
            move = legal[0] if len(legal) == 1 else bots[seat].act(py.view(seat), legal, rngs[seat])
            py.apply_action(move)
        record = steps.record()
        assert (record, record.held) == (py.record(), py.record().held), index
