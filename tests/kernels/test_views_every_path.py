"""Every path hands a plugin the same view, move by move (issue 36, Deliver 2).

A plugin seat is played on the Python engine (sim/play.py), on the game's
kernel stepped between its decisions (sim/kernel_step.py) where the kernel
offers that, in process (`--trust-plugins`) or in a process of its own
(bots/host.py, the default). A ViewRecorder plugin (tests/plugins.py) steers
by its whole view and writes down each view and legal-move list it is handed;
every path's recording is the engine's, field for field, perfect-recall
fields included.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from balancer.bots import host
from balancer.config.variant import SeatSpec, Variant, load
from balancer.sim import kernel_step, runner
from balancer.sim.play import play_game
from tests.helpers import SAFETY_TIMEOUT
from tests.plugins import recorded

ROOT = Path(__file__).parents[2]


def with_recorder(variant: Variant, log: Path) -> Variant:
    seats = list(variant.seats)
    seats[1] = SeatSpec("tests.plugins:ViewRecorder", {"to": str(log)})
    return replace(variant, seats=tuple(seats))


def recording(variant: Variant, log: Path, trust: bool, step: bool, games: int) -> list[Any]:
    """What the recorder was handed over `games` games on one path."""
    with host.trusting(trust):
        slots = runner.build_seats(variant, SAFETY_TIMEOUT)
    try:
        if step:
            kernel_step.play_chunk(variant, slots, 0, games)
        else:
            for i in range(games):
                play_game(variant.spec, variant.rules, variant.seated(slots, i), variant.seed, i)
    finally:
        for slot in slots:
            if isinstance(slot.bot, host.HostedBot):
                slot.bot.close()
    seen = recorded(str(log))
    log.unlink()
    return seen


@pytest.mark.parametrize(
    "name",
    [
        "kk-3p",
        "dqz-4p",
        "fdc-2p",
        "fdc-4p",
        "fdc-6p",
        "fish-dash-cash-roles",
        "mega-racer-3p",
        "zodiac-race-3p",
        "every_primitive",
    ],
)
def test_a_plugin_is_handed_the_engines_views_on_every_path(tmp_path: Path, name: str) -> None:
    log = tmp_path / "views"
    if name in ("fish-dash-cash-roles", "every_primitive"):
        game = str(ROOT / "tests" / "kernels" / "every_primitive.yaml")
        if name == "fish-dash-cash-roles":
            game = name
        path = tmp_path / "v.yaml"
        path.write_text(f"game: {game}\nplayers: 3\ngames: 4\nseed: 5\nbots: random\n")
        variant = load(path)
    else:
        variant = load(ROOT / "variants" / f"{name}.yaml")
    seats = (SeatSpec("random"),) * variant.players
    variant = with_recorder(replace(variant, seats=seats), log)
    games = 6
    engine = recording(variant, log, trust=True, step=False, games=games)
    assert len(engine) > 25  # decisions of the recorder's
    paths = {"isolated": recording(variant, log, trust=False, step=False, games=games)}
    # The hand-written games' kernels step a plugin's game: that path must be among those compared.
    assert kernel_step.can_step(variant) == (name[:3] in ("kk-", "dqz", "fdc"))
    if kernel_step.can_step(variant):
        paths["stepped"] = recording(variant, log, trust=True, step=True, games=games)
        paths["stepped, isolated"] = recording(variant, log, trust=False, step=True, games=games)
    if name == "dqz-4p":  # face-down discards were among what the views recall
        assert sum(len(view.face_down) for view, _ in engine) > 50
    if name.startswith("fdc"):  # discards and every seat's cashed fish were recalled
        assert sum(len(view.discard) for view, _ in engine) > 100
        assert sum(len(fish) for view, _ in engine for fish in view.cashed) > 50
        # Rivals' cashed fish: what my_cashed doesn't show.
        rivals = [f for view, _ in engine for k, f in enumerate(view.cashed) if k != view.seat]
        assert sum(map(len, rivals)) > 20
    for path_name, seen in paths.items():
        assert len(seen) == len(engine), path_name
        for n, ((view, legal), (want, want_legal)) in enumerate(zip(seen, engine, strict=True)):
            assert type(view) is type(want) and legal == want_legal, (path_name, n)
            assert view == want, (path_name, n, view, want)
