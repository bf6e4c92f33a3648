"""How a game plays, not only who wins: one game's figures from its progress.

A game's *progress* is each seat's score after each of its natural steps (a
trick, a round, a deal): a steps × seats integer matrix. Its *final scores*
decide the winners exactly as the games table does (table.win_shares_matrix):
every seat with the best final score wins, k tied winners 1/k each. The final
scores are usually the last row; they differ when the game scores something
after its last step (Fish! Dash! Cash!'s `uncashed_value`), and then the
figures read the end as that scoring, not as a step.

Words used below, all of one step's row (best = highest score, or lowest
where a lower score wins):

- the *top set*: the seats with the best score (all of them when all tie);
- the *sole leader*: the seat of a top set of one; none when the top is tied;
- a seat's *deficit*: how far its score is from the best; the *spread*: how
  far the worst is from the best.

The figures of one game (docs/analysis.md, "How a game plays", gives each
with what a designer reads in it):

- lead changes: steps whose sole leader differs from the last sole leader;
  a tied top changes nothing, and the first sole leader ever is no change;
- decided at: k / steps, where step k begins the last run of steps whose
  top set is the winners' set (and every later step has it); 1 when the
  last step's top set is not the winners' (a scoring after it decided);
- comeback: the win share of the winners that were behind after step
  ceil(steps / 2): last (the worst score, while some seat is better) or
  more than `margin` behind the best;
- drama: the largest deficit any winner had after any step, over the
  largest spread after any step (the final scores counted as one more
  row); 0 when no seat ever differed. Dividing by the widest spread rather
  than the final one keeps drama in [0, 1] and defined when the game ends
  tied (a final spread of 0 would divide by zero, a small one blow a mean up);
- leader wins at 25%, 50%, 75%: the win share of the sole leader after step
  ceil(f × steps); NaN when that step has no sole leader.

Two forms, the same figures to the last bit (tests check it):

- `game_figures` reads a whole progress matrix (a `--trace`'d game, the
  Python engines, a kernel keeping a fixed buffer of rows);
- `tracker_*` take the rows one at a time, as a kernel plays, keeping O(seats)
  words plus two words a step. Lead changes, decided-at and drama need only
  the O(seats) part. The checkpoint figures need the row at a share of a
  length that Fish! Dash! Cash!, Da Qi Zi and game files only know at the end,
  so each step logs its sole leader and which seats were behind (a bitmask):
  two words a step instead of a row of seats, and O(seats) work at the end
  instead of O(steps × seats).

Both are plain functions over numpy integer arrays, compiled by balancer.jit
(and plain Python with compiling off), so kernels and engines call the same
code. Seats are bits of an int64 mask: at most MAX_SEATS seats.

Over many games, stats/how_it_plays.py gives each figure with its 95% interval.
It lives here, in the games layer, because every game's kernel and engine calls
it as the game is played; the statistics sit a layer above.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from balancer.jit import njit

# A game's figures, in the order game_figures and tracker_finish write them.
LEAD_CHANGES = 0
DECIDED_AT = 1
COMEBACK = 2
DRAMA = 3
LEADER_WINS_25 = 4
LEADER_WINS_50 = 5
LEADER_WINS_75 = 6
FIGURES = 7
NAMES = (
    "lead_changes",
    "decided_at",
    "comeback",
    "drama",
    "leader_wins_25",
    "leader_wins_50",
    "leader_wins_75",
)
# The leader-wins checkpoints as fractions num / den of the steps, in NAMES' order.
CHECKPOINTS = ((1, 4), (1, 2), (3, 4))
# A comeback margin that no deficit exceeds: only "last at halfway" counts.
NO_MARGIN = np.iinfo(np.int64).max
MAX_SEATS = 62

# A game's decisions, a row of two int64 words a game (ChunkColumns.decisions): its turns
# (each time a seat was to move: a card, a step's choice) and its choices (the turns that
# offered more than one legal move). A game's decision share is choices / turns (0 for a
# game without a turn: nothing was offered).
TURNS = 0
CHOICES = 1
DECISION_WORDS = 2


def decision_shares(decisions: np.ndarray) -> np.ndarray:
    """Each game's decision share, float64 [games], from its (turns, choices) rows."""
    rows = np.asarray(decisions, dtype=np.float64).reshape(-1, DECISION_WORDS)
    turns = rows[:, TURNS]
    return np.divide(rows[:, CHOICES], turns, out=np.zeros(len(rows)), where=turns > 0)


# The tracker's words (int64): a header, each seat's largest deficit, then two per step.
T_STEPS = 0  # steps tracked so far
T_SOLE = 1  # the last sole leader, -1 before the first
T_CHANGES = 2  # lead changes so far
T_TOP = 3  # the last step's top set (a seat mask)
T_RUN = 4  # the step that began the run of steps with that top set
T_SPREAD = 5  # the largest spread so far
T_DEFICITS = 6  # seat s's largest deficit at T_DEFICITS + s
# After the deficits, step j (1-based) logs its sole leader (-1: none) and its behind mask.


