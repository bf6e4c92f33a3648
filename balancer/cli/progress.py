"""The progress bar on stderr: only for a terminal, and never with --quiet.

    fdc-5p  [##########··········]  2,500/5,000  50%  812 games/s  ETA 0:03

Games are reported in chunks, which may take longer than a second each, so a
ticker thread redraws the line at least once a second (elapsed time and ETA
move on even while a chunk is being played). The rate is games done since the
games started (the workers are up) over the time since then, so the seconds
spent starting processes and compiling don't count against it.

Not quiet and not on a terminal, `started` prints one line instead when the
games start: a log shows the run is under way (and tests wait for it).
"""

from __future__ import annotations

import shutil
import sys
import threading
import time
from collections.abc import Callable
from typing import TextIO

REDRAW_EVERY = 0.5  # seconds between redraws when no game finishes: twice a second
BAR_WIDTH = 24


def clock_text(seconds: float) -> str:
    """0:05, 12:34, 1:02:03."""
    whole = max(0, int(round(seconds)))
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def bar_line(
    label: str,
    done: int,
    total: int,
    elapsed: float | None,
    width: int = 100,
    lang: str | None = None,
) -> str:
    """The bar as one line of at most `width` characters (columns), its words in `lang`.

    `elapsed`: seconds since the games started, None before they have.
    """
    from balancer import i18n

    share = done / total if total else 1.0
    filled = min(BAR_WIDTH, int(share * BAR_WIDTH))
    bar = "#" * filled + "·" * (BAR_WIDTH - filled)
    parts = [label, f"[{bar}]", f"{done:,}/{total:,}", f"{100 * share:3.0f}%"]
    if elapsed is not None and elapsed > 0 and done > 0:
        rate = done / elapsed
        shown = f"{rate:,.0f}" if rate >= 10 else f"{rate:.1f}"
        parts.append(i18n.text("progress.rate", lang, rate=shown))
        parts.append(i18n.text("progress.eta", lang, eta=clock_text((total - done) / rate)))
    else:
        parts += [
            i18n.text("progress.rate", lang, rate="-"),
            i18n.text("progress.eta", lang, eta="-"),
        ]
    line = "  ".join(parts)
    while i18n.width(line) > width:  # the end (count, rate, time left) is what matters
        line = line[1:]
    return line


class Progress:
    """`with Progress(total, label, quiet) as advance:` then `advance(n)` per n games done.

    `stream`, `clock`, `terminal` and `ticker` are for tests: a fake clock and
    `tick()` called by hand show what the thread would draw, without sleeping.
    """

    def __init__(
        self,
        total: int,
        label: str,
        quiet: bool,
        *,
        stream: TextIO | None = None,
        clock: Callable[[], float] = time.monotonic,
        terminal: bool | None = None,
        ticker: bool = True,
        lang: str | None = None,
    ) -> None:
        self.total, self.label, self.lang = total, label, lang
        self.stream = stream if stream is not None else sys.stderr
        on_terminal = self.stream.isatty() if terminal is None else terminal
        self.draws = not quiet and on_terminal
        self.announce = not quiet and not on_terminal
        self.clock = clock
        self.done = 0
        self.began: float = clock()
        self.games_began: float | None = None
        self.ticker = ticker and self.draws
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def started(self, workers: int) -> None:
        """The workers are up and the games begin: the rate counts from here."""
        self.games_began = self.clock()
        if self.announce:
            from balancer import i18n

            key = "progress.playing" if workers == 1 else "progress.playing_many"
            playing = i18n.text(key, self.lang, games=self.total, what=self.label, n=workers)
            print(f"balancer: {playing}", file=self.stream)
            self.stream.flush()

    def advance(self, games: int) -> None:
        with self._lock:
            self.done = min(self.total, self.done + games)
        self.tick()

    def line(self) -> str:
        width = shutil.get_terminal_size((100, 24)).columns - 1
        began = self.games_began if self.games_began is not None else self.began
        elapsed = self.clock() - began
        return bar_line(self.label, self.done, self.total, elapsed, width, self.lang)

    def tick(self) -> None:
        """Redraw the line (the ticker calls this at least once a second)."""
        if not self.draws:
            return
        with self._lock:
            self.stream.write("\r" + self.line() + "\x1b[K")
            self.stream.flush()

    def _run(self) -> None:
        while not self._stop.wait(REDRAW_EVERY):
            self.tick()

    def __enter__(self) -> Callable[[int], None]:
        if not self.draws:
            return lambda n: None
        self.tick()
        if self.ticker:
            self._thread = threading.Thread(target=self._run, name="progress", daemon=True)
            self._thread.start()
        return self.advance

    def __exit__(self, *exc: object) -> None:
        if self._thread is not None:
            self._stop.set()
            self._thread.join()
            self._thread = None
        if self.draws:
            self.tick()
            self.stream.write("\n")
            self.stream.flush()
