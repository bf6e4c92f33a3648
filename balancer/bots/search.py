"""The search bot: flat Monte Carlo over determinized worlds, and it never peeks.

At a decision of two or more moves the bot draws `samples` worlds consistent with
what its seat has seen and, for every candidate move, plays each world out once
from the move with the `rollout` bot in every seat. The first world comes from the
game's `determinize(view, rng)` (Python, from the view alone), laid in the game's
compiled kernel (`from_state`); every world is then dealt again from that one by the
kernel's compiled `determinize`, which keeps what the seat sees and deals the cards
it can't see at random (a Python resample and conversion per world cost about a
millisecond, the compiled deal a few microseconds). Where the kernel has to give up
a constraint of the view (Kernel.determinize: Da Qi Zi's face-down discards, rarely),
that world is drawn in Python instead. Every
candidate is played in the same worlds with the same rollout streams (paired: the
difference between two moves is not drowned by the luck of the deal), and the bot
picks the best mean value, its seat's win share at the end (ties share; a tie
between moves goes to the first in the game's legal order).

Everything is drawn from the stream the bot is handed (its seat's), so a run with a
search bot is as reproducible and worker-invariant as any other. The budget is a
number of rollouts, never seconds.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from balancer import knobs
from balancer.bot import BotSpec, bot_params_with_defaults
from balancer.games.api import win_shares
from balancer.rng import Stream, bot_stream

if TYPE_CHECKING:  # numpy and the kernels load when a search bot is built, not when listed
    from balancer.games.kernel_api import Kernel, Position, SeatBots


@dataclass(frozen=True)
class Evaluation:
    """What one decision's search found: each candidate's mean value, in legal order."""

    moves: tuple[Hashable, ...]
    values: tuple[float, ...]

    @property
    def best(self) -> Hashable:
        return self.moves[max(range(len(self.values)), key=self.values.__getitem__)]


class FlatMonteCarlo:
    """`search` (see the module's docstring) for one game; one per seat."""

    def __init__(
        self,
        game: str,
        *,
        samples: int = 50,
        rollout: str = "scripted",
        rollout_params: Mapping[str, Any] | None = None,
    ) -> None:
        from balancer import games

        definition = games.definition(game)
        kernel = definition.kernel()
        determinize = definition.spec.determinize
        if kernel is None or determinize is None:
            raise ValueError(f"{definition.name} has no kernel or no determinize to search with")
        if samples < 1:
            raise ValueError("samples must be at least 1")
        self.kernel: Kernel = kernel
        self.determinize = determinize
        self.samples = samples
        self.higher_is_better = definition.spec.higher_is_better
        self.max_players = definition.spec.max_players
        bots = definition.bots()
        name = _scripted(definition.name) if rollout == "scripted" else rollout
        if name not in kernel.compiled_bots:
            raise ValueError(f"rollout bot {name!r} is not compiled for {definition.name}")
        self.rollout = name
        self.rollout_params = bot_params_with_defaults(bots[name], rollout_params or {})
        self._seat_bots: dict[int, SeatBots] = {}

    def act(self, view: Any, legal: Sequence[Hashable], rng: Stream) -> Hashable:
        return self.evaluate(view, legal, rng).best

    def evaluate(self, view: Any, legal: Sequence[Hashable], rng: Stream) -> Evaluation:
        """Every candidate's mean value over the same `samples` worlds, from `rng` alone."""
        kernel = self.kernel
        seat = view.seat
        totals = [0.0] * len(legal)
        for position in self._worlds(view, rng):
            bots = self._bots(len(position.streams) - 1)
            for c, move in enumerate(legal):
                copy = position.copy()
                kernel.apply(copy, int(move))  # type: ignore[call-overload]
                kernel.play_out(copy, bots)
                totals[c] += self._value(copy, seat)
        return Evaluation(tuple(legal), tuple(total / self.samples for total in totals))

    def _worlds(self, view: Any, rng: Stream) -> Iterator[Position]:
        """`samples` worlds drawn from the view alone (the module's docstring), each
        with its own rollout streams; a world is reused by the caller only until the
        next one is drawn."""
        import numpy as np

        first = self._laid(self._world(view, rng), rng)
        key = np.array([[rng.next_u64(), 0]], np.uint64)
        world = first.copy()
        for _ in range(self.samples):
            if self._redeal(first, view.seat, key, world):
                world = self._laid(self._world(view, rng), rng)  # a constraint given up
            else:
                _set_rollout_streams(world, rng)
            yield world

    def _laid(self, state: Any, rng: Stream) -> Position:
        # Da Qi Zi's State has no `players`: it is always played by max_players (4).
        players = getattr(state, "players", self.max_players)
        return self.kernel.from_state(state, _rollout_streams(rng, players))

    def _world(self, view: Any, rng: Stream) -> Any:
        """A world drawn from the view alone (a peeking control overrides this)."""
        return self.determinize(view, rng)

    def _redeal(self, first: Position, seat: int, key: Any, world: Position) -> int:
        """Deal `first`'s cards unseen by `seat` again into `world` (a peeking control
        overrides this); the constraints the kernel gave up."""
        return self.kernel.determinize(first, seat, key, world)

    def _bots(self, players: int) -> SeatBots:
        bots = self._seat_bots.get(players)
        if bots is None:
            seats = [(self.rollout, self.rollout_params)] * players
            bots = self._seat_bots[players] = self.kernel.encode_bots(seats)
        return bots

    def _value(self, position: Position, seat: int) -> float:
        return win_shares(self.kernel.scores(position).tolist(), self.higher_is_better)[seat]


def _rollout_streams(rng: Stream, players: int) -> list[Stream]:
    """Each seat's bot stream for one world's rollouts: keyed from one draw of the
    search bot's own stream, so every candidate in the world gets the same ones."""
    base = rng.next_u64()
    return [Stream(base, 0, bot_stream(seat)) for seat in range(players)]


def _set_rollout_streams(world: Position, rng: Stream) -> None:
    """`_rollout_streams` written into a position's seat rows (row 0 is chance)."""
    for row, stream in enumerate(_rollout_streams(rng, len(world.streams) - 1), start=1):
        world.streams[row] = stream.key, stream.counter


SEARCH = "search"
DEFAULT_SAMPLES = 50
PARAMS = (
    knobs.integer(
        "samples",
        "params",
        DEFAULT_SAMPLES,
        "worlds drawn at each decision; every candidate move is played out once in each",
        low=1,
        high=100_000,
    ),
    knobs.choice(
        "rollout",
        "params",
        "scripted",
        "the bot every seat plays in a play-out: the game's best scripted bot, or random",
        ("scripted", "random"),
    ),
)


def can_search(game: str) -> bool:
    """Whether the game has what the search needs: a kernel and a determinize."""
    from balancer import games

    definition = games.definition(game)
    return definition.spec.determinize is not None and definition.has_kernel


def search_spec(game: str) -> BotSpec:
    """The `search` bot of `game` (full name), as the bot registry lists it."""

    def factory(**params: Any) -> FlatMonteCarlo:
        return FlatMonteCarlo(game, **params)

    return BotSpec(
        SEARCH,
        "flat Monte Carlo over worlds sampled from what its seat has seen (never peeks), "
        "each move played out with the scripted bot",
        factory,
        PARAMS,
    )


# The best scripted bot of each game: the search's default rollout (`random` for any
# other game, role games among them).
_SCRIPTED = {"fish-dash-cash": "heuristic", "kimekimera": "expected", "da-qi-zi": "heuristic"}


def _scripted(game: str) -> str:
    return _SCRIPTED.get(game, "random")
