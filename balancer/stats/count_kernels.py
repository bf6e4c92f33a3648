"""A chunk's counts (stats.streamed.GameCounts) in one compiled pass, with the GIL released.

A run's main thread used to count every batch with numpy: some 1.5 µs of
CPU per game (win shares, outcomes, histograms), holding the GIL the
playing threads need between their compiled calls. Here the same counts
are taken in one compiled pass over a chunk's arrays, a fraction of the
CPU, with the GIL released (sim/sink.py's summarize, in the main thread for
chunks played on threads, in the worker for chunks played in processes),
and only small integer tables are merged in Python.

The counts are integers, and the values they count (the histograms' keys)
are the same floats `GameCounts.add` makes, so merging chunks gives exactly
what counting the batches did (tests/kernels/test_count_kernels.py checks it on
random games, ties and odd values included). A chunk with a value the pass
does not count (a NaN or infinite score, a value that is not a whole number
or spans too wide a range) is counted, for that column or chunk, by the
numpy path instead.
"""

from __future__ import annotations

import numpy as np

from balancer.jit import njit

# A histogram column counted by offset from its lowest value (GameCounts' `_add`).
SPAN_LIMIT = 1 << 16


@njit
def count_chunk(
    scores: np.ndarray,
    length: np.ndarray,
    events: np.ndarray,
    start: int,
    rotate: bool,
    higher_is_better: bool,
    several_bots: bool,
) -> tuple[
    bool,
    np.ndarray,
    np.ndarray,
    np.ndarray,
    np.ndarray,
    np.ndarray,
    np.ndarray,
    np.ndarray,
    np.ndarray,
]:
    """A chunk's counts: (finite, wins, margins, outcomes, lows, spans, bins, orders, games).

    scores float64 [n, P], length int64 [n], events float64 [n, E], games
    start..start+n-1. `finite` False: a score is not finite, nothing else is
    filled (the caller counts the chunk the numpy way). Otherwise:

    - wins [n, P]: table.win_shares_matrix (1/k for each of k tied best);
    - margins [n]: the winning margin (0 on a tie for best), as GameCounts.add;
    - outcomes [P << P]: games per (phase << P | winners mask);
    - lows, spans [P + 2 + E]: per histogram column (scores by seat, margin,
      length, events in order) its lowest value and the width of its bins,
      or span -1 when the column is not whole numbers in a short range;
    - bins: the columns' bin counts one after the other (`spans` long each);
    - orders, games: with several bots, the distinct (order code * P + phase)
      keys of GameCounts' head-to-head counts, sorted, and games per key;
      else empty.
    """
    n, players = scores.shape
    n_events = events.shape[1]
    n_columns = players + 2 + n_events
    wins = np.zeros((n, players))
    margins = np.zeros(n)
    outcomes = np.zeros(players << players, dtype=np.int64)
    lows = np.zeros(n_columns)
    spans = np.full(n_columns, -1, dtype=np.int64)
    order_codes = np.zeros(n if several_bots else 0, dtype=np.int64)
    for g in range(n):
        for s in range(players):
            if not np.isfinite(scores[g, s]):
                none = np.zeros(0, np.int64)
                return False, wins, margins, outcomes, lows, spans, none, none, none
    worst = -np.inf if higher_is_better else np.inf
    sign = 1.0 if higher_is_better else -1.0
    for g in range(n):
        best = scores[g, 0]
        for s in range(1, players):
            v = scores[g, s]
            if (v > best) if higher_is_better else (v < best):
                best = v
        mask = 0
        tied = 0
        second = worst
        for s in range(players):
            v = scores[g, s]
            if v == best:
                mask |= 1 << s
                tied += 1
            elif (v > second) if higher_is_better else (v < second):
                second = v
        for s in range(players):
            if scores[g, s] == best:
                wins[g, s] = 1.0 / tied
        if players > 1 and tied == 1:
            margins[g] = best - second if higher_is_better else second - best
        phase = (start + g) % players if rotate else 0
        outcomes[(phase << players) | mask] += 1
        if several_bots:
            code = 0
            for a in range(players):
                for b in range(a + 1, players):
                    code = code * 3 + int(np.sign(sign * (scores[g, a] - scores[g, b]))) + 1
            order_codes[g] = code * players + phase
    # Histogram columns: lowest and highest value, and whether all are whole numbers.
    total = 0
    for c in range(n_columns):
        if n == 0:
            break
        low = np.inf
        high = -np.inf
        whole = True
        for g in range(n):
            v = _column_value(scores, margins, length, events, players, c, g)
            if v != v or np.floor(v) != v:  # NaN, or not a whole number
                whole = False
                break
            low = min(low, v)
            high = max(high, v)
        if whole and high - low < SPAN_LIMIT:
            lows[c] = low
            spans[c] = int(high - low) + 1
            total += spans[c]
    bins = np.zeros(total, dtype=np.int64)
    offset = 0
    for c in range(n_columns):
        if spans[c] < 0:
            continue
        low = lows[c]
        for g in range(n):
            v = _column_value(scores, margins, length, events, players, c, g)
            bins[offset + int(v - low)] += 1
        offset += spans[c]
    orders, games = _distinct_counts(order_codes)
    return True, wins, margins, outcomes, lows, spans, bins, orders, games


@njit
def _distinct_counts(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """numpy.unique(values, return_counts=True) for int64 values."""
    ordered = np.sort(values)
    keys = np.zeros(len(ordered), dtype=np.int64)
    counts = np.zeros(len(ordered), dtype=np.int64)
    k = -1
    for i in range(len(ordered)):
        if k < 0 or ordered[i] != keys[k]:
            k += 1
            keys[k] = ordered[i]
        counts[k] += 1
    return keys[: k + 1], counts[: k + 1]


@njit(inline="always")
def _column_value(
    scores: np.ndarray,
    margins: np.ndarray,
    length: np.ndarray,
    events: np.ndarray,
    players: int,
    column: int,
    game: int,
) -> float:
    if column < players:
        return float(scores[game, column])
    if column == players:
        return float(margins[game])
    if column == players + 1:
        return float(length[game])
    return float(events[game, column - players - 2])
