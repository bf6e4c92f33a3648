"""Plugin bots in their own process (issue 13, Deliver 3), and reports as data (Deliver 2).

Each hostile plugin is in tests/plugins.py; the outcome of each case follows
from the rule: the plugin sees only its view, its answer is an index the
engine checks, its limits are kept from outside, and its failures are its own.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import polars as pl
import pytest

import balancer
from balancer.bots import host
from balancer.cli import main
from balancer.config import variant as variant_mod

ROOT = Path(__file__).parents[2]
# The package's own copy (variants/ at the top links there): mutmut's copy of the tree
# (make mutate) has balancer/ and tests/ only.
VARIANTS = ROOT / "balancer" / "variants"


def variant_file(tmp_path: Path, seats: str, name: str = "v", games: int = 4) -> Path:
    path = tmp_path / f"{name}.yaml"
    path.write_text(
        f"extends: {VARIANTS / 'fdc-base.yaml'}\nplayers: 3\ngames: {games}\nseats: {seats}\n"
    )
    return path


def one_error_line(capsys: pytest.CaptureFixture[str]) -> str:
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1, err
    assert "Traceback" not in err[0]
    return err[0]


def run_cli(path: Path, out: Path, *extra: str) -> int:
    return main(["run", "-q", str(path), "-o", str(out), "--move-time-limit", "2", *extra])


@pytest.mark.parametrize("trust", [False, True])
def test_a_plugin_drawing_like_random_plays_exactly_the_random_bots_games(
    tmp_path: Path, trust: bool
) -> None:
    plugin = variant_mod.load(
        variant_file(tmp_path, "[random, 'tests.plugins:RandomLike', random]")
    )
    builtin = variant_mod.load(variant_file(tmp_path, "[random, random, random]", "b"))
    with host.trusting(trust):
        a = balancer.run(plugin)
    b = balancer.run(builtin)
    columns = [c for c in a.games.columns if not c.startswith("bot_")]
    assert a.games.select(columns).equals(b.games.select(columns))


@pytest.mark.parametrize(
    ("bot", "says"),
    [
        ("tests.plugins:EqualToEverything", "illegal move a _AlwaysEqual (not a move)"),
        ("tests.plugins:ForgesAFault", "GameFault: seat 0 cheated"),
        ("tests.plugins:RaisesKeyboardInterrupt", "KeyboardInterrupt"),
        ("tests.plugins:HardExit", "process ended"),
        ("tests.plugins:Unstoppable", "time limit of 0.5s"),
    ],
)
@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_hostile_plugin_is_contained_and_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], bot: str, says: str, workers: str
) -> None:
    path = variant_file(tmp_path, f"[random, '{bot}', random]")
    args = ["run", "-q", str(path), "-o", str(tmp_path / "r"), "-w", workers]
    assert main([*args, "--move-time-limit", "0.5"]) == 2
    line = one_error_line(capsys)
    for part in (says, "seat 1", bot, "game 0", "balancer replay"):
        assert part in line, line
    assert not (tmp_path / "r").exists()


def test_the_same_plugins_in_process_are_caught_too(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """--trust-plugins: exact types still checked, a forged fault or a raised
    KeyboardInterrupt still the plugin's, and its own traceback shown."""
    for bot, says in (
        ("tests.plugins:EqualToEverything", "illegal move a _AlwaysEqual"),
        ("tests.plugins:ForgesAFault", "seat 1"),
        ("tests.plugins:RaisesKeyboardInterrupt", "not the user's interrupt"),
    ):
        path = variant_file(tmp_path, f"[random, '{bot}', random]")
        assert run_cli(path, tmp_path / "r", "--trust-plugins") == 2, bot
        err = capsys.readouterr().err.strip().splitlines()
        assert says in err[-1] and "--trust-plugins" in err[-1], err
    path = variant_file(tmp_path, "[random, 'tests.plugins:Raises', random]")
    assert run_cli(path, tmp_path / "r", "--trust-plugins") == 2
    err = capsys.readouterr().err
    assert "Traceback" in err and 'raise RuntimeError("the plugin broke")' in err


