"""The contract of a game's compiled kernel (games/<game>/kernel/, a package), optional per game.

A kernel module provides:

- `COMPILED_BOTS`: the names of the built-in bots it plays compiled;
- `play_chunk(rules, players, seed, start, stop, slots, rotate, margin) -> ChunkColumns`:
  games start..stop-1 of `seed` in one compiled call, where `slots[j]` is
  (bot name, its parameters with defaults filled in) for bot slot j, and the
  bot in physical seat s of game i is slot (s + i) % players when `rotate`,
  else slot s (Variant.bot_slot);
- step functions over a state array that can be copied and stepped from any
  position (a search bot's rollouts), documented in each kernel;
- rollouts from any position, the same names and signatures in every kernel (a
  search bot's two steps; tests/kernels/test_kernel_determinize.py):
  `encode_bots(seats) -> (plan, params)` (seats[s]: the compiled bot of physical
  seat s, (name, parameters)), `new_scratch(state)`, and, compiled,
  `play_out(state, tables, streams, plan, params, scratch, scores) -> length`
  (plays `state` to the end in place, as the chunk loop plays: forced moves
  unasked, seat s's bot drawing from streams[1 + s], chance from streams[0];
  scores[s] gets the record's score) and
  `determinize(state, tables, seat, rng, out, out_streams) -> dropped` (into `out`, shaped
  like `state` and not the same array, a world `seat` can't tell from `state`:
  what it sees copied, what it can't redealt from the unseen pool listed in a
  canonical order, from rng's row 0 (uint64 key, counter), out_streams[0]
  reseeded from rng where the game draws chance after the deal;
  docs/determinize.md; `dropped`: the constraints given up, dqz's only);
- optionally, for a game played in deals (dqz's alone), compiled
  `play_deal_out(state, tables, streams, plan, params, scratch, scores, deal) ->
  deals` (`play_out` that stops once deal `deal` is paid; a search's
  `horizon: deal`), with `deal_of(position)` and `play_deal_out(position, bots,
  deal)` on its Kernel adapter;
- optionally `StepGame(rules, players, slots)`, games stepped from Python to
  each decision of a seat played outside the kernel (a plugin: sim/kernel_step.py
  drives it; fdc's, kk's and dqz's kernels have one), built on `StepBuffer`
  below and games/step_kernels.py; its `load(state, seat_slots, seed, game)`
  steps from a Python State's position instead of a deal.

Game i must be exactly the game the step-by-step engine (engine.py) plays
for the same (rules, players, seed, i) and bots: the same chance draws in
the same order, the same legal moves in the same order, the same bot
choices. sim/compiled.py plays a chunk here when every seat's bot is
compiled; the per-game kernel tests check the identity game for game.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol

import numpy as np

from balancer.games.api import GameRecord
from balancer.games.progress import NO_MARGIN


@dataclass(frozen=True)
class ChunkColumns:
    start: int  # index of the first game
    scores: np.ndarray  # float64 [games, players], per physical seat
    length: np.ndarray  # int64 [games]: tricks, rounds or deals
    events: np.ndarray  # float64 [games, len(SPEC.events)], SPEC.events order
    held: np.ndarray | None = None  # uint64 [games, players * words]: GameRecord.held
    # float64 [games, how_it_plays.FIGURES]: each game's figures from its progress; None
    # from a kernel that does not record it.
    figures: np.ndarray | None = None
    # int64 [games, how_it_plays.DECISION_WORDS]: each game's turns and choices; None from
    # a kernel that does not count them.
    decisions: np.ndarray | None = None


class StepBuffer:
    """What every kernel's StepGame does the same way: one int64 buffer, step plans,
    and the calls into the kernel's `step` entry.

    A stepped game's arrays are blocks of one int64 buffer, so the compiled call
    Python makes at each outside decision passes one array (numba checks and
    reference-counts each array argument: ten cost about 2 µs a call, one about
    0.5). Its header holds (start, stop) of block i at words 2i and 2i + 1;
    the kernel sees its uint64 and float64 blocks as views of the same bytes.

    `slots[j]` is bot slot j's compiled bot, (name, parameters with defaults),
    or None for a slot whose decisions are made outside (a plugin). A subclass
    sets `step` (the kernel's entry, `step(buf, mode, action, seed, game)`
    returning n * 8 + seat at an outside decision of n moves, 0 at the end),
    STEP_DEAL, STEP_APPLY and STEP_ON, and builds its buffer in `_build`: `_plans_for`,
    `_pack`, then `plan`, `moves` and `streams` from `_block`. Its `load` checks the
    position with `_check_position`, lays it, and starts with `_play_on_from`.
    """

    step: ClassVar[staticmethod[[np.ndarray, int, int, int, int], int]]
    STEP_DEAL: ClassVar[int]
    STEP_APPLY: ClassVar[int]
    STEP_ON: ClassVar[int]
    buf: np.ndarray
    streams: np.ndarray  # uint64 [players + 1, 2]: (key, counter) of chance, then each seat's bot
    plan: np.ndarray  # the kernel reads the game's plan from here
    moves: memoryview  # sliced and listed at every decision: a memoryview is the quickest
    # Each step's scores as the kernel writes them (row j - 1 after step j), and whether
    # the game in the buffer was dealt here: a position loaded mid-way (`load`) has no
    # record of the steps before it, so its GameRecord.progress is ().
    progress: np.ndarray
    decisions: np.ndarray  # the game's (turns, choices), games/progress.py's TURNS, CHOICES
    dealt: bool = False

    def __init__(
        self,
        rules: Mapping[str, Any],
        players: int,
        slots: Sequence[tuple[str, Mapping[str, Any]] | None],
    ) -> None:
        if len(slots) != players:
            raise ValueError(f"{len(slots)} bot slots for {players} players")
        self.rules = rules
        self.players = players
        self.slots = tuple(slots)
        self._build()

    def _build(self) -> None:
        """The kernel's own part of __init__: its tables, blocks and views."""
        raise NotImplementedError

    def _pack(self, blocks: Sequence[np.ndarray], header: int) -> None:
        """`buf` from `blocks` (int64 each) behind a header of `header` words."""
        assert 2 * len(blocks) <= header
        start = np.zeros(header, np.int64)
        at = header
        for i, part in enumerate(blocks):
            start[2 * i], start[2 * i + 1] = at, at + len(part)
            at += len(part)
        self.buf = np.concatenate([start, *blocks])

    def _block(self, b: int) -> np.ndarray:
        """The block whose (start, stop) is at header words b, b + 1: a view, not a copy."""
        return self.buf[self.buf[b] : self.buf[b + 1]]

    def _plans_for(
        self, kinds: Sequence[int], n_params: int, kind_at: int, params_at: int, size: int
    ) -> None:
        """Step plans to come: bot slot j plays kind `kinds[j]` (the kernel's bot kind, or
        its mark for outside) with its parameter row at j * n_params; a plan holds, per
        physical seat, its slot's kind at kind_at + seat and row at params_at + seat."""
        self._plan_layout = (tuple(kinds), n_params, kind_at, params_at, size)
        self._plans: dict[tuple[int, ...], np.ndarray] = {}

    def _plan_of(self, seat_slots: Sequence[int]) -> np.ndarray:
        """The plan of one seat arrangement (seat_slots[s]: the slot at physical seat s),
        made once: a run has at most `players` of them."""
        key = tuple(seat_slots)
        plan = self._plans.get(key)
        if plan is None:
            kinds, n_params, kind_at, params_at, size = self._plan_layout
            plan = np.zeros(size, np.int64)
            for seat, slot in enumerate(key):
                plan[kind_at + seat] = kinds[slot]
                plan[params_at + seat] = slot * n_params
            self._plans[key] = plan
        return plan

    def deal(self, seed: int, game: int, seat_slots: Sequence[int]) -> int:
        """Deal game `game` of `seed` and play on to its first outside decision."""
        self.plan[:] = self._plan_of(seat_slots)
        self.dealt = True
        return int(self.step(self.buf, self.STEP_DEAL, 0, seed, game))

    def _check_position(self, players: int, same_rules: bool) -> None:
        """A position to load must be of this buffer's players and rules."""
        if players != self.players:
            raise ValueError(f"the position is of {players} players, not {self.players}")
        if not same_rules:
            raise ValueError("the position is of other rules")

    def _play_on_from(
        self, seat_slots: Sequence[int], seed: int, game: int, chance: Any | None
    ) -> int:
        """A loaded position's start (a kernel's `load` lays the position first): the
        chance stream goes on from `chance` (a Stream, as the State holds it; None for a
        game that draws chance only at the deal), compiled seats draw from game `game` of
        `seed`'s bot streams from their start; plays on to the first outside decision."""
        from balancer.rng import init_streams

        self.plan[:] = self._plan_of(seat_slots)
        self.dealt = False
        init_streams(self.streams, seed, game)
        if chance is not None:
            self.streams[0] = np.uint64(chance.key), np.uint64(chance.counter)
        return int(self.step(self.buf, self.STEP_ON, 0, 0, 0))

    def progress_of(self, steps: int) -> tuple[tuple[int, ...], ...]:
        """GameRecord.progress of the game in the buffer, `steps` steps long: () unless
        it was dealt here."""
        if not self.dealt:
            return ()
        return tuple(map(tuple, self.progress[:steps].tolist()))

    def decisions_of(self) -> tuple[int, ...]:
        """GameRecord.decisions of the game in the buffer: () unless it was dealt here."""
        return tuple(self.decisions.tolist()) if self.dealt else ()

    def play(self, action: int) -> int:
        """Play the outside seat's `action` (one of `legal`) and on to the next outside decision."""
        return int(self.step(self.buf, self.STEP_APPLY, action, 0, 0))

    def legal(self, code: int) -> list[int]:
        """The moves of the decision `code` names, as the Python engine lists them."""
        moves: list[int] = self.moves[: code >> 3].tolist()
        return moves


