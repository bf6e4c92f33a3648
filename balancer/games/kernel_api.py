"""The contract of a game's compiled kernel (games/<game>/kernel.py), optional per game.

A kernel module provides:

- `COMPILED_BOTS`: the names of the built-in bots it plays compiled;
- `play_chunk(rules, players, seed, start, stop, slots, rotate) -> ChunkColumns`:
  games start..stop-1 of `seed` in one compiled call, where `slots[j]` is
  (bot name, its parameters with defaults filled in) for bot slot j, and the
  bot in physical seat s of game i is slot (s + i) % players when `rotate`,
  else slot s (Variant.bot_slot);
- step functions over a state array that can be copied and stepped from any
  position (a search bot's rollouts), documented in each kernel.

Game i must be exactly the game the step-by-step engine (rules.py) plays
for the same (rules, players, seed, i) and bots: the same chance draws in
the same order, the same legal moves in the same order, the same bot
choices. sim/compiled.py plays a chunk here when every seat's bot is
compiled; the per-game kernel tests check the identity game for game.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class ChunkColumns:
    start: int  # index of the first game
    scores: np.ndarray  # float64 [games, players], per physical seat
    length: np.ndarray  # int64 [games]: tricks, rounds or deals
    events: np.ndarray  # float64 [games, len(SPEC.events)], SPEC.events order
    held: np.ndarray | None = None  # uint64 [games, players * words]: GameRecord.held
