"""Real decisions and kingmaking: a sample of a variant's games watched move by move.

Each sampled game is the variant's game i (its seed, rules, bots and seating), played
step by step by the engine exactly as a run plays it (sim/play.py asks the bots). At
every turn of a seat the watcher counts:

- a **turn**: the engine asked the seat for a move (a card, or a step's choice);
- a **choice**: the turn offered more than one legal move;

and, when search evaluations are asked for (`samples` > 0), at every choice it asks
`search`'s flat Monte Carlo, from the view of the seat to move and a stream of its own
(so the bots' moves, and the game, are the run's), for every legal move's estimated
win probability of *every* seat (`SeatValues`: the same worlds and rollout streams for
every move). Then, with `values[m][p]` seat p's estimate after move m:

- a **real decision**: the mover's own estimates differ by more than `margin`
  between its best and its worst move, surely: the paired difference over the worlds
  (each world plays both moves), less 1.645 standard errors (a one-sided 95% bound),
  is above `margin`, so the noise of a small budget is not taken for a decision;
- the mover **can no longer win**: its best move's estimate is under `threshold`;
- a **kingmaking move**: the mover can no longer win, and some alternative m, played
  out on the same worlds as the move it made c, makes another seat the favourite
  (the most likely winner other than the mover): with p the favourite after c and q
  the favourite after m ≠ p, the swing (v[c][p] − v[c][q]) − (v[m][p] − v[m][q]) of
  p's lead over q exceeds `margin`, surely in the same sense (its one-sided 95%
  bound over the worlds). With two players there is no one else to crown.

A kingmaking game is a game with at least one kingmaking move.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from balancer.bots.search import MonteCarloSearch
from balancer.config.plays_sample import DEFAULT_MARGIN, DEFAULT_THRESHOLD
from balancer.config.variant import Variant
from balancer.rng import CHANCE, Stream, bot_stream
from balancer.sim import DEFAULT_PLUGIN_MOVE_LIMIT
from balancer.sim.play import Seat, asker, derive_rng, with_clock
from balancer.sim.runner import build_seats
from balancer.stats.intervals import Interval, share_interval

# The evaluations' stream of game i: apart from chance (0) and every seat's bot (1 + seat),
# so watching a game never changes a move of it.
EVALUATION_STREAM = 1 << 20


class SeatValues(MonteCarloSearch):
    """`search`'s flat Monte Carlo (bots/search.py) to the game's end, keeping every
    seat's win share of every move, not only the mover's."""

    def __init__(self, game: str, samples: int) -> None:
        super().__init__(game, samples=samples, horizon="game")

    def table(self, view: Any, legal: Sequence[Hashable], rng: Stream) -> np.ndarray:
        """Worlds × moves × seats: each seat's win share after each legal move in each of
        the `samples` worlds drawn from the view alone (every move in the same worlds)."""
        return np.array(self.outcomes(view, legal, rng), dtype=np.float64)


# One-sided 95% normal quantile: a difference counts when its lower bound clears the margin.
Z_ONE_SIDED = 1.6448536269514722


def surely_above(differences: np.ndarray, margin: float) -> bool:
    """The mean of per-world `differences`, less 1.645 standard errors, exceeds `margin`
    (one world: the difference itself, with no error to estimate)."""
    n = differences.size
    se = float(differences.std(ddof=1)) / np.sqrt(n) if n > 1 else 0.0
    return bool(differences.mean() - Z_ONE_SIDED * se > margin)


def is_real(values: np.ndarray, seat: int, margin: float) -> bool:
    """The mover's best and worst moves (by their means) surely differ by more than
    `margin` of its win share; `values` is worlds × moves × seats (SeatValues.table)."""
    own = values[:, :, seat]
    means = own.mean(axis=0)
    best, worst = int(np.argmax(means)), int(np.argmin(means))
    return surely_above(own[:, best] - own[:, worst], margin)


def cannot_win(values: np.ndarray, seat: int, threshold: float) -> bool:
    """The mover's best move leaves it under `threshold` of a win (by the mean estimate)."""
    return bool(values[:, :, seat].mean(axis=0).max() < threshold)


def _favourite(row: np.ndarray, seat: int) -> int:
    others = row.copy()
    others[seat] = -np.inf
    return int(np.argmax(others))


def kingmaking(values: np.ndarray, seat: int, chosen: int, margin: float) -> bool:
    """Some alternative to move `chosen` makes another seat than the favourite after
    `chosen` the favourite, surely swinging their race by more than `margin` (the
    module's docstring). Whether the mover could still win is `cannot_win`'s."""
    means = values.mean(axis=0)
    p = _favourite(means[chosen], seat)
    made = values[:, chosen]
    for m in range(means.shape[0]):
        q = _favourite(means[m], seat)
        if m == chosen or q == p:
            continue
        other = values[:, m]
        swing = (made[:, p] - made[:, q]) - (other[:, p] - other[:, q])
        if surely_above(swing, margin):
            return True
    return False


@dataclass
class Watched:
    """One game's counts per seat (see the module's docstring)."""

    turns: np.ndarray  # int [players]
    choices: np.ndarray
    real: np.ndarray
    out: np.ndarray  # choices of a seat that could no longer win
    kingmaking: np.ndarray