# -- the one kernel interface ---------------------------------------------------------


@dataclass
class Position:
    """A compiled game in progress: the kernel's arrays for one game, at one point of play.

    `tables` are the compiled rules (read only); `streams` the uint64
    [players + 1, 2] (key, counter) rows of chance and each seat's bot; `kept`
    what the kernel keeps of the game beside `state` (fdc: the cards cashed).
    `moves` (the buffer `legal` fills) and `scratch` (the bots' working memory)
    hold nothing from one call to the next, so copies share them, and the tables:
    a search copies a position for every rollout.
    """

    state: np.ndarray
    tables: np.ndarray
    streams: np.ndarray
    moves: np.ndarray
    scratch: tuple[np.ndarray, ...] = ()
    kept: tuple[np.ndarray, ...] = ()

    def copy(self) -> Position:
        """An independent copy: playing it on leaves this one as it is."""
        return Position(
            self.state.copy(),
            self.tables,
            self.streams.copy(),
            self.moves,
            self.scratch,
            tuple(a.copy() for a in self.kept),
        )


@dataclass(frozen=True)
class SeatBots:
    """The compiled bot of each physical seat: its kind and its float64 parameter row,
    and the same laid out for the kernel's play_out."""

    kinds: np.ndarray  # int64 [players]
    params: np.ndarray  # float64 [players, the kernel's parameter count]
    plan: np.ndarray  # int64: the module's play_out plan (its encode_bots)
    flat: np.ndarray  # float64: `params` as one row, as the plan indexes it


