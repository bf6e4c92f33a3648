"""A run's figures from counts of per-game values, gathered batch by batch as games arrive.

A report of 10,000,000 games must not hold 10,000,000 rows. Every figure of
report.json is a function of a few small tables of counts, which batches of
games add to and which never grow with the number of games:

- outcomes: games per (rotation phase, set of seats that won); a seat's win
  share in a game is 1/k when it is one of k winners, so the set says it all,
  and with seat rotation the phase (game mod players) says which bot sat where;
- per seat, games per final score; games per winning margin, per length and
  per value of each event;
- when the seats' bots differ, games per (phase, order of the seats' scores),
  for the head-to-head figures.

Counts are integers, so they come out the same however the games were split
into chunks, batches or workers; the figures are then computed from the
sorted counts, so a run's report is the same whatever the split, and the
same as `GameCounts.from_arrays` over the whole table at once (tests check
both, and that the figures agree with stats.figures on per-game arrays to
rounding). Quantiles interpolate exactly as numpy's default does.

What grows is only the number of distinct values (scores, event counts),
which a card game keeps small.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from balancer.stats import intervals
from balancer.stats.figures import EventFigures, RunFigures, SeatFigures
from balancer.stats.seat_advantage import CONFOUNDED_NOTE, SeatAdvantage, counted_seat_advantage
from balancer.stats.seat_advantage import TEST as SEAT_TEST

Z95 = intervals.Z95


def _add(into: dict[float, int], values: np.ndarray) -> None:
    """Count `values` into `into` (value -> games)."""
    if values.size == 0:
        return
    low, high = float(values.min()), float(values.max())
    whole = np.floor(values)
    if high - low < 1 << 16 and bool((whole == values).all()):
        # Whole numbers in a short range (scores, lengths, event counts): a bincount, not a sort.
        counts = np.bincount((values - low).astype(np.int64))
        for offset in np.flatnonzero(counts).tolist():
            value = low + offset
            into[value] = into.get(value, 0) + int(counts[offset])
        return
    distinct, counts = np.unique(values, return_counts=True)
    for value, count in zip(distinct.tolist(), counts.tolist(), strict=True):
        into[value] = into.get(value, 0) + count


def _merge(into: dict, other: Mapping) -> None:
    for key, count in other.items():
        into[key] = into.get(key, 0) + count


@dataclass
class Counted:
    """Distinct values, sorted, and how many games had each (a histogram without bins)."""

    values: np.ndarray
    counts: np.ndarray

    @classmethod
    def of(cls, table: Mapping[float, int]) -> Counted:
        keys = sorted(table)
        return cls(np.array(keys, dtype=float), np.array([table[k] for k in keys], dtype=np.int64))

    @property
    def n(self) -> int:
        return int(self.counts.sum())

    def mean(self) -> float:
        return float((self.values * self.counts).sum() / self.n)

    def sd(self) -> float:
        n = self.n
        if n < 2:
            return 0.0
        centred = self.values - self.mean()
        return math.sqrt(float((centred * centred * self.counts).sum()) / (n - 1))

    def quantile(self, q: float) -> float:
        """numpy.quantile's default (linear) of the values each repeated count times."""
        n = self.n
        h = (n - 1) * q
        low = math.floor(h)
        gamma = h - low
        ends = np.cumsum(self.counts)
        a = float(self.values[np.searchsorted(ends, low, side="right")])
        b = float(self.values[np.searchsorted(ends, min(low + 1, n - 1), side="right")])
        diff = b - a
        # numpy's _lerp: from the nearer end, so the result never leaves [a, b].
        return b - diff * (1 - gamma) if gamma >= 0.5 else a + diff * gamma

    def distribution(self) -> dict[str, float]:
        """stats.describe.distribution: mean, sample sd, min, quartiles, max."""
        if self.n == 0:
            raise ValueError("distribution of no values")
        return {
            "mean": self.mean(),
            "sd": self.sd(),
            "min": float(self.values[0]),
            "q1": self.quantile(0.25),
            "median": self.quantile(0.5),
            "q3": self.quantile(0.75),
            "max": float(self.values[-1]),
        }

    def mean_interval(self) -> intervals.Interval:
        """intervals.mean_interval: Student t on the per-game values."""
        n = self.n
        if n == 0:
            raise ValueError("mean interval of no values")
        mean = self.mean()
        if n < 2:
            return intervals.Interval(mean, mean, mean, n, 0.0)
        se = self.sd() / math.sqrt(n)
        half = t95(n - 1) * se
        return intervals.Interval(mean, mean - half, mean + half, n, se)


