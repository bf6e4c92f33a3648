"""A run says it compiles exactly when numba compiles (sim/first_compile.py).

The notice hangs on numba's own "numba:compile" event, sent on a cache miss
only: a fake event stands in for a compilation, and a real function compiled
into a throwaway cache directory (NUMBA_CACHE_DIR), first for nothing and then
from its cache, shows both sides with numba itself. Nothing here waits on time:
the ticks are waited for as the ticker sends them.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from balancer import jit
from balancer.config.variant import load
from balancer.sim import compiled, first_compile, warm
from tests.helpers import ROOT

pytestmark = pytest.mark.skipif(not jit.ENABLED, reason="numba is off")
SAFETY = 120.0  # seconds: only a broken ticker ever waits this long


def fake_compile() -> None:
    from numba.core import event

    # The second, inside the first: a callee compiled with it.
    with event.trigger_event("numba:compile", data={}), event.trigger_event("numba:compile"):
        pass


def test_a_compilation_is_announced_once_ticked_and_its_end_told() -> None:
    lines: list[str] = []
    ticked = threading.Event()

    def tell(line: str) -> None:
        lines.append(line)
        if "still compiling" in line:
            ticked.set()

    with first_compile.announced("the test kernel", tell, tick=0.01):
        fake_compile()
        assert ticked.wait(SAFETY)  # it ticks while the block still works
    assert lines[0].startswith("balancer: compiling the test kernel with numba: once per install")
    assert sum("compiling the test kernel" in line for line in lines) == 1  # the callee: no line
    assert "still compiling" in lines[1]
    assert lines[-1].startswith("  compiled (")


def test_nothing_compiled_nothing_said() -> None:
    lines: list[str] = []
    with first_compile.announced("the test kernel", lines.append, tick=0.01):
        pass  # everything from the cache: numba sends no compile event
    assert lines == []


SCRIPT = """\
import sys
sys.path.insert(0, sys.argv[1])
from balancer.sim.first_compile import announced
import plus_one
with announced("plus_one", print, tick=3600):
    assert plus_one.plus_one(41) == 42
print("done")
"""


def test_with_numba_a_fresh_cache_is_announced_and_a_warm_one_is_not(tmp_path: Path) -> None:
    """The same function in two processes sharing an empty cache directory: the first
    compiles it (and says so), the second loads it from the cache (and says nothing)."""
    module = tmp_path / "module"
    module.mkdir()
    (module / "plus_one.py").write_text(
        "from balancer import jit\n\n@jit.njit\ndef plus_one(x):\n    return x + 1\n",
        encoding="utf-8",
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith("NUMBA_")}
    env["PYTHONPATH"] = str(ROOT)
    env["NUMBA_CACHE_DIR"] = str(tmp_path / "cache")

    def run() -> list[str]:
        out = subprocess.run(
            [sys.executable, "-c", SCRIPT, str(module)],
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
        return out.stdout.splitlines()

    first, second = run(), run()
    assert first[0] == "balancer: compiling plus_one with numba: once per install " + (
        "(cached on disk for every later run), a minute or more"
    )
    assert first[-2].startswith("  compiled (") and first[-1] == "done"
    assert second == ["done"]


VARIANT = "game: mega-racer\nplayers: 3\nbots: random\ngames: 10\n"


def planned(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, text: str, **kw: object) -> list[str]:
    """The pieces `prepare` compiles (or loads) first for the variant `text`."""
    path = tmp_path / "v.yaml"
    path.write_text(text, encoding="utf-8")
    pieces: list[str] = []
    monkeypatch.setattr(warm, "warm_piece", lambda job: pieces.append(job[1]) or [])
    first_compile.prepare(load(path), str(kw.get("backend", "local")), bool(kw.get("check")))
    return pieces


def test_a_run_compiles_first_only_what_it_will_call(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(compiled, "needs_compiling", lambda game: True)
    assert planned(tmp_path, monkeypatch, VARIANT) == ["games"]
    assert planned(tmp_path, monkeypatch, VARIANT, check=True) == []  # step by step: no loop
    assert planned(tmp_path, monkeypatch, VARIANT, backend="dask") == []  # workers compile
    monkeypatch.setattr(compiled, "needs_compiling", lambda game: False)
    assert planned(tmp_path, monkeypatch, VARIANT) == []
    # A search seat steps the kernel from Python, on either path: its entry points.
    search = VARIANT.replace("bots: random", "seats: [search, random, random]")
    assert planned(tmp_path, monkeypatch, search, check=True) == ["steps"]


def test_a_game_file_loop_counts_as_compiled_without_the_functions_inlined_into_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The role interpreter's chunk loop has code; the functions inlined into it (bots.py's
    play_out and choose, play.py's determinize) have none of their own until a search
    steps them. A first run of a game file used to say it compiled whenever a search had
    not run."""
    import balancer.games.roles.kernel.bots as bots
    import balancer.games.roles.kernel.chunk as chunk
    import balancer.games.roles.kernel.play as play

    inlined = {bots.play_out, bots.choose, play.determinize, play.unseen_pool}
    monkeypatch.setattr(jit, "has_code", lambda function: function not in inlined)
    assert not compiled.needs_compiling("mega-racer")
    monkeypatch.setattr(jit, "has_code", lambda function: function is not chunk._play_games)
    assert compiled.needs_compiling("mega-racer")  # the control: the loop itself missing


def test_the_notice_names_the_one_interpreter_of_every_game_file() -> None:
    from balancer import games

    games.canonical("zodiac-race")
    what = first_compile.what_compiles("zodiac-race", "games")
    assert "game-file interpreter" in what and "every game file" in what
    assert "zodiac" not in what  # not the file's own: editing it compiles nothing
    assert first_compile.what_compiles("fish-dash-cash", "steps").startswith("the fdc kernel")