class Kernel(Protocol):
    """One vocabulary for every game's compiled kernel (each game's `compiled.py`).

    Game i played here is the game the engine (the authority) plays for the same
    rules, players, seed, i and bots; tests/kernels/test_kernel_conformance.py checks it
    for every registered game with a kernel.
    """

    compiled_bots: frozenset[str]  # the built-in bots the kernel plays
    step_game: type[StepBuffer] | None  # games stepped to each outside decision (plugins)

    def play_chunk(
        self,
        rules: Mapping[str, Any],
        players: int,
        seed: int,
        start: int,
        stop: int,
        slots: Sequence[tuple[str, Mapping[str, Any]]],
        rotate: bool,
        margin: int = ...,
    ) -> ChunkColumns: ...

    def new_position(self, rules: Mapping[str, Any], players: int) -> Position:
        """Arrays for one game of these rules, before its deal."""
        ...

    def deal(self, position: Position, seed: int, game: int) -> None:
        """Set the streams to game `game` of `seed` and deal it."""
        ...

    def from_state(self, state: Any, bot_streams: Sequence[Any]) -> Position:
        """The position of an engine State, the seats' bots drawing from `bot_streams`
        (rng.Streams, as they stand) and chance going on from the State's own."""
        ...

    def current_player(self, position: Position) -> int:
        """The seat to act, or -1 once the game is over."""
        ...

    def legal(self, position: Position) -> int:
        """Fill position.moves with the legal moves, as the engine lists them; their count."""
        ...

    def apply(self, position: Position, action: int) -> None: ...

    def encode_bots(self, seats: Sequence[tuple[str, Mapping[str, Any]]]) -> SeatBots:
        """Seat s's (bot name, parameters) as the kernel's arrays; ValueError if not compiled."""
        ...

    def choose(self, position: Position, bots: SeatBots, n: int) -> int:
        """The current seat's bot's move among position.moves[:n] (n >= 2, `legal` just called)."""
        ...

    def play_out(self, position: Position, bots: SeatBots) -> None:
        """Play from the position to the end, each seat with its bot."""
        ...

    def determinize(self, position: Position, seat: int, rng: np.ndarray, out: Position) -> int:
        """Into `out` (a copy of `position`, never `position` itself), a world `seat` can't
        tell from `position`: what it sees kept, the cards it can't see dealt again from
        rng's row 0 (uint64 key, counter; advanced), chance after the deal reseeded from
        it. The seats' bot streams in `out` are left as they are. Returns the constraints
        given up (Da Qi Zi's face-down discards; 0 elsewhere): a caller that must honour
        them all samples such a world another way (docs/determinize.md)."""
        ...

    def record(self, position: Position) -> GameRecord:
        """A finished game's record (its held kinds are unknown for a position not dealt here)."""
        ...

    def scores(self, position: Position) -> np.ndarray:
        """A finished game's scores, float64 per seat: the record's, without building it."""
        ...