@njit
def checkpoint(steps: int, num: int, den: int) -> int:
    """The step ceil(num / den × steps): the first by which that share of the game was played."""
    return (num * steps + den - 1) // den


# The per-step helpers and tracker_step are inlined where they are called: the
# calls cost more than their work (a 20-step, 5-seat game through the tracker
# took 1.2 µs of CPU with calls, 0.8 µs inlined).


@njit(inline="always")
def _better(a: int, b: int, higher_is_better: bool) -> bool:
    return a > b if higher_is_better else a < b


@njit(inline="always")
def _best_worst(row: np.ndarray, players: int, higher_is_better: bool) -> tuple[int, int]:
    best = row[0]
    worst = row[0]
    for s in range(1, players):
        if _better(row[s], best, higher_is_better):
            best = row[s]
        if _better(worst, row[s], higher_is_better):
            worst = row[s]
    return best, worst


@njit(inline="always")
def _top_set(row: np.ndarray, players: int, best: int) -> int:
    mask = 0
    for s in range(players):
        if row[s] == best:
            mask |= 1 << s
    return mask


@njit(inline="always")
def _sole(mask: int) -> int:
    """The seat of a one-seat mask, else -1."""
    if mask == 0 or mask & (mask - 1) != 0:
        return -1
    seat = 0
    while mask > 1:
        mask >>= 1
        seat += 1
    return seat


@njit
def _count(mask: int) -> int:
    n = 0
    while mask:
        mask &= mask - 1
        n += 1
    return n


@njit(inline="always")
def _behind(row: np.ndarray, players: int, best: int, worst: int, margin: int) -> int:
    """The seats last (worst, with some seat better) or more than `margin` behind the best."""
    mask = 0
    for s in range(players):
        last = row[s] == worst and worst != best
        if last or abs(best - row[s]) > margin:
            mask |= 1 << s
    return mask


@njit
def _share_of(mask: int, winners: int) -> float:
    """The win share the seats of `mask` hold when `winners` split the win."""
    return _count(mask & winners) / _count(winners)


@njit
def _leader_wins(sole: int, winners: int) -> float:
    if sole < 0:
        return np.nan
    return _share_of(1 << sole, winners)


@njit
def _check(players: int, steps: int) -> None:
    if players < 1 or players > MAX_SEATS:
        raise ValueError("how_it_plays: between 1 and 62 seats")
    if steps < 1:
        raise ValueError("how_it_plays: a game has at least one step")


@njit
def game_figures(
    progress: np.ndarray,
    steps: int,
    final: np.ndarray,
    higher_is_better: bool,
    margin: int,
    out: np.ndarray,
) -> None:
    """One game's figures into `out` (FIGURES floats, in NAMES' order), from its matrix.

    `progress` is int64 [at least `steps`, seats]: row j - 1 holds the scores
    after step j (a fixed buffer's later rows are not read); `final` the
    final scores (int64 [seats]); `margin` the comeback margin (NO_MARGIN:
    last only). Definitions: the module docstring.
    """
    players = final.shape[0]
    _check(players, steps)
    best, worst = _best_worst(final, players, higher_is_better)
    winners = _top_set(final, players, best)
    widest = abs(best - worst)
    # Lead changes, the last run of top sets, deficits and spreads: one pass over the rows.
    changes = 0
    last_sole = -1
    run = 1
    top = -1
    winner_deficit = 0
    for j in range(steps):
        row = progress[j]
        best, worst = _best_worst(row, players, higher_is_better)
        mask = _top_set(row, players, best)
        sole = _sole(mask)
        if sole >= 0 and sole != last_sole:
            if last_sole >= 0:
                changes += 1
            last_sole = sole
        if mask != top:
            run = j + 1
            top = mask
        widest = max(widest, abs(best - worst))
        for s in range(players):
            if winners >> s & 1:
                winner_deficit = max(winner_deficit, abs(best - row[s]))
    out[LEAD_CHANGES] = changes
    decided = run if top == winners else steps
    out[DECIDED_AT] = decided / steps
    out[DRAMA] = winner_deficit / widest if widest > 0 else 0.0
    half = progress[checkpoint(steps, 1, 2) - 1]
    best, worst = _best_worst(half, players, higher_is_better)
    out[COMEBACK] = _share_of(_behind(half, players, best, worst, margin), winners)
    for k in range(len(CHECKPOINTS)):
        num, den = CHECKPOINTS[k]
        row = progress[checkpoint(steps, num, den) - 1]
        best, worst = _best_worst(row, players, higher_is_better)
        out[LEADER_WINS_25 + k] = _leader_wins(_sole(_top_set(row, players, best)), winners)


# --- the same figures, a row at a time ----------------------------------------------


