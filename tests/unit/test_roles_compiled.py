"""The role kernel's adapter (games/roles/compiled.py) in what it decides in Python, without
compiling anything: which bots a game file plays compiled, and the work space each
thread keeps. (What the compiled entry points play: tests/kernels/.)"""

from __future__ import annotations

import threading
from typing import Any

import numpy as np
import pytest

from balancer import knobs
from balancer.games.roles import gamefile, load_file
from balancer.games.roles.compiled import RoleKernel
from balancer.games.roles.definition import game_knobs
from balancer.games.roles.fdc_heuristic import heuristic_compiles
from balancer.games.roles.model import RoleGame
from balancer.games.roles.validate import check

RACER = load_file(gamefile.shipped_path("mega-racer"))  # type: ignore[arg-type]


def fdc_roles_paying(per_card: Any, per_number: Any) -> RoleGame:
    """fish-dash-cash-roles with its bank term paying `per_card` and `per_number`."""
    source = gamefile.read(gamefile.shipped_path("fish-dash-cash-roles"))  # type: ignore[arg-type]
    assert source.data["score"][0]["zone"] == "bank"
    source.data["score"][0].update(per_card=per_card, per_number=per_number)
    game, problems = check(source)
    assert problems == [] and game is not None
    return game


@pytest.mark.parametrize(
    ("per_card", "per_number", "compiled"),
    [
        ("cash_per_card", "cash_per_number", True),  # the shipped file's bank
        (3, "cash_per_number", False),
        ("cash_per_card", 3, False),
        ("cash_per_number", "cash_per_card", False),  # the two knobs the other way round
    ],
)
def test_the_heuristic_compiles_only_where_the_bank_pays_the_two_money_knobs(
    per_card: Any, per_number: Any, compiled: bool
) -> None:
    """The compiled heuristic reads a fish's worth from the money knobs (as fdc_view
    does), so only a bank paying cash_per_card per card and cash_per_number per number
    has it compiled; any other bank keeps the heuristic, step by step."""
    game = fdc_roles_paying(per_card, per_number)
    assert heuristic_compiles(game) is compiled
    assert ("heuristic" in RoleKernel(game).compiled_bots) is compiled


def test_each_thread_keeps_its_own_scratch_for_each_shape() -> None:
    """A search plays thousands of play-outs a decision, so the scratch is made once and
    reused; two threads (the threads backend) searching at once must never write into
    one scratch, and a lookahead of 8 worlds needs a larger one than `random`."""
    kernel = RoleKernel(RACER)
    position = kernel.new_position(knobs.defaults(game_knobs(RACER)), 4)
    randoms = kernel.encode_bots([("random", {})] * 4)
    first = kernel._scratch(position, randoms)
    assert kernel._scratch(position, randoms) is first
    elsewhere: list[np.ndarray] = []
    thread = threading.Thread(target=lambda: elsewhere.append(kernel._scratch(position, randoms)))
    thread.start()
    thread.join()
    assert elsewhere[0] is not first and elsewhere[0].shape == first.shape
    lookahead = {"samples": 8, "goal_weight": 4, "win_bonus": 100}
    looking = kernel._scratch(position, kernel.encode_bots([("lookahead", lookahead)] * 4))
    assert len(looking) > len(first)
    assert kernel._scratch(position, randoms) is first
