"""One hosted plugin bot asked in this process (bots/host.py's HostedBot), without a run:
what it reports of its bot, what it accepts as an answer, and what it says once closed.

A run plays its seats in worker processes; these tests build the bot here, so the
mutation check (docs/mutation.md) sees them reach HostedBot's code.
"""

from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest

from balancer.bot import PluginFailure
from balancer.bots import host
from balancer.rng import Stream


def _stream_at(counter: int) -> Stream:
    """A seat's stream that has already given `counter` numbers."""
    rng = Stream(1, 0, 0)
    for _ in range(counter):
        rng.next_u64()
    return rng


@pytest.mark.parametrize(("bot", "uses_view"), [("UniformLegal", False), ("FirstLegal", True)])
def test_a_hosted_bot_says_whether_its_plugin_reads_the_view(bot: str, uses_view: bool) -> None:
    """UniformLegal says `uses_view = False` (so a run need not build its views);
    FirstLegal says nothing, and a bot is taken to read its view."""
    hosted = host.HostedBot(f"tests.plugins:{bot}", {}, move_limit=60.0)
    try:
        assert hosted.uses_view is uses_view
    finally:
        hosted.close()


@pytest.mark.parametrize(("claimed", "refused"), [(2, False), (4, False), (5, True)])
def test_a_bot_may_claim_no_more_draws_than_it_was_sent(claimed: int, refused: bool) -> None:
    """The stream has given 10 numbers; the move is sent the next 4 (FIRST_DRAWS). An
    answer claiming 2 of them used moves the stream to 12, all 4 to 14; one claiming 5
    is refused, and the stream stays at 10 (the 10 given before count for nothing)."""
    assert host.FIRST_DRAWS == 4
    hosted = host.HostedBot("tests.process_plugins:ClaimsDraws", {"used": claimed}, 60.0)
    rng = _stream_at(10)
    try:
        if refused:
            with pytest.raises(PluginFailure, match="answered something that is not an answer"):
                hosted.act(None, (7, 8), rng)
            assert rng.counter == 10
        else:
            assert hosted.act(None, (7, 8), rng) == 7
            assert rng.counter == 10 + claimed
    finally:
        hosted.close()


def test_a_closed_bot_says_its_process_is_gone() -> None:
    """Asked after it is closed, the bot fails naming why; before, it answered (the
    control: the same bot, the same move)."""
    hosted = host.HostedBot("tests.plugins:FirstLegal", {}, move_limit=60.0)
    assert hosted.act(None, (3, 4), Stream(1, 0, 0)) == 3
    hosted.close()
    with pytest.raises(PluginFailure, match="^the bot's process is gone$"):
        hosted.act(None, (3, 4), Stream(1, 0, 0))


def test_a_memory_limit_of_no_bytes_is_refused_saying_why(monkeypatch: pytest.MonkeyPatch) -> None:
    """The library's setter (the command line refuses below 16M before it): 0 bytes is
    refused with its reason and the limit stays; 1 byte (the control) is taken."""
    monkeypatch.setattr(host, "_memory_limit", host.DEFAULT_MEMORY_LIMIT)
    with pytest.raises(ValueError, match="^a memory limit is a positive number of bytes$"):
        host.set_memory_limit(0)
    assert host.memory_limit() == host.DEFAULT_MEMORY_LIMIT
    host.set_memory_limit(1)
    assert host.memory_limit() == 1


@pytest.mark.parametrize(
    ("bot", "params", "says"),
    [
        ("tests.plugins:HardExit", {}, "(exit code 0)"),
        ("tests.process_plugins:KillsItself", {"signum": signal.SIGKILL}, "(killed by signal 9)"),
        (
            "tests.process_plugins:KillsItself",
            {"signum": signal.SIGSEGV},
            "(killed by signal 11); it may have hit its memory limit of {memory}",
        ),
    ],
)
def test_a_bot_whose_process_ends_is_told_how_it_ended(
    bot: str, params: dict[str, int], says: str
) -> None:
    """os._exit(0) in the move: exit code 0; SIGKILL: signal 9, nothing more; SIGSEGV
    (what a C library does when it can't allocate): signal 11 and the memory limit."""
    hosted = host.HostedBot(bot, params, move_limit=60.0)
    try:
        with pytest.raises(PluginFailure) as failure:
            hosted.act(None, (0, 1), Stream(1, 0, 0))
    finally:
        hosted.close()
    memory = host.size_text(hosted.memory)  # 4G, unless this process's hard limit is lower
    expected = f"the bot's process ended while asked to move {says.format(memory=memory)}"
    assert str(failure.value) == expected


def test_a_bot_that_raises_is_told_as_raising_what_it_raised() -> None:
    """tests.plugins:Raises raises RuntimeError("the plugin broke") in its move: the
    failure says the bot raised, and what."""
    hosted = host.HostedBot("tests.plugins:Raises", {}, move_limit=60.0)
    try:
        with pytest.raises(PluginFailure) as failure:
            hosted.act(None, (0, 1), Stream(1, 0, 0))
    finally:
        hosted.close()
    assert str(failure.value) == "the bot raised RuntimeError: the plugin broke"


@pytest.mark.parametrize("draws", [3, 10])
def test_a_bot_drawing_more_than_a_move_is_sent_is_sent_more(draws: int) -> None:
    """A move is sent 4 numbers of the stream; a bot drawing 10 asks for more and draws
    exactly the stream's next 10: its move is the 10th number's, and the engine's
    stream moves on by 10. Drawing 3 (the control) needs no more than it was sent."""
    hosted = host.HostedBot("tests.process_plugins:DrawsMany", {"draws": draws}, 60.0)
    rng = _stream_at(10)
    own = rng.copy()
    numbers = [own.next_u64() for _ in range(draws)]
    legal = tuple(range(7))
    try:
        assert hosted.act(None, legal, rng) == legal[numbers[-1] % 7]
    finally:
        hosted.close()
    assert rng.counter == 10 + draws


def test_what_a_bot_wrote_before_its_last_answer_reaches_the_log(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The keeper is stopped (SIGSTOP) while the bot writes its last words and answers,
    and the engine lets go of the lifeline before the keeper runs again: the keeper
    then finds the lifeline closed (it looks there first) with the words still in the
    pipe, and must copy them before it kills the bot."""
    log = tmp_path / "plugin.log"
    monkeypatch.setenv(host.LOG_ENV, str(log))
    hosted = host.HostedBot("tests.process_plugins:SaysLastWords", {"words": "LAST-WORDS"}, 60.0)
    assert hosted._proc is not None and hosted._lifeline is not None
    keeper = hosted._proc.pid
    os.kill(keeper, signal.SIGSTOP)
    try:
        assert hosted.act(None, (0, 1), Stream(1, 0, 0)) == 0
        hosted._lifeline.close()  # the engine lets go while the keeper can't see it
    finally:
        os.kill(keeper, signal.SIGCONT)
        hosted.close()
    assert log.read_text() == "LAST-WORDS\n"
