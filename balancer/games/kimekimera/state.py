"""A game of Kimekimera in progress: the State, and the View a seat gets of it.

engine.py is the game itself: its rules (the module docstring there, with the
cards' encoding), its knobs' consequences (score bounds, card kinds), the
determinizer and the GameSpec; here is one deal being played by those rules,
as OpenSpiel keeps a game apart from its states.

Actions: a free-chimera slot index, or `KEEP` (-1) when breeding is
optional, or `REPLACE` (-2), a robot's forced replacement (engine.py).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from balancer.errors import InvariantError
from balancer.games import views
from balancer.games.api import GameRecord
from balancer.games.kimekimera.knobs import (
    EVENTS,
    _check_colour_bonus,
    _complete,
    deck_for,
    unplayable,
)
from balancer.games.kimekimera.scoring import MATCHES
from balancer.rng import CHANCE, Stream

KEEP = -1  # the action that keeps one's chimera (only when breeding is optional)
REPLACE = -2  # a robot's forced move under robot_replacement: at_next_breeding

# The 6 pairs a breeding can give, as indices into (mine0, mine1, free0, free1),
# and the two cards each leaves over.
PAIRS = ((0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3))
LEFTOVERS = ((2, 3), (1, 3), (1, 2), (0, 3), (0, 2), (0, 1))


@dataclass(frozen=True, slots=True)
class View:
    """What one seat may see: every chimera is face up; the deck's order is not.

    `mine` and `free` are flat: seat s holds mine[2s], mine[2s+1]; slot i holds
    free[2i], free[2i+1], or -1, -1 when empty.
    """

    seat: int
    round: int  # 1-based round being played
    rounds: int
    theme: tuple[int, int]
    mine: tuple[int, ...]
    free: tuple[int, ...]
    totals: tuple[int, ...]
    deck_size: int
    discard_size: int
    bonus: tuple[int, int, int]  # points off for 0, 1, 2 matches
    grey_blocks_colour_bonus: bool
    floor_at_zero: bool
    rules: Mapping[str, Any]
    # Perfect recall (docs/determinize.md): every card reaches the discard face
    # up, so a seat knows it, and with it the deck's contents (not its order).
    # None only from a producer that doesn't say (a compiled kernel's step view).
    discard: tuple[int, ...] | None = None  # in the order the cards reached it
    first: int | None = None  # the seat that breeds first this round
    # Turns of this round already taken: the seat to act is (first + turn) % players.
    turn: int | None = None

    RECALL: ClassVar[tuple[str, ...]] = ("discard", "first", "turn")

    def my_chimera(self) -> tuple[int, int]:
        return self.mine[2 * self.seat], self.mine[2 * self.seat + 1]

    def free_chimera(self, slot: int) -> tuple[int, int]:
        return self.free[2 * slot], self.free[2 * slot + 1]


_new_view = views.constructor(View)


class State:
    """One game of Kimekimera in progress (the rules: engine.py's module docstring)."""

    __slots__ = (
        "cards",
        "chimera_held",
        "rules",
        "players",
        "rng",
        "rounds",
        "rotate",
        "optional",
        "leftover_free",
        "reshuffle",
        "replace_at_turn",
        "grey_blocks",
        "floor",
        "bonus",
        "n_free",
        "filled",
        "deck",
        "discard",
        "theme",
        "free",
        "mine",
        "totals",
        "round",
        "first0",
        "first",
        "turn",
        "seat",
        "events",
        "fresh",
        "_trace",
        "progress",
    )

    def __init__(
        self,
        rules: Mapping[str, Any],
        players: int,
        rng: Stream,
        *,
        deal: bool = True,
    ) -> None:
        rules = _complete(rules)
        self.rules = rules
        self.players = players
        self.rng = rng
        self.rounds = rules["rounds"]
        self.rotate = rules["rotate_first_player"]
        self.optional = rules["breeding_optional"]
        self.leftover_free = rules["leftover"] == "free"
        self.reshuffle = rules["reshuffle_discards"]
        self.replace_at_turn = rules["robot_replacement"] == "at_next_breeding"
        self.grey_blocks = rules["grey_blocks_colour_bonus"]
        self.floor = rules["floor_at_zero"]
        bonus = _check_colour_bonus(rules["colour_bonus"])
        self.bonus = (0, bonus[1], bonus[2])
        self.n_free = rules["free_chimeras"]
        self.cards = deck_for(rules)  # the deck's tables (the pile itself is `deck`)
        self._trace: list[tuple[Any, ...]] | None = None
        self.discard: list[int] = []
        self.totals = [0] * players
        self.progress: list[tuple[int, ...]] = []  # the totals after each round (GameRecord)
        # Card impact: per seat, a bitmask of the CARD_KIND of every card its
        # chimera held at any scoring.
        self.chimera_held = [0] * players
        self.round = 0
        self.first0 = 0
        self.first = 0
        self.turn = 0
        self.fresh = True
        self.seat = -1
        self.events = dict.fromkeys(EVENTS, 0)
        self.theme = [-1, -1]
        if not deal:
            return  # `arranged` lays the cards itself
        # The deck is drawn from its end: deck[-1] is the top card.
        deck = list(range(self.cards.size))
        rng.shuffle(deck)
        self.deck = deck
        self.mine = [deck.pop() for _ in range(2 * players)]
        self.free = [deck.pop() for _ in range(2 * self.n_free)]
        self.filled = self.n_free
        if not self._turn_up_theme():
            raise ValueError(unplayable(rules, players) or "no theme could be turned up")
        self._advance()

    @classmethod
    def arranged(
        cls,
        rules: Mapping[str, Any],
        *,
        mine: Sequence[Sequence[int]],
        free: Sequence[Sequence[int]],
        theme: Sequence[int],
        deck: Sequence[int] = (),
        discard: Sequence[int] = (),
        rest: str = "deck",
        first: int = 0,
        rng: Stream | None = None,
    ) -> State:
        """A game about to start with the cards laid by hand (for tests and what-ifs).

        `mine` has one pair per seat, `free` one pair per slot (() for an empty
        slot), `deck` the next cards to be drawn, top card first. The cards not
        named go under `deck` (`rest="deck"`), shuffled by `rng`, or into the
        discard (`rest="discard"`). `first` is the first seat of round 1; later
        rounds rotate on from it. `rng` (default: seed 0) makes every chance draw.
        """
        if rest not in ("deck", "discard"):
            raise ValueError(f"rest must be deck or discard, not {rest!r}")
        if any(len(pair) != 2 for pair in mine) or any(len(pair) not in (0, 2) for pair in free):
            raise ValueError("a chimera is 2 cards (a free slot may be empty)")
        rng = rng or Stream(0, 0, CHANCE)
        state = cls({**rules, "free_chimeras": len(free)}, len(mine), rng, deal=False)
        size, grey0 = state.cards.size, state.cards.first_grey
        if len(theme) != 2 or any(c >= grey0 for c in theme):
            raise ValueError("a theme is 2 cards, neither grey")
        state.mine = [c for pair in mine for c in pair]
        state.free = [c for pair in free for c in (pair if pair else (-1, -1))]
        state.filled = sum(1 for pair in free if pair)
        state.theme = list(theme)
        named = [*state.mine, *(c for c in state.free if c >= 0), *theme, *deck, *discard]
        taken = set(named)
        if len(taken) != len(named) or not all(0 <= c < size for c in named):
            raise ValueError("a card is named twice, or is not a card")
        others = [c for c in range(size) if c not in taken]
        rng.shuffle(others)
        state.discard = list(discard)
        if rest == "deck":
            state.deck = [*others, *reversed(deck)]
        else:
            state.deck = list(reversed(deck))
            state.discard += others
        state.first0 = state.first = first
        state._advance()
        return state

    # -- the contract -------------------------------------------------------

    @property
    def trace(self) -> list[tuple[Any, ...]] | None:
        """What happened, as event tuples for the play-by-play (narrate.py); None: not kept."""
        return self._trace

    @trace.setter
    def trace(self, events: list[tuple[Any, ...]] | None) -> None:
        # The engine attaches the trace after construction, so the deal (and any
        # round that needed no decision) is recorded from the state as it is.
        self._trace = events
        if events is not None and self.fresh:
            self._trace_start(events)

    def current_player(self) -> int:
        return self.seat

    def legal_actions(self) -> list[int]:
        seat = self.seat
        if seat < 0:
            return []
        if self._is_robot(seat):
            return [REPLACE]  # _advance stops at a robot only when it can be replaced
        free = self.free
        actions = [slot for slot in range(self.n_free) if free[2 * slot] >= 0]
        if self.optional:
            actions.append(KEEP)
        return actions

    def apply_action(self, action: int) -> None:
        seat = self.seat
        if seat < 0:
            raise ValueError("the game is over")
        robot = self._is_robot(seat)
        if robot or action == REPLACE:
            if not (robot and action == REPLACE):
                raise ValueError(
                    f"seat {seat}'s robot must be replaced" if robot else "only a robot is replaced"
                )
            self._replace_robot(seat)
        elif action == KEEP:
            if not self.optional:
                raise ValueError("breeding is not optional: keeping is not a move")
            if self._trace is not None:
                self._trace.append(("keeps", seat, self.mine[2 * seat], self.mine[2 * seat + 1]))
        else:
            if not 0 <= action < self.n_free or self.free[2 * action] < 0:
                raise ValueError(f"free chimera slot {action!r} holds no chimera")
            self._breed(seat, action)
        self.fresh = False
        self.turn += 1
        self._advance()

    def is_terminal(self) -> bool:
        return self.round >= self.rounds

    def view(self, seat: int) -> View:
        # Positional: the fields in View's order (a hot path).
        return _new_view(  # games/views.py: a hot path
            seat,
            self.round + 1,
            self.rounds,
            (self.theme[0], self.theme[1]),
            tuple(self.mine),
            tuple(self.free),
            tuple(self.totals),
            len(self.deck),
            len(self.discard),
            self.bonus,
            self.grey_blocks,
            self.floor,
            self.rules,
            tuple(self.discard),
            self.first,
            self.turn,
        )

    def record(self) -> GameRecord:
        return GameRecord(
            tuple(float(t) for t in self.totals),
            self.round,
            {name: float(count) for name, count in self.events.items()},
            tuple(self.chimera_held),  # one word a seat: 50 kinds
            tuple(self.progress),
        )

    def check_invariants(self) -> None:
        held = [*self.deck, *self.discard, *self.mine, *self.theme]
        held += [c for c in self.free if c >= 0]
        size, grey0 = self.cards.size, self.cards.first_grey
        if sorted(held) != list(range(size)):
            raise InvariantError(
                f"cards not conserved: {len(held)} held, {len(set(held))} distinct, deck of {size}"
            )
        if self.theme[0] >= grey0 or self.theme[1] >= grey0:
            raise InvariantError("the theme holds a grey card")
        free = self.free
        for slot in range(self.n_free):
            if (free[2 * slot] < 0) != (free[2 * slot + 1] < 0):
                raise InvariantError(f"free chimera slot {slot} holds one card")
        if self.filled != sum(1 for slot in range(self.n_free) if free[2 * slot] >= 0):
            raise InvariantError(f"{self.filled} free chimeras counted, not as many laid")
        seat = self.seat
        if seat >= 0:
            if self._is_robot(seat):
                if not (self.replace_at_turn and self._can_replace()):
                    raise InvariantError(f"seat {seat}'s robot is to be replaced but can't")
            elif not self._can_breed(seat):
                raise InvariantError(f"seat {seat} is asked to breed but can't")

    def clone(self) -> State:
        other = State.__new__(State)
        for name in State.__slots__:
            setattr(other, name, getattr(self, name))
        # An independent copy of the chance stream: the clone replays the same
        # draws until a rollout gives it a generator of its own.
        other.rng = self.rng.copy()
        other.chimera_held = list(self.chimera_held)
        other.deck = list(self.deck)
        other.discard = list(self.discard)
        other.theme = list(self.theme)
        other.free = list(self.free)
        other.mine = list(self.mine)
        other.totals = list(self.totals)
        other.progress = list(self.progress)
        other.events = dict(self.events)
        other._trace = None
        return other

    # -- drawing ----------------------------------------------------------

    def _draw(self) -> int:
        """The top card, reshuffling the discard when the deck is empty; -1 if none."""
        deck = self.deck
        if not deck:
            discard = self.discard
            if not self.reshuffle or not discard:
                return -1
            deck.extend(discard)
            discard.clear()
            self.rng.shuffle(deck)
            self.events["reshuffles"] += 1
            if self._trace is not None:
                self._trace.append(("reshuffled", len(deck)))
        return deck.pop()

    def _draw_pair(self) -> tuple[int, int] | None:
        a = self._draw()
        if a < 0:
            return None
        b = self._draw()
        if b < 0:
            self.deck.append(a)  # half a chimera is none: the card goes back on top
            return None
        return a, b

    def _turn_up_theme(self) -> bool:
        """Draw a grey-free theme, discarding grey ones whole; False if the deck can't."""
        while True:
            if not self.reshuffle and len(self.deck) < 2:
                return False
            pair = self._draw_pair()
            if pair is None:
                return False
            a, b = pair
            grey0 = self.cards.first_grey
            if a < grey0 and b < grey0:
                self.theme[0] = a
                self.theme[1] = b
                return True
            self.discard.append(a)
            self.discard.append(b)
            if self._trace is not None:
                self._trace.append(("grey_theme", a, b))

    # -- a round ----------------------------------------------------------

    def _is_robot(self, seat: int) -> bool:
        mine = self.mine
        grey0 = self.cards.first_grey
        return mine[2 * seat] >= grey0 or mine[2 * seat + 1] >= grey0

    def _can_breed(self, seat: int) -> bool:
        return self.filled > 0 and not self._is_robot(seat)

    def _can_replace(self) -> bool:
        # With a reshuffle the robot's own 2 cards are in the discard by the
        # time its replacement is drawn, so the draw can't fail.
        return self.reshuffle or len(self.deck) >= 2

    def _replace_robot(self, seat: int) -> None:
        """The robot is discarded and a new my chimera drawn (the caller checked _can_replace)."""
        mine = self.mine
        a, b = mine[2 * seat], mine[2 * seat + 1]
        self.discard.append(a)
        self.discard.append(b)
        pair = self._draw_pair()
        assert pair is not None
        mine[2 * seat], mine[2 * seat + 1] = pair
        if self._trace is not None:
            self._trace.append(("robot_replaced", seat, a, b, *pair))

    def _advance(self) -> None:
        """Move on to the next seat with a decision, scoring rounds as they end."""
        players = self.players
        while self.round < self.rounds:
            while self.turn < players:
                seat = (self.first + self.turn) % players
                if self._is_robot(seat):
                    if self.replace_at_turn and self._can_replace():
                        self.seat = seat  # the forced move REPLACE
                        return
                elif self.filled > 0:
                    self.seat = seat
                    return
                if self._trace is not None:
                    self._trace.append(self._cant_breed(seat))
                self.turn += 1
            self._score_round()
            # Here, not where a move ends: one move can end several rounds.
            self.progress.append(tuple(self.totals))
            self.round += 1
            if self.round < self.rounds:
                self._next_round()
        self.seat = -1
        if self._trace is not None:
            self._trace.append(("over", self.round, tuple(self.totals)))

    def _breed(self, seat: int, slot: int) -> None:
        mine, free = self.mine, self.free
        cards = (mine[2 * seat], mine[2 * seat + 1], free[2 * slot], free[2 * slot + 1])
        pick = self.rng.randrange(6)
        i, j = PAIRS[pick]
        k, m = LEFTOVERS[pick]
        a, b = cards[i], cards[j]
        mine[2 * seat] = a
        mine[2 * seat + 1] = b
        if a >= self.cards.first_grey or b >= self.cards.first_grey:
            self.events["robots_made"] += 1
        trace = self._trace
        if trace is not None:
            trace.append(("breeds", seat, slot, *cards, a, b))
        if self.leftover_free:
            free[2 * slot] = cards[k]
            free[2 * slot + 1] = cards[m]
            if trace is not None:
                trace.append(("leftover_free", slot, cards[k], cards[m]))
            return
        # The leftovers reach the discard before the refill (RULES.md §6), so a
        # reshuffle this refill triggers takes them in.
        self.discard.append(cards[k])
        self.discard.append(cards[m])
        pair = self._draw_pair()
        if pair is None:
            free[2 * slot] = free[2 * slot + 1] = -1
            self.filled -= 1
            if trace is not None:
                trace.append(("slot_empty", slot))
        else:
            free[2 * slot], free[2 * slot + 1] = pair
            if trace is not None:
                trace.append(("refilled", slot, *pair))

    def _score_round(self) -> None:
        t0, t1 = self.theme
        cards = self.cards
        number, classes, card_kind = cards.number, cards.colour_class, cards.card_kind
        pair_sum, pair_class, size = cards.pair_sum, cards.pair_class, cards.size
        total = number[t0] + number[t1]
        key = (classes[t0] * 6 + classes[t1]) * 36
        mine, totals, events = self.mine, self.totals, self.events
        bonus, floor = self.bonus, self.floor
        matches_of = MATCHES[self.grey_blocks]
        trace = self._trace
        held = self.chimera_held
        for seat in range(self.players):
            a, b = mine[2 * seat], mine[2 * seat + 1]
            held[seat] |= (1 << card_kind[a]) | (1 << card_kind[b])
            k = a * size + b
            s = pair_sum[k]
            error = 0 if s < 0 else abs(total - s)
            matches = matches_of[key + pair_class[k]]
            score = error - bonus[matches]
            if floor and score < 0:
                score = 0
            totals[seat] += score
            if error == 0:
                events["exact_hits"] += 1
            if matches == 1:
                events["colour_bonus_1"] += 1
            elif matches == 2:
                events["colour_bonus_2"] += 1
            if trace is not None:
                trace.append(("scored", seat, a, b, error, matches, score, totals[seat]))

    def _next_round(self) -> None:
        """After scoring: (after_scoring only) robots replaced in seat order, then a new
        theme; rotate the lead."""
        discard = self.discard
        trace = self._trace
        for seat in range(self.players):
            if self.replace_at_turn or not self._is_robot(seat):
                continue
            if self._can_replace():
                self._replace_robot(seat)
            elif trace is not None:
                trace.append(("robot_stays", seat))
        old0, old1 = self.theme
        if self.reshuffle:
            # Discarded first, so a reshuffle for the new theme takes the old one in.
            discard.append(old0)
            discard.append(old1)
            if not self._turn_up_theme():
                raise AssertionError("no theme though the discard holds the old one")
        elif self._turn_up_theme():
            discard.append(old0)
            discard.append(old1)
        elif trace is not None:
            trace.append(("theme_stays",))
        self.turn = 0
        if self.rotate:
            self.first = (self.first0 + self.round) % self.players
        if trace is not None:
            trace.append(self._round_started())

    # -- the trace (narrated by narrate.py) -------------------------------

    def _cant_breed(self, seat: int) -> tuple[Any, ...]:
        """A seat skipped: why (a robot the deck can't replace, a robot, no free chimera)."""
        if self._is_robot(seat):
            why = "robot_unreplaceable" if self.replace_at_turn else "robot"
        else:
            why = "no_free"
        return ("cant_breed", seat, why, self.mine[2 * seat], self.mine[2 * seat + 1])

    def _round_started(self) -> tuple[Any, ...]:
        return ("round", self.round + 1, *self.theme, self.first, tuple(self.free))

    def _trace_start(self, trace: list[tuple[Any, ...]]) -> None:
        """The game as it stands when the trace is attached: the deal, or the rounds passed."""
        mine, discard, totals = tuple(self.mine), tuple(self.discard), tuple(self.totals)
        trace.append(("start", self.round, mine, discard, totals))
        if self.round < self.rounds:
            trace.append(self._round_started())
            for k in range(self.turn):
                trace.append(self._cant_breed((self.first + k) % self.players))
        else:
            trace.append(("over", self.round, tuple(self.totals)))