def watch(
    state: Any,
    seats: Sequence[Seat],
    seed: int,
    index: int,
    evaluator: SeatValues | None,
    margin: float = DEFAULT_MARGIN,
    threshold: float = DEFAULT_THRESHOLD,
) -> Watched:
    """Play `state` (game `index` of `seed`: the bots' streams) to its end with `seats`,
    counting what the module's docstring says; `evaluator` None counts turns and
    choices only."""
    players = len(seats)
    counts = Watched(*(np.zeros(players, dtype=np.int64) for _ in range(5)))
    rng = Stream(seed, index, EVALUATION_STREAM)

    def play(clock: Any) -> None:
        askers = [
            asker(state, s, derive_rng(seed, index, bot_stream(n)), seed, index, n, clock)
            for n, s in enumerate(seats)
        ]
        while not state.is_terminal():
            legal = list(state.legal_actions())
            seat = state.current_player()
            counts.turns[seat] += 1
            if len(legal) == 1:  # forced: the bot is not asked, as in a run
                state.apply_action(legal[0])
                continue
            counts.choices[seat] += 1
            action = askers[seat](legal)
            if evaluator is not None:
                values = evaluator.table(state.view(seat), legal, rng)
                counts.real[seat] += is_real(values, seat, margin)
                if cannot_win(values, seat, threshold):
                    counts.out[seat] += 1
                    chosen = legal.index(action)
                    counts.kingmaking[seat] += kingmaking(values, seat, chosen, margin)
            state.apply_action(action)

    with_clock(seats, play)
    return counts


@dataclass(frozen=True)
class DecisionFigures:
    """The sample's figures: per seat and for every seat together, with 95% intervals."""

    games: int
    samples: int  # search's worlds per evaluation; 0: none made
    margin: float
    threshold: float
    turns: tuple[int, ...]  # per seat, then all seats
    choice: tuple[Interval, ...]  # share of turns with more than one legal move
    real: tuple[Interval, ...]  # share of turns that were real decisions (samples > 0)
    out: int  # choices made by a seat that could no longer win
    kingmaking_moves: int
    kingmaking_games: Interval | None  # share of games with a kingmaking move (samples > 0)


def _shares(hits: np.ndarray, turns: np.ndarray) -> tuple[Interval, ...]:
    """Per seat, then every seat together: Σ hits / Σ turns, clustered by game."""
    columns = [*range(hits.shape[1]), None]
    out = []
    for s in columns:
        y = hits.sum(axis=1) if s is None else hits[:, s]
        m = turns.sum(axis=1) if s is None else turns[:, s]
        out.append(share_interval(y, m) if m.sum() > 0 else Interval(0.0, 0.0, 1.0, 0, 0.0))
    return tuple(out)


def watch_sample(
    variant: Variant,
    games: int,
    samples: int,
    margin: float = DEFAULT_MARGIN,
    threshold: float = DEFAULT_THRESHOLD,
    progress: Callable[[int], None] | None = None,
    move_time_limit: float = DEFAULT_PLUGIN_MOVE_LIMIT,
) -> list[Watched]:
    """Each of games 0..`games`-1 of `variant` watched (the module's docstring), in order;
    `samples` 0 makes no search evaluation (turns and choices only)."""
    spec = variant.spec
    evaluator = SeatValues(variant.game, samples) if samples > 0 else None
    rows: list[Watched] = []
    for index in range(games):
        slots = build_seats(variant, move_time_limit, index)
        chance = derive_rng(variant.seed, index, CHANCE)
        state = spec.new_state(variant.rules, variant.players, chance)
        seated = variant.seated(slots, index)
        rows.append(watch(state, seated, variant.seed, index, evaluator, margin, threshold))
        if progress is not None:
            progress(1)
    return rows


def decision_figures(
    variant: Variant,
    games: int,
    samples: int,
    margin: float = DEFAULT_MARGIN,
    threshold: float = DEFAULT_THRESHOLD,
    progress: Callable[[int], None] | None = None,
    move_time_limit: float = DEFAULT_PLUGIN_MOVE_LIMIT,
) -> DecisionFigures:
    """Watch games 0..`games`-1 of `variant` (the module's docstring); `samples` 0
    makes no search evaluation (turns and choices only)."""
    rows = watch_sample(variant, games, samples, margin, threshold, progress, move_time_limit)
    turns = np.array([r.turns for r in rows])
    kingmade = np.array([r.kingmaking for r in rows])
    searched = samples > 0
    return DecisionFigures(
        games=games,
        samples=samples,
        margin=margin,
        threshold=threshold,
        turns=(*(int(t) for t in turns.sum(axis=0)), int(turns.sum())),
        choice=_shares(np.array([r.choices for r in rows]), turns),
        real=_shares(np.array([r.real for r in rows]), turns) if searched else (),
        out=int(sum(r.out.sum() for r in rows)),
        kingmaking_moves=int(kingmade.sum()),
        kingmaking_games=share_interval((kingmade.sum(axis=1) > 0).astype(float))
        if searched
        else None,
    )