@functools.lru_cache(maxsize=4096)
def t95(df: float) -> float:
    """intervals._t_quantile(df) at 95%, from scipy.special (scipy.stats takes a second to import).

    The same functions scipy.stats's t.ppf and norm.ppf call; a test pins that
    the values are identical.
    """
    from scipy import special

    if not math.isfinite(df) or df > 1e7:
        return float(special.ndtri(0.975))
    return float(special.stdtrit(df, 0.975))


def wilson_effective(estimate: float, variance: float, n: int) -> tuple[float, float]:
    """intervals.wilson_effective at 95%, with t95 (see there for the method)."""
    if n <= 0:
        return (0.0, 1.0)
    p = min(1.0, max(0.0, float(estimate)))
    n_eff = float(n)
    if 0.0 < p < 1.0 and variance > 0:
        n_eff = p * (1.0 - p) / variance
    z = t95(math.inf)
    z2 = z * z
    denom = 1.0 + z2 / n_eff
    centre = (p + z2 / (2 * n_eff)) / denom
    half = z * math.sqrt(p * (1 - p) / n_eff + z2 / (4 * n_eff * n_eff)) / denom
    low = 0.0 if p == 0 else max(0.0, centre - half)
    high = 1.0 if p == 1 else min(1.0, centre + half)
    return (low, high)


def share_interval(y: np.ndarray, m: np.ndarray, counts: np.ndarray) -> intervals.Interval:
    """intervals.share_interval over games with values y, weights m, each `counts` times."""
    n = int(counts.sum())
    if n == 0:
        raise ValueError("share interval of no values")
    total = float((m * counts).sum())
    if total <= 0:
        raise ValueError("ratio of no weight (the bot never sat)")
    r = float((y * counts).sum()) / total
    u = (y - r * m) / (total / n)
    variance = float((u * u * counts).sum()) / (n * n)
    low, high = wilson_effective(r, variance, int(round(total)))
    return intervals.Interval(r, low, high, n, math.sqrt(variance))


