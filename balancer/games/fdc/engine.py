"""Fish! Dash! Cash! (`fish-dash-cash`, short `fdc`), 2 to 6 players: RULES.md §1.

The rules implemented, in brief (RULES.md §1 and §6 are the authority, and
every open point is a knob listed in `KNOBS`):

- A deck of colours × roles (fish, dash, cash) × numbers × copies; deal
  `hand_size` each; the rest is the draw pile. Seat 0 (or a random seat) leads.
- A trick: the leader plays any card, then every other player with cards, in
  seat order, plays any card. A leader with an empty hand passes the lead to
  the next seat with cards.
- Cancelling: off-colour cards are discarded, then every lead-colour card whose
  number appears more than once (the lead card included).
- 猫に小判: when every follower who played is off-colour and at least
  `neko_min_followers` followers played, the lead card is discarded instead and
  the followers' cards resolve (duplicates among them cancelled when
  `neko_cancel_duplicates`), in ascending number order.
- Resolution, otherwise in descending number order (ties, possible only when
  duplicates survive, in play order): a fish goes to its owner's territory; a
  dash steals one uncashed, unprotected fish not played this trick from another
  territory, or protects the owner's fish for the rest of the trick (forced
  when there is nothing to steal); a cash turns all the owner's uncashed fish
  into money.
- The owner of the first card resolved leads next; if nothing resolved, the
  leader stays (or passes to the next seat). Each player, from the new leader
  in seat order, draws one card while the pile lasts. The game ends when every
  hand is empty.
- Money is the cashed fish (count, face value, or face value + 1); uncashed fish
  score `uncashed_value` each; highest score wins, ties share.

Card encoding: with C colours, R roles, N numbers and K copies,
`card = ((colour * R + role_index) * N + (number - low)) * K + copy`, so a
card's colour, role and number are table look-ups (`Deck`). Roles are stored
as FISH/DASH/CASH codes, whatever order the deck lists them in.

Decisions: a seat to play chooses a card from its hand (the action is the card);
a dash owner with something to steal chooses PROTECT or a fish card to steal
(the action is that fish's card; its territory names the victim). With
`copies` > 1, identical cards are one move: a hand holding two red fish 3
offers one play of it, a territory holding both offers one steal of it
(RULES.md §4: uniformly among the *distinct* legal moves).

`lead_changes` counts a change of sole money leader after a trick (RULES.md
§5, revised): the lead has to pass from one player to another, so the first
player ever to become sole leader is not a change, and a trick that ends tied
or with no money leaves the previous sole leader standing.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from itertools import compress
from typing import Any, ClassVar

from balancer import knobs
from balancer.errors import InvariantError
from balancer.games import views
from balancer.games.api import Bounds, GameSpec
from balancer.games.fdc.deck import (
    DEFAULT_DECK as DEFAULT_DECK,
)
from balancer.games.fdc.deck import (
    MAX_CARD_NUMBER as MAX_CARD_NUMBER,
)
from balancer.games.fdc.deck import (
    MAX_DECK_CARDS as MAX_DECK_CARDS,
)

# The deck and the trick procedure are deck.py's and games/trick/procedure.py's; their names are
# the engine's too (bots, kernel, role games, tests), re-exported as such.
from balancer.games.fdc.deck import (
    ROLE_NAMES as ROLE_NAMES,
)
from balancer.games.fdc.deck import (
    Deck as Deck,
)
from balancer.games.fdc.deck import (
    _check_deck as _check_deck,
)
from balancer.games.fdc.deck import (
    _deck as _deck,
)
from balancer.games.fdc.deck import (
    _money as _money,
)
from balancer.games.fdc.deck import (
    _tables as _tables,
)
from balancer.games.fdc.deck import (
    deck_for as deck_for,
)
from balancer.games.fdc.deck import (
    describe as describe,
)
from balancer.games.fdc.deck import (
    money_values as money_values,
)
from balancer.games.fdc.deck import (
    parse as parse,
)

# The phases are the trick procedure's: its decision while a card resolves is a dash's.
from balancer.games.trick.procedure import (
    CHOICE as DASH_CHOICE,
)
from balancer.games.trick.procedure import (
    OVER as OVER,
)
from balancer.games.trick.procedure import (
    PLAY as PLAY,
)
from balancer.games.trick.procedure import (
    CardFaces as CardFaces,
)
from balancer.games.trick.procedure import (
    deal as deal,
)
from balancer.games.trick.procedure import (
    draw_round as draw_round,
)
from balancer.games.trick.procedure import (
    next_leader as next_leader,
)
from balancer.games.trick.procedure import (
    sort_out as sort_out,
)
from balancer.games.trick.procedure import (
    trick_seats as trick_seats,
)
from balancer.games.trick.state import TrickState, redeal_unseen
from balancer.rng import CHANCE, Stream

FISH, DASH, CASH = 0, 1, 2
PROTECT = -1  # the dash action that protects; any other dash action is a fish card

EVENTS = (
    "neko_ni_koban",
    "cards_cancelled",
    "steals",
    "protects",
    "cash_events",
    "fish_cashed",
    "fish_uncashed_at_end",
    "lead_changes",
)

DEFAULT_DECK["copies"] = 1


KNOBS = (
    knobs.custom(
        "deck",
        "rules",
        DEFAULT_DECK,
        "the deck: colours × roles × numbers [low, high] × copies of each card",
        _check_deck,
        "mapping",
    ),
    knobs.integer("hand_size", "rules", 5, "cards dealt to each player", low=1, high=1000),
    knobs.choice(
        "first_leader", "rules", "seat0", "who leads the first trick", ("seat0", "random")
    ),
    knobs.boolean(
        "neko_ni_koban", "rules", True, "猫に小判: all followers off-colour discards the lead"
    ),
    knobs.integer(
        "neko_min_followers",
        "rules",
        2,
        "followers who must have played for 猫に小判 to fire",
        low=1,
        high=1000,
    ),
    knobs.boolean(
        "neko_cancel_duplicates",
        "rules",
        True,
        "under 猫に小判, followers' cards with a repeated number cancel",
    ),
    knobs.choice(
        "leader_if_nothing_resolves",
        "rules",
        "same",
        "who leads when no card resolved: the same leader or the next seat",
        ("same", "next"),
    ),
    knobs.choice(
        "cash_value",
        "scoring",
        "count",
        "money per cashed fish: 1, its number, or its number + 1",
        ("count", "face", "face_plus_one"),
    ),
    knobs.integer(
        "uncashed_value", "scoring", 0, "points per fish still uncashed at the end", low=-1000
    ),
)


def unplayable(rules: Mapping[str, Any], players: int) -> str | None:
    deck = deck_for(rules)
    if rules["hand_size"] * players > deck.size:
        return (
            f"the deck holds {deck.size} cards, too few to deal "
            f"{rules['hand_size']} to each of {players} players"
        )
    return None


@dataclass(frozen=True, slots=True)
class View:
    """What one seat may see. Cashed fish are face down: others see only how many."""

    seat: int
    phase: int  # PLAY or DASH_CHOICE
    hand: tuple[int, ...]
    leader: int
    trick: tuple[tuple[int, int], ...]  # (seat, card) played so far this trick, in order
    territories: tuple[tuple[int, ...], ...]  # uncashed fish, face up, per seat
    cashed_counts: tuple[int, ...]
    my_cashed: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    pile_size: int
    # During a dash choice: the cards still to resolve after this dash, in order,
    # and the seats whose territories are protected.
    to_resolve: tuple[tuple[int, int], ...]
    protected: tuple[int, ...]
    played_this_trick: frozenset[int]
    tricks_played: int
    rules: Mapping[str, Any]
    deck: Deck
    money: tuple[int, ...]  # each card's money when cashed (by `cash_value`)
    # Perfect recall (docs/determinize.md): every card in the discard was played
    # face up, and every cashed fish lay face up in a territory before it was
    # cashed, so a seat that saw them knows them. None only from a producer
    # that doesn't say (a view built by hand, e.g. in a test).
    discard: tuple[int, ...] | None = None  # in the order the cards reached it
    cashed: tuple[tuple[int, ...], ...] | None = None  # every seat's cashed fish

    RECALL: ClassVar[tuple[str, ...]] = ("discard", "cashed")

    @property
    def seat_money(self) -> tuple[int, ...] | None:
        """Every seat's money (its cashed fish by `cash_value`); None if `cashed` is unsaid.

        Worked out when asked, not kept: a view is built at every decision."""
        if self.cashed is None:
            return None
        value = self.money.__getitem__
        return tuple([sum(map(value, fish)) for fish in self.cashed])


_new_view = views.constructor(View)


class State(TrickState):
    """One game of Fish! Dash! Cash! in progress (see the module docstring).

    The table (hands, pile, discard, the trick, phase, tricks, events, trace) is
    TrickState's; what is fdc's own is the deck and money, the territories and cashed
    fish, a trick's resolution (its queue, the dash's protection, the fish played)
    and the sole money leader."""

    __slots__ = (
        *TrickState.FIELDS,
        "deck",
        "money_of",
        "territory",
        "cashed",
        "resolve_queue",
        "resolve_at",
        "protected",
        "played_fish",
        "next_leader",
        "sole_leader",
        "money_moved",
    )

    def __init__(self, rules: Mapping[str, Any], players: int, rng: Stream) -> None:
        self.deck, self.money_of = _tables(rules)
        # Card impact's opening_held counts copies of a card as one kind.
        deck = self.deck
        self._set_table(rules, players, deck.size, deck.copies, dict.fromkeys(EVENTS, 0), rng)
        self.territory: list[list[int]] = [[] for _ in range(players)]
        self.cashed: list[list[int]] = [[] for _ in range(players)]
        self.resolve_queue: list[tuple[int, int]] = []
        self.resolve_at = 0
        self.protected: list[bool] = [False] * players
        self.played_fish: set[int] = set()
        self.next_leader = -1
        self.sole_leader = -1
        self.money_moved = False  # fish cashed since the sole leader was last looked at
        self._start_trick(self.leader)

    @classmethod
    def arranged(
        cls,
        rules: Mapping[str, Any],
        hands: list[list[int]],
        *,
        pile: list[int] | None = None,
        leader: int = 0,
        territory: list[list[int]] | None = None,
        cashed: list[list[int]] | None = None,
    ) -> State:
        """A game set up by hand (for tests and examples): the given hands, pile
        (top card first), territories and money; every other card in the discard."""
        players = len(hands)
        state = cls(rules, players, Stream(0, 0, CHANCE))
        state.territory = [list(t) for t in territory or [[] for _ in range(players)]]
        state.cashed = [list(c) for c in cashed or [[] for _ in range(players)]]
        state._lay_out(hands, pile or [], state.deck.size, [*state.territory, *state.cashed])
        state.tricks = 0
        state.events = dict.fromkeys(EVENTS, 0)
        # Money given at the start already has its sole leader: no lead change
        # is counted until someone else takes the lead.
        state.sole_leader = state._sole_money_leader()
        state._start_trick(leader)
        return state

    # -- the contract (TrickState's, with a dash's choice as its decision) ------

    def one_per_kind(self, cards: list[int]) -> list[int]:
        return self.deck.distinct(cards)

    def _trick_played(self) -> None:
        self._cancel_and_order()
        self._resolve()

    def _decider(self) -> int:
        return self.resolve_queue[self.resolve_at][0]

    def _choices(self) -> list[int]:
        return [PROTECT, *self._stealable(self.resolve_queue[self.resolve_at][0])]

    def _choose(self, action: int) -> None:
        seat, card = self.resolve_queue[self.resolve_at]
        self._dash(seat, action)
        self.discard.append(card)
        self.resolve_at += 1
        self.phase = PLAY
        self._resolve()

    def view(self, seat: int) -> View:
        dash = self.phase == DASH_CHOICE
        protected = self.protected
        # Positional, in View's field order (a hot path: see games/views.py).
        return _new_view(
            seat,
            self.phase,
            tuple(self.hands[seat]),
            self.leader,
            tuple(self.plays),
            tuple(map(tuple, self.territory)),  # territories
            tuple(map(len, self.cashed)),  # cashed_counts
            tuple(self.cashed[seat]),  # my_cashed
            tuple(map(len, self.hands)),  # hand_sizes
            len(self.pile),
            tuple(self.resolve_queue[self.resolve_at + 1 :]) if dash else (),  # to_resolve
            tuple(compress(range(self.players), protected)) if any(protected) else (),
            frozenset(self.played_fish),
            self.tricks,
            self.rules,
            self.deck,
            self.money_of,
            tuple(self.discard),
            tuple(map(tuple, self.cashed)),
        )

    def _events_at_end(self) -> dict[str, Any]:
        events = dict(self.events)
        events["fish_uncashed_at_end"] = sum(len(t) for t in self.territory)
        return events

    def check_invariants(self) -> None:
        self._check_cards(self.deck.size, [*self.territory, *self.cashed])
        for seat, cards in enumerate(self.cashed):
            if any(self.deck.role[c] != FISH for c in cards + self.territory[seat]):
                raise InvariantError(f"seat {seat} holds a non-fish card as a fish")

    def clone(self) -> State:
        other = State.__new__(State)
        for name in State.__slots__:
            setattr(other, name, getattr(self, name))
        self._copy_table(other)
        other.territory = [list(t) for t in self.territory]
        other.cashed = [list(c) for c in self.cashed]
        other.resolve_queue = list(self.resolve_queue)
        other.protected = list(self.protected)
        other.played_fish = set(self.played_fish)
        return other

    # -- scoring ----------------------------------------------------------

    def money(self, seat: int) -> int:
        return sum(map(self.money_of.__getitem__, self.cashed[seat]))

    def scores(self) -> list[float]:
        extra = self.rules["uncashed_value"]
        return [float(self.money(s) + extra * len(self.territory[s])) for s in range(self.players)]

    # -- a trick, step by step ----------------------------------------------

    def _cancel_and_order(self) -> None:
        """Steps 2-4: discard cancelled cards and queue the survivors in resolution order."""
        deck = self.deck
        survivors, cancelled, neko = sort_out(self.plays, self.rules, deck)
        if neko:
            self.events["neko_ni_koban"] += 1
        self.discard.extend(cancelled)
        self.events["cards_cancelled"] += len(cancelled)
        self.resolve_queue = survivors
        self.resolve_at = 0
        self.played_fish = {card for _, card in self.plays if deck.role[card] == FISH}
        self.next_leader = survivors[0][0] if survivors else -1
        if self._trace is not None:
            self._trace.append(("played", tuple(self.plays), neko, tuple(cancelled)))

    def _resolve(self) -> None:
        """Resolve queued cards until a dash needs a choice or the trick ends."""
        role = self.deck.role
        queue = self.resolve_queue
        while self.resolve_at < len(queue):
            seat, card = queue[self.resolve_at]
            kind = role[card]
            if kind == FISH:
                self.territory[seat].append(card)
                if self._trace is not None:
                    self._trace.append(("lands", seat, card))
            elif kind == CASH:
                self._cash(seat)
                self.discard.append(card)
            elif self._can_steal(seat):
                self.phase = DASH_CHOICE
                return
            else:
                self._dash(seat, PROTECT)
                self.discard.append(card)
            self.resolve_at += 1
        self._end_trick()

    def _stealable(self, seat: int) -> list[int]:
        played, protected, territory = self.played_fish, self.protected, self.territory
        players = self.players
        distinct = self.deck.distinct if self.deck.copies > 1 else None
        found = []
        for k in range(1, players):
            victim = (seat + k) % players
            fish = territory[victim]
            if fish and not protected[victim]:
                # One steal per (victim, kind of fish): copies are the same move.
                fresh = [f for f in fish if f not in played] if played else fish
                found += distinct(fresh) if distinct is not None else fresh
        return found

    def _can_steal(self, seat: int) -> bool:
        """Whether `_stealable(seat)` lists anything (without listing it)."""
        played, protected = self.played_fish, self.protected
        for victim, fish in enumerate(self.territory):
            if (
                victim != seat
                and fish
                and not protected[victim]
                and not (played and played.issuperset(fish))
            ):
                return True
        return False

    def _dash(self, seat: int, action: int) -> None:
        if action == PROTECT:
            self.protected[seat] = True
            self.events["protects"] += 1
            if self._trace is not None:
                self._trace.append(("protects", seat))
            return
        for victim, fish in enumerate(self.territory):
            if action in fish:
                fish.remove(action)
                self.territory[seat].append(action)
                self.events["steals"] += 1
                if self._trace is not None:
                    self._trace.append(("steals", seat, action, victim))
                return
        raise ValueError(f"no territory holds fish {action}")

    def _cash(self, seat: int) -> None:
        fish = self.territory[seat]
        self.events["cash_events"] += 1
        self.events["fish_cashed"] += len(fish)
        if self._trace is not None:
            self._trace.append(("cashes", seat, len(fish)))
        self.cashed[seat].extend(fish)
        fish.clear()
        self.money_moved = True

    def _end_trick(self) -> None:
        self.tricks += 1
        players = self.players
        self.progress.append(tuple(map(int, self.scores())))
        self.protected = [False] * players
        self.played_fish = set()
        self.resolve_queue = []
        self.resolve_at = 0
        if self.money_moved:  # no money moved: the sole leader (or none) stands as it was
            self.money_moved = False
            self._count_lead_change()
        leader = self._draw_for_next_trick(self.next_leader)
        if self._trace is not None:
            money = tuple(self.money(s) for s in range(players))
            self._trace.append(("money", money, leader))
        self._start_trick(leader)

    def _count_lead_change(self) -> None:
        sole = self._sole_money_leader()
        if sole < 0 or sole == self.sole_leader:
            return  # a tie or no money: the standing sole leader (if any) stays
        if self.sole_leader >= 0:  # the first sole leader took the lead from nobody
            self.events["lead_changes"] += 1
        self.sole_leader = sole

    def _sole_money_leader(self) -> int:
        """The seat with more money than any other (and some), else -1."""
        value = self.money_of.__getitem__
        money = [sum(map(value, cashed)) for cashed in self.cashed]
        best = max(money)
        return money.index(best) if best > 0 and money.count(best) == 1 else -1

    def _cards_resolving(self) -> list[int]:
        # During a dash choice only the dash itself and the cards after it are in flight;
        # once over, every card of the last trick lies where it went.
        if self.phase == OVER:
            return []
        return [card for _, card in self.resolve_queue[self.resolve_at :]]


def card_kinds(rules: Mapping[str, Any]) -> tuple[str, ...]:
    """Card impact's kinds: colour x role x number, kind k = card // copies ("red fish 3")."""
    deck = deck_for(rules)
    return tuple(deck.describe(k * deck.copies) for k in range(deck.size // deck.copies))


def new_state(rules: Mapping[str, Any], players: int, rng: Stream) -> State:
    return State(rules, players, rng)


def bounds(rules: Mapping[str, Any], players: int) -> Bounds:
    """Every card is played once (a move), a dash may add a choice (a move);
    every trick plays a card. A seat's score is at most every fish at its best
    value (cashed money, or `uncashed_value`), at least every fish uncashed."""
    deck, money = _tables(rules)
    fish = [c for c in range(deck.size) if deck.role[c] == FISH]
    dashes = sum(1 for c in range(deck.size) if deck.role[c] == DASH)
    extra = rules["uncashed_value"]
    high = sum(max(money[c], extra) for c in fish)
    return Bounds(
        moves=deck.size + dashes,
        length=(1, deck.size),
        score=(float(min(extra, 0) * len(fish)), float(high)),
    )


def determinize(view: View, rng: Stream) -> State:
    """A world consistent with `view`, read from the view alone (docs/determinize.md).

    The other seats' hands and the pile are dealt from the cards the seat has not
    seen, shuffled by `rng`; everything else is as the view shows it. Events start
    from 0 (no view shows them), and there is no deal to record for card impact.
    """
    if view.discard is None or view.cashed is None:
        raise ValueError("determinize needs a view with perfect recall (the engine's)")
    deck, players, seat = view.deck, len(view.hand_sizes), view.seat
    seen = set(view.hand)
    seen.update(card for _, card in view.trick)
    seen.update(view.discard)
    for place in (*view.territories, *view.cashed):
        seen.update(place)
    pool = [card for card in range(deck.size) if card not in seen]
    others = [s for s in range(players) if s != seat]
    if len(pool) != sum(view.hand_sizes[s] for s in others) + view.pile_size:
        raise ValueError("the view's unseen cards don't fill the other hands and the pile")
    rng.shuffle(pool)
    state = State.__new__(State)
    state.rules = view.rules
    state.deck, state.money_of = deck, view.money
    state.players = players
    state._trace = None
    state.opening_held = ()  # a world has no deal of its own to record
    state.progress = []  # nor a record of its past tricks
    hands: list[list[int]] = [[] for _ in range(players)]
    hands[seat] = list(view.hand)
    at = 0
    for s in others:
        hands[s] = pool[at : at + view.hand_sizes[s]]
        at += view.hand_sizes[s]
    state.hands = hands
    state.pile = pool[at:]
    state.territory = [list(t) for t in view.territories]
    state.cashed = [list(c) for c in view.cashed]
    state.discard = list(view.discard)
    state.leader = view.leader
    state.tricks = view.tricks_played
    state.plays = list(view.trick)
    state.phase = view.phase
    state.events = dict.fromkeys(EVENTS, 0)
    state.money_moved = False
    state.sole_leader = state._sole_money_leader()
    # The trick's seats in play order: those that have played, then those yet
    # to play that hold cards (a hand changes only by playing, within a trick).
    played = {s for s, _ in view.trick}
    leader = view.leader
    state.order = [
        s
        for s in ((leader + k) % players for k in range(players))
        if s in played or hands[s] or s == leader
    ]
    state.turn = len(view.trick)
    state.protected = [s in view.protected for s in range(players)]
    state.played_fish = set(view.played_this_trick)
    if view.phase == DASH_CHOICE:
        survivors = sort_out(state.plays, state.rules, deck)[0]
        at_dash = len(survivors) - len(view.to_resolve) - 1
        if at_dash < 0 or tuple(survivors[at_dash + 1 :]) != view.to_resolve:
            raise ValueError("the view's dash queue is not this trick's")
        state.resolve_queue = survivors
        state.resolve_at = at_dash
        state.next_leader = survivors[0][0]
    else:
        state.resolve_queue = []
        state.resolve_at = 0
        state.next_leader = -1
    return state


def resample_hidden(state: State, seat: int, rng: Stream) -> State:
    """Redeal what `seat` can't see, from the true state: the other hands and the pile
    (the trick's, trick/state.py); territories, cashed fish and the rest stay put."""
    return redeal_unseen(state, seat, rng)


SPEC = GameSpec(
    name="fish-dash-cash",
    short="fdc",
    min_players=2,
    max_players=6,
    knobs=KNOBS,
    events=EVENTS,
    higher_is_better=True,
    length_unit="tricks",
    rules_version=2,  # 2: lead_changes no longer counts the first sole leader
    new_state=new_state,
    unplayable=unplayable,
    bounds=bounds,
    resample_hidden=resample_hidden,
    determinize=determinize,
    card_kinds=card_kinds,
)
