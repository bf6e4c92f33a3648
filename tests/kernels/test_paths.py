"""The same games on every path: compiled, step by step, plain-Python kernels, replay.

A run whose seats all hold built-in bots plays on the compiled path; a plugin
in any seat sends it step by step; BALANCER_JIT=0 runs the same kernels as
plain Python; replay narrates one game step by step. Game i is the same game
on each, so every figure must be equal, not merely close.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

import balancer
from balancer import games
from balancer.config.variant import SeatSpec, Variant
from balancer.sim import compiled, runner
from balancer.sim.plan import decide
from balancer.sim.replay import replay_game
from tests.helpers import VARIANTS

ROOT = Path(__file__).parents[2]
RANDOM_VARIANTS = {"fish-dash-cash": "fdc-5p-random", "kimekimera": "kk-4p-random"}
RANDOM_VARIANTS["da-qi-zi"] = "dqz-4p-random"
GAMES = 300


@pytest.fixture(autouse=True)
def compiled_unless_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    """A run here takes the path its bots choose: the suite's forced --check (conftest.py)
    would send the built-in runs step by step too, and each test would compare the step
    path with itself. The step-path runs ask for check=True, and so are still checked."""
    monkeypatch.setenv(runner.CHECK_ENV, "0")


def _with_bot(variant: Variant, bot: str) -> Variant:
    return replace(variant, seats=tuple(SeatSpec(bot=bot) for _ in variant.seats))


def _columns(variant: Variant) -> dict:
    return runner.run(variant).columns()


def _same(a: dict, b: dict) -> None:
    assert a.keys() == b.keys()
    for key in a:
        if key.startswith("bot_"):
            continue  # the bots' labels differ by design: that is the point
        assert list(a[key]) == list(b[key]), key


@pytest.mark.parametrize("game", sorted(RANDOM_VARIANTS))
def test_a_uniform_plugin_plays_the_built_in_random_games(game: str) -> None:
    variant = balancer.load_variant(VARIANTS / f"{RANDOM_VARIANTS[game]}.yaml", games=GAMES)
    assert compiled.can_compile(variant), "the built-in run must take the compiled path"
    plugin = _with_bot(variant, "tests.plugins:UniformLegal")
    assert not compiled.can_compile(plugin)
    # Both as one chunk, the plugin's checked as before: a run's 16 chunks each start a
    # process per plugin seat (three quarters of its time), and game i depends only on
    # (seed, i). A chunk's arrays are every per-game figure games.parquet is made of.
    limit = runner.DEFAULT_PLUGIN_MOVE_LIMIT
    fast = runner.play_chunk(runner.Chunk(decide(variant, plugin_move_limit=limit), 0, GAMES))
    checked = decide(plugin, check=True, plugin_move_limit=limit)
    slow = runner.play_chunk(runner.Chunk(checked, 0, GAMES))
    assert fast.start == slow.start == 0
    for name in ("scores", "length", "events", "held", "figures"):
        a, b = getattr(fast, name), getattr(slow, name)
        assert (a is None) == (b is None), name
        # How the games played: NaN where a checkpoint had no sole leader, in both alike.
        assert a is None or np.array_equal(a, b, equal_nan=name == "figures"), name


@pytest.mark.parametrize("game", sorted(RANDOM_VARIANTS))
def test_the_step_path_plays_the_compiled_games_with_every_shipped_bot(game: str) -> None:
    # --check forces the step-by-step path with the same built-in bots.
    for path in sorted(VARIANTS.glob(f"{games.get(game).short}-*.yaml")):
        if path.name.endswith("-base.yaml"):
            continue
        variant = balancer.load_variant(path, games=60)
        fast = runner.run(variant).columns()
        slow = runner.run(variant, check=True).columns()
        assert fast.keys() == slow.keys()
        for key in fast:
            assert list(fast[key]) == list(slow[key]), (path.name, key)


@pytest.mark.parametrize("game", sorted(RANDOM_VARIANTS))
def test_replay_shows_the_game_the_compiled_run_played(game: str) -> None:
    variant = balancer.load_variant(VARIANTS / f"{RANDOM_VARIANTS[game]}.yaml", games=40)
    cols = runner.run(variant).columns()
    spec = variant.spec
    for index in (0, 17, 39):
        _, record = replay_game(variant, index)
        assert not isinstance(record, Exception)
        assert record.length == cols["length"][index]
        scores = [cols[f"score_{s}"][index] for s in range(variant.players)]
        assert list(record.scores) == scores
        for name in spec.events:
            assert record.events[name] == cols[f"ev_{name}"][index], name


def test_plain_python_kernels_play_the_same_run(tmp_path: Path) -> None:
    """BALANCER_JIT=0: the kernels run as ordinary Python, slower, with identical figures."""
    # One process per flag plays every game's run (a process costs a second of imports).
    script = (
        "import json, sys, balancer\n"
        "from balancer import jit\n"
        "from balancer.sim import runner\n"
        "out = {}\n"
        "for path in sys.argv[1:]:\n"
        "    v = balancer.load_variant(path, games=8)\n"
        "    cols = runner.run(v).columns()\n"
        "    out[path] = {k: [str(x) for x in c] for k, c in cols.items()}\n"
        "print(json.dumps({'jit': jit.ENABLED, 'cols': out}))\n"
    )
    paths = [str(VARIANTS / f"{name}.yaml") for name in RANDOM_VARIANTS.values()]
    outs = []
    for jit_flag in ("1", "0"):
        # BALANCER_CHECK=0 (the fixture): a checked run would take the step path, no kernel.
        env = {**os.environ, "BALANCER_JIT": jit_flag, "PYTHONPATH": str(ROOT)}
        done = subprocess.run(
            [sys.executable, "-c", script, *paths],
            env=env,
            capture_output=True,
            text=True,
            check=True,
            cwd=ROOT,
        )
        outs.append(json.loads(done.stdout))
    assert outs[0]["jit"] is True and outs[1]["jit"] is False
    for path in paths:
        assert outs[0]["cols"][path] == outs[1]["cols"][path], path
        assert len(outs[0]["cols"][path]["length"]) == 8


def test_win_shares_come_from_the_scores_on_both_paths() -> None:
    variant = balancer.load_variant(VARIANTS / "kk-4p-random.yaml", games=50)
    cols = runner.run(variant).columns()
    scores = np.column_stack([cols[f"score_{s}"] for s in range(variant.players)])
    best = scores.min(axis=1)  # Kimekimera: lowest total wins
    for s in range(variant.players):
        expected = (scores[:, s] == best) / (scores == best[:, None]).sum(axis=1)
        assert list(cols[f"win_{s}"]) == list(expected)
