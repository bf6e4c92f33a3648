"""Every command's --help ends with one or two examples that its own options parse."""

from __future__ import annotations

import shlex
from pathlib import Path

import click
import pytest

from balancer.cli import cli
from balancer.cli.examples import EXAMPLES

CTX = click.Context(cli, info_name="balancer")
NAMES = cli.list_commands(CTX)


def parses(example: str) -> str | None:
    """Why the example is not a command line its command accepts, or None when it is."""
    words = shlex.split(example, comments=True)
    if words[:1] != ["balancer"] or len(words) < 2:
        return "does not start with `balancer COMMAND`"
    command = cli.get_command(CTX, words[1])
    if command is None:
        return f"no command {words[1]!r}"
    try:
        command.make_context(words[1], words[2:], parent=CTX)
    except click.ClickException as exc:
        return exc.format_message()
    return None


@pytest.fixture()
def designers_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A folder after `balancer run fdc-5p`: the report an example names by the variant."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "reports" / "fdc-5p").mkdir(parents=True)
    return tmp_path


def test_the_parse_check_sees_an_example_its_command_refuses(designers_folder: Path) -> None:
    assert parses("balancer diff fdc-4p my-fdc.yaml") is None  # the control
    assert parses("balancer diff fdc-4p my-fdc.yaml --colour") is not None
    assert parses("balancer ladder fdc -n 100") is not None  # --players is required
    assert parses("balancer dif fdc-4p my-fdc.yaml") is not None


def test_every_command_has_one_or_two_examples() -> None:
    assert sorted(EXAMPLES) == NAMES
    assert all(1 <= len(lines) <= 2 for lines in EXAMPLES.values())


@pytest.mark.parametrize("name", NAMES)
def test_the_examples_close_the_help_and_parse(name: str, designers_folder: Path) -> None:
    command = cli.get_command(CTX, name)
    assert command is not None
    shown = command.get_help(click.Context(command, CTX, name)).rstrip("\n")
    expected = "\n".join(["Examples:", *(f"  {line}" for line in EXAMPLES[name])])
    assert shown.endswith("\n\n" + expected)
    assert [why for line in EXAMPLES[name] if (why := parses(line))] == []