class KernelModule:
    """The part of every game's Kernel adapter that passes straight through to its
    kernel module (`module`): the chunk loop, the seat to act, the legal moves."""

    module: ClassVar[Any]

    def play_chunk(
        self,
        rules: Mapping[str, Any],
        players: int,
        seed: int,
        start: int,
        stop: int,
        slots: Sequence[tuple[str, Mapping[str, Any]]],
        rotate: bool,
        margin: int = NO_MARGIN,
    ) -> ChunkColumns:
        out: ChunkColumns = self.module.play_chunk(
            rules, players, seed, start, stop, slots, rotate, margin
        )
        return out

    def current_player(self, position: Position) -> int:
        return int(self.module.current_player(position.state))

    def legal(self, position: Position) -> int:
        return int(self.module.legal(position.state, position.tables, position.moves))

    def encode_bots(self, seats: Sequence[tuple[str, Mapping[str, Any]]]) -> SeatBots:
        """The seats' bots through the module's own `encode_bots` (the plan its compiled
        `play_out` reads, laid out once: a search plays out thousands of times with the
        same bots), with each seat's kind and parameter row read back for `choose`."""
        plan, flat = self.module.encode_bots(seats)
        players = len(seats)
        kinds = plan[self.module.PLAN_KIND : self.module.PLAN_KIND + players].copy()
        return SeatBots(kinds, flat.reshape(players, -1), plan, flat)

    def play_out(self, position: Position, bots: SeatBots) -> None:
        """Play to the end through the module's compiled `play_out` (the module
        docstring above)."""
        module = self.module
        module.play_out(
            position.state, position.tables, position.streams, bots.plan, bots.flat,
            module.new_scratch(position.state), np.zeros(len(bots.kinds), np.float64),
        )  # fmt: skip

    def determinize(self, position: Position, seat: int, rng: np.ndarray, out: Position) -> int:
        dropped = self.module.determinize(
            position.state, position.tables, seat, rng, out.state, out.streams
        )
        return int(dropped)
