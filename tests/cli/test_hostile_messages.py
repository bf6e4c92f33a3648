"""Messages that say what is true, and user errors that exit 2 (issue 32, Deliver 4).

Each case is a hand-made input with the message worked out here, beside a control
that shows the same command taking the same input when it is right.
"""

from __future__ import annotations

import subprocess
import sys
import unicodedata
from pathlib import Path

import click
import pytest

from balancer import environment
from balancer.cli import cli, main
from balancer.cli import diff as diff_cli
from balancer.cli.options import check_placement
from balancer.errors import UserError
from balancer.escape import contrast
from tests.helpers import FDC3, VARIANTS, one_error_line, subprocess_env, write_file

pytestmark = pytest.mark.usefixtures("engine_unchecked")


@pytest.fixture(scope="module")
def reports(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    folder = tmp_path_factory.mktemp("reports")
    a, b = folder / "a", folder / "b"
    assert main(["run", "-q", FDC3, "-n", "4", "-w", "1", "-o", str(a)]) == 0
    assert main(["run", "-q", FDC3, "-n", "4", "-w", "1", "-o", str(b), "--seed", "7"]) == 0
    return a, b


# -- the environment, read alike by every command ------------------------------------

MISSING = "no-such-variant.yaml"

# Each command with arguments it parses, naming a file that isn't there where it reads
# one: the control (a good environment) then fails on the file, not on the environment.
ARGUMENTS: dict[str, list[str]] = {
    "cards": [MISSING],
    "check": ["-q", MISSING],
    "csv": [MISSING],
    "diff": ["-q", MISSING, MISSING],
    "docs": ["rules", "4"],
    "events": ["fdc"],
    "init": ["fdc", "{tmp}/mine.yaml"],
    "kk-odds": ["--theme", "r5,b7", "--mine", "y3,g12", "--free", "r1,b9"],
    "knobs": ["fdc"],
    "ladder": [MISSING, "-p", "3", "-q"],
    "plays": ["-q", MISSING],
    "replay": [MISSING, "--game", "0"],
    "run": ["-q", MISSING, "-o", "{tmp}/r"],
    "show": [MISSING],
    "sweep": ["-q", MISSING, "--set", "hand_size=4,5", "-o", "{tmp}/s"],
    "tune": ["-q", MISSING, "--knob", "hand_size=4..6", "--target", "margin.mean=1"],
    "design": [
        "-q",
        MISSING,
        "--knob",
        "hand_size=4..6",
        "--goal",
        "margin.mean=1",
        "-o",
        "{tmp}/d",
    ],
    "validate": [MISSING],
    "variants": [],
}


def test_the_environment_cases_cover_every_command() -> None:
    assert sorted(ARGUMENTS) == cli.list_commands(click.Context(cli))


@pytest.mark.parametrize("name", sorted(ARGUMENTS))
def test_a_balancer_lang_naming_no_language_is_refused_by_every_command(
    name: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(tmp_path)
    argv = [name, *(arg.format(tmp=tmp_path) for arg in ARGUMENTS[name])]
    monkeypatch.setenv("BALANCER_LANG", "xx")
    assert main(argv) == 2
    assert one_error_line(capsys) == "balancer: error: BALANCER_LANG: expected en or ja, not 'xx'"
    assert list(tmp_path.iterdir()) == []  # nothing written, not even init's file
    # The control: a language it names lets the command go on to its own work.
    monkeypatch.setenv("BALANCER_LANG", "ja")
    code = main(argv)
    out = capsys.readouterr()
    assert "BALANCER_LANG" not in out.err
    if MISSING in argv:
        assert code == 2 and MISSING in out.err
    else:
        assert code == 0, out.err


@pytest.mark.parametrize(
    ("variable", "value", "said"),
    [
        ("BALANCER_JIT", "no", "BALANCER_JIT: expected 0 or 1, not 'no'"),
        ("BALANCER_CHECK", "yes", "BALANCER_CHECK: expected 0 or 1, not 'yes'"),
        ("BALANCER_PLUGIN_LOG", "{tmp}", "BALANCER_PLUGIN_LOG: '{tmp}' is a folder; name a file"),
        (
            "BALANCER_PLUGIN_LOG",
            "{tmp}/no/log.txt",
            "BALANCER_PLUGIN_LOG: '{tmp}/no/log.txt' lies in no folder that exists",
        ),
    ],
)
def test_every_balancer_variable_is_checked_before_a_command_starts(
    variable: str,
    value: str,
    said: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv(variable, value.format(tmp=tmp_path))
    for argv in (["events", "fdc"], ["validate", FDC3]):
        assert main(argv) == 2
        assert said.format(tmp=tmp_path) in one_error_line(capsys)
    # The control: the values each one takes.
    for good in ("0", "1", "") if "LOG" not in variable else (f"{tmp_path}/log.txt", ""):
        monkeypatch.setenv(variable, good)
        assert main(["events", "fdc"]) == 0, good
    assert environment.check_requested() is False  # "" is unset
    monkeypatch.setenv("BALANCER_CHECK", "1")
    assert environment.check_requested() is True


def test_a_balancer_lang_naming_a_language_is_taken_by_every_command(
    reports: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("BALANCER_LANG", "ja")
    commands = [
        ["run", "-q", FDC3, "-n", "2", "-o", str(tmp_path / "r")],
        ["diff", "-q", *map(str, reports)],
        ["csv", str(reports[0]), "-o", str(tmp_path / "t")],
        ["validate", FDC3],
        ["replay", str(reports[0]), "--game", "0"],
    ]
    for command in commands:
        assert main(command) == 0, command


# -- what a refusal says ---------------------------------------------------------------


def test_a_sweep_folder_is_said_to_be_a_sweep_folder_by_writers_and_readers(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sweep = tmp_path / "s"
    args = ["sweep", "-q", FDC3, "-n", "2", "-o", str(sweep), "--set", "hand_size=4,5"]
    assert main(args) == 0
    capsys.readouterr()
    assert main(["run", "-q", FDC3, "-n", "2", "-o", str(sweep)]) == 2
    line = one_error_line(capsys)
    assert line == (
        f"balancer: error: {sweep}: it is a sweep folder (sweep.csv), not a report folder "
        "(report.json), so it is left alone; name another output folder"
    )
    # A command that reads a report is told where the sweep's reports are, not that
    # a report lacks its report.json.
    point = sweep / "000-hand_size=4"
    for argv in (["csv", str(sweep)], ["replay", str(sweep), "--game", "0"], ["cards", str(sweep)]):
        assert main(argv) == 2
        assert one_error_line(capsys) == (
            f"balancer: error: {sweep}: is a sweep folder (sweep.csv), not a report folder; "
            f"each point's report is a folder in it, such as {point}"
        )
    # The control: that folder is a report every reader takes.
    assert main(["csv", str(point), "-o", str(tmp_path / "t")]) == 0
    # And a folder of csv's tables is said to be that.
    assert main(["csv", str(tmp_path / "t")]) == 2
    assert one_error_line(capsys).endswith(
        f"{tmp_path / 't'}: is a folder of CSV tables (games.csv), not a report folder"
    )


def test_diff_of_a_report_and_a_variant_of_one_game_by_two_names_compares(
    reports: tuple[Path, Path],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """It said "A is fdc with 3 players, B is fish-dash-cash with 3: nothing to compare":
    two names of one game, and two equal counts, shown as if they differed."""
    import json
    import shutil

    short = tmp_path / "short"
    shutil.copytree(reports[0], short)
    document = json.loads((short / "report.json").read_text())
    document["game"] = document["variant"]["game"] = "fdc"  # the game's short name
    (short / "report.json").write_text(json.dumps(document))
    monkeypatch.chdir(tmp_path)  # where the diff writes B's run
    assert main(["diff", "-q", str(short), FDC3]) == 0, capsys.readouterr().err
    capsys.readouterr()
    # What does differ is said, and only that (the control: a refusal still comes).
    assert main(["diff", "-q", str(short), str(VARIANTS / "fdc-4p.yaml")]) == 2
    assert one_error_line(capsys) == (
        "balancer: error: A has 3 players, B 4: nothing to compare "
        "(a diff compares one game at one table size)"
    )
    assert main(["diff", "-q", str(short), str(VARIANTS / "kk-3p.yaml")]) == 2
    assert one_error_line(capsys) == (
        "balancer: error: A is a game of 'fdc', B of 'kimekimera': nothing to compare"
    )


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("x" * 80 + "a", "x" * 80 + "b"),  # alike for longer than a cut
        (unicodedata.normalize("NFC", "café"), unicodedata.normalize("NFD", "café")),
        ("a\u200db", "ab"),
    ],
)
def test_two_values_said_to_differ_are_shown_differing(a: str, b: str) -> None:
    shown = contrast(a, b)
    assert shown[0] != shown[1]
    assert all(len(text) <= 70 for text in shown)
    assert contrast("same", "same") == ("'same'", "'same'")  # the control: alike stay alike


def test_a_long_value_is_cut_in_any_message() -> None:
    message = UserError("not " + "9" * 991, key="seat").message
    assert len(message) < 300 and message.startswith("seat: not 999") and "991" not in message
    assert UserError("not " + "9" * 150).message == "not " + "9" * 150  # short: whole


@pytest.mark.parametrize(
    "argv",
    [
        ["run", "-q", FDC3, "-n", "9" * 991],  # click's own refusal of a flag's value
        ["run", "-q", FDC3, "--seed", "9" * 991],
        ["9" * 991],  # no such command
        ["run", "-q", "9" * 991 + ".yaml"],  # was a traceback: a name too long to look up
        ["validate", "9" * 991],
    ],
)
def test_a_long_value_given_on_the_command_line_is_cut(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    line = one_error_line(capsys)
    assert "9" * 130 not in line and len(line) < 400, line
    assert "characters)" in line or "..." in line


def test_a_tune_value_is_named_once(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["tune", "-q", FDC3, "--knob", "hand_size=999..1001", "--target", "margin.mean=1"]
    assert main(args) == 2
    assert one_error_line(capsys) == (
        "balancer: error: --knob hand_size=999..1001: must be at most 1000 (the range is "
        "1..1000), got 1001 (tune takes numeric knobs)"
    )


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (
            ["run", "--set", "hand_size=0"],
            "--set hand_size=0: must be at least 1 (the range is 1..1000), got 0",
        ),
        (
            ["sweep", "--set", "hand_size=4,nan"],
            "--set hand_size=4,nan: expected a whole number, got 'nan'",
        ),
        (
            ["sweep", "--set", "hand_size=4,04"],
            "--set hand_size=4,04: '04' is listed after '4', the same value",
        ),
        (["sweep", "--set", "hand_size=4,5,4"], "--set hand_size=4,5,4: '4' is listed twice"),
        # The knob's words don't name the value: which of the list it is goes first.
        (
            ["sweep", "--set", "deck={copies: 0},{copies: 1}"],
            "--set deck={copies: 0},{copies: 1}: '{copies: 0}': deck.copies must be a whole "
            "number, at least 1",
        ),
    ],
)
def test_a_set_value_is_named_once(
    argv: list[str], said: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([argv[0], "-q", FDC3, "-o", str(tmp_path / "r"), *argv[1:]]) == 2
    assert one_error_line(capsys) == f"balancer: error: {said}"


def test_diff_checks_alpha_before_playing_either_variant(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    played: list[object] = []

    def prepare(*args: object, **kwargs: object) -> None:
        played.append(args)
        raise KeyboardInterrupt  # stands for the games: stop here

    monkeypatch.setattr(diff_cli, "_prepare", prepare)
    args = ["diff", "-q", FDC3, str(VARIANTS / "fdc-4p.yaml")]
    assert main([*args, "--alpha", "nan"]) == 2
    assert "--alpha must be between 0 and 1, not nan" in one_error_line(capsys)
    assert played == []
    assert main([*args, "--alpha", "0.05"]) == 130  # the control: then they are played
    assert len(played) == 1


FDC5 = str(VARIANTS / "fdc-5p.yaml")
FDC5_FACE = str(VARIANTS / "fdc-5p-face.yaml")
EXPECTING = "extends: {fdc3}\nexpect:\n  length.mean: {{within: [10, 30]}}\n"

# Each command with its flags right, then one of them wrong, and what the refusal says.
BAD_FLAGS: list[tuple[list[str], tuple[str, str], str]] = [
    (["diff", "-q", FDC5, FDC5_FACE, "--alpha", "0.05"], ("0.05", "nan"), "--alpha"),
    (
        ["diff", "-q", FDC5, FDC5_FACE, "--tolerance", "win=0.1"],
        ("win=0.1", "win=inf"),
        "--tolerance: tolerance 'inf' must be a finite number above 0",
    ),
    (["run", "-q", FDC3, "-o", "{out}", "--until", "win_ci<=0.2"], ("0.2", "nan"), "--until"),
    (["run", "-q", FDC3, "-o", "{out}", "--set", "hand_size=4"], ("=4", "=0"), "hand_size=0"),
    (["run", "-q", FDC3, "-o", "{out}", "--trace", "2"], ("2", "-2"), "--trace"),
    (
        ["sweep", "-q", FDC3, "-o", "{out}", "--set", "hand_size=4,5", "--set", "cash_value=face"],
        ("=face", "=nan"),
        "--set cash_value=nan",
    ),
    (
        ["tune", "-q", FDC3, "--knob", "hand_size=4..6", "--target", "margin.mean=1"],
        ("=1", "=nan"),
        "--target: the target value must be finite",
    ),
    (
        ["tune", "-q", FDC3, "--target", "margin.mean=1", "--knob", "hand_size=4..6:1"],
        (":1", ":nan"),
        "the STEP must be a positive number, not nan",
    ),
    (
        ["check", "-q", "{expecting}", "--alpha", "0.05"],
        ("0.05", "0.7"),
        "--alpha: must be between",
    ),
    (
        ["ladder", "-q", "fdc", "-p", "3", "--bots", "random,heuristic"],
        ("heuristic", "nope"),
        "unknown bot 'nope'",
    ),
]


@pytest.mark.parametrize(("argv", "change", "said"), BAD_FLAGS)
def test_a_bad_flag_is_refused_before_any_game_is_played(
    argv: list[str],
    change: tuple[str, str],
    said: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from balancer.sim import runner

    played: list[str] = []

    def games(*args: object, **kwargs: object) -> None:
        played.append("games")
        raise KeyboardInterrupt  # stands for the games: stop here

    # Every command's games start at one of these two (a run, or analysis.plays).
    monkeypatch.setattr(runner, "run", games)
    monkeypatch.setattr(runner, "pick_backend", games)
    expecting = write_file(tmp_path, EXPECTING.format(fdc3=FDC3), "expecting.yaml")
    out = tmp_path / "out"
    good = [arg.format(out=out, expecting=expecting) for arg in argv]
    # The last flag's value, made wrong.
    bad = [*good[:-1], good[-1].replace(*change)]
    assert bad != good
    assert main(bad) == 2
    assert said in one_error_line(capsys)
    assert played == []
    assert not out.exists()
    # The control: right, it plays games (-n 90: tune gives each of 3 values 30 at least).
    assert main([*good, "-n", "90"]) == 130
    assert played == ["games"]


@pytest.mark.parametrize(
    ("address", "said"),
    [
        ("tcp://127.0.0.1:99999", "port 99999 can't exist: a port is a number from 1 to 65535"),
        ("tcp://127.0.0.1:0", "port 0 can't exist"),
        ("127.0.0.1:1000000000000000000000", "port of 22 digits can't exist"),
        ("tcp://[::1]:" + "9" * 991, "port of 991 digits can't exist"),
        ("tcp://127.0.0.1:abc", "port 'abc' is not a number: a port is a number from 1 to"),
        ("tcp://127.0.0.1:-1", "port '-1' is not a number"),
        ("tcp://127.0.0.1", "'tcp://127.0.0.1' names no port: write it [SCHEME://]HOST:PORT"),
        ("tcp://:8786", "'tcp://:8786' names no host"),
        ("tcp://a b:8786", "host 'a b' is not a host's name or address"),
        ("tcp://127.0.0.1:8786/x", "'tcp://127.0.0.1:8786/x' is not an address"),
        ("foo://h:8786", "unknown scheme 'foo' (Dask listens at tcp://, tls://"),
    ],
)
def test_an_impossible_scheduler_address_is_said_so_before_connecting(
    address: str, said: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["run", "-q", FDC3, "-n", "2", "-o", str(tmp_path / "r"), "--backend", "dask"]
    assert main([*args, "--scheduler", address]) == 2
    line = one_error_line(capsys)
    assert f"balancer: error: --scheduler: {said}" in line, line
    assert "reach" not in line and "refused" not in line and len(line) < 160
    assert not (tmp_path / "r").exists()


@pytest.mark.parametrize("address", ["tcp://127.0.0.1:8786", "[::1]:1", "tls://sched.lan:65535"])
def test_a_scheduler_address_that_can_be_is_taken(address: str) -> None:
    check_placement("dask", address)  # the control: no error


# -- variant files -----------------------------------------------------------------


def test_game_null_says_the_game_is_empty_not_missing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write_file(tmp_path, "game: null\nplayers: 3\nbots: random\n")
    assert main(["validate", str(path)]) == 2
    line = one_error_line(capsys)
    assert line == (
        f"balancer: error: {path}:1: game: is empty (null); name the game: "
        "fish-dash-cash, kimekimera, da-qi-zi, fish-dash-cash-roles, fish-market, mega-racer, "
        "zodiac-race or a game file"
    )
    assert "missing" not in line
    path = write_file(tmp_path, "players: 3\nbots: random\n", "m.yaml")  # the control
    assert main(["validate", str(path)]) == 2
    assert "missing key 'game'" in one_error_line(capsys)


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("players: null\n", "players: expected a whole number, got null (empty)"),
        ("players:\n", "players: expected a whole number, got null (empty)"),
        ("hand_size: null\n", "hand_size: expected a whole number, got null (empty)"),
        ("neko_ni_koban: ~\n", "neko_ni_koban: expected true or false, got null (empty)"),
        ("first_leader: null\n", "first_leader: expected one of seat0, random, got null"),
        ("seats: null\n", "seats: expected a list with one bot per seat, got null (empty)"),
        (
            "seats: [random, null, random]\n",
            "seats[1]: expected a bot name or {bot:, params:}, got null (empty)",
        ),
        (
            "name: null\n",
            "name: is empty (null): give a name, or leave name: out to use the file's",
        ),
        (
            "bots: [random, null, random]\n",
            "bots: names one bot for every seat; to seat different bots",
        ),
        ("seat_rotation: True\n", None),  # the control: YAML's True is true
    ],
)
def test_an_empty_value_is_said_to_be_empty_not_python_none(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, said: str | None
) -> None:
    path = write_file(tmp_path, f"extends: {FDC3}\n{text}")
    if "bots:" in text:  # the shipped fdc-3p names its bots under bots:
        path = write_file(tmp_path, f"game: fdc\nplayers: 3\n{text}")
    if said is None:
        assert main(["validate", str(path)]) == 0
        return
    assert main(["validate", str(path)]) == 2
    line = one_error_line(capsys)
    assert f"{path}:" in line and said in line, line
    assert "None" not in line


def test_extends_dev_stdin_says_what_stdin_is(tmp_path: Path) -> None:
    path = write_file(tmp_path, "extends: /dev/stdin\nplayers: 3\n")
    command = [sys.executable, "-m", "balancer", "validate", str(path)]
    env = subprocess_env()
    done = subprocess.run(command, input=b"", capture_output=True, env=env, timeout=120)
    assert done.returncode == 2
    line = done.stderr.decode().strip()
    assert "extends: '/dev/stdin' is a FIFO (named pipe), not a variant file" in line, line
    assert "no such" not in line
    # The control: stdin a variant file, which it then is.
    with open(VARIANTS / "fdc-base.yaml", "rb") as base:
        done = subprocess.run(command, stdin=base, capture_output=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize(
    ("game", "kind"), [("/dev/null", "a character device"), ("/tmp", "a folder")]
)
def test_a_game_that_is_no_file_says_what_it_is(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], game: str, kind: str
) -> None:
    path = write_file(tmp_path, f"game: {game}\nplayers: 3\nbots: random\n")
    assert main(["validate", str(path)]) == 2
    assert one_error_line(capsys).endswith(f"game: '{game}' is {kind}, not a game file")
    path = write_file(tmp_path, "game: ./nowhere.yaml\nplayers: 3\n", "n.yaml")  # the control
    assert main(["validate", str(path)]) == 2
    assert one_error_line(capsys).endswith("game: no such game file './nowhere.yaml'")


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ('name: "a\\u200db"\n', "name"),
        ('name: "\\u00adab"\n', "name"),
        ('name: "a\\u3164b"\n', "name"),
        (
            "seats: [random, {bot: 'tests.plugins:Params', params: {a: \"x\\u200dy\"}}, random]\n",
            "seats[1].params.a",
        ),
    ],
)
def test_an_invisible_format_character_is_refused_in_a_name(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, key: str
) -> None:
    path = write_file(tmp_path, f"extends: {VARIANTS / 'fdc-3p.yaml'}\n{text}")
    assert main(["validate", str(path)]) == 2
    line = one_error_line(capsys)
    blank = "blank" if "3164" in text else "invisible format"
    assert f"{key}: must not hold the {blank} character U+" in line, line
    assert "look other than it is" in line
    path = write_file(tmp_path, f"extends: {VARIANTS / 'fdc-3p.yaml'}\nname: ab\n", "c.yaml")
    assert main(["validate", str(path)]) == 0  # the control


def test_validate_refuses_plugin_params_run_would_refuse(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    seat = "{bot: 'tests.plugins:Params', params: {1: a}}"
    path = write_file(
        tmp_path, f"extends: {VARIANTS / 'fdc-3p.yaml'}\nseats: [random, {seat}, random]\n"
    )
    assert main(["validate", str(path)]) == 2
    line = one_error_line(capsys)
    assert "seats[1].params[1]: a plugin's parameters are passed by name" in line, line
    assert main(["run", "-q", str(path), "-o", str(tmp_path / "r")]) == 2
    assert "seats[1].params[1]" in one_error_line(capsys)
    seat = "{bot: 'tests.plugins:Params', params: {a: 1}}"  # the control
    path = write_file(
        tmp_path,
        f"extends: {VARIANTS / 'fdc-3p.yaml'}\nseats: [random, {seat}, random]\n",
        "c.yaml",
    )
    assert main(["validate", str(path)]) == 0
