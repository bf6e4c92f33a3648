"""From Python: the seats' bots as arrays, a State's position and its streams."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from balancer import knobs
from balancer.games.kimekimera import bots as kk_bots
from balancer.games.kimekimera import engine as kk
from balancer.games.kimekimera.kernel.layout import (
    BOT_IDS,
    COMPILED_BOTS,
    MAX_FREE,
    N_PARAMS,
    S_DECK,
    S_DECK_N,
    S_DISCARD,
    S_DISCARD_N,
    S_EVENTS,
    S_FILLED,
    S_FIRST,
    S_FIRST0,
    S_FREE,
    S_HELD,
    S_MINE,
    S_ROUND,
    S_SEAT,
    S_THEME,
    S_TOTALS,
    S_TURN,
    STATE_SIZE,
    encode_rules,
)
from balancer.rng import Stream


def encode_slots(
    slots: Sequence[tuple[str, Mapping[str, Any]]],
) -> tuple[np.ndarray, np.ndarray]:
    """Bot ids and a float64 parameter row per bot slot."""
    ids = np.zeros(len(slots), dtype=np.int64)
    params = np.zeros((len(slots), N_PARAMS), dtype=np.float64)
    for j, (name, values) in enumerate(slots):
        if name not in BOT_IDS:
            raise ValueError(f"no compiled Kimekimera bot {name!r}: {sorted(COMPILED_BOTS)}")
        ids[j] = BOT_IDS[name]
        if name == "cautious":
            defaults = knobs.defaults(kk_bots.PARAMS)
            params[j, 0] = float({**defaults, **values}["rank"])
    return ids, params


# -- from a Python State ------------------------------------------------------------


def from_state(py: kk.State) -> tuple[np.ndarray, np.ndarray]:
    """(state, tables) arrays of a Python `State`, to step it in the kernel from there."""
    tables = encode_rules(py.rules, py.players)
    state = np.zeros(STATE_SIZE, dtype=np.int64)
    state[S_DECK : S_DECK + len(py.deck)] = py.deck
    state[S_DECK_N] = len(py.deck)
    state[S_DISCARD : S_DISCARD + len(py.discard)] = py.discard
    state[S_DISCARD_N] = len(py.discard)
    state[S_MINE : S_MINE + 2 * py.players] = py.mine
    state[S_FREE : S_FREE + 2 * MAX_FREE] = -1
    state[S_FREE : S_FREE + len(py.free)] = py.free
    state[S_THEME : S_THEME + 2] = py.theme
    state[S_TOTALS : S_TOTALS + py.players] = py.totals
    for e, name in enumerate(kk.EVENTS):
        state[S_EVENTS + e] = py.events[name]
    state[S_FILLED] = py.filled
    state[S_ROUND] = py.round
    state[S_FIRST0] = py.first0
    state[S_FIRST] = py.first
    state[S_TURN] = py.turn
    state[S_SEAT] = py.seat
    state[S_HELD : S_HELD + py.players] = py.chimera_held
    return state, tables


def streams_of(chance: Stream, seats: Sequence[Stream]) -> np.ndarray:
    """The kernel's stream array for a chance stream and one bot stream per seat, as they stand."""
    streams = np.zeros((1 + len(seats), 2), dtype=np.uint64)
    for row, stream in enumerate([chance, *seats]):
        streams[row, 0] = np.uint64(stream.key)
        streams[row, 1] = np.uint64(stream.counter)
    return streams
