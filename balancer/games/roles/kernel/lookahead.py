"""The `lookahead` bot compiled: roles/lookahead.py's decision, draw for draw.

For each legal move it plays the rest of the trick in `samples` worlds dealt by
the kernel's `determinize` from the seat's own stream, every reply drawn
uniformly from one stream per world, and keeps the move of the highest mean
value (roles/lookahead.py's docstring says what the value is). The Python bot is
the authority; this one draws the same numbers in the same order, so a game
played here is the game the step path plays:

- the worlds are dealt one after the other from the seat's stream (the pool
  listed by card number and shuffled, as determinize.py does), and only then is
  each world's reply stream keyed, `Stream(below(2**62), 0, 0)`, from it too;
- every move is tried in the same worlds from each reply stream's start
  (common random numbers), and every decision of the trick, a forced one
  included, draws `below(n)` from it, as `finish_trick` does;
- the values are summed world by world in float64, divided by `samples`, and
  the first of the highest wins, as `max` and `index` pick.

A decision's work space is one int64 array (`new_scratch`), laid out as fdc's
rollout scratch: a header of (start, stop) pairs, then the blocks.
"""

from __future__ import annotations

import numpy as np

from balancer import jit
from balancer.games.roles.kernel.interpreter import (
    _amount,
    _counter,
    _place,
    _x,
    apply,
    legal,
    scores_of,
)
from balancer.games.roles.kernel.layout import (
    END_COUNTER,
    END_WIDTH,
    M_COUNTER,
    M_INDEX,
    M_REACHES,
    OVER,
    PHASE,
    T_LOWER_WINS,
    T_PLAYERS,
    TERM_WIDTH,
    TRICKS,
    X_ENDS,
    X_NENDS,
    X_NSCORE,
    X_SCORE,
    X_TERMS,
    inlined,
)
from balancer.games.roles.kernel.play import determinize
from balancer.games.roles.kernel.tables import new_legal
from balancer.games.roles.scores import TERM_PLACE
from balancer.games.step_kernels import block, stream_block
from balancer.rng_kernels import below, stream_key

SEED_SPAN = 1 << 62  # roles/lookahead.py's _SEED_SPAN: a reply stream's seed

# The scratch's blocks (header words of their (start, stop)): the play-out's legal
# moves, a trial's legal moves, the worlds (one state each), the trial, the float64
# work (a seat's scores, its progress: as bits) and the uint64 rows (each world's
# reply key and chance key, the reply stream, and the streams `determinize` keys a
# world's chance in and `apply` draws it from: a random discard's).
X_MOVES, X_TRIAL_MOVES, X_WORLDS, X_TRIAL, X_FWORK, X_UWORK = 0, 2, 4, 6, 8, 10
X_HEADER = 12


def new_scratch(state: np.ndarray, tables: np.ndarray, samples: int) -> np.ndarray:
    """Work space (int64) for play-outs and decisions of states shaped like `state`,
    by a lookahead of at most `samples` worlds (0: `random` alone)."""
    length, players = len(state), int(tables[T_PLAYERS])
    moves = len(new_legal(state, tables))
    sizes = [moves, moves, samples * length, length, 2 * players, 2 * (samples + 2 + players)]
    header = np.zeros(X_HEADER, np.int64)
    at = X_HEADER
    for i, size in enumerate(sizes):
        header[2 * i], header[2 * i + 1] = at, at + size
        at += size
    return np.concatenate([header, np.zeros(at - X_HEADER, np.int64)])


