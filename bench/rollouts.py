"""`python -m bench.throughput --rollouts`: a search bot's rollout beside a whole compiled game.

A rollout is what a search bot (issue 30) does many times a decision: sample a
world its seat can't tell from the true position (the kernel's compiled
`determinize`) and play it to the end with the seats' compiled bots
(`play_out`). Side by side, for fdc-5p, kk-4p and dqz-4p (their bots, their
knobs), in CPU seconds, in interleaved rounds (bench.throughput's `interleaved`):

    whole game          the kernel's chunk loop (`play_chunk`), a game per game
    rollout, mid-game   determinize + play_out from positions halfway through a
                        game (half its decisions played by the same bots), the
                        seat to act searching; a compiled loop of rollouts, as a
                        search bot's
    rollout, first move the same from the first decision of a game: a whole game's
                        play plus the sampling

The figure is each rollout's CPU time over a whole game's (issue 28 asks at
most 2x from mid-game).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from balancer.bot import bot_params_with_defaults
from balancer.bots import registry as bot_registry
from balancer.config.variant import Variant, load
from balancer.games.daqizi import kernel as DQ
from balancer.games.fdc import kernel as F
from balancer.games.kimekimera import kernel as KK
from balancer.jit import njit
from balancer.rng import init_streams

ROOT = Path(__file__).parent.parent
VARIANTS = {"fish-dash-cash": "fdc-5p", "kimekimera": "kk-4p", "da-qi-zi": "dqz-4p"}
POSITIONS = 16  # mid-game positions a contender cycles through (games 0..15 of seed 1)

# The compiled rollout loops: n worlds for `seat` from `state`, each played out; the
# bot streams go on from rollout to rollout (fresh draws), determinize reseeds chance.
# Not cached on disk: numba would keep a loop's code until this file changes, and the
# kernels it compiles in live in other files (an edited kernel would be timed stale).


def _rollout_loop(kernel: Any, **options: Any) -> Callable[..., float]:
    """A compiled loop of n rollouts for one kernel module: n worlds for `seat` from
    `state`, each played out, the seat's scores summed. The kernels share the names and
    signatures of `determinize` and `play_out`, so one source serves all three; numba
    compiles each loop with its own module's functions inlined."""
    determinize, play_out = kernel.determinize, kernel.play_out

    @njit(cache=False, **options)
    def rollouts(
        state: np.ndarray,
        tables: np.ndarray,
        seat: int,
        rng: np.ndarray,
        plan: np.ndarray,
        params: np.ndarray,
        streams: np.ndarray,
        n: int,
        world: np.ndarray,
        scratch: np.ndarray,
        scores: np.ndarray,
    ) -> float:
        total = 0.0
        for _ in range(n):
            determinize(state, tables, seat, rng, world, streams)
            play_out(world, tables, streams, plan, params, scratch, scores)
            total += scores[seat]
        return total

    return rollouts  # type: ignore[no-any-return]


# As fdc's own loops are compiled (kernel/layout.py `outermost`): without reference
# counting and with numpy's error model; with numba's defaults every move of its
# inlined kernels paid for reference counts, and a rollout cost 1.8x a whole game.
_fdc_rollouts = _rollout_loop(F, error_model="numpy", _nrt=False)
_kk_rollouts = _rollout_loop(KK)
_dqz_rollouts = _rollout_loop(DQ)


def _slots(variant: Variant) -> list[tuple[str, dict[str, Any]]]:
    builtin = bot_registry.builtin(variant.game)
    return [
        (s.bot, dict(bot_params_with_defaults(builtin[s.bot], s.params))) for s in variant.seats
    ]


