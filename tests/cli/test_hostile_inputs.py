"""Hostile inputs that are not report folders: special files, long names, signals at
start-up, text that would act on a terminal or in Markdown, a failed sweep point.

Each is a hand-made input whose outcome is worked out here: one line on
stderr naming the file and key, exit 2 (130/143 for a signal), never a
traceback, never a hang, and a replay command that plays the failing game.
"""

from __future__ import annotations

import errno
import os
import shlex
import signal
import subprocess
import sys
from pathlib import Path

import polars as pl
import pytest

from balancer.cli import main
from balancer.escape import BIDI_CONTROLS
from tests.helpers import (
    FDC3,
    SAFETY_TIMEOUT,
    VARIANTS,
    assert_untouched,
    balancer_command,
    contents,
    one_error_line,
    safety_net,
    subprocess_env,
    variant_file,
    write_file,
)

# --- special files ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("make", "says"),
    [
        ("fifo", "is a FIFO (named pipe), not a variant file"),
        ("/dev/zero", "is a character device, not a variant file"),
        ("folder", "is a folder, not a variant file"),
    ],
)
def test_extends_naming_a_special_file_says_what_it_is(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], make: str, says: str
) -> None:
    target = make
    if make == "fifo":
        os.mkfifo(tmp_path / "base.yaml")
        target = "base.yaml"
    elif make == "folder":
        (tmp_path / "base.yaml").mkdir()
        target = "base.yaml"
    path = write_file(tmp_path, f"players: 3\nextends: {target}\n")
    with safety_net("extends of a special file"):  # opening a FIFO would wait for ever
        for command in (["validate", str(path)], ["run", "-q", str(path), "-n", "1"]):
            assert main(command) == 2
            line = one_error_line(capsys)
            assert f"{path}:2: extends: {target!r} {says}" in line, line
            assert "no such" not in line


@pytest.mark.parametrize("command", ["validate", "run", "replay"])
def test_a_variant_that_is_a_fifo_or_a_device_is_named_never_waited_on(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str
) -> None:
    fifo = tmp_path / "v.yaml"
    os.mkfifo(fifo)
    extra = ["--game", "0"] if command == "replay" else []
    with safety_net(f"{command} of a FIFO"):
        assert main([command, str(fifo), *extra]) == 2
    assert f"{fifo}: is a FIFO (named pipe), not a file" in one_error_line(capsys)
    assert main([command, "/dev/zero", *extra]) == 2
    assert "/dev/zero: is a character device, not a file" in one_error_line(capsys)


def test_a_symlink_loop_as_extends_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "a").symlink_to(tmp_path / "b")
    (tmp_path / "b").symlink_to(tmp_path / "a")
    path = write_file(tmp_path, "players: 3\nextends: a\n")
    assert main(["validate", str(path)]) == 2
    assert "extends: 'a' lies under a loop of symbolic links" in one_error_line(capsys)


# --- names the file system can't hold ----------------------------------------------


