"""打棋子 Da Qi Zi (`da-qi-zi`, short `dqz`), 4 players: RULES.md §3, §4, §6.

The rules implemented, in brief (RULES.md is the authority; every open point is
a knob listed in `KNOBS`):

- 32 cards, black and red: general ×1, advisor, elephant, chariot, horse,
  cannon ×2, soldier ×5 per suit (encoding and combinations: `combos.py`).
  The copies of each rank per suit are the `deck` knob (deck.py: any 16 a
  suit, 0..7 of a rank); the printed deck is its default.
- A deal: shuffle, 8 cards each; the dealer leads the first trick. The leader
  plays one combination: single, pair (two of one kind), triple / four / five
  (soldiers of one suit), or sequence (general-advisor-elephant or
  chariot-horse-cannon of one suit); with `mixed_suit_combos` every multi-card
  form may mix suits and strength is rank first, then the number of red cards.
- Each other player once, in seat order, plays a combination of the led form
  strictly stronger than the best so far, or discards as many cards face down.
  A player who can't beat must discard, and one who can must beat (the seed's
  マストフォロー); with `may_discard_when_able` it may still discard.
- The player of the best combination captures exactly its cards, face up; every
  other card of the trick goes to the discard. The winner leads next.
- Last-trick rule (`no_capture_last_single_rule`): in a last trick that is a
  single, a follower who has captured nothing can only discard its card; it
  never becomes the best (its only legal move is that discard).
- The winner of the last trick wins the deal and deals next. Every other player
  pays the winner (base_payment − captured) chips, base_payment +
  zero_capture_penalty with nothing captured; with more than base_payment
  captured the winner pays the difference. Every payment is multiplied by the
  deal's multiplier: `first_deal_multiplier` for deal 1, then
  1 + renchan_step × streak, where streak (at least 1) is the number of
  consecutive deals the dealer has won; capped at `multiplier_cap` if set.
- After each deal's payments the game ends if a player has at most `bust_at`
  chips, or after `max_deals` deals. Score: final chips (ties share).

Decisions: an action is a move id of `combos.py` (an int): below
`DISCARD_BASE` a combination played face up, from `DISCARD_BASE` on a
multiset of kinds discarded face down. Legal moves are listed in table order:
combinations (form, then strength), then discards.

Hands deal in physical seat order (seat s gets shuffled cards 8s..8s+7); who
deals only decides who leads. The game always draws a random first dealer,
used only with `first_dealer: random`, so variants differing in that knob keep
the same later shuffles (common random numbers).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from balancer.errors import InvariantError
from balancer.games import views
from balancer.games.api import Bounds, GameRecord, GameSpec, pack_held
from balancer.games.daqizi import combos as dc
from balancer.games.daqizi.combos import describe
from balancer.games.daqizi.deck import deck_for
from balancer.games.daqizi.hidden import deal_hidden
from balancer.games.daqizi.knobs import (
    EVENTS as EVENTS,
)
from balancer.games.daqizi.knobs import (
    HAND as HAND,
)
from balancer.games.daqizi.knobs import (
    KNOBS as KNOBS,
)
from balancer.games.daqizi.knobs import (
    LEAD_EVENT as LEAD_EVENT,
)
from balancer.games.daqizi.knobs import (
    PLAYERS as PLAYERS,
)
from balancer.games.daqizi.knobs import (
    unplayable as unplayable,
)
from balancer.games.worlds import reseeded_chance
from balancer.rng import Stream

__all__ = ["SPEC", "KNOBS", "EVENTS", "State", "View", "describe", "new_state", "unplayable"]


@dataclass(frozen=True, slots=True)
class View:
    """What one seat may see: never another hand, never a face-down discard."""

    seat: int
    hand: tuple[int, ...]  # counts per kind
    hand_sizes: tuple[int, ...]  # cards in each hand
    captured: tuple[tuple[int, ...], ...]  # counts per kind, per seat (face up)
    chips: tuple[int, ...]
    dealer: int
    deal: int  # 1-based
    multiplier: int
    streak: int  # the dealer's consecutive deal wins (0 before deal 1 is won)
    leader: int
    trick: tuple[tuple[int, int], ...]  # face-up (seat, combination) this trick, in order
    trick_discards: int  # face-down discards this trick (each of `led_size` cards)
    best: int  # best combination so far this trick, or -1 before the lead
    best_seat: int
    led_size: int  # cards led this trick (0 before the lead)
    last_trick: bool  # this trick empties every hand
    history: tuple[tuple[int, int], ...]  # face-up (seat, combination) this deal, in order
    public: tuple[int, ...]  # counts per kind of every card seen face up this deal
    rules: Mapping[str, Any]
    # Perfect recall (docs/determinize.md). None only from a producer that
    # doesn't say (a compiled kernel's step view, for now).
    # Every face-down discard this deal, in play order: (seat, cards,
    # could_not_beat, plays_before). Under must-beat a discard reveals that the
    # seat's hand then held nothing beating `could_not_beat` (the best so far);
    # -1 when it reveals nothing (may_discard_when_able, or the last-trick rule).
    # plays_before is len(history) when it was made.
    face_down: tuple[tuple[int, int, int, int], ...] | None = None
    # This seat's own face-down discards this deal, as discard move ids, one per
    # entry of face_down that is this seat's, in the same order.
    my_discards: tuple[int, ...] | None = None

    RECALL: ClassVar[tuple[str, ...]] = ("face_down", "my_discards")


_new_view = views.constructor(View)


class State:
    """One game of Da Qi Zi in progress (see the module docstring)."""

    # Set by _start_trick (called from __init__), which mypy can't follow.
    to_act: int
    turn: int
    trick_down: int

    __slots__ = (
        "rules",
        "cards",
        "rng",
        "mixed",
        "may_discard",
        "last_rule",
        "chips",
        "hands",
        "packed",
        "captured",
        "n_captured",
        "discard",
        "in_trick",
        "deal",
        "dealer",
        "multiplier",
        "streak",
        "last_winner",
        "leader",
        "turn",
        "to_act",
        "best",
        "best_seat",
        "led_size",
        "hand_left",
        "last_trick",
        "sizes",
        "public",
        "seen_captured",
        "trick_up",
        "trick_down",
        "history",
        "face_down",
        "own_down",
        "tricks",
        "events",
        "over",
        "trace",
        "opening_held",
        "progress",
    )

    def __init__(self, rules: Mapping[str, Any], players: int, rng: Stream) -> None:
        if players != PLAYERS:
            raise ValueError(f"da-qi-zi needs {PLAYERS} players, got {players}")
        self.rules = rules
        self.cards = deck_for(rules)  # the deck's copies per kind and each card's kind
        self.rng = rng
        self.mixed = bool(rules["mixed_suit_combos"])
        self.may_discard = bool(rules["may_discard_when_able"])
        self.last_rule = bool(rules["no_capture_last_single_rule"])
        # What happened, as event tuples for the play-by-play (narrate.py); None: not kept.
        self.trace: list[tuple[Any, ...]] | None = None
        self.chips = [rules["starting_chips"]] * PLAYERS
        self.progress: list[tuple[int, ...]] = []  # the chips after each deal (GameRecord)
        self.events: dict[str, float] = dict.fromkeys(EVENTS, 0)
        self.deal = 0
        self.streak = 0
        self.last_winner = -1
        self.over = False
        # Drawn whatever the knob says: see the module docstring.
        pick = rng.randrange(PLAYERS)
        first = pick if rules["first_dealer"] == "random" else 0
        self._new_deal(first)

    # -- the contract -------------------------------------------------------

    def current_player(self) -> int:
        return -1 if self.over else self.to_act

    def legal_actions(self) -> list[int]:
        if self.over:
            return []
        seat = self.to_act
        hand = self.packed[seat]
        if self.turn == 0:
            return list(dc.lead_options_packed(hand, self.mixed))
        if self._last_rule_binds(seat):
            # Its single counts as a discard whatever it is: one move, not two alike.
            return [dc.DISCARD_OF_PACKED[hand]]
        beat = dc.beating_options_packed(hand, self.best, self.mixed)
        if beat and not self.may_discard:
            return list(beat)
        return [*beat, *dc.discard_options_packed(hand, self.led_size)]

    def apply_action(self, action: int) -> None:
        if self.over:
            raise ValueError("the game is over")
        seat = self.to_act
        trace = self.trace
        if not self._allowed(seat, action):
            raise ValueError(f"seat {seat} can't play move {action}: {dc.describe_move(action)}")
        if self.turn == 0:
            if trace is not None and self.tricks == 0:
                # Recorded at the deal's first move: the first deal is dealt
                # before the engine attaches the trace.
                hands = tuple(tuple(hand) for hand in self.hands)
                trace.append(
                    ("deal", self.deal, self.dealer, self.multiplier, tuple(self.chips), hands)
                )
            size = dc.MOVE_SIZE[action]
            self.led_size = size
            self.last_trick = size == self.hand_left
            self.best = action
            self.best_seat = seat
            self.events[LEAD_EVENT[dc.COMBO_FORM[action]]] += 1
            if trace is not None:
                trace.append(("leads", self.tricks + 1, seat, action))
        elif action >= dc.DISCARD_BASE:
            forced = self._last_rule_binds(seat)
            # What the discard tells every seat: under must-beat, that this hand
            # held nothing beating the best so far (the last-trick rule's forced
            # discard tells nothing).
            revealed = -1 if forced or self.may_discard else self.best
            self.face_down += ((seat, dc.MOVE_SIZE[action], revealed, len(self.history)),)
            self.own_down[seat] += (action,)
            # A single's kind orders like its strength (rank, then red).
            if forced and dc.MOVE_KINDS[action][0] > dc.MOVE_KINDS[self.best][0]:
                self.events["last_trick_rule"] += 1
                if trace is not None:
                    trace.append(("last_trick_rule", seat))
            if trace is not None:
                trace.append(("discards", seat, action))
        else:
            self.best = action
            self.best_seat = seat
            if trace is not None:
                trace.append(("beats", seat, action))
        hand = self.hands[seat]
        in_trick = self.in_trick
        kinds = dc.MOVE_KINDS[action]
        for kind in kinds:
            hand[kind] -= 1
            in_trick[kind] += 1
        self.packed[seat] -= dc.MOVE_PACKED[action]
        self.sizes[seat] -= len(kinds)
        if action < dc.DISCARD_BASE:
            public = self.public
            for kind in kinds:
                public[kind] += 1
            self.trick_up += ((seat, action),)
            self.history += ((seat, action),)
        else:
            self.trick_down += 1
        self.turn += 1
        if self.turn < PLAYERS:
            self.to_act = (seat + 1) % PLAYERS
        else:
            self._end_trick()

    def _allowed(self, seat: int, move: int) -> bool:
        """A cheap check of a move against the rules; `legal_actions` lists exactly these."""
        if not 0 <= move < dc.N_MOVES or not dc.fits(self.packed[seat], dc.MOVE_PACKED[move]):
            return False
        if move >= dc.DISCARD_BASE:
            if self.turn == 0 or dc.MOVE_SIZE[move] != self.led_size:
                return False
            return self.may_discard or self._forced_discard(seat)
        if not (self.mixed or dc.COMBO_PURE[move]):
            return False
        if self.turn == 0:
            return True
        return dc.beats(move, self.best) and not self._last_rule_binds(seat)

    def _last_rule_binds(self, seat: int) -> bool:
        return (
            self.last_trick and self.led_size == 1 and self.last_rule and not self.n_captured[seat]
        )

    def _forced_discard(self, seat: int) -> bool:
        return self._last_rule_binds(seat) or not dc.can_beat_packed(
            self.packed[seat], self.best, self.mixed
        )

    def is_terminal(self) -> bool:
        return self.over

    def view(self, seat: int) -> View:
        # Public parts are kept as tuples as play goes, so a view costs little.
        return _new_view(  # games/views.py: a hot path
            seat=seat,
            hand=tuple(self.hands[seat]),
            hand_sizes=tuple(self.sizes),
            captured=self.seen_captured,
            chips=tuple(self.chips),
            dealer=self.dealer,
            deal=self.deal,
            multiplier=self.multiplier,
            streak=self.streak,
            leader=self.leader,
            trick=self.trick_up,
            trick_discards=self.trick_down,
            best=self.best,
            best_seat=self.best_seat,
            led_size=self.led_size,
            last_trick=self.last_trick,
            history=self.history,
            public=tuple(self.public),
            rules=self.rules,
            face_down=self.face_down,
            my_discards=self.own_down[seat],
        )

    def record(self) -> GameRecord:
        return GameRecord(
            tuple(float(c) for c in self.chips),
            int(self.events["deals"]),
            dict(self.events),
            self.opening_held,
            tuple(self.progress),
        )

    def check_invariants(self) -> None:
        total = self.rules["starting_chips"] * PLAYERS
        if sum(self.chips) != total:
            raise InvariantError(f"chips not conserved: {self.chips} sum to {sum(self.chips)}")
        places = [*self.hands, *self.captured, self.discard, self.in_trick]
        for kind in range(dc.N_KINDS):
            held = sum(place[kind] for place in places)
            copies = self.cards.kind_copies[kind]
            if held != copies or any(place[kind] < 0 for place in places):
                raise InvariantError(
                    f"{dc.describe_kind(kind)}: {held} accounted for, the deck has {copies}"
                )
        for seat in range(PLAYERS):
            if dc.pack(self.hands[seat]) != self.packed[seat]:
                raise InvariantError(f"seat {seat}: packed hand out of step with its counts")
            if sum(self.captured[seat]) != self.n_captured[seat]:
                raise InvariantError(f"seat {seat}: captured count out of step")
            if tuple(self.captured[seat]) != self.seen_captured[seat]:
                raise InvariantError(f"seat {seat}: captured cards on view out of step")
            if sum(self.hands[seat]) != self.sizes[seat]:
                raise InvariantError(f"seat {seat}: hand size out of step")
        sizes = {sum(self.hands[(self.leader + k) % PLAYERS]) for k in range(self.turn, PLAYERS)}
        if not self.over and sizes != {self.hand_left}:
            raise InvariantError(f"hands still to play hold {sizes}, expected {self.hand_left}")

    def clone(self) -> State:
        other = State.__new__(State)
        for name in State.__slots__:
            setattr(other, name, getattr(self, name))
        other.rng = self.rng.copy()
        other.chips = list(self.chips)
        other.progress = list(self.progress)
        other.hands = [list(h) for h in self.hands]
        other.packed = list(self.packed)
        other.captured = [list(c) for c in self.captured]
        other.n_captured = list(self.n_captured)
        other.discard = list(self.discard)
        other.in_trick = list(self.in_trick)
        other.sizes = list(self.sizes)
        other.public = list(self.public)
        other.own_down = list(self.own_down)
        other.events = dict(self.events)
        other.trace = None
        return other

    # -- a deal -------------------------------------------------------------

    def _new_deal(self, dealer: int) -> None:
        rules = self.rules
        self.deal += 1
        self.dealer = dealer
        if self.deal == 1:
            multiplier = rules["first_deal_multiplier"]
        else:
            multiplier = 1 + rules["renchan_step"] * self.streak
        cap = rules["multiplier_cap"]
        if cap is not None and multiplier > cap:
            multiplier = cap
        self.multiplier = multiplier
        if multiplier > self.events["max_multiplier"] or self.deal == 1:
            self.events["max_multiplier"] = multiplier
        kind_of = self.cards.card_kind
        cards = list(range(len(kind_of)))
        self.rng.shuffle(cards)
        hands = [[0] * dc.N_KINDS for _ in range(PLAYERS)]
        for seat in range(PLAYERS):
            hand = hands[seat]
            for card in cards[seat * HAND : (seat + 1) * HAND]:
                hand[kind_of[card]] += 1
        self.hands = hands
        if self.deal == 1:  # card impact: the opening hand's ranks and suits
            self.opening_held = held_of_counts(hands)
        self.packed = [dc.pack(h) for h in hands]
        self.captured = [[0] * dc.N_KINDS for _ in range(PLAYERS)]
        self.n_captured = [0] * PLAYERS
        self.discard = [0] * dc.N_KINDS
        self.in_trick = [0] * dc.N_KINDS
        self.hand_left = HAND
        self.sizes = [HAND] * PLAYERS
        self.public = [0] * dc.N_KINDS
        self.seen_captured = ((0,) * dc.N_KINDS,) * PLAYERS
        self.history: tuple[tuple[int, int], ...] = ()
        self.face_down: tuple[tuple[int, int, int, int], ...] = ()
        self.own_down: list[tuple[int, ...]] = [()] * PLAYERS
        self.tricks = 0
        self._start_trick(dealer)

    def _start_trick(self, leader: int) -> None:
        self.leader = leader
        self.to_act = leader
        self.turn = 0
        self.best = -1
        self.best_seat = -1
        self.led_size = 0
        self.last_trick = False
        self.trick_up: tuple[tuple[int, int], ...] = ()
        self.trick_down = 0

    def _end_trick(self) -> None:
        winner = self.best_seat
        best = self.best
        captured = self.captured[winner]
        in_trick = self.in_trick
        for kind in dc.MOVE_KINDS[best]:
            captured[kind] += 1
            in_trick[kind] -= 1
        self.n_captured[winner] += dc.MOVE_SIZE[best]
        seen = list(self.seen_captured)
        seen[winner] = tuple(captured)
        self.seen_captured = tuple(seen)
        discard = self.discard
        for kind in range(dc.N_KINDS):
            if in_trick[kind]:
                discard[kind] += in_trick[kind]
                in_trick[kind] = 0
        self.tricks += 1
        self.events["tricks"] += 1
        self.hand_left -= self.led_size
        if self.trace is not None:
            self.trace.append(("wins_trick", winner, best))
        if self.hand_left:
            self._start_trick(winner)
        else:
            self._end_deal(winner)

    def _end_deal(self, winner: int) -> None:
        rules = self.rules
        events = self.events
        trace = self.trace
        base = rules["base_payment"]
        penalty = rules["zero_capture_penalty"]
        multiplier = self.multiplier
        chips = self.chips
        if trace is not None:
            trace.append(("wins_deal", winner, self.deal))
        for seat in range(PLAYERS):
            got = self.n_captured[seat]
            if not got:
                events["zero_capture"] += 1
            if seat == winner:
                continue
            owed = (base - got + (penalty if got == 0 else 0)) * multiplier
            chips[seat] -= owed
            chips[winner] += owed
            if trace is not None:
                trace.append(("owes", seat, winner, owed, got, multiplier))
        events["deals"] += 1
        self.progress.append(tuple(chips))
        if winner == self.dealer:
            events["dealer_wins"] += 1
        self.streak = self.streak + 1 if winner == self.last_winner else 1
        self.last_winner = winner
        if trace is not None:
            trace.append(("chips", tuple(chips)))
        bust_at = rules["bust_at"]
        busts = sum(1 for c in chips if c <= bust_at)
        if busts or self.deal >= rules["max_deals"]:
            self.over = True
            events["busts"] = busts
            if trace is not None:
                trace.append(("over", self.deal, tuple(chips)))
            return
        self._new_deal(winner)


def new_state(rules: Mapping[str, Any], players: int, rng: Stream) -> State:
    return State(rules, players, rng)


def bounds(rules: Mapping[str, Any], players: int) -> Bounds:
    """A deal is at most HAND tricks of one move per player. A loser owes
    (base - captured (0..HAND), + penalty if none) × multiplier; the winner gets
    three such. Before every deal each seat is above `bust_at`, so the others
    hold at least 3 × (bust_at + 1) of the chips."""
    deals = rules["max_deals"]
    top = rules["first_deal_multiplier"]
    if deals > 1:
        top = max(top, 1 + rules["renchan_step"] * (deals - 1))
    if rules["multiplier_cap"] is not None:
        top = min(top, rules["multiplier_cap"])
    base, penalty = rules["base_payment"], rules["zero_capture_penalty"]
    owed_low, owed_high = min(0, (base - HAND) * top), max(0, (base + penalty) * top)
    step_low, step_high = min(3 * owed_low, -owed_high), max(3 * owed_high, -owed_low)
    start, floor = rules["starting_chips"], rules["bust_at"] + 1
    low = max(floor + step_low, start + deals * step_low)
    high = min(PLAYERS * start - 3 * floor + step_high, start + deals * step_high)
    return Bounds(moves=PLAYERS * HAND * deals, length=(1, deals), score=(low, high))


@dataclass(frozen=True)
class World:
    """A sampled world, with what meeting the view's revelations cost."""

    state: State
    attempts: int  # samples drawn, the accepted one included
    dropped: int  # multi-card revelations given up (docs/determinize.md)