# Not inlined: the chunk loop, `play_out` and `choose` each call one compiled copy
# (the interpreter inlined into every caller would double their compile time).
@jit.njit(error_model="numpy", _nrt=False)
def lookahead_move(
    state: np.ndarray,
    tables: np.ndarray,
    streams: np.ndarray,
    seat: int,
    samples: int,
    goal_weight: float,
    win_bonus: float,
    moves: np.ndarray,
    n: int,
    scratch: np.ndarray,
) -> int:
    """Lookahead.act for `seat` (the one to act) among moves[:n], n >= 2, drawing
    from streams[1 + seat] (the module's docstring)."""
    length = state.shape[0]
    players = tables[T_PLAYERS]
    worlds, trial = block(scratch, X_WORLDS), block(scratch, X_TRIAL)
    trial_moves = block(scratch, X_TRIAL_MOVES)
    fwork = block(scratch, X_FWORK).view(np.float64)
    scores, progress = fwork[:players], fwork[players : 2 * players]
    rows = stream_block(scratch, X_UWORK)
    reply = rows[samples : samples + 1]
    quiet = rows[samples + 1 : samples + 2 + players]
    own = streams[1 + seat : 2 + seat]
    for w in range(samples):
        determinize(state, tables, seat, own, worlds[w * length : (w + 1) * length], quiet)
        rows[w, 1] = quiet[0, 0]  # the world's chance key (a file drawing none: unused)
    for w in range(samples):
        rows[w, 0] = stream_key(below(streams, 1 + seat, SEED_SPAN), 0, 0)
    tricks = state[TRICKS]
    best, best_value = 0, 0.0
    for i in range(n):
        total = 0.0
        for w in range(samples):
            at = w * length
            for j in range(length):
                trial[j] = worlds[at + j]
            reply[0, 0] = rows[w, 0]
            reply[0, 1] = 0
            quiet[0, 0] = rows[w, 1]  # every move from the world's chance start, as
            quiet[0, 1] = 0  # roles/lookahead.py's world.clone()
            # The move, then roles/lookahead.py finish_trick (a forced move draws too):
            # one call of `apply`, which inlines the whole interpreter.
            action = moves[i]
            while True:
                apply(trial, tables, quiet, action)
                if trial[PHASE] == OVER or trial[TRICKS] != tricks:
                    break
                action = trial_moves[below(reply, 0, legal(trial, tables, trial_moves))]
            total += _value(trial, tables, seat, goal_weight, win_bonus, scores, progress)
        mean = total / samples
        if i == 0 or mean > best_value:  # the first of the highest, as max and index
            best, best_value = i, mean
    return moves[best]


@inlined
def _value(
    state: np.ndarray,
    tables: np.ndarray,
    seat: int,
    goal_weight: float,
    win_bonus: float,
    scores: np.ndarray,
    progress: np.ndarray,
) -> float:
    """Lookahead.value: the seat's margin over the best rival, its goal pull, and its
    win bonus when the game is over (`scores` and `progress` are work space)."""
    players = tables[T_PLAYERS]
    scores_of(state, tables, scores)
    sign = -1.0 if tables[T_LOWER_WINS] != 0 else 1.0
    _goal_progress(state, tables, progress)
    rival, rival_progress = 0.0, 0.0
    first = True
    for s in range(players):
        if s == seat:
            continue
        if first or sign * scores[s] > rival:
            rival = sign * scores[s]
        if first or progress[s] > rival_progress:
            rival_progress = progress[s]
        first = False
    value = sign * scores[seat] - rival
    value += goal_weight * (progress[seat] - rival_progress)
    if state[PHASE] == OVER:
        value += win_bonus * _win_share(scores, players, seat, tables[T_LOWER_WINS] == 0)
    return value


@inlined
def _win_share(scores: np.ndarray, players: int, seat: int, higher_is_better: bool) -> float:
    """games/api.py win_shares for one seat: 1/k of a k-way tie for best, else 0."""
    best = scores[0]
    for s in range(1, players):
        if (scores[s] > best) if higher_is_better else (scores[s] < best):
            best = scores[s]
    if scores[seat] != best:
        return 0.0
    winners = 0
    for s in range(players):
        if scores[s] == best:
            winners += 1
    return 1.0 / winners


@inlined
def _goal_progress(state: np.ndarray, tables: np.ndarray, progress: np.ndarray) -> None:
    """roles/lookahead.py goal_progress, in its order: the counter goals of the file's
    `end`, then its place terms' gates (a seat with its place is at 1)."""
    players = tables[T_PLAYERS]
    for s in range(players):
        progress[s] = 0.0
    ends = _x(tables, X_ENDS)
    for g in range(_x(tables, X_NENDS)):
        row = ends + END_WIDTH * g
        if tables[row] != END_COUNTER:
            continue
        # The engine's amount(reaches) reads seat -1 (the last) for a count.
        target = _amount(state, tables, tables[row + 2], tables[row + 3], players - 1, -1)
        if target <= 0:
            continue
        for s in range(players):
            value = state[_counter(state, tables, tables[row + 1], s)]
            progress[s] += min(value, target) / target
    terms = _x(tables, X_TERMS)
    first = _x(tables, X_SCORE)
    for i in range(first, first + _x(tables, X_NSCORE)):
        row = terms + TERM_WIDTH * i
        if tables[row] != TERM_PLACE:
            continue
        glob, counter = tables[row + M_INDEX], tables[row + M_COUNTER]
        target = tables[row + M_REACHES]
        if target <= 0:
            continue
        for s in range(players):
            if state[_place(state, tables, glob, s)] > 0:
                progress[s] += 1.0
            else:
                value = state[_counter(state, tables, counter, s)]
                progress[s] += min(value, target) / target
