"""Parts of the plugin's side of a hosted bot (bots/keeper.py), called in this process.

The keeper and the bot's process run in processes of their own, where the mutation
check (docs/mutation.md) can't see which test reached them; the plugin tests reach
them there, these here, each from a situation small enough to work out by hand.
"""

from __future__ import annotations

import os

import pytest

from balancer.bots import keeper


def test_the_log_gets_every_byte_of_a_write_the_system_cut_short(
    monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    """A pipe may take part of a write (a signal in the middle of it): 10 bytes offered 3
    at a time reach the log whole, in 4 writes (3 + 3 + 3 + 1)."""
    sizes: list[int] = []
    write = os.write

    def short_write(fd: int, data: bytes) -> int:
        sizes.append(write(fd, data[:3]))
        return sizes[-1]

    monkeypatch.setattr(keeper.os, "write", short_write)
    keeper._append(b"0123456789")
    monkeypatch.undo()
    assert capfd.readouterr().out == "0123456789"
    assert sizes == [3, 3, 3, 1]