def test_a_variant_name_too_long_for_a_folder_is_refused_by_validate(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = variant_file(tmp_path, "fdc-3p.yaml", "name: " + "n" * 201 + "\n")
    assert main(["validate", str(path)]) == 2
    assert f"{path}:2: name: is 201 bytes long" in one_error_line(capsys)
    # 200 bytes of UTF-8 is the most: 100 two-byte letters are fine, 101 are not.
    assert main(["validate", str(variant_file(tmp_path, "fdc-3p.yaml", "name: " + "é" * 100))]) == 0
    capsys.readouterr()
    path = variant_file(tmp_path, "fdc-3p.yaml", "name: " + "é" * 101 + "\n")
    assert main(["validate", str(path)]) == 2
    assert "name: is 202 bytes long" in one_error_line(capsys)


def test_a_256_byte_path_component_is_one_line_everywhere(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    long = "x" * 256
    extends = write_file(tmp_path, f"players: 3\nextends: {long}.yaml\n")
    cases = [
        (["validate", str(tmp_path / f"{long}.yaml")], "the name is too long"),
        (["validate", str(extends)], ".yaml: the name is too long"),
        (["run", "-q", FDC3, "-n", "1", "-o", str(tmp_path / long)], "at most 241 bytes"),
        (["run", "-q", FDC3, "-n", "1", "-o", str(tmp_path / long / "r")], "too long"),
        (["run", "-q", FDC3, "-n", "1", "-o", str(tmp_path / ("y" * 245))], "at most 241"),
        (["replay", str(tmp_path / long), "--game", "0"], "too long"),
    ]
    for command, says in cases:
        assert main(command) == 2, command
        line = one_error_line(capsys)
        assert says in line, line
    assert list(tmp_path.iterdir()) == [extends]  # nothing was written for any of them


# --- signals while starting ---------------------------------------------------------

# Sends the process a signal of its own the moment it first imports click: as a
# Ctrl-C that lands while balancer loads its modules, at a known point.
SIGNAL_ON_IMPORT = """
import os, signal, sys

class _SignalOnImport:
    def find_spec(self, name, path=None, target=None):
        if name == "click":
            sys.meta_path.remove(self)
            os.kill(os.getpid(), getattr(signal, os.environ["BALANCER_TEST_SIGNAL"]))
        return None

sys.meta_path.insert(0, _SignalOnImport())
"""


@pytest.mark.parametrize(
    ("sig", "code", "says"),
    [
        (signal.SIGINT, 130, "balancer: interrupted; nothing was written."),
        (signal.SIGTERM, 143, "balancer: terminated; nothing was written."),
    ],
)
@pytest.mark.parametrize("entry", ["python -m balancer", "console script"])
def test_a_signal_during_start_up_is_one_line_and_its_exit_code(
    tmp_path: Path, sig: signal.Signals, code: int, says: str, entry: str
) -> None:
    command = balancer_command("run", FDC3, "-n", "5", "-o", str(tmp_path / "out"))
    if entry == "console script":
        script = Path(sys.executable).parent / "balancer"
        if not script.exists():
            pytest.skip("no balancer console script beside this interpreter")
        command = [str(script), *command[3:]]
    hook = tmp_path / "hook"
    hook.mkdir()
    (hook / "sitecustomize.py").write_text(SIGNAL_ON_IMPORT)
    env = subprocess_env()
    env["PYTHONPATH"] = os.pathsep.join([str(hook), env["PYTHONPATH"]])
    env["BALANCER_TEST_SIGNAL"] = sig.name
    out = tmp_path / "out"
    done = subprocess.run(
        command,
        env=env,
        capture_output=True,
        text=True,
        timeout=SAFETY_TIMEOUT,
    )
    assert (done.returncode, done.stderr) == (code, says + "\n")
    assert not out.exists()


def test_the_start_up_handlers_stay_out_of_a_process_that_imports_the_cli() -> None:
    # Importing balancer.cli (as these tests do) leaves Ctrl-C as Python's own.
    script = "import signal, balancer.cli; print(signal.getsignal(signal.SIGINT).__name__)"
    done = subprocess.run(
        [sys.executable, "-c", script],
        env=subprocess_env(),
        capture_output=True,
        text=True,
        timeout=SAFETY_TIMEOUT,
        check=True,
    )
    assert done.stdout.strip() == "default_int_handler"


# --- text that would act: terminal, Markdown, bidi -----------------------------------

HOSTILE_PARAMS = (
    '{"k\\e[2J": "v\\nw\\e]0;title\\a", "fence": "```\\n# injected\\n```", '
    '"link": "[x](http://evil.example)"}'
)


@pytest.fixture(scope="module")
def hostile_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """A run whose name is all Markdown and whose plugin seat's parameters hold escapes,
    newlines and a code fence: its report folder and what it printed."""
    tmp = tmp_path_factory.mktemp("hostile")
    seats = f"[heuristic, heuristic, {{bot: 'tests.plugins:Params', params: {HOSTILE_PARAMS}}}]"
    name = "'# *big* [x](y) `z` <b>'"
    path = variant_file(tmp, "fdc-3p.yaml", f"name: {name}\nseats: {seats}\ngames: 3\n")
    out = tmp / "out"
    done = subprocess.run(
        balancer_command("run", "-q", str(path), "-w", "1", "-o", str(out)),
        env=subprocess_env(),
        capture_output=True,
        text=True,
        timeout=SAFETY_TIMEOUT,
        check=True,
    )
    return out, done.stdout


def test_no_escape_sequence_from_a_plugins_parameters_reaches_the_terminal(
    hostile_run: tuple[Path, str],
) -> None:
    _, printed = hostile_run
    assert "\x1b" not in printed and "\x07" not in printed
    assert "k\\x1b[2J=v\\x0aw\\x1b]0;title\\x07" in printed


def test_summary_md_keeps_the_users_text_as_text(hostile_run: tuple[Path, str]) -> None:
    out, _ = hostile_run
    lines = (out / "summary.md").read_text().splitlines()
    # One heading of the name, every Markdown character of it backslashed.
    assert lines[0] == r"# \# \*big\* \[x\]\(y\) \`z\` \<b\>"
    # The headline's fence is longer than any backtick run inside, so ``` closes nothing.
    fence = lines[2]
    assert set(fence) == {"`"} and len(fence) > 3
    closing = lines.index(fence, 3)
    inside = lines[3:closing]
    outside = lines[:2] + lines[closing + 1 :]
    assert [line for line in outside if line.startswith("# ")] == [lines[0]]
    assert any("```" in line for line in inside)
    assert not any(line.lstrip().startswith(fence) for line in inside)
    assert "# injected" not in [line.strip() for line in lines]
    assert not any(c in "\x1b\x07" for c in "".join(lines))


def test_an_escape_sequence_in_a_yaml_key_is_shown_escaped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = variant_file(tmp_path, "fdc-3p.yaml", 'rules:\n  "hand\\e[2J\\e]0;x\\a": 3\n')
    assert main(["run", "-q", str(path)]) == 2
    line = one_error_line(capsys)
    assert "\x1b" not in line and "\x07" not in line
    assert f"{path}:3: rules." in line


@pytest.mark.parametrize(
    "char", sorted(BIDI_CONTROLS & set("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"))
)
def test_a_bidi_control_in_a_name_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], char: str
) -> None:
    code = f"U+{ord(char):04X}"
    escaped = f"\\u{ord(char):04x}"
    cases = [
        (f'name: "fdc{escaped}3p"\n', f":2: name: must not hold the bidirectional control {code}"),
        (
            f"seats: [heuristic, heuristic, {{bot: 'tests.plugins:Params', "
            f'params: {{who: "a{escaped}b"}}}}]\n',
            f":2: seats[2].params.who: must not hold the bidirectional control {code}",
        ),
        (
            f'seats: [heuristic, heuristic, "tests.plugins:Params{escaped}"]\n',
            ":2: seats[2]: a plugin bot is written package.module:Factory",
        ),
    ]
    for text, says in cases:
        path = variant_file(tmp_path, "fdc-3p.yaml", text)
        assert main(["validate", str(path)]) == 2
        line = one_error_line(capsys)
        assert f"{path}{says}" in line, line
        assert char not in line