def test_out_of_process_a_plugin_reaches_no_state(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The Peeker plays an illegal move exactly when it finds the engine's state."""
    path = variant_file(tmp_path, "[random, 'tests.plugins:Peeker', random]")
    assert run_cli(path, tmp_path / "hosted") == 0
    capsys.readouterr()
    # In process it does find it: the check is real.
    assert run_cli(path, tmp_path / "trusted", "--trust-plugins") == 2
    assert "found the state" in capsys.readouterr().err


def test_rewriting_the_rules_out_of_process_changes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Out of process the plugin rewrites only its own copy: its games are the
    FirstLegal plugin's, with one worker or two, and report.json states the file's rules."""
    rewriter = variant_file(tmp_path, "[random, 'tests.plugins:RulesRewriter', random]", "w")
    plain = variant_file(tmp_path, "[random, 'tests.plugins:FirstLegal', random]", "p")
    for workers in ("1", "2"):
        assert run_cli(rewriter, tmp_path / f"w{workers}", "-w", workers) == 0
    assert run_cli(plain, tmp_path / "p") == 0
    capsys.readouterr()
    reports = {
        name: json.loads((tmp_path / name / "report.json").read_text())
        for name in ("w1", "w2", "p")
    }
    assert reports["w1"]["variant"]["rules"]["neko_ni_koban"] is True
    assert [s["score"] for s in reports["w1"]["seats"]] == [
        s["score"] for s in reports["p"]["seats"]
    ]
    assert reports["w1"]["seats"] == reports["w2"]["seats"]


def test_a_plugins_output_never_mixes_into_balancers(
    tmp_path: Path, capfd: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    path = variant_file(tmp_path, "[random, 'tests.plugins:Printer', random]")
    assert run_cli(path, tmp_path / "r") == 0
    out, err = capfd.readouterr()
    assert "PLUGIN" not in out + err
    # ... and it goes to $BALANCER_PLUGIN_LOG when that names a file.
    log = tmp_path / "plugin.log"
    monkeypatch.setenv(host.LOG_ENV, str(log))
    assert run_cli(path, tmp_path / "r") == 0
    out, err = capfd.readouterr()
    assert "PLUGIN" not in out + err
    text = log.read_text()
    assert "PLUGIN-SAYS-HELLO" in text and "PLUGIN-STDOUT" in text and "PLUGIN-STDERR" in text


def _gone(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/status").read_text()
    except FileNotFoundError:
        return True
    return "State:\tZ" in state


def test_a_plugin_that_forks_lets_the_run_end_and_its_child_dies(tmp_path: Path) -> None:
    pid_file = tmp_path / "pid"
    bot = f"{{bot: 'tests.plugins:ForksWhenAsked', params: {{pid_file: '{pid_file}'}}}}"
    path = variant_file(tmp_path, f"[random, {bot}, random]")
    assert run_cli(path, tmp_path / "r") == 0
    pid = int(pid_file.read_text())
    assert _gone(pid)


def test_a_constructor_has_a_time_limit(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(host, "BUILD_TIME_LIMIT", 1.0)
    path = variant_file(tmp_path, "[random, 'tests.plugins:SlowToBuild', random]")
    assert run_cli(path, tmp_path / "r") == 2
    line = one_error_line(capsys)
    assert "building the bot took longer than 1s" in line and "seat 1" in line


def test_a_raising_uses_view_and_mixed_type_params_are_no_crash(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = variant_file(tmp_path, "[random, 'tests.plugins:RaisingUsesView', random]")
    assert run_cli(path, tmp_path / "a") == 0
    mixed = "{bot: 'tests.plugins:Params', params: {1: a, b: [1, x, 2.5], c: {d: null}}}"
    path = variant_file(tmp_path, f"[random, {mixed}, random]", "m")
    # A parameter named 1 can't be passed by name: validate refuses it as run does, one line
    # (issue 32), never a crash on a label of mixed-type names.
    assert main(["validate", str(path)]) == 2
    assert "params[1]: a plugin's parameters are passed by name" in one_error_line(capsys)
    assert run_cli(path, tmp_path / "m") == 2
    assert "params[1]: a plugin's parameters are passed by name" in one_error_line(capsys)
    mixed = "{bot: 'tests.plugins:Params', params: {a: 1, b: [1, x, 2.5], c: {d: null}}}"
    path = variant_file(tmp_path, f"[random, {mixed}, random]", "m2")
    assert run_cli(path, tmp_path / "m2") == 0


def test_ctrl_c_stops_a_run_whose_plugin_ignores_everything(tmp_path: Path) -> None:
    """The plugin ignores SIGINT and SIGALRM and never answers; Ctrl-C still
    stops balancer (exit 130) and the plugin's process dies with the run."""
    pid_file = tmp_path / "stuck"
    bot = f"{{bot: 'tests.plugins:Unstoppable', params: {{pid_file: '{pid_file}'}}}}"
    path = variant_file(tmp_path, f"[random, {bot}, random]")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys; from balancer.cli import main; sys.exit(main())",
            "run",
            "-q",
            str(path),
            "-o",
            str(tmp_path / "r"),
        ],
        env=env,
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        while not pid_file.exists():  # the plugin says when it is stuck in its move
            assert proc.poll() is None, proc.communicate()
            time.sleep(0.05)
        plugin_pid = int(pid_file.read_text())
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert proc.returncode == 130, err
    assert b"interrupted" in err
    assert _gone(plugin_pid)
    assert not (tmp_path / "r").exists()


# -- Deliver 2: reports are data --------------------------------------------------