@njit
def tracker_words(players: int, most_steps: int) -> int:
    """The int64 words a tracker of a game of `players` seats and at most `most_steps` takes."""
    return T_DEFICITS + players + 2 * most_steps


@njit
def tracker_start(tracker: np.ndarray, players: int) -> None:
    """Ready `tracker` (tracker_words long) for a new game; the log needs no clearing."""
    tracker[T_STEPS] = 0
    tracker[T_SOLE] = -1
    tracker[T_CHANGES] = 0
    tracker[T_TOP] = -1
    tracker[T_RUN] = 1
    tracker[T_SPREAD] = 0
    for s in range(players):
        tracker[T_DEFICITS + s] = 0


@njit(inline="always")
def tracker_step(
    tracker: np.ndarray, row: np.ndarray, players: int, higher_is_better: bool, margin: int
) -> None:
    """Take one step's scores `row` (int64 [seats]): O(seats) work, two words logged.

    Raises when the step would pass the length the tracker was sized for.
    """
    step = tracker[T_STEPS] + 1
    log = T_DEFICITS + players
    if step > (tracker.shape[0] - log) // 2:
        raise ValueError("how_it_plays: more steps than the tracker was sized for")
    at = log + 2 * (step - 1)
    tracker[T_STEPS] = step
    best, worst = _best_worst(row, players, higher_is_better)
    mask = _top_set(row, players, best)
    sole = _sole(mask)
    if sole >= 0 and sole != tracker[T_SOLE]:
        if tracker[T_SOLE] >= 0:
            tracker[T_CHANGES] += 1
        tracker[T_SOLE] = sole
    if mask != tracker[T_TOP]:
        tracker[T_RUN] = step
        tracker[T_TOP] = mask
    tracker[T_SPREAD] = max(tracker[T_SPREAD], abs(best - worst))
    for s in range(players):
        tracker[T_DEFICITS + s] = max(tracker[T_DEFICITS + s], abs(best - row[s]))
    tracker[at] = sole
    tracker[at + 1] = _behind(row, players, best, worst, margin)


@njit
def tracker_finish(
    tracker: np.ndarray, final: np.ndarray, higher_is_better: bool, out: np.ndarray
) -> None:
    """The game's figures into `out`, as game_figures gives them, from the tracked steps."""
    players = final.shape[0]
    steps = tracker[T_STEPS]
    _check(players, steps)
    best, worst = _best_worst(final, players, higher_is_better)
    winners = _top_set(final, players, best)
    widest = max(tracker[T_SPREAD], abs(best - worst))
    winner_deficit = 0
    for s in range(players):
        if winners >> s & 1:
            winner_deficit = max(winner_deficit, tracker[T_DEFICITS + s])
    out[LEAD_CHANGES] = tracker[T_CHANGES]
    decided = tracker[T_RUN] if tracker[T_TOP] == winners else steps
    out[DECIDED_AT] = decided / steps
    out[DRAMA] = winner_deficit / widest if widest > 0 else 0.0
    log = T_DEFICITS + players
    half = checkpoint(steps, 1, 2)
    out[COMEBACK] = _share_of(tracker[log + 2 * (half - 1) + 1], winners)
    for k in range(len(CHECKPOINTS)):
        num, den = CHECKPOINTS[k]
        at = checkpoint(steps, num, den)
        out[LEADER_WINS_25 + k] = _leader_wins(tracker[log + 2 * (at - 1)], winners)


def _whole(values: np.ndarray | Sequence[float] | Sequence[Sequence[int]], what: str) -> np.ndarray:
    """`values` as int64, refused when that would change one (a fraction, a NaN)."""
    given = np.asarray(values)
    if given.dtype.kind not in "iub":
        given = given.astype(np.float64)
        if not (np.isfinite(given).all() and (np.floor(given) == given).all()):
            raise ValueError(f"{what} must be whole numbers")
    return np.ascontiguousarray(given, dtype=np.int64)


def figures_of(
    progress: np.ndarray | Sequence[Sequence[int]],
    final: np.ndarray | Sequence[float] | None = None,
    higher_is_better: bool = True,
    margin: int = NO_MARGIN,
) -> np.ndarray:
    """One game's figures (FIGURES floats) from its whole progress; `final`: the last row if None.

    The entry point for Python callers (engines, a `--trace` read back, tests):
    it makes the arrays game_figures wants and the row it fills.
    """
    rows = _whole(progress, "progress")
    if rows.ndim != 2 or rows.shape[0] == 0:
        raise ValueError("progress is a steps × seats matrix of at least one step")
    last = rows[-1] if final is None else _whole(final, "final scores")
    if last.shape != (rows.shape[1],):
        raise ValueError("final scores need one value per seat of the progress")
    out = np.empty(FIGURES, dtype=np.float64)
    game_figures(rows, rows.shape[0], last, higher_is_better, margin, out)
    return out
