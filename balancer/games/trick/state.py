"""What every game on the trick procedure keeps while it is played: the table.

`TrickState` holds the bookkeeping of procedure.py's trick, the same in Fish! Dash!
Cash!'s engine (games/fdc/engine.py) and a role game's (games/roles/engine.py): the
hands and the pile, the discard, the trick's leader, its seats in play order and
the plays so far, the phase, the tricks played, the event counts and the scores after
each trick, the kinds each seat was dealt, and the play-by-play trace. It plays a
card, opens a trick, draws for the next, and says whether every card is still where
it belongs. What a resolved card does (fdc's territories and dash choice, a role
game's zones, counters and task queue) is the game's, in its own `State`.

Inheritance, not a composed table object: the kernels' `from_state`, the
determinizers, the bots and the tests read `state.hands`, `state.plays`, ... on the
game's State, and a search clones states thousands of times a move, so the shared
fields stay plain attributes of one object (no second object to copy, no property to
step through). The base has no slots of its own: it names its fields in `FIELDS`, and
each State lays them out as it lays out its own (fdc as `__slots__` listing them
first, a role game in its `__dict__`), so one state has one layout and
`type(state).__slots__` still names everything an fdc state holds.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

from balancer.errors import InvariantError
from balancer.games.api import GameRecord, pack_held
from balancer.games.trick.procedure import (
    CHOICE,
    OVER,
    PLAY,
    deal,
    draw_round,
    next_leader,
    trick_seats,
)
from balancer.rng import Stream

T = TypeVar("T", bound="TrickState")


class TrickState(ABC):
    """One game on the trick procedure in progress: the table (see the module docstring).

    A game's State fills the hooks: how it ends a trick once every card is played
    (`_trick_played`), who decides and how while a card resolves (`_decider`,
    `_choices`, `_choose`), which cards of a hand are distinct moves
    (`one_per_kind`), what lies outside hands, pile, discard and trick
    (`_cards_resolving`, and `_check_cards` told where else cards lie), its `scores`,
    the events its record adds (`_events_at_end`), and `clone` (with `_copy_table`).
    """

    if not TYPE_CHECKING:
        # No slots of its own, so fdc's State stays all slots (no __dict__). Hidden from
        # mypy, which would take the empty tuple as this class's every attribute.
        __slots__ = ()

    # The fields this class keeps (a State's `__slots__` lists them: see the module docstring).
    FIELDS: ClassVar[tuple[str, ...]] = (
        "rules",  # the knobs, resolved
        "players",
        "hands",  # per seat, in the order the cards came
        "pile",  # drawn from its end: pile[-1] is the top card
        "discard",  # in the order the cards reached it
        "leader",  # the current trick's
        "order",  # the current trick's seats, in play order
        "turn",  # how many of `order` have played
        "plays",  # (seat, card) played this trick, in order
        "phase",  # PLAY, CHOICE or OVER
        "tricks",  # tricks played
        "progress",  # the scores after each trick (GameRecord.progress)
        "events",  # the game's event counts
        "opening_held",  # the card kinds dealt to each seat (GameRecord.held)
        "_trace",  # the play-by-play's event tuples, or None: not kept
    )

    rules: Mapping[str, Any]
    players: int
    hands: list[list[int]]
    pile: list[int]
    discard: list[int]
    leader: int
    order: list[int]
    turn: int
    plays: list[tuple[int, int]]
    phase: int
    tricks: int
    progress: list[tuple[int, ...]]
    events: dict[str, Any]
    opening_held: tuple[int, ...]
    _trace: list[tuple[Any, ...]] | None

    def _set_table(
        self,
        rules: Mapping[str, Any],
        players: int,
        size: int,
        copies: int,
        events: dict[str, Any],
        rng: Stream,
        *,
        kind: Sequence[int] | None = None,
    ) -> None:
        """Setup: deal a deck of `size` cards (`copies` of each kind), no trick yet; the
        first leader seat 0 or drawn from `rng` after the deal (`first_leader`). `kind`:
        each card's kind, for a deck whose copies do not lie side by side (a role
        game's card groups); else a card's kind is card // copies."""
        self.rules = rules
        self.players = players
        self._trace = None
        self.hands, self.pile = deal(size, players, rules["hand_size"], rng)
        if kind is None:
            held = [[c // copies for c in hand] for hand in self.hands]
            self.opening_held = pack_held(held, size // copies)
        else:
            held = [[kind[c] for c in hand] for hand in self.hands]
            self.opening_held = pack_held(held, max(kind, default=-1) + 1)
        self.discard = []
        self.order = []
        self.turn = 0
        self.plays = []
        self.phase = PLAY
        self.tricks = 0
        self.progress = []
        self.events = events
        self.leader = 0 if rules["first_leader"] == "seat0" else rng.randrange(players)

    def _lay_out(
        self, hands: list[list[int]], pile: list[int], size: int, elsewhere: Iterable[list[int]]
    ) -> None:
        """A table set by hand: these hands and pile (top card first); every card of the
        deck in neither nor `elsewhere` (the game's own places) goes to the discard."""
        self.hands = [list(h) for h in hands]
        self.opening_held = ()  # set mid-game: no deal to record
        self.pile = list(reversed(pile))
        used = {c for place in [*self.hands, self.pile, *elsewhere] for c in place}
        self.discard = [c for c in range(size) if c not in used]

    # -- the play-by-play -----------------------------------------------------

    @property
    def trace(self) -> list[tuple[Any, ...]] | None:
        """What happened, as event tuples for the play-by-play; None: not kept."""
        return self._trace

    @trace.setter
    def trace(self, value: list[tuple[Any, ...]] | None) -> None:
        # The engine attaches the trace after the first trick has begun: record how it began.
        self._trace = value
        if value is not None and self.phase == PLAY and self.tricks == 0 and not self.plays:
            self._note_trick()

    def _note(self, *event: Any) -> None:
        """Add an event to the trace when one is kept. (A hot loop tests `_trace` itself
        first, to build no event when none is kept.)"""
        if self._trace is not None:
            self._trace.append(event)

    def _note_trick(self) -> None:
        self._note("trick", self.tricks + 1, self.leader, tuple(map(tuple, self.hands)))

    # -- the contract ---------------------------------------------------------

    def current_player(self) -> int:
        if self.phase == PLAY:
            return self.order[self.turn]
        if self.phase == CHOICE:
            return self._decider()
        return -1

    def legal_actions(self) -> list[int]:
        if self.phase == PLAY:
            return self.one_per_kind(self.hands[self.order[self.turn]])
        if self.phase == CHOICE:
            return self._choices()
        return []

    def apply_action(self, action: int) -> None:
        if self.phase == PLAY:
            seat = self.order[self.turn]
            self.hands[seat].remove(action)
            self.plays.append((seat, action))
            self.turn += 1
            if self.turn == len(self.order):
                self._trick_played()
        elif self.phase == CHOICE:
            self._choose(action)
        else:
            raise ValueError("the game is over")

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def record(self) -> GameRecord:
        """The finished game: scores, tricks, events, the kinds dealt, the progress."""
        events = self._events_at_end()
        progress = tuple(self.progress)
        return GameRecord(tuple(self.scores()), self.tricks, events, self.opening_held, progress)

    @abstractmethod
    def scores(self) -> list[float]:
        """Each seat's score as it stands."""

    @abstractmethod
    def clone(self: T) -> T:
        """A copy that shares no list with this state (and keeps no trace)."""

    # -- what the game says ---------------------------------------------------

    @abstractmethod
    def _events_at_end(self) -> dict[str, Any]:
        """The event counts for the record: those kept, and those counted at the end."""

    @abstractmethod
    def one_per_kind(self, cards: list[int]) -> list[int]:
        """`cards` with copies of a card as one move (RULES.md §4)."""

    @abstractmethod
    def _trick_played(self) -> None:
        """Every seat has played: sort the trick out and resolve it (CHOICE when a
        decision waits), ending it with `_draw_for_next_trick` and `_start_trick`."""

    @abstractmethod
    def _decider(self) -> int:
        """The seat whose decision a resolving card waits for (CHOICE)."""

    @abstractmethod
    def _choices(self) -> list[int]:
        """That decision's legal actions (CHOICE)."""

    @abstractmethod
    def _choose(self, action: int) -> None:
        """Take that decision and resolve on (CHOICE)."""

    @abstractmethod
    def _cards_resolving(self) -> list[int]:
        """Once the trick is sorted out (CHOICE, or OVER): its cards in no place yet."""

    # -- a trick's start and end ----------------------------------------------

    def _start_trick(self, leader: int) -> None:
        """The next trick from `leader` (procedure.trick_seats), or the end when every
        hand is empty."""
        if not any(self.hands):
            self._game_over()
        else:
            self._open_trick(leader, self.hands)

    def _game_over(self) -> None:
        self.phase = OVER
        if self._trace is not None:
            self._trace.append(("over", self.tricks, tuple(self.scores())))

    def _open_trick(self, leader: int, waiting: list[list[int]]) -> None:
        """A trick whose seats are those of `waiting` with cards (a game may leave a
        seat's hand out), led from `leader` or the next such seat."""
        self.leader, self.order = trick_seats(waiting, leader)
        self.turn = 0
        self.plays = []
        self.phase = PLAY
        if self._trace is not None:
            self._note_trick()

    def _draw_for_next_trick(self, first_resolved: int) -> int:
        """Steps 5 and 6: the next leader (the first resolved card's owner, -1: none,
        else by the knob), and each seat's draw from it while the pile lasts. Returns
        the next leader."""
        leader = next_leader(first_resolved, self.leader, self.players, self.rules)
        drew = draw_round(self.pile, self.hands, leader)
        if self._trace is not None:
            self._trace.extend(("draws", seat, self.hands[seat][-1]) for seat in drew)
        return leader

    # -- copies and checks ----------------------------------------------------

    def _copy_table(self, other: TrickState) -> None:
        """Give `other`, a shallow copy of this state, lists of its own (and no trace)."""
        other.hands = [list(h) for h in self.hands]
        other.pile = list(self.pile)
        other.discard = list(self.discard)
        other.order = list(self.order)
        other.plays = list(self.plays)
        other.progress = list(self.progress)
        other.events = dict(self.events)
        other._trace = None

    def _check_cards(self, size: int, elsewhere: Iterable[list[int]]) -> None:
        """Every card of the deck once: in a hand, the pile, the discard, the trick, or
        `elsewhere` (the game's own places)."""
        places = [*self.hands, self.pile, self.discard, *elsewhere]
        held = [card for place in places for card in place]
        if self.phase == PLAY:
            held += [card for _, card in self.plays]
        else:
            held += self._cards_resolving()
        if sorted(held) != list(range(size)):
            raise InvariantError(
                f"cards not conserved: {len(held)} held, {len(set(held))} distinct, deck of {size}"
            )


def redeal_unseen(state: T, seat: int, rng: Stream) -> T:
    """A copy of `state` with what `seat` can't see dealt again: the other hands and the
    pile, sizes kept, shuffled by `rng`. Every card ever face up and `seat`'s own stay
    put. (From the true state, beside each game's determinize, which works from the
    view alone, so the conformance check of what a view hides does not rest on the
    view: see games/conformance.py.)"""
    other = state.clone()
    others = [s for s in range(state.players) if s != seat]
    pool = [c for s in others for c in state.hands[s]] + state.pile
    rng.shuffle(pool)
    dealt = iter(pool)
    for s in others:
        other.hands[s] = [next(dealt) for _ in state.hands[s]]
    other.pile = list(dealt)
    return other
