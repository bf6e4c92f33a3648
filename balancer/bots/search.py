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
between moves goes to the first searched: the game's legal order, or the
scripted bot's ranking under `candidates`).

Where moves are many (Da Qi Zi's discards), `candidates: K` searches only the K
moves the game's scripted bot ranks highest (`ranked`): its choice, then its choice
among the moves left, and so on; K = 1 plays the scripted bot's move, 0 searches
every legal move. `horizon: deal` (Da Qi Zi's default) ends each play-out when the
current deal is paid and values it by the seat's chips won or paid in that deal;
`horizon: game` plays to the game's end, valued by the win share. `method: ismcts`
searches a tree instead (bots/ismcts.py), on the same worlds, candidates and horizon.

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
    """What one decision's search found: each candidate's mean value, in the order searched."""

    moves: tuple[Hashable, ...]
    values: tuple[float, ...]
    chosen: int = -1  # the move's index when the search chose otherwise (ismcts: most played)

    @property
    def best(self) -> Hashable:
        if self.chosen >= 0:
            return self.moves[self.chosen]
        return self.moves[max(range(len(self.values)), key=self.values.__getitem__)]


class MonteCarloSearch:
    """`search` (see the module's docstring) for one game; one per seat."""

    def __init__(
        self,
        game: str,
        *,
        samples: int = 50,
        rollout: str = "scripted",
        rollout_params: Mapping[str, Any] | None = None,
        candidates: int = 0,
        horizon: str | None = None,
        method: str = "flat",
    ) -> None:
        from balancer import games

        definition = games.definition(game)
        kernel = definition.kernel()
        determinize = definition.spec.determinize
        if kernel is None or determinize is None:
            raise ValueError(f"{definition.name} has no kernel or no determinize to search with")
        if samples < 1:
            raise ValueError("samples must be at least 1")
        if candidates < 0:
            raise ValueError("candidates must be 0 (every legal move) or more")
        if method not in METHODS:
            raise ValueError(f"method must be one of {', '.join(METHODS)}, got {method!r}")
        if horizon is None:  # the game's default (DEAL_HORIZON's where it has deals)
            horizon = DEAL_HORIZON.default if definition.name in _DEALT else "game"
        if horizon not in HORIZONS:
            raise ValueError(f"horizon must be one of {', '.join(HORIZONS)}, got {horizon!r}")
        if horizon == "deal" and not hasattr(kernel, "play_deal_out"):
            raise ValueError(f"{definition.name} has no deals to end a play-out at")
        self.kernel: Kernel = kernel
        self.determinize = determinize
        self.samples = samples
        self.candidates = candidates
        self.horizon = horizon
        self.method = method
        self.higher_is_better = definition.spec.higher_is_better
        self.max_players = definition.spec.max_players
        bots = definition.bots()
        scripted = _scripted(definition.name)
        name = scripted if rollout == "scripted" else rollout
        if name not in kernel.compiled_bots:
            raise ValueError(f"rollout bot {name!r} is not compiled for {definition.name}")
        self.rollout = name
        self.rollout_params = bot_params_with_defaults(bots[name], rollout_params or {})
        # The ranking of `candidates`: the scripted bot at its defaults, from the view.
        ranker = bots[_ranker(definition.name, bots)]
        self._ranker = ranker.factory(**bot_params_with_defaults(ranker, {}))
        self._seat_bots: dict[int, SeatBots] = {}

    def act(self, view: Any, legal: Sequence[Hashable], rng: Stream) -> Hashable:
        moves = self.ranked(view, legal, rng)
        if len(moves) == 1:  # one candidate (candidates: 1): nothing to search
            return moves[0]
        return self._search(view, moves, rng).best

    def evaluate(self, view: Any, legal: Sequence[Hashable], rng: Stream) -> Evaluation:
        """Every candidate's mean value over the same `samples` worlds, from `rng` alone."""
        return self._search(view, self.ranked(view, legal, rng), rng)

    def ranked(self, view: Any, legal: Sequence[Hashable], rng: Stream) -> tuple[Hashable, ...]:
        """The moves to search: every legal move in the game's order (`candidates` 0,
        or no more legal moves than that), else the `candidates` best by the scripted
        bot: its choice from the view, then its choice among the moves not yet taken,
        and so on (Da Qi Zi's heuristic so ranks discards by their cost, weakest
        first); should it answer a move already taken, the rest in legal order. The
        ranker is asked with a copy of `rng` each time: a game file's lookahead draws
        its worlds from it, and the search's own draws stay what they would be."""
        k = self.candidates
        if k == 0 or len(legal) <= k:
            return tuple(legal)
        left = list(legal)
        taken: list[Hashable] = []
        while len(taken) < k:  # `left` keeps two moves or more: k < len(legal)
            move = self._ranker.act(view, tuple(left), rng.copy())
            if move not in left:
                # A bot may answer a move it takes to be always legal (fdc's dash: protect)
                # once that move is taken: the rest follow in the game's legal order.
                taken.extend(left[: k - len(taken)])
                break
            taken.append(move)
            left.remove(move)
        return tuple(taken)

    def _search(self, view: Any, moves: Sequence[Hashable], rng: Stream) -> Evaluation:
        if self.method == "ismcts":
            from balancer.bots.ismcts import tree_search

            means, chosen = tree_search(self, view, moves, rng)
            return Evaluation(tuple(moves), means, chosen)
        return self._flat(view, moves, rng)

    def _flat(self, view: Any, moves: Sequence[Hashable], rng: Stream) -> Evaluation:
        """Flat Monte Carlo: each of `moves` played out once in each of the same worlds."""
        seat = view.seat
        totals = [0.0] * len(moves)
        for world in self.outcomes(view, moves, rng):
            for c, values in enumerate(world):
                totals[c] += values[seat]
        return Evaluation(tuple(moves), tuple(total / self.samples for total in totals))

    def outcomes(
        self, view: Any, moves: Sequence[Hashable], rng: Stream
    ) -> list[list[Sequence[float]]]:
        """[world][move][seat]: every seat's value (the horizon's) after each of `moves`,
        played out once in each of the `samples` worlds drawn from the view alone (every
        move in the same worlds, with the same rollout streams). The flat search reads
        the mover's; analysis/decisions.py reads every seat's."""
        kernel = self.kernel
        played: list[list[Sequence[float]]] = []
        horizon: Horizon | None = None
        for position in self._worlds(view, rng, self.samples):
            horizon = horizon or self._horizon(position)
            bots = self._bots(len(position.streams) - 1)
            world: list[Sequence[float]] = []
            for move in moves:
                copy = position.copy()
                kernel.apply(copy, int(move))  # type: ignore[call-overload]
                world.append(horizon.play_on(copy, bots))
            played.append(world)
        return played

    def _worlds(self, view: Any, rng: Stream, count: int) -> Iterator[Position]:
        """`count` worlds drawn from the view alone (the module's docstring), each
        with its own rollout streams; a world is reused by the caller only until the
        next one is drawn."""
        import numpy as np

        first = self._laid(self._world(view, rng), rng)
        key = np.array([[rng.next_u64(), 0]], np.uint64)
        world = first.copy()
        for _ in range(count):
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

    def _horizon(self, root: Position) -> Horizon:
        """Where play-outs from the decision at `root` end, and how they are valued."""
        if self.horizon == "deal":
            return DealHorizon(self.kernel, root)
        return GameHorizon(self.kernel, self.higher_is_better)


class GameHorizon:
    """Play-outs to the game's end, valued by each seat's win share (ties share)."""

    def __init__(self, kernel: Kernel, higher_is_better: bool) -> None:
        self.kernel = kernel
        self.higher_is_better = higher_is_better

    def over(self, position: Position) -> bool:
        return self.kernel.current_player(position) < 0

    def play_on(self, position: Position, bots: SeatBots) -> Sequence[float]:
        """Play `position` (a copy) to the horizon (nothing once it is over); each
        seat's value."""
        self.kernel.play_out(position, bots)
        return win_shares(self.kernel.scores(position).tolist(), self.higher_is_better)


class DealHorizon:
    """Play-outs to the end of the deal of the decision (Da Qi Zi), valued by each
    seat's chips won (+) or paid (-) in it. Chips change only when a deal is paid,
    so the chips at the decision, the same in every world, are the deal's start."""

    def __init__(self, kernel: Any, root: Position) -> None:
        self.kernel = kernel
        self.deal = kernel.deal_of(root)
        self.chips = kernel.scores(root)

    def over(self, position: Position) -> bool:
        return bool(
            self.kernel.current_player(position) < 0 or self.kernel.deal_of(position) != self.deal
        )

    def play_on(self, position: Position, bots: SeatBots) -> Sequence[float]:
        self.kernel.play_deal_out(position, bots, self.deal)  # plays nothing once it is over
        paid: list[float] = (self.kernel.scores(position) - self.chips).tolist()
        return paid


Horizon = GameHorizon | DealHorizon


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
HORIZONS = ("game", "deal")
METHODS = ("flat", "ismcts")
PARAMS = (
    knobs.integer(
        "samples",
        "params",
        DEFAULT_SAMPLES,
        "worlds drawn at each decision; every candidate move is played out once in each "
        "(ismcts: samples x candidates iterations, the same number of play-outs)",
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
    knobs.integer(
        "candidates",
        "params",
        0,
        "moves searched at a decision: the ones the scripted bot ranks highest (0: all)",
        low=0,
        high=100_000,
    ),
    knobs.choice(
        "method",
        "params",
        "flat",
        "flat Monte Carlo, or information-set MCTS (a tree over the same worlds)",
        METHODS,
    ),
)
# Da Qi Zi's default is the deal: as strong as the game's end by duplicate play, at a
# third of the CPU (docs/bots.md).
DEAL_HORIZON = knobs.choice(
    "horizon",
    "params",
    "deal",
    "where a play-out ends: the game (valued by win share) or the current deal "
    "(valued by the chips won or paid in it)",
    HORIZONS,
)
# Games whose kernel can end a play-out when a deal is paid (`play_deal_out`): known by
# name, so listing the bots loads no kernel.
_DEALT = frozenset({"da-qi-zi"})


def can_search(game: str) -> bool:
    """Whether the game has what the search needs: a kernel and a determinize."""
    from balancer import games

    definition = games.definition(game)
    return definition.spec.determinize is not None and definition.has_kernel


def search_spec(game: str) -> BotSpec:
    """The `search` bot of `game` (full name), as the bot registry lists it."""

    def factory(**params: Any) -> MonteCarloSearch:
        return MonteCarloSearch(game, **params)

    return BotSpec(
        SEARCH,
        "flat Monte Carlo (or information-set MCTS) over worlds sampled from what its seat "
        "has seen (never peeks), each move played out with the scripted bot",
        factory,
        PARAMS + (DEAL_HORIZON,) if game in _DEALT else PARAMS,
    )


# The best scripted bot of each game: the search's default rollout (`random` for any
# other game, role games among them).
_SCRIPTED = {"fish-dash-cash": "heuristic", "kimekimera": "expected", "da-qi-zi": "heuristic"}


def _scripted(game: str) -> str:
    return _SCRIPTED.get(game, "random")


# A game file's own scripted bots, best first: Fish! Dash! Cash!'s heuristic where the
# file plays its roles (roles/fdc_heuristic.py), else the lookahead every game file
# offers. They rank a search's candidates; its play-outs on a game file stay `random`
# (`rollout: scripted` above), each play-out move one draw instead of a lookahead.
_GAME_FILE_SCRIPTED = ("heuristic", "lookahead")


def _ranker(game: str, offered: Mapping[str, Any]) -> str:
    """The bot that ranks `candidates` for `game`, among the bots it `offered`."""
    if game in _SCRIPTED:
        return _SCRIPTED[game]
    return next((name for name in _GAME_FILE_SCRIPTED if name in offered), "random")
