"""`clear`, `{bottom: COUNTER}` and `all` on the compiled kernel: the hand-made
situations of tests/unit/test_roles_new_mechanics.py, converted from the engine's
State before the trick and played on the kernel alone, end as worked out by hand
there (heights, tags, events); and stepped on both, position for position.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from balancer.games.roles import kernel as K
from tests.kernels.test_roles_kernel import stepped_alike
from tests.unit.test_roles_new_mechanics import SITUATIONS, tide


@pytest.mark.parametrize("name", list(SITUATIONS))
def test_each_situation_ends_as_worked_out_compiled(tmp_path: Path, name: str) -> None:
    situation = SITUATIONS[name]
    game = tide(tmp_path)
    arrays, tables = K.from_state(situation.state(game))
    streams = K.new_streams(len(situation.cards))
    buffer = K.new_legal(arrays, tables)
    for move in situation.moves():
        assert buffer[: K.legal(arrays, tables, buffer)].tolist() == [move]
        K.apply(arrays, tables, streams, move)
    assert K.legal(arrays, tables, buffer) == 0  # over: one card each
    seen = K.snapshot(arrays, tables, game)
    assert tuple(seen["counters"]["height"]) == situation.after_height
    assert tuple(bool(f) for f in seen["flags"]["tagged"]) == situation.after_tagged
    record = K.record(arrays, tables, game)
    assert record.events == {k: float(v) for k, v in situation.expected_events().items()}
    assert record.scores == tuple(float(h) for h in situation.after_height)


@pytest.mark.parametrize("name", list(SITUATIONS))
def test_each_situation_steps_alike(tmp_path: Path, name: str) -> None:
    situation = SITUATIONS[name]
    stepped_alike(situation.state(tide(tmp_path)), situation.moves())
