"""What every game's compiled kernel returns for a chunk of games."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class ChunkColumns:
    start: int  # index of the first game
    scores: np.ndarray  # float64 [games, players], per physical seat
    length: np.ndarray  # int64 [games]: tricks, rounds or deals
    events: np.ndarray  # float64 [games, len(SPEC.events)], SPEC.events order