def sample_world(view: View, rng: Stream) -> World:
    """A world consistent with `view`, read from the view alone (docs/determinize.md).

    The cards the seat has not seen go to the other hands and to the other seats'
    face-down discards, every must-beat revelation met (hidden.py); the world's
    chance stream (the deals to come) is reseeded from `rng`.
    """
    if view.face_down is None or view.my_discards is None:
        raise ValueError("determinize needs a view with perfect recall (the engine's)")
    deal = deal_hidden(view, rng)
    state = _world(view, deal.got, deal.hand_slots, deal.down_slots, deal.leftover)
    state.rng = reseeded_chance(rng)
    return World(state, deal.attempts, deal.dropped)


def _world(
    view: View,
    got: list[int],
    hand_slots: dict[int, list[int]],
    down_slots: list[list[int]],
    leftover: list[int],
) -> State:
    """The State the view and a sample of its hidden slots describe (its rng not yet set)."""
    face_down, my_discards = view.face_down, view.my_discards
    assert face_down is not None and my_discards is not None  # sample_world checked
    rules = view.rules
    state = State.__new__(State)
    state.rules = rules
    state.cards = deck_for(rules)
    state.mixed = bool(rules["mixed_suit_combos"])
    state.may_discard = bool(rules["may_discard_when_able"])
    state.last_rule = bool(rules["no_capture_last_single_rule"])
    state.trace = None
    state.events = dict.fromkeys(EVENTS, 0)
    state.progress = []  # a sampled world's past deals are not known: none kept
    state.opening_held = held_of_counts([[0] * dc.N_KINDS] * PLAYERS)
    state.chips = list(view.chips)
    state.deal, state.dealer = view.deal, view.dealer
    state.multiplier, state.streak = view.multiplier, view.streak
    state.last_winner = view.dealer if view.deal > 1 else -1
    hands = []
    for seat in range(PLAYERS):
        hand = list(view.hand) if seat == view.seat else [0] * dc.N_KINDS
        for slot in hand_slots.get(seat, ()):
            hand[got[slot]] += 1
        hands.append(hand)
    state.hands = hands
    state.packed = [dc.pack(hand) for hand in hands]
    state.sizes = list(view.hand_sizes)
    state.captured = [list(c) for c in view.captured]
    state.seen_captured = view.captured
    state.n_captured = [sum(c) for c in view.captured]
    state.public = list(view.public)
    state.history = view.history
    state.face_down = face_down
    state.over = not any(view.hand_sizes)
    in_play = len(view.trick) + view.trick_discards  # plays of the trick under way
    if state.over:
        in_play = 0  # the last trick's plays are still listed, its cards gone
    # Every face-down discard's kinds: the seat's own from my_discards, the others' sampled.
    own = iter(my_discards)
    down_kinds: list[tuple[int, ...]] = []
    own_down: list[tuple[int, ...]] = [()] * PLAYERS
    for (entry_seat, _, _, _), slots in zip(face_down, down_slots, strict=True):
        if entry_seat == view.seat:
            move = next(own)
            kinds = dc.MOVE_KINDS[move]
        else:
            kinds = tuple(sorted(got[slot] for slot in slots))
            move = dc.DISCARD_OF_PACKED[dc.pack(_counts(kinds))]
        down_kinds.append(kinds)
        own_down[entry_seat] += (move,)
    state.own_down = own_down
    in_trick = [0] * dc.N_KINDS
    discard = list(view.public)
    for c in view.captured:
        for kind in range(dc.N_KINDS):
            discard[kind] -= c[kind]
    if not state.over:
        for _, move in view.trick:
            for kind in dc.MOVE_KINDS[move]:
                in_trick[kind] += 1
                discard[kind] -= 1
    current = len(down_kinds) - (view.trick_discards if not state.over else 0)
    for j, kinds in enumerate(down_kinds):
        place = in_trick if j >= current else discard
        for kind in kinds:
            place[kind] += 1
    for kind in leftover:  # unseen cards no slot took (a position laid by hand)
        discard[kind] += 1
    state.in_trick, state.discard = in_trick, discard
    state.leader = view.leader
    state.turn = PLAYERS if state.over else in_play
    state.to_act = (view.leader + state.turn) % PLAYERS
    state.best, state.best_seat = view.best, view.best_seat
    state.led_size, state.last_trick = view.led_size, view.last_trick
    state.hand_left = (
        0 if state.over else view.hand_sizes[view.leader] + (view.led_size if in_play else 0)
    )
    state.trick_up, state.trick_down = view.trick, view.trick_discards
    state.tricks = (len(view.history) + len(face_down) - in_play) // PLAYERS
    return state