@dataclass
class GameCounts:
    """The counts a run's figures are made of (module docstring); add batches in any split."""

    players: int
    events: tuple[str, ...]
    labels: tuple[str, ...]  # the bot slots' labels (slot j at seat (j + g) mod P when rotating)
    value_events: tuple[str, ...] = ()
    higher_is_better: bool = True
    rotate: bool = False
    games: int = 0
    outcomes: dict[int, int] = field(default_factory=dict)  # phase << players | winners mask
    scores: list[dict[float, int]] = field(default_factory=list)
    margins: dict[float, int] = field(default_factory=dict)
    lengths: dict[float, int] = field(default_factory=dict)
    event_values: dict[str, dict[float, int]] = field(default_factory=dict)
    orders: dict[int, int] = field(default_factory=dict)  # phase + P * order code

    def __post_init__(self) -> None:
        if not self.scores:
            self.scores = [{} for _ in range(self.players)]
        for name in self.events:
            self.event_values.setdefault(name, {})

    @property
    def several_bots(self) -> bool:
        return len(set(self.labels)) > 1

    def label_at(self, seat: int, phase: int) -> str:
        """The label of the bot at `seat` in games of `phase` (table.seat_slots)."""
        slot = (seat + phase) % self.players if self.rotate else seat
        return self.labels[slot]

    def add(self, start: int, scores: np.ndarray, length: np.ndarray, events: np.ndarray) -> None:
        """Games start.. : scores [n, players], length [n], events [n, len(self.events)]."""
        scores = np.asarray(scores, dtype=np.float64)
        n, players = scores.shape
        if n == 0:
            return
        self.games += n
        phase = (
            (np.arange(start, start + n, dtype=np.int64) % players)
            if self.rotate
            else np.zeros(n, dtype=np.int64)
        )
        # Seat by seat: numpy's reductions along a row of 5 are slow.
        columns = [np.ascontiguousarray(scores[:, s]) for s in range(players)]
        pick = np.maximum if self.higher_is_better else np.minimum
        best = columns[0].copy()
        for column in columns[1:]:
            pick(best, column, out=best)
        mask = np.zeros(n, dtype=np.int64)
        tied = np.zeros(n, dtype=np.int64)
        for s, column in enumerate(columns):
            top = column == best
            mask |= top.astype(np.int64) << s
            tied += top
        games_of = np.bincount((phase << players) | mask)
        for key in np.flatnonzero(games_of).tolist():
            self.outcomes[key] = self.outcomes.get(key, 0) + int(games_of[key])
        for s, column in enumerate(columns):
            _add(self.scores[s], column)
        if players > 1:
            # The runner-up: the best score but the winners' (describe.winning_margin).
            worst = -np.inf if self.higher_is_better else np.inf
            second = np.full(n, worst)
            for column in columns:
                pick(second, np.where(column == best, worst, column), out=second)
            ahead = best - second if self.higher_is_better else second - best
            _add(self.margins, np.where(tied > 1, 0.0, ahead))
        else:
            _add(self.margins, np.zeros(n))
        _add(self.lengths, np.asarray(length, dtype=np.float64))
        events = np.asarray(events, dtype=np.float64).reshape(n, len(self.events))
        for k, name in enumerate(self.events):
            _add(self.event_values[name], events[:, k])
        if self.several_bots:
            sign = 1.0 if self.higher_is_better else -1.0
            code = np.zeros(n, dtype=np.int64)
            for a, b in _pairs(players):
                diff = np.sign(sign * (scores[:, a] - scores[:, b])).astype(np.int64) + 1
                code = code * 3 + diff
            _merge(self.orders, dict(zip(*_unique_counts(code * players + phase), strict=True)))

    def count(
        self, start: int, scores: np.ndarray, length: np.ndarray, events: np.ndarray
    ) -> np.ndarray | None:
        """`add`, in one compiled pass (stats/count_kernels.py); hands back the win shares.

        The same counts as `add` (a test checks it), at a fraction of the CPU and
        with the GIL released: a run's main thread counts chunks played on threads
        while they play on, and worker processes count their own (sim/sink.py).
        Without numba, or for a chunk the pass does not count, it is `add`.
        Returns the pass's win shares [n, players] (table.py's
        win_shares_matrix, which the caller computes when this returns None).
        """
        from balancer import jit

        scores = np.ascontiguousarray(scores, dtype=np.float64)
        n, players = scores.shape
        events = np.ascontiguousarray(events, dtype=np.float64).reshape(n, len(self.events))
        length = np.ascontiguousarray(length, dtype=np.int64)
        if n == 0 or not jit.ENABLED:
            self.add(start, scores, length, events)
            return None
        from balancer.stats.count_kernels import count_chunk

        several = self.several_bots
        finite, wins, margins, outcomes, lows, spans, bins, orders, games = count_chunk(
            scores, length, events, start, self.rotate, self.higher_is_better, several
        )
        if not finite:
            self.add(start, scores, length, events)
            return None
        self.games += n
        for key in np.flatnonzero(outcomes).tolist():
            self.outcomes[key] = self.outcomes.get(key, 0) + int(outcomes[key])
        events_of = [self.event_values[name] for name in self.events]
        tables = [*self.scores, self.margins, self.lengths, *events_of]
        values = [
            *(scores[:, s] for s in range(players)),
            margins,
            length.astype(np.float64),
            *(events[:, k] for k in range(len(self.events))),
        ]
        for column in np.flatnonzero(spans < 0).tolist():
            # Not whole numbers in a short range: counted as `add` does.
            _add(tables[column], values[column])
        # Every binned column at once: one pass over the bins that are not empty.
        widths = np.maximum(spans, 0)
        ends = np.cumsum(widths)
        filled = np.flatnonzero(bins)
        columns = np.searchsorted(ends, filled, side="right")
        offsets = (filled - (ends - widths)[columns]).tolist()
        lows_of = lows[columns].tolist()
        for column, low, at, games_here in zip(
            columns.tolist(), lows_of, offsets, bins[filled].tolist(), strict=True
        ):
            into = tables[column]
            value = low + at  # the key `_add` makes: a whole-number float, never -0.0
            into[value] = into.get(value, 0) + games_here
        if several:
            _merge(self.orders, dict(zip(orders.tolist(), games.tolist(), strict=True)))
        return wins

    def merge(self, other: GameCounts) -> None:
        self.games += other.games
        _merge(self.outcomes, other.outcomes)
        for mine, theirs in zip(self.scores, other.scores, strict=True):
            _merge(mine, theirs)
        _merge(self.margins, other.margins)
        _merge(self.lengths, other.lengths)
        for name in self.events:
            _merge(self.event_values[name], other.event_values[name])
        _merge(self.orders, other.orders)

    # --- figures ----------------------------------------------------------------

    def score_counts(self, seat: int) -> Counted:
        return Counted.of(self.scores[seat])

    def length_counts(self) -> Counted:
        return Counted.of(self.lengths)

    def margin_counts(self) -> Counted:
        return Counted.of(self.margins)

    def event_counts(self, name: str) -> Counted:
        return Counted.of(self.event_values[name])

    def _outcome_table(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(phase per key, win shares per key [keys, seats], games per key), keys sorted."""
        players = self.players
        keys = np.array(sorted(self.outcomes), dtype=np.int64)
        counts = np.array([self.outcomes[k] for k in keys.tolist()], dtype=np.int64)
        mask = keys & ((1 << players) - 1)
        won = (mask[:, None] >> np.arange(players)) & 1
        wins = won / won.sum(axis=1, keepdims=True)
        return keys >> players, wins, counts

    def figures(self) -> RunFigures:
        """Every interval of the run, as stats.figures.figures_for_run gives it."""
        phases, wins, counts = self._outcome_table()
        present = sorted(set(phases.tolist()))
        players = self.players
        seats = []
        for s in range(players):
            column = {self.label_at(s, p) for p in present}
            bot = column.pop() if len(column) == 1 else "rotating"
            win = share_interval(wins[:, s], np.ones(len(counts)), counts)
            seats.append(SeatFigures(s, bot, win, self.score_counts(s).mean_interval()))
        labels = sorted({self.label_at(s, p) for s in range(players) for p in present})
        bots: dict[str, intervals.Interval] = {}
        seat_games: dict[str, int] = {}
        if len(labels) > 1:
            held = np.array(
                [[self.label_at(s, int(p)) for s in range(players)] for p in phases.tolist()]
            )
            for label in labels:
                here = held == label
                y = (wins * here).sum(axis=1)
                m = here.sum(axis=1).astype(float)
                bots[label] = share_interval(y, m, counts)
                seat_games[label] = int((m * counts).sum())
        events = {}
        for name in self.events:
            values = self.event_counts(name)
            fired = None
            if name not in self.value_events:
                y = (values.values > 0).astype(float)
                fired = share_interval(y, np.ones(len(y)), values.counts)
            events[name] = EventFigures(values.mean_interval(), fired)
        return RunFigures(
            seats=seats,
            bots=bots,
            bot_seat_games=seat_games,
            seat_advantage=self.seat_advantage(phases, wins, counts, len(labels) > 1),
            margin=self.margin_counts().mean_interval() if players > 1 else None,
            length=self.length_counts().mean_interval(),
            events=events,
        )

    def seat_advantage(
        self, phases: np.ndarray, wins: np.ndarray, counts: np.ndarray, several: bool
    ) -> SeatAdvantage:
        """stats.seat_advantage.seat_advantage, from games counted per (phase, winners)."""
        if several and not self.rotate:
            return SeatAdvantage(None, None, None, None, SEAT_TEST, CONFOUNDED_NOTE)
        return counted_seat_advantage(wins, counts, phases if self.rotate else None)

    def head_to_head(self) -> dict[str, dict[str, dict[str, Any]]]:
        """stats.describe.head_to_head, from games counted per (phase, order of scores)."""
        players = self.players
        keys = np.array(sorted(self.orders), dtype=np.int64)
        counts = np.array([self.orders[k] for k in keys.tolist()], dtype=float)
        phases = keys % players
        code = keys // players
        pairs_of = _pairs(players)
        # Decode: the last pair is the lowest base-3 digit. ahead[a][b]: seat a beat seat b.
        compare = np.zeros((len(keys), players, players))
        for index in range(len(pairs_of) - 1, -1, -1):
            first, second = pairs_of[index]
            digit = (code % 3) - 1  # +1: first better, 0: tie, -1: second better
            code = code // 3
            compare[:, first, second] = (digit > 0) + 0.5 * (digit == 0)
            compare[:, second, first] = (digit < 0) + 0.5 * (digit == 0)
        held = [[self.label_at(s, int(p)) for s in range(players)] for p in phases.tolist()]
        names = sorted({label for row in held for label in row})
        held_array = np.array(held) if held else np.zeros((0, players), dtype=str)
        out: dict[str, dict[str, dict[str, Any]]] = {}
        for a in names:
            for b in names:
                if a == b:
                    continue
                ahead = np.zeros(len(keys))
                pairs = np.zeros(len(keys))
                for sa in range(players):
                    for sb in range(players):
                        if sa == sb:
                            continue
                        both = (held_array[:, sa] == a) & (held_array[:, sb] == b)
                        ahead += both * compare[:, sa, sb]
                        pairs += both
                seated = pairs > 0
                if not seated.any():
                    continue
                per_game = ahead[seated] / pairs[seated]
                weight = counts[seated]
                games = float(weight.sum())
                share = float((per_game * weight).sum() / games)
                half = 0.0
                if games > 1:
                    centred = per_game - share
                    sd = math.sqrt(float((centred * centred * weight).sum()) / (games - 1))
                    half = Z95 * sd / math.sqrt(games)
                out.setdefault(a, {})[b] = {
                    "ahead_share": share,
                    "ci95": [max(0.0, share - half), min(1.0, share + half)],
                    "games": int(games),
                    "pairs": int((pairs * counts).sum()),
                }
        return out

    @classmethod
    def from_arrays(
        cls,
        scores: np.ndarray,
        length: np.ndarray,
        events: np.ndarray,
        *,
        event_names: Sequence[str],
        labels: Sequence[str],
        value_events: Sequence[str] = (),
        higher_is_better: bool = True,
        rotate: bool = False,
    ) -> GameCounts:
        """Every game at once (games 0..n-1): the in-memory computation the batches must match."""
        counts = cls(
            players=int(np.asarray(scores).shape[1]),
            events=tuple(event_names),
            labels=tuple(labels),
            value_events=tuple(value_events),
            higher_is_better=higher_is_better,
            rotate=rotate,
        )
        counts.add(0, scores, length, events)
        return counts


def _pairs(players: int) -> list[tuple[int, int]]:
    return [(a, b) for a in range(players) for b in range(a + 1, players)]


def _unique_counts(values: np.ndarray) -> tuple[list[int], list[int]]:
    distinct, counts = np.unique(values, return_counts=True)
    return distinct.tolist(), counts.tolist()