class _Game:
    """One variant's kernel calls, named alike: dealing, one bot move, the loop."""

    def __init__(self, game: str, variant: Variant) -> None:
        self.game, self.players = game, variant.players
        self.rules, self.slots = variant.rules, _slots(variant)
        if game == "fish-dash-cash":
            self.kernel: Any = F
            self.tables = F.make_tables(self.rules, self.players)
            self.loop: Callable[..., float] = _fdc_rollouts
        elif game == "kimekimera":
            self.kernel = KK
            self.tables = KK.encode_rules(self.rules, self.players)
            self.loop = _kk_rollouts
        else:
            self.kernel = DQ
            self.tables = DQ.encode_rules(self.rules)
            self.loop = _dqz_rollouts
        self.plan, self.params = self.kernel.encode_bots(self.slots)

    def deal(self, game: int) -> tuple[np.ndarray, np.ndarray]:
        streams = np.zeros((1 + self.players, 2), np.uint64)
        init_streams(streams, 1, game)
        if self.kernel is F:
            state = F.new_state(self.tables)
            F.deal(state, self.tables, streams)
        else:
            state = np.zeros(self.kernel.STATE_SIZE, np.int64)
            self.kernel.new_game(state, self.tables, streams)
        return state, streams

    def over(self, state: np.ndarray) -> bool:
        return bool(self.kernel.current_player(state) < 0)

    def move(self, state: np.ndarray, streams: np.ndarray) -> None:
        """One move of the step path: the seat's compiled bot, a forced move unasked."""
        k, tables, plan, params = self.kernel, self.tables, self.plan, self.params
        moves = np.zeros(512, np.int64)
        n = k.legal(state, tables, moves)
        action = moves[0]
        if n > 1:
            seat = k.current_player(state)
            kind, at = plan[k.PLAN_KIND + seat], plan[k.PLAN_PARAMS + seat]
            row = params[at : at + k.N_PARAMS]
            if k is F:
                iwork, fwork = F.new_work(state)
                action = F.choose(state, tables, streams, kind, row, moves, n, iwork, fwork)
            elif k is KK:
                scratch = np.zeros(16, np.int64)
                action = KK.bot_action(kind, row, state, tables, streams, moves, n, scratch)
            else:
                action = DQ.choose(state, tables, streams, moves, n, kind, row)
        k.apply(state, tables, streams, action)

    def position(self, game: int, fraction: float) -> tuple[np.ndarray, np.ndarray]:
        """Game `game` of seed 1 after `fraction` of its moves, as its bots play it."""
        state, streams = self.deal(game)
        probe, probe_streams = state.copy(), streams.copy()
        total = 0
        while not self.over(probe):
            self.move(probe, probe_streams)
            total += 1
        for _ in range(int(total * fraction)):
            self.move(state, streams)
        return state, streams

    def rollouts(self, fraction: float) -> Callable[[int, int], None]:
        """A contender: n rollouts from positions at `fraction`, cycling through them."""
        positions = [self.position(g, fraction) for g in range(POSITIONS)]
        world = positions[0][0].copy()
        scratch = self.kernel.new_scratch(world)
        scores = np.zeros(self.players)
        rng = np.array([[12345, 0]], np.uint64)

        def play(first: int, n: int) -> None:
            per, extra = divmod(n, POSITIONS)
            for i, (state, streams) in enumerate(positions):
                m = per + (i < extra)
                if m:
                    seat = int(self.kernel.current_player(state))
                    self.loop(
                        state, self.tables, seat, rng, self.plan, self.params,
                        streams.copy(), m, world, scratch, scores,
                    )  # fmt: skip

        return play

    def whole(self) -> Callable[[int, int], None]:
        def play(first: int, n: int) -> None:
            self.kernel.play_chunk(self.rules, self.players, 1, first, first + n, self.slots, True)

        return play


def measure_rollouts(
    chosen: list[str], rounds: int, seconds: float, interleaved: Callable[..., dict[str, float]]
) -> list[dict[str, Any]]:
    rows = []
    for game in chosen:
        name = VARIANTS[game]
        g = _Game(game, load(ROOT / "variants" / f"{name}.yaml"))
        contenders = {
            "whole game": g.whole(),
            "rollout, mid-game": g.rollouts(0.5),
            "rollout, first move": g.rollouts(0.0),
        }
        per = interleaved(contenders, rounds, seconds)
        base = per["whole game"]
        for contender, t in per.items():
            rows.append(
                {
                    "variant": name,
                    "contender": contender,
                    "cpu_us": round(t * 1e6, 2),
                    "vs_whole_game": round(t / base, 2),
                }
            )
    return rows
