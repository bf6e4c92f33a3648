"""Coloured verdicts only on a terminal, never with NO_COLOR set."""

from __future__ import annotations

import io

import pytest

from balancer.cli import colour


class Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


ROWS = (
    "seat_win_share.<seat>\n"
    "  0        0.201   0.245  +0.044  [+0.031, +0.057]    <1e-16  changed\n"
    "  1        0.199   0.200  +0.001  [-0.010, +0.012]     1.000\n"
    "  2        0.2     0.2    0       no variation        -  equivalent\n"
    "note: a line about what changed"
)


def test_colour_on_a_terminal_unless_no_color(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)
    assert colour.wanted(Tty())
    assert not colour.wanted(io.StringIO())  # a pipe or a file: plain
    monkeypatch.setenv("NO_COLOR", "1")
    assert not colour.wanted(Tty())
    monkeypatch.setenv("NO_COLOR", "")  # set but empty: colour stays on (no-color.org)
    assert colour.wanted(Tty())


def test_diff_colours_only_the_verdicts_of_its_rows(monkeypatch: pytest.MonkeyPatch) -> None:
    from balancer.cli import diff

    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setattr("sys.stdout", Tty())
    lines = diff.coloured(ROWS).split("\n")
    assert lines[1].endswith("  \033[1;33mchanged\033[0m")
    assert lines[2] == ROWS.split("\n")[2]  # blank verdict: nothing to colour
    assert lines[3].endswith("\033[32mequivalent\033[0m")
    assert lines[4] == "note: a line about what changed"  # not a row: left alone
    monkeypatch.setenv("NO_COLOR", "1")
    assert diff.coloured(ROWS) == ROWS
    monkeypatch.delenv("NO_COLOR")
    monkeypatch.setattr("sys.stdout", io.StringIO())
    assert diff.coloured(ROWS) == ROWS
