"""The contract every game follows (OpenSpiel's game / state split, our way).

A game package provides a `GameSpec`: metadata, knobs, and `new_state`, which
builds a `GameState` for one game from (rules, players, chance stream). A
state is a small state machine:

    current_player() -> seat to act
    legal_actions()  -> distinct hashable actions, in a fixed order
    apply_action(a)
    is_terminal()
    view(seat)       -> what that seat may see (never the state itself)
    record()         -> GameRecord once terminal
    check_invariants()  raises InvariantError (conservation of cards, chips)
    clone()          -> an independent copy, for search bots' rollouts

Besides, the spec declares what the conformance test (sim/conformance.py)
holds every game to: `bounds(rules, players)` (most moves, least and most
length units, least and most score per seat) and `resample_hidden(state,
seat, rng)`, which redeals the cards `seat` can't see (OpenSpiel's
ResampleFromInfostate), so that two states differing only there are shown to
give that seat the same view. `determinize(view, rng)` samples such a state
from the view alone, as a search bot must (docs/determinize.md). The two are
kept apart on purpose: resample_hidden, working from the true state, shows
that a view hides what it should; determinize, working from the view, shows
that the view carries enough to rebuild the game.

States hold plain ints and lists and do no I/O. All chance draws from the
stream handed to `new_state` (rng.py).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from balancer.knobs import Knob
from balancer.rng import Stream


@dataclass(frozen=True, slots=True)
class GameRecord:
    """What one finished game yields: everything the report needs about it."""

    scores: tuple[float, ...]  # per physical seat
    length: int  # tricks, rounds or deals: the game's length unit
    events: Mapping[str, float]  # RULES.md §5 names -> count (or value)
    # Card impact: the card kinds each seat held (`pack_held`), per seat
    # `held_words(kinds)` uint64 words, seat after seat; () if not recorded.
    # Not compared: a position stepped from the middle (State.arranged, a
    # kernel's from_state) knows its end but not its deal.
    held: tuple[int, ...] = field(default=(), compare=False)
    # How it played (stats/how_it_plays.py): each seat's score after each step (a trick,
    # round or deal), as the engine records it; () where unknown (a position stepped
    # from the middle, a game without a record of its steps). Not compared, as `held`.
    progress: tuple[tuple[int, ...], ...] = field(default=(), compare=False)
    # The game's figures from `progress` (how_it_plays.NAMES order), set where sim/play.py
    # makes the record; () if not computed. Not compared: a NaN figure is unequal to itself.
    figures: tuple[float, ...] = field(default=(), compare=False)
    # The game's (turns, choices) (games/progress.py's TURNS, CHOICES: every time a seat
    # was to move, and those with more than one legal move), set by the loop that played
    # it; () where unknown. Not compared, as `held`.
    decisions: tuple[int, ...] = field(default=(), compare=False)


class GameState(Protocol):
    # None, or a list the state appends event tuples to (read by <game>.narrate).
    trace: list[Any] | None

    def current_player(self) -> int: ...
    # Actions are each game's own encoding (ints for the three games): Any,
    # since a protocol over Hashable would reject every game's narrower type.
    def legal_actions(self) -> Sequence[Any]: ...
    def apply_action(self, action: Any) -> None: ...
    def is_terminal(self) -> bool: ...
    def view(self, seat: int) -> Any: ...
    def record(self) -> GameRecord: ...
    def check_invariants(self) -> None: ...
    def clone(self) -> GameState: ...


@dataclass(frozen=True, slots=True)
class Bounds:
    """What a game of given (rules, players) can't exceed, whatever is played.

    Bounds need not be tight, only true: the conformance test fails a game that
    goes past them, and a hang past `moves` is caught as a failure.
    """

    moves: int  # most moves in a game, forced ones included
    length: tuple[int, int]  # least and most of record.length (the game's length unit)
    score: tuple[float, float]  # least and most of any seat's final score


# A world sampled from what one seat has seen (docs/determinize.md): a full state
# whose view for the view's seat is the view, every card that seat has not seen
# dealt at random from `rng` (and any chance stream the state keeps reseeded
# from it), read from the view alone, never from a true state.
Determinizer = Callable[[Any, Stream], Any]

# The cards a seat can't see, redealt: a new state (the one given is untouched)
# that differs from it only in what `seat` can't see, consistent with the rules
# (every invariant holds) and drawn with `rng`, never the state's own streams.
Resampler = Callable[[Any, int, Stream], Any]


@dataclass(frozen=True)
class GameSpec:
    name: str  # "fish-dash-cash"
    short: str  # "fdc"
    min_players: int
    max_players: int
    knobs: tuple[Knob, ...]
    events: tuple[str, ...]  # RULES.md §5 names, in report order
    higher_is_better: bool  # scores: money and chips high, Kimekimera totals low
    length_unit: str  # "tricks", "rounds", "deals"
    rules_version: int  # bump whenever the game's behaviour changes
    new_state: Callable[[Mapping[str, Any], int, Stream], Any]  # -> a GameState
    # Reason a (rules, players) combination can't be played, or None.
    unplayable: Callable[[Mapping[str, Any], int], str | None]
    # What a playable (rules, players) game can't exceed.
    bounds: Callable[[Mapping[str, Any], int], Bounds]
    # Redeals what a seat can't see (above); None for a game that hides nothing.
    resample_hidden: Resampler | None
    # Samples a world from a seat's view (above); None for a game that hides nothing.
    determinize: Determinizer | None = None
    # Events that are a value per game (e.g. a maximum), not a count.
    value_events: tuple[str, ...] = ()
    # Card impact: the names of the card kinds GameRecord.held counts, or None.
    card_kinds: Callable[[Mapping[str, Any]], tuple[str, ...]] | None = None
    # Card impact by role (stats/role_impact.py): each kind's role, in card_kinds' order;
    # None for a game whose cards have no roles (or whose reports stay as they were).
    card_roles: Callable[[Mapping[str, Any]], tuple[str, ...]] | None = None


def held_words(kinds: int) -> int:
    """uint64 words per seat for a bitmask over `kinds` card kinds."""
    return (kinds + 63) // 64


def pack_held(kinds_per_seat: Sequence[Iterable[int]], kinds: int) -> tuple[int, ...]:
    """GameRecord.held: each seat's set of card kinds as held_words(kinds) words."""
    words = held_words(kinds)
    out = [0] * (len(kinds_per_seat) * words)
    for seat, held_kinds in enumerate(kinds_per_seat):
        for k in held_kinds:
            out[seat * words + k // 64] |= 1 << (k % 64)
    return tuple(out)


def win_shares(scores: Sequence[float], higher_is_better: bool) -> tuple[float, ...]:
    """1 for a sole winner, 1/k each for a k-way tie for best, 0 otherwise."""
    best = max(scores) if higher_is_better else min(scores)
    winners = sum(1 for s in scores if s == best)
    return tuple(1.0 / winners if s == best else 0.0 for s in scores)