# --- flags --------------------------------------------------------------------------


@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "1e999", "0", "-1", "3601"])
@pytest.mark.parametrize("command", ["run", "replay", "sweep"])
def test_a_move_time_limit_that_is_no_number_of_seconds_is_refused(
    capsys: pytest.CaptureFixture[str], command: str, value: str
) -> None:
    args = [command, FDC3, f"--move-time-limit={value}"]
    args += {"replay": ["--game", "0"], "sweep": ["--set", "hand_size=4,5"]}.get(command, [])
    assert main(args) == 2
    assert "--move-time-limit" in one_error_line(capsys)


# --- a failed sweep point ------------------------------------------------------------


def test_a_failed_sweep_points_replay_command_replays_the_failing_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The plugin breaks the game only where hand_size is 4: the sweep's second point.
    seats = (
        "[heuristic, heuristic, {bot: 'tests.plugins:IllegalWhen', "
        "params: {knob: hand_size, value: 4}}]"
    )
    path = variant_file(tmp_path, "fdc-3p.yaml", f"seats: {seats}\n")
    out = tmp_path / "sweep"
    args = ["sweep", "-q", str(path), "-n", "2", "-w", "1", "-o", str(out)]
    args += ["--set", "hand_size=5,4", "--move-time-limit", "2.5"]
    assert main(args) == 2
    line = one_error_line(capsys)
    assert "illegal move 'not a move' (sweep point hand_size=4)" in line
    # It names the folder the user gave, not a temporary one inside it.
    assert f"Nothing was written to {out}." in line
    assert not out.exists()
    command = shlex.split(line.split("Replay it: ", 1)[1])
    assert command[:2] == ["balancer", "replay"]
    assert command[command.index("--set") + 1] == "hand_size=4"
    assert command[command.index("--move-time-limit") + 1] == "2.5"
    # Followed, it plays the failing game and stops where the sweep did...
    assert main(command[1:]) == 2
    assert "the game stopped: " in capsys.readouterr().err
    # ...which without the point's knob value is a clean game.
    without = command[1 : command.index("--set")] + command[command.index("--set") + 2 :]
    assert main(without) == 0, capsys.readouterr().err


