"""Shell completion: shipped variants' names, games' names and a variant's own knobs."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from click.shell_completion import ShellComplete

from balancer.cli import cli
from tests.helpers import ROOT, SAFETY_TIMEOUT

COMPLETE = ShellComplete(cli, {}, "balancer", "_BALANCER_COMPLETE")


def offered(*typed: str) -> list[str]:
    """What completion offers for the last word of `balancer TYPED...`, files as 'file:'."""
    *args, incomplete = typed
    items = COMPLETE.get_completions(list(args), incomplete)
    return [f"file:{i.value}" if i.type == "file" else i.value for i in items]


def test_variant_names_complete_beside_files() -> None:
    five = ["fdc-5p", "fdc-5p-face", "fdc-5p-no-neko", "fdc-5p-random", "fdc-5p-vs-random"]
    assert offered("run", "fdc-5") == ["file:fdc-5", *five]
    assert offered("diff", "fdc-4p", "mega-racer-4") == [
        "file:mega-racer-4",
        "mega-racer-4p",
        "mega-racer-4p-vs-random",
    ]
    assert offered("replay", "zodiac-race-6") == ["file:zodiac-race-6", "zodiac-race-6p"]
    # The control: a name no variant has leaves it to the shell's file names.
    assert offered("run", "my-fd") == ["file:my-fd"]


def test_game_names_complete_full_and_short() -> None:
    assert offered("knobs", "z") == ["file:z", "zodiac-race", "zr"]
    assert offered("ladder", "k") == ["file:k", "kimekimera", "kk"]
    assert offered("init", "--from", "m") == ["mega-racer"]
    assert offered("init", "--from", "fish") == [
        "fish-dash-cash",
        "fish-dash-cash-roles",
        "fish-market",
    ]


@pytest.mark.parametrize(
    ("typed", "expected"),
    [
        (("run", "fdc-4p", "--set", "rules.neko_m"), ["rules.neko_min_followers="]),
        # The control: kk has no such knob; completion reads the variant typed.
        (("run", "kk-4p", "--set", "rules.neko_m"), []),
        (("run", "kk-4p", "--set", "rules.colour"), ["rules.colour_bonus="]),
        (("run", "kk-4p", "--set", "colour"), ["scoring.colour_bonus="]),  # its own section
        (
            ("sweep", "fdc-4p", "--set", "rules.hand_size=4", "--set", "cash"),
            ["scoring.cash_value="],
        ),
        (("tune", "mega-racer-4p", "--knob", "g"), ["rules.goal="]),
        (("replay", "mega-racer-4p", "--set", "accident"), ["rules.accident_loss="]),
    ],
)
def test_knob_names_complete_from_the_variant_typed(
    typed: tuple[str, ...], expected: list[str]
) -> None:
    assert offered(*typed) == expected


def test_the_shell_gets_them_from_the_command() -> None:
    # What bash's completion script asks the command, through `balancer`'s own entry point.
    env = {
        **os.environ,
        "_BALANCER_COMPLETE": "bash_complete",
        "COMP_WORDS": "balancer show fdc-6",
        "COMP_CWORD": "2",
    }
    done = subprocess.run(
        [sys.executable, "-m", "balancer"],
        env=env,
        capture_output=True,
        text=True,
        timeout=SAFETY_TIMEOUT,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["file,fdc-6", "plain,fdc-6p"]


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_the_readme_says_how_to_turn_it_on_in_each_shell(shell: str) -> None:
    readme = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    assert f"{shell}_source" in readme
    if shell == "bash":
        assert '`eval "$(_BALANCER_COMPLETE=bash_source balancer)"`' in readme
    env = {**os.environ, "_BALANCER_COMPLETE": f"{shell}_source"}
    done = subprocess.run(
        [sys.executable, "-m", "balancer"],
        env=env,
        capture_output=True,
        text=True,
        timeout=SAFETY_TIMEOUT,
    )
    assert done.returncode == 0, done.stderr
    assert f"_BALANCER_COMPLETE={shell}_complete" in done.stdout  # the script asks us back
