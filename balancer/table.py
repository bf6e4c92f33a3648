"""The games table (games.parquet): one row per game. The one place its schema is spelled.

Columns, in order:

    game            int64    the game's index in the run (0..games-1)
    length          int64    tricks, rounds or deals (the game's length unit)
    score_<s>       float64  per physical seat s
    win_<s>         float64  seat s's win share: 1, 1/k for a k-way tie for best, or 0
    bot_<s>         string   the label of the bot slot sitting at seat s in this game
    ev_<name>       float64  per RULES.md §5 event, in the game's event order
    lead_changes, decided_at, comeback, drama, leader_wins_25, leader_wins_50,
    leader_wins_75  float64  how the game played (games/progress.py's NAMES, in
                             that order); null where undefined (no sole leader at
                             a checkpoint) or unknown (a game played without a
                             record of its steps)
    turns, choices  int64    the game's turns (each time a seat was to move) and
                             choices (the turns with more than one legal move),
                             games/progress.py's TURNS and CHOICES; null where
                             not counted (a table from before them)
    rules_version   int64    the game's rules version that played the row
    held_<s>_<w>    uint64   card impact (games whose spec has card_kinds): bit
                             k % 64 of word k // 64 is set if seat s held card
                             kind k (fdc: in its opening hand)

Every writer builds rows through `columns` (or `frame`) and every reader
names columns through the functions below, so a column is renamed here or
nowhere. It stands at the top of the package, beside the record it lays out
(games/api.py) and under everyone who writes or reads it: sim writes it,
stats, report and analysis read it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np
import polars as pl

# Card impact's packing lives with GameRecord; named here too, with its columns.
from balancer.games.api import held_words, pack_held  # noqa: F401
from balancer.games.progress import CHOICES, DECISION_WORDS, FIGURES, TURNS
from balancer.games.progress import NAMES as HOW_IT_PLAYS

# The decisions' columns, in games/progress.py's TURNS, CHOICES order.
DECISIONS = ("turns", "choices")
assert DECISIONS.index("turns") == TURNS and DECISIONS.index("choices") == CHOICES

GAME = "game"
LENGTH = "length"
RULES_VERSION = "rules_version"
_SEAT_KINDS = ("score", "win", "bot")


def score(seat: int) -> str:
    return f"score_{seat}"


def win(seat: int) -> str:
    return f"win_{seat}"


def bot(seat: int) -> str:
    return f"bot_{seat}"


def event(name: str) -> str:
    return f"ev_{name}"


def held(seat: int, word: int) -> str:
    return f"held_{seat}_{word}"


def held_matrix(frame: pl.DataFrame, players: int, kinds: int) -> np.ndarray:
    """bool [games, players, kinds]: whether seat s of each game held kind k."""
    words = held_words(kinds)
    out = np.zeros((frame.height, players, kinds), dtype=bool)
    for s in range(players):
        for w in range(words):
            column = frame[held(s, w)].to_numpy().astype(np.uint64)
            for bit in range(min(64, kinds - 64 * w)):
                out[:, s, 64 * w + bit] = (column >> np.uint64(bit)) & np.uint64(1) != 0
    return out


def event_name(column: str) -> str | None:
    """The event a column holds, or None if it is not an event column."""
    return column.removeprefix("ev_") if column.startswith("ev_") else None


def is_seat_column(column: str) -> bool:
    return column.split("_")[0] in _SEAT_KINDS


def seat_columns(players: int) -> list[str]:
    return [f"{kind}_{s}" for kind in _SEAT_KINDS for s in range(players)]


def has_how_it_plays(frame: pl.DataFrame) -> bool:
    """Whether the table knows how its games played: the columns are there (a table from
    before them lacks them) and filled (a run that kept no record of its steps leaves
    them null; a game with no sole leader at a checkpoint leaves only that one null)."""
    if any(name not in frame.columns for name in HOW_IT_PLAYS):
        return False
    return frame.height > 0 and frame[HOW_IT_PLAYS[0]].null_count() == 0


def how_it_plays_matrix(frame: pl.DataFrame) -> np.ndarray:
    """float64 [games, FIGURES]: each game's figures, NaN where the table holds null."""
    return np.column_stack(
        [frame[name].cast(pl.Float64).fill_null(np.nan).to_numpy() for name in HOW_IT_PLAYS]
    ).reshape(frame.height, FIGURES)


def has_decisions(frame: pl.DataFrame) -> bool:
    """Whether the table counted its games' turns and choices, every game of it."""
    if any(name not in frame.columns for name in DECISIONS):
        return False
    return frame.height > 0 and frame[DECISIONS[TURNS]].null_count() == 0


def decisions_matrix(frame: pl.DataFrame) -> np.ndarray:
    """int64 [games, DECISION_WORDS]: each game's (turns, choices) (has_decisions first)."""
    return np.column_stack([frame[name].to_numpy() for name in DECISIONS]).reshape(
        frame.height, DECISION_WORDS
    )


def numeric_columns(players: int, events: Iterable[str]) -> list[str]:
    """Columns that must hold finite numbers."""
    return [
        GAME,
        LENGTH,
        *(score(s) for s in range(players)),
        *(win(s) for s in range(players)),
        *(event(e) for e in events),
    ]