def test_a_shipped_variant_still_validates(capsys: pytest.CaptureFixture[str]) -> None:
    # The checks above refuse what they should and no more.
    assert main(["validate", str(VARIANTS / "fdc-5p-vs-random.yaml"), FDC3]) == 0


# --- a full disk -------------------------------------------------------------------


@pytest.mark.parametrize(
    "failure",
    [
        # What polars raises when its Rust writer meets a full disk (seen on a 64 KiB tmpfs).
        pl.exceptions.ComputeError(
            "parquet: File out of specification: underlying IO error: "
            "No space left on device (os error 28)"
        ),
        OSError(errno.ENOSPC, os.strerror(errno.ENOSPC)),
    ],
    ids=["polars", "oserror"],
)
def test_a_full_disk_while_writing_games_parquet_is_one_line_and_keeps_the_old_report(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    failure: Exception,
) -> None:
    out = tmp_path / "out"
    assert main(["run", "-q", FDC3, "-n", "3", "-w", "1", "-o", str(out)]) == 0
    capsys.readouterr()
    before = contents(out)

    def full(self: object, file: object, *args: object, **kwargs: object) -> None:
        Path(str(file)).write_bytes(b"PAR1 half")  # what a full disk leaves behind
        raise failure

    # The run streams its games to games.parquet as they arrive (sim/sink.py).
    monkeypatch.setattr(pl.LazyFrame, "sink_parquet", full)
    assert main(["run", "-q", FDC3, "-n", "4", "-w", "1", "-o", str(out)]) == 2
    line = one_error_line(capsys)
    assert line == f"balancer: error: {out}: can't write the games: No space left on device", line
    assert_untouched(out, before)


def test_extends_holding_a_nul_byte_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write_file(tmp_path, 'players: 3\nextends: "base\\0.yaml"\n')
    assert main(["validate", str(path)]) == 2
    assert f"{path}:2: extends: holds a NUL byte" in one_error_line(capsys)


def test_a_sweep_grid_too_big_to_play_is_refused_before_it_is_built(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # 200 x 200 x 200 = 8,000,000 points: refused from the counts, never enumerated.
    values = ",".join(str(v) for v in range(1, 201))
    args = ["sweep", "-q", FDC3, "-n", "1", "-o", str(tmp_path / "s")]
    for knob in ("hand_size", "neko_min_followers", "uncashed_value"):
        args += ["--set", f"{knob}={values}"]
    with safety_net("refusing a huge sweep"):
        assert main(args) == 2
    assert "8,000,000 points of 1 games each: at most 10,000 points" in one_error_line(capsys)
    # Within the points cap, the games are counted too: 100 points of 2 x 10^6 games is too many.
    args = ["sweep", "-q", FDC3, "-n", "2000000", "-o", str(tmp_path / "s")]
    args += ["--set", f"hand_size={','.join(str(v) for v in range(1, 101))}"]
    assert main(args) == 2
    assert "and 100,000,000 games in all" in one_error_line(capsys)
    assert not (tmp_path / "s").exists()
