"""A plugin bot plays every game file, isolated as by default (issue 36, Deliver 2).

Out of process (bots/host.py) the plugin is sent its view through a pipe, so
the view must pickle: a role game's once held read-only mappings that didn't,
and balancer blamed the plugin for its own failure to send them. At each
shipped game file and a designer's own (tests/kernels/every_primitive.yaml),
a plugin that steers by its whole view plays the same games isolated as
trusted in process, handed equal views move by move. A view balancer can't
send is balancer's bug: a traceback (exit 1), never the bot's fault.
"""

from __future__ import annotations

import pickle
from collections.abc import Callable, Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Any

import pytest

import balancer
from balancer.bots import host
from balancer.cli import main
from balancer.config import variant as variant_mod
from balancer.games.roles import engine as role_engine
from tests.plugins import recorded

HERE = Path(__file__).parent
EVERY_PRIMITIVE = HERE.parent / "kernels" / "every_primitive.yaml"
GAMES = ["fish-dash-cash-roles", "mega-racer", "zodiac-race", str(EVERY_PRIMITIVE)]


def recorder_variant(tmp_path: Path, game: str, log: Path, games: int = 5) -> Path:
    """Three seats of `random` but the middle one, a ViewRecorder writing to `log`."""
    path = tmp_path / f"{log.stem}.yaml"
    recorder = f"{{bot: 'tests.plugins:ViewRecorder', params: {{to: '{log}'}}}}"
    path.write_text(
        f"game: {game}\nplayers: 3\ngames: {games}\nseed: 7\nseats: [random, {recorder}, random]\n"
    )
    return path


@pytest.mark.parametrize("game", GAMES, ids=lambda g: Path(g).stem)
def test_a_plugin_plays_every_game_file_isolated_as_trusted(tmp_path: Path, game: str) -> None:
    runs = {}
    log = tmp_path / "views"  # one name: the bot's parameters are in the games table
    for trust in (False, True):
        with host.trusting(trust):
            report = balancer.run(variant_mod.load(recorder_variant(tmp_path, game, log)))
        runs[trust] = (report.games, recorded(str(log)))
        log.unlink()
    (isolated, isolated_views), (trusted, trusted_views) = runs[False], runs[True]
    assert isolated.equals(trusted)
    assert len(isolated_views) > 20  # it decided, and was sent its view each time
    assert isolated_views == trusted_views


class _Refuses:
    def __reduce__(self) -> tuple[Any, ...]:
        raise pickle.PicklingError("a value balancer can't pickle")


def _with_a_value_that_refuses(mapping: Mapping[str, Any]) -> dict[str, Any]:
    return {**mapping, "refuses": _Refuses()}


@pytest.mark.parametrize(
    ("unpicklable", "error"),
    [(MappingProxyType, TypeError), (_with_a_value_that_refuses, pickle.PicklingError)],
    ids=["mappingproxy", "refuses"],
)
def test_a_view_balancer_cannot_send_is_its_own_bug_not_the_bots(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    unpicklable: Callable[[Mapping[str, Any]], Mapping[str, Any]],
    error: type[Exception],
) -> None:
    # A view that can't be pickled (the mappingproxy: today's bug put back).
    monkeypatch.setattr(role_engine, "FrozenDict", unpicklable)
    path = recorder_variant(tmp_path, "mega-racer", tmp_path / "views")
    out = tmp_path / "report"
    with pytest.raises(error, match="pickle"):
        main(["run", "-q", str(path), "-o", str(out), "-w", "1"])
    assert "the bot" not in capsys.readouterr().err
    assert not out.exists()
