"""A role game's kernel (roles/kernel/) through the one kernel interface (games/kernel_api.py).

One adapter per game file: the tables depend on the file (and the knobs), the
compiled interpreter on neither."""

from __future__ import annotations

import threading
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

import numpy as np

from balancer.games.api import GameRecord
from balancer.games.kernel_api import ChunkColumns, KernelModule, Position, SeatBots, StepBuffer
from balancer.games.progress import NO_MARGIN
from balancer.games.roles import kernel as k
from balancer.games.roles.engine import State
from balancer.games.roles.fdc_heuristic import heuristic_compiles
from balancer.games.roles.kernel.bots import COMPILED_BOTS, most_samples
from balancer.games.roles.model import Choose, RoleGame
from balancer.games.roles.primitives import PRIMITIVES
from balancer.rng import Stream


class RoleKernel(KernelModule):
    module: ClassVar[Any] = k
    step_game: type[StepBuffer] | None = None  # plugins play role games on the engine

    def __init__(self, game: RoleGame) -> None:
        self.game = game
        offered = set(COMPILED_BOTS)
        if steals_from_face_down(game):
            offered.discard("lookahead")
        if not heuristic_compiles(game):  # fdc's heuristic, where the file plays its roles
            offered.discard("heuristic")
        self.compiled_bots: frozenset[str] = frozenset(offered)
        self._work = threading.local()

    def _scratch(self, position: Position, bots: SeatBots) -> np.ndarray:
        """`choose`'s and `play_out`'s work space, made once per thread and shape: it
        holds nothing from one call to the next, and making it costs more than a
        random play-out (a search plays thousands a decision)."""
        state, tables = position.state, position.tables
        key = (
            len(state), int(state[k.HCAP]), int(tables[k.T_DIR + k.X_MAXWAYS]),
            int(tables[k.T_PLAYERS]), most_samples(bots.flat),
        )  # fmt: skip
        made: dict[tuple[int, ...], np.ndarray] = self._work.__dict__.setdefault("made", {})
        scratch = made.get(key)
        if scratch is None:
            scratch = made[key] = k.scratch_for(state, tables, bots.flat)
        return scratch

    def _check(self, names: Sequence[str]) -> None:
        for name in names:
            if name not in self.compiled_bots:
                raise ValueError(f"{self.game.name} plays no compiled {name!r}")

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
        self._check([name for name, _ in slots])
        return k.play_chunk(self.game, rules, players, seed, start, stop, slots, rotate, margin)

    def encode_bots(self, seats: Sequence[tuple[str, Mapping[str, Any]]]) -> SeatBots:
        self._check([name for name, _ in seats])
        return super().encode_bots(seats)

    def _position(self, state: np.ndarray, tables: np.ndarray, streams: np.ndarray) -> Position:
        return Position(state, tables, streams, k.new_legal(state, tables))

    def new_position(self, rules: Mapping[str, Any], players: int) -> Position:
        tables = k.make_tables(self.game, rules, players)
        return self._position(k.new_state(tables), tables, k.new_streams(players))

    def deal(self, position: Position, seed: int, game: int) -> None:
        k.start_game(position.state, position.tables, position.streams, seed, game)

    def from_state(self, state: State, bot_streams: Sequence[Stream]) -> Position:
        arrays, tables = k.from_state(state)
        streams = k.new_streams(state.players)
        # Chance goes on from the State's own (a random discard draws it: State.chance).
        streams[0] = np.uint64(state.chance.key), np.uint64(state.chance.counter)
        for row, stream in enumerate(bot_streams, start=1):
            streams[row] = np.uint64(stream.key), np.uint64(stream.counter)
        return self._position(arrays, tables, streams)

    def current_player(self, position: Position) -> int:
        return int(k.current_player(position.state, position.tables))

    def apply(self, position: Position, action: int) -> None:
        k.apply(position.state, position.tables, position.streams, action)

    def choose(self, position: Position, bots: SeatBots, n: int) -> int:
        seat = self.current_player(position)
        return int(
            k.choose(
                position.state,
                position.tables,
                position.streams,
                int(bots.kinds[seat]),
                bots.flat,
                int(bots.plan[k.PLAN_PARAMS + seat]),
                position.moves,
                n,
                self._scratch(position, bots),
            )  # fmt: skip
        )

    def play_out(self, position: Position, bots: SeatBots) -> None:
        k.play_out(
            position.state, position.tables, position.streams, bots.plan, bots.flat,
            self._scratch(position, bots), np.zeros(len(bots.kinds), np.float64),
        )  # fmt: skip

    def determinize(self, position: Position, seat: int, rng: np.ndarray, out: Position) -> int:
        return int(
            k.determinize(position.state, position.tables, seat, rng, out.state, out.streams)
        )

    def record(self, position: Position) -> GameRecord:
        return k.record(position.state, position.tables, self.game)

    def scores(self, position: Position) -> np.ndarray:
        scores = np.zeros(int(position.tables[k.T_PLAYERS]), np.float64)
        k.scores_of(position.state, position.tables, scores)
        return scores


def steals_from_face_down(game: RoleGame) -> bool:
    """Whether a role of `game` (or a hook) may steal from a face-down zone (an op
    whose options list cards the view does not show: Primitive.unseen_choice).

    Such a steal lists the cards it may take among its owner's moves, which the
    view does not show (docs/new-game.md, "Search"): a world dealt again holds other
    cards there. The Python lookahead then acts on the view's options in each
    world (a card no longer there is taken from no one), the compiled interpreter
    on the world's own, so the two would play different games: such a file seats
    its lookahead step by step, the same games as `--check`."""
    steps = [step for role in game.roles.values() for step in (*role.resolve, *role.on_cancelled)]
    steps += [step for hook in game.hooks.values() for step in hook]
    ops = [op for step in steps for op in (step.options if isinstance(step, Choose) else (step,))]
    return any(PRIMITIVES[op.kind].unseen_choice(game.zones, op.params) for op in ops)