def _counts(kinds: tuple[int, ...]) -> list[int]:
    counts = [0] * dc.N_KINDS
    for kind in kinds:
        counts[kind] += 1
    return counts


def determinize(view: View, rng: Stream) -> State:
    """`sample_world(view, rng).state`: a world the view's seat can't tell from the true one."""
    return sample_world(view, rng).state


def resample_hidden(state: State, seat: int, rng: Stream) -> State:
    """Redeal what `seat` can't see, from the true state: the other hands and the
    other seats' face-down discards (in the discard and in this trick), entry by
    entry. Every card played face up this deal (`public`) and `seat`'s own hand and
    discards stay. Sizes stay; the must-beat revelations are not kept (that is
    `determinize`'s job, from the view alone; this one, beside it, lets the
    conformance check of what a view hides not rest on the view)."""
    other = state.clone()
    hidden = [
        state.cards.kind_copies[kind] - state.hands[seat][kind] - state.public[kind]
        for kind in range(dc.N_KINDS)
    ]
    for move in state.own_down[seat]:
        for kind in dc.MOVE_KINDS[move]:
            hidden[kind] -= 1
    pool = [kind for kind in range(dc.N_KINDS) for _ in range(hidden[kind])]
    rng.shuffle(pool)
    dealt = iter(pool)
    for s in range(PLAYERS):
        if s != seat:
            hand = [0] * dc.N_KINDS
            for _ in range(state.sizes[s]):
                hand[next(dealt)] += 1
            other.hands[s] = hand
            other.packed[s] = dc.pack(hand)
    # After the last deal the last trick's plays are still listed, though its cards are gone.
    trick_up, trick_down = ((), 0) if state.over else (state.trick_up, state.trick_down)
    in_trick = [0] * dc.N_KINDS
    discard = list(state.public)
    for kind in range(dc.N_KINDS):
        discard[kind] -= sum(c[kind] for c in state.captured)
    for _, move in trick_up:
        for kind in dc.MOVE_KINDS[move]:
            in_trick[kind] += 1
            discard[kind] -= 1
    own = iter(state.own_down[seat])
    own_down: list[tuple[int, ...]] = [()] * PLAYERS
    current = len(state.face_down) - trick_down  # entries from here on are this trick's
    for j, (s, cards, _, _) in enumerate(state.face_down):
        if s == seat:
            move = next(own)
        else:
            counts = [0] * dc.N_KINDS
            for _ in range(cards):
                counts[next(dealt)] += 1
            move = dc.DISCARD_OF_PACKED[dc.pack(counts)]
        own_down[s] += (move,)
        place = in_trick if j >= current else discard
        for kind in dc.MOVE_KINDS[move]:
            place[kind] += 1
    for kind in dealt:  # unseen cards in no hand nor discard entry (a deal laid by hand)
        discard[kind] += 1
    other.in_trick, other.discard, other.own_down = in_trick, discard, own_down
    return other