def schema(players: int, events: Sequence[str], held_per_seat: int = 0) -> dict[str, Any]:
    """Column name -> polars dtype, in table order (`held_per_seat` words for card impact)."""
    out: dict[str, Any] = {GAME: pl.Int64, LENGTH: pl.Int64}
    out.update({score(s): pl.Float64 for s in range(players)})
    out.update({win(s): pl.Float64 for s in range(players)})
    out.update({bot(s): pl.String for s in range(players)})
    out.update({event(e): pl.Float64 for e in events})
    out.update(dict.fromkeys(HOW_IT_PLAYS, pl.Float64))
    out.update(dict.fromkeys(DECISIONS, pl.Int64))
    out[RULES_VERSION] = pl.Int64
    out.update({held(s, w): pl.UInt64 for s in range(players) for w in range(held_per_seat)})
    return out


def win_shares_matrix(scores: np.ndarray, higher_is_better: bool) -> np.ndarray:
    """Per game and seat: 1 for a sole winner, 1/k each for a k-way tie for best, else 0."""
    players = scores.shape[1]
    pick = np.maximum if higher_is_better else np.minimum
    # Seat by seat: numpy's reductions along rows of a few seats are slow.
    best = np.array(scores[:, 0], dtype=np.float64)
    for s in range(1, players):
        pick(best, scores[:, s], out=best)
    winners = scores == best[:, None]
    count = np.zeros(len(best))
    for s in range(players):
        count += winners[:, s]
    return winners / count[:, None]


def columns(
    *,
    start: int,
    scores: np.ndarray,
    length: np.ndarray,
    events: np.ndarray,
    event_names: Sequence[str],
    slots: np.ndarray,
    labels: Sequence[str],
    higher_is_better: bool,
    rules_version: int,
    held_masks: np.ndarray | None = None,
    wins: np.ndarray | None = None,
    figures: np.ndarray | None = None,
    decisions: np.ndarray | None = None,
) -> dict[str, Any]:
    """The table's columns for games start.. from per-game arrays.

    `scores` is [games, players], `events` [games, len(event_names)], and
    `slots[g, s]` the bot slot (an index into `labels`) at seat s in game
    start + g. `held_masks`, uint64 [games, players * words] (GameRecord.held),
    adds the card-impact columns. `wins` are win_shares_matrix(scores), when
    the caller has them already (sim/sink.py: counted where the chunk was played).
    `figures`, float64 [games, FIGURES] (ChunkColumns.figures, GameRecord.figures), fills
    the how-it-plays columns, a NaN as null; without them the columns are all null.
    `decisions`, int64 [games, DECISION_WORDS] (ChunkColumns.decisions), fills turns and
    choices; without them they are null.
    """
    n, players = scores.shape
    if wins is None:
        wins = win_shares_matrix(scores, higher_is_better)
    cols: dict[str, Any] = {
        GAME: np.arange(start, start + n, dtype=np.int64),
        LENGTH: np.asarray(length, dtype=np.int64),
    }
    for s in range(players):
        cols[score(s)] = np.asarray(scores[:, s], dtype=np.float64)
    for s in range(players):
        cols[win(s)] = wins[:, s]
    names = pl.Series(list(labels), dtype=pl.String)
    for s in range(players):
        cols[bot(s)] = names.gather(slots[:, s])
    for k, name in enumerate(event_names):
        cols[event(name)] = np.asarray(events[:, k], dtype=np.float64)
    played = np.full((n, FIGURES), np.nan) if figures is None else figures.reshape(n, FIGURES)
    for k, name in enumerate(HOW_IT_PLAYS):
        cols[name] = pl.Series(name, played[:, k], dtype=pl.Float64, nan_to_null=True)
    for k, name in enumerate(DECISIONS):
        cols[name] = (
            pl.Series(name, [None] * n, dtype=pl.Int64)
            if decisions is None
            else np.asarray(decisions.reshape(n, DECISION_WORDS)[:, k], dtype=np.int64)
        )
    cols[RULES_VERSION] = np.full(n, rules_version, dtype=np.int64)
    if held_masks is not None and players:
        words = held_masks.shape[1] // players
        for s in range(players):
            for w in range(words):
                cols[held(s, w)] = np.asarray(held_masks[:, s * words + w], dtype=np.uint64)
    return cols


def seat_slots(start: int, stop: int, players: int, rotate: bool) -> np.ndarray:
    """Per game and seat, the bot slot sitting there (Variant.bot_slot, for many games at once)."""
    seats = np.arange(players, dtype=np.int64)
    if not rotate:
        return np.broadcast_to(seats, (stop - start, players))
    games = np.arange(start, stop, dtype=np.int64)[:, None]
    return (seats[None, :] + games) % players


def frame(cols: dict[str, Any], players: int, events: Sequence[str]) -> pl.DataFrame:
    """A polars frame with exactly the table's schema."""
    words = sum(1 for c in cols if c.startswith("held_0_")) if players else 0
    return pl.DataFrame(cols, schema=schema(players, events, words))