@pytest.fixture
def evil_plugin(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A plugin module whose import alone leaves a mark (as a shared report's could)."""
    mark = tmp_path / "imported"
    package = tmp_path / "evil_pkg"
    package.mkdir()
    (package / "evilbot.py").write_text(
        "import pathlib\n"
        f"pathlib.Path({str(mark)!r}).write_text('ran')\n"
        "class Bot:\n"
        "    def act(self, view, legal, rng):\n"
        "        return legal[0]\n"
    )
    monkeypatch.syspath_prepend(str(package))
    return mark


def test_a_report_naming_a_plugin_runs_no_code_unless_allowed(
    tmp_path: Path, evil_plugin: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    report = tmp_path / "r"
    assert main(["run", "-q", str(VARIANTS / "fdc-3p.yaml"), "-n", "3", "-o", str(report)]) == 0
    data = json.loads((report / "report.json").read_text())
    data["variant"]["seats"] = [{"bot": "evilbot:Bot", "params": {}}] * 3
    data["variant"].pop("bots", None)
    # A forgery consistent with itself (a relabelled seat alone is refused as damage).
    for seat in data["seats"]:
        seat["bot"] = "evilbot:Bot"
    shared = tmp_path / "shared"
    shared.mkdir()
    games = pl.read_parquet(report / "games.parquet")
    games.with_columns(pl.lit("evilbot:Bot").alias(f"bot_{s}") for s in range(3)).write_parquet(
        shared / "games.parquet"
    )
    (shared / "report.json").write_text(json.dumps(data))
    capsys.readouterr()
    assert main(["replay", str(shared), "--game", "0"]) == 2
    line = one_error_line(capsys)
    assert "evilbot:Bot" in line and "--allow-plugins" in line
    assert main(["csv", str(shared), "-o", str(tmp_path / "csv")]) == 0
    assert main(["diff", "-q", str(shared), str(report)]) in (0, 3)
    assert not evil_plugin.exists()
    capsys.readouterr()
    assert main(["replay", str(shared), "--game", "0", "--allow-plugins"]) == 0
    assert evil_plugin.exists()


def test_validate_imports_a_plugin_only_with_import(
    tmp_path: Path, evil_plugin: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = variant_file(tmp_path, "[random, 'evilbot:Bot', random]")
    assert main(["validate", str(path)]) == 0
    assert not evil_plugin.exists()
    assert main(["validate", "--import", str(path)]) == 0
    assert evil_plugin.exists()
    missing = variant_file(tmp_path, "[random, 'no_such_module_x:Bot', random]", "m")
    assert main(["validate", str(missing)]) == 0
    capsys.readouterr()
    assert main(["validate", "--import", str(missing)]) == 2
    assert "can't import" in one_error_line(capsys)


@pytest.mark.parametrize(
    "name", ["os:system x", "a..b:C", ":C", "a:", "a:b:c", "mod\u202e:Bot", "a" * 300 + ":B"]
)
def test_a_malformed_plugin_name_is_refused_without_import(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    path = variant_file(tmp_path, f"[random, {json.dumps(name)}, random]")
    assert main(["validate", str(path)]) == 2
    assert "v.yaml" in one_error_line(capsys)


def _keeper(channel: socket.socket, lifeline: socket.socket) -> subprocess.Popen[bytes]:
    """A bot's keeper (bots/host.py's keep) started by hand, no log, the default memory."""
    return subprocess.Popen(
        host.keeper_command(channel.fileno(), lifeline.fileno(), 0, 0, host.DEFAULT_MEMORY_LIMIT),
        pass_fds=(channel.fileno(), lifeline.fileno()),
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        start_new_session=True,
    )


@pytest.mark.parametrize("engine_gone_first", [False, True])
def test_a_keeper_ends_its_bot_when_the_engine_lets_go_even_before_it_started(
    engine_gone_first: bool,
) -> None:
    """The bot's channel reads end-of-file only once the bot's process is gone. While
    the engine holds the lifeline the bot waits for its build message (the control);
    once the lifeline is let go, or was before the keeper even started (an engine
    killed at once), the keeper kills the bot and exits 0."""
    ours, theirs = socket.socketpair()
    life_ours, life_theirs = socket.socketpair()
    if engine_gone_first:
        life_ours.close()
    proc = _keeper(theirs, life_theirs)
    theirs.close()
    life_theirs.close()
    try:
        ours.settimeout(1.0)
        if not engine_gone_first:
            with pytest.raises(TimeoutError):
                ours.recv(1)  # the bot is there, waiting to be built
            life_ours.close()
        assert proc.wait(timeout=60) == 0
        ours.settimeout(10.0)
        assert ours.recv(1) == b""  # no process holds the bot's end any more
    finally:
        proc.kill()
        proc.wait()
        ours.close()