# Card impact's kinds: each rank, then each suit (held: at least one such card).
CARD_KINDS = (*dc.RANK_NAMES, *(f"{suit} suit" for suit in dc.SUIT_NAMES))


def card_kinds(rules: Mapping[str, Any]) -> tuple[str, ...]:
    """Card impact's kinds (the same whatever the knobs)."""
    return CARD_KINDS


def held_of_counts(hands: list[list[int]]) -> tuple[int, ...]:
    """GameRecord.held from per-seat counts per kind (combos.py kinds): the ranks
    and suits each seat holds, as CARD_KINDS indices."""
    n_ranks = len(dc.RANK_NAMES)
    return pack_held(
        [
            {dc.KIND_RANK[k] for k in range(dc.N_KINDS) if hand[k]}
            | {n_ranks + dc.KIND_SUIT[k] for k in range(dc.N_KINDS) if hand[k]}
            for hand in hands
        ],
        len(CARD_KINDS),
    )


SPEC = GameSpec(
    name="da-qi-zi",
    short="dqz",
    min_players=PLAYERS,
    max_players=PLAYERS,
    knobs=KNOBS,
    events=EVENTS,
    higher_is_better=True,
    length_unit="deals",
    # 2: must beat when able by default (may_discard_when_able: false); `tricks` counted.
    rules_version=2,
    new_state=new_state,
    unplayable=unplayable,
    bounds=bounds,
    resample_hidden=resample_hidden,
    determinize=determinize,
    card_kinds=card_kinds,
    value_events=("max_multiplier",),
)
