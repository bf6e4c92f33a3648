"""One output switch: `--format` on every command that prints, `--json` its alias."""

from __future__ import annotations

import json

import click
import pytest

from balancer.cli import main
from tests.helpers import one_error_line

COMMANDS_WITH_OUTPUT = ["run", "diff", "sweep", "ladder", "tune", "check", "validate",
                        "knobs", "events", "variants", "kk-odds", "plays"]  # fmt: skip


def test_every_printing_command_takes_format_and_json() -> None:
    from balancer.cli import cli

    assert isinstance(cli, click.Group)
    ctx = click.Context(cli)
    for name in COMMANDS_WITH_OUTPUT:
        command = cli.get_command(ctx, name)
        assert command is not None, name
        options = {o for p in command.params for o in getattr(p, "opts", [])}
        assert {"--format", "--json"} <= options, name


def test_json_is_format_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["knobs", "fdc", "--json"]) == 0
    aliased = capsys.readouterr().out
    assert main(["knobs", "fdc", "--format", "json"]) == 0
    assert capsys.readouterr().out == aliased
    json.loads(aliased)
    assert main(["knobs", "fdc"]) == 0
    table = capsys.readouterr().out
    assert table != aliased  # the default is the table, not JSON


def test_json_with_another_format_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["knobs", "fdc", "--json", "--format", "table"]) == 2
    assert "--json is --format json" in one_error_line(capsys)
    assert main(["knobs", "fdc", "--format", "md"]) == 2  # knobs has no Markdown
    capsys.readouterr()
