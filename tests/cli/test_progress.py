"""The progress bar: games/s and ETA from a fake clock, redrawn by its ticker without sleeps."""

from __future__ import annotations

import io
import threading

from balancer.cli import progress
from balancer.cli.progress import Progress, bar_line, clock_text


class FakeClock:
    def __init__(self, now: float = 100.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def test_clock_text() -> None:
    assert [clock_text(s) for s in (0, 5, 59.6, 754, 3723)] == [
        "0:00",
        "0:05",
        "1:00",
        "12:34",
        "1:02:03",
    ]


def test_the_line_has_games_per_second_and_eta() -> None:
    # 2,500 of 5,000 in 3 s: 833 games/s, the other 2,500 in 3 s more.
    line = bar_line("fdc-5p", 2500, 5000, 3.0)
    assert line == "fdc-5p  [############············]  2,500/5,000   50%  833 games/s  ETA 0:03"
    # Before any game is done there is no rate to tell.
    assert bar_line("kk-4p", 0, 10, None).endswith("0/10    0%  - games/s  ETA -")
    # A slow run says its rate to a tenth.
    assert "2.5 games/s  ETA 0:04" in bar_line("x", 5, 15, 2.0)
    assert len(bar_line("a-very-long-variant-name" * 5, 1, 2, 1.0, width=60)) == 60


def _drawn(stream: io.StringIO) -> list[str]:
    return [part.removesuffix("\x1b[K") for part in stream.getvalue().split("\r") if part]


def test_the_rate_counts_from_when_the_games_start_and_moves_on_without_progress() -> None:
    clock, stream = FakeClock(100.0), io.StringIO()
    bar = Progress(1000, "fdc-3p", False, stream=stream, clock=clock, terminal=True, ticker=False)
    with bar as advance:
        clock.now = 130.0  # 30 s starting workers and compiling: not held against the rate
        bar.started(2)
        clock.now = 131.0
        advance(100)
        assert _drawn(stream)[-1].endswith("100/1,000   10%  100 games/s  ETA 0:09")
        clock.now = 132.0  # a second with no chunk done: the ticker's redraw moves on
        bar.tick()
        assert _drawn(stream)[-1].endswith("100/1,000   10%  50 games/s  ETA 0:18")
        advance(900)
    assert stream.getvalue().endswith("1,000/1,000  100%  500 games/s  ETA 0:00\x1b[K\n")


def test_the_ticker_redraws_at_least_once_a_second() -> None:
    assert progress.REDRAW_EVERY <= 1.0

    class Signalling(io.StringIO):
        def __init__(self) -> None:
            super().__init__()
            self.writes = 0
            self.second = threading.Event()

        def write(self, text: str) -> int:
            self.writes += text.startswith("\r")
            if self.writes >= 2:
                self.second.set()
            return super().write(text)

    stream = Signalling()
    bar = Progress(10, "x", False, stream=stream, terminal=True)
    with bar:
        # Entering draws once; with no game done, only the ticker can draw again.
        assert stream.second.wait(30), "the ticker never redrew"
    assert bar._thread is None
    assert not any(t.name == "progress" for t in threading.enumerate())


def test_quiet_draws_nothing_and_a_log_gets_one_line() -> None:
    stream = io.StringIO()
    with Progress(10, "x", True, stream=stream, terminal=True) as advance:
        advance(10)
    assert stream.getvalue() == ""
    with Progress(40, "fdc-3p", False, stream=stream, terminal=False) as advance:
        bar_started = stream.getvalue()
        advance(40)
    assert bar_started == ""
    bar = Progress(40, "fdc-3p", False, stream=stream, terminal=False)
    bar.started(1)
    assert stream.getvalue() == "balancer: playing 40 games of fdc-3p on 1 worker\n"
