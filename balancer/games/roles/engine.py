"""The Python interpreter of a role game: the trick procedure, and roles read from the file.

The trick procedure (deal, may-follow, cancelling, 猫に小判, resolution order,
next leader, draw, end when every hand is empty) is the one Fish! Dash! Cash!
plays, called from games/trick/procedure.py, not copied. What a resolved card does is its
role's list of steps (model.py), interpreted here one primitive at a time.

Resolution is a queue of tasks (owner, card, steps): the cancelled cards'
`on_cancelled` steps first, then the surviving cards' roles in resolution
order, then the `on_trick_end` hook for each seat from the trick's leader.
A step with more than one legal way to act (a `choose` with two live
options, a steal with two cards to take, a `rival` target with two rivals)
stops the queue for its owner's decision; a step with one applies at once;
with none, it does nothing. A resolved card that no `place` took goes to
the discard once its steps are done.

Decisions are ints (docs/new-game.md): an option taking a card is
`k * deck_size + card` (k: the options taking cards before it in its
choose), one choosing a rival `-(1 + n + i * players + seat)` (n options, i
its index), any other `-(i + 1)`. So Fish! Dash! Cash!'s file gives the
hand-written engine's moves: protect -1, a steal the fish's card.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar

from balancer.games.api import Bounds
from balancer.games.roles import conditions
from balancer.games.roles import goals as secret_goals
from balancer.games.roles.deck import Cards as Cards  # the primitives' type, as before
from balancer.games.roles.deck import cards_for as cards_for
from balancer.games.roles.model import Choose, Op, RoleGame, Step, Term
from balancer.games.roles.primitives import PRIMITIVES
from balancer.games.roles.rank import place as rank_place
from balancer.games.roles.scores import kind_of
from balancer.games.roles.targets import TARGET_KINDS
from balancer.games.trick.procedure import CHOICE, PLAY, sort_out
from balancer.games.trick.procedure import OVER as OVER  # determinize.py's, as before
from balancer.games.trick.state import TrickState, redeal_unseen
from balancer.knobs import FrozenDict
from balancer.rng import Stream


@dataclass(frozen=True, slots=True)
class View:
    """What one seat may see: face-down zones show others only their counts."""

    # The perfect-recall fields (as each game's View names them): every card in them the
    # seat remembers, which a world it samples keeps where it is.
    RECALL: ClassVar[tuple[str, ...]] = ("discard", "recalled")

    seat: int
    phase: int
    hand: tuple[int, ...]
    leader: int
    trick: tuple[tuple[int, int], ...]
    zones: Mapping[str, tuple[tuple[int, ...] | int, ...]]  # face-down: a count for others
    counters: Mapping[str, tuple[int, ...]]
    flags: Mapping[str, tuple[bool, ...]]
    globals: Mapping[str, int]
    hand_sizes: tuple[int, ...]
    pile_size: int
    tricks_played: int
    rules: Mapping[str, Any]
    cards: Cards
    # What every seat saw happen, so a bot can set up a world from the view alone
    # (determinize.py): the trick's seats in play order, each seat's tricks still to
    # sit out, the discard (every card in it was played face up), and, while a
    # decision waits, the trick's public resolution queue.
    order: tuple[int, ...] = ()
    skip: tuple[int, ...] = ()
    discard: tuple[int, ...] = ()
    resolution: Resolution | None = None
    places: Mapping[str, tuple[int, ...]] = field(default_factory=dict)  # per place term's global
    # Perfect recall of the face-down zones: per face-down zone, per seat, the cards
    # there that every seat saw go in (each was face up in the trick or a face-up
    # zone before), in the zone's order. Only a steal out of a face-down zone into
    # another hides which card went where; what it leaves unsure is not listed.
    recalled: Mapping[str, tuple[tuple[int, ...], ...]] = field(default_factory=dict)
    # Per seat, its secret goals (goals.py): its own, and of a rival only how many until
    # the game is over, when every seat's are shown.
    goals: tuple[tuple[int, ...] | int, ...] = ()


@dataclass(frozen=True, slots=True)
class Resolution:
    """The public state of a trick being resolved while a decision waits (CHOICE)."""

    tasks: tuple[tuple[int, int, tuple[Step, ...], bool], ...]
    task_at: int
    step_at: int
    hooks_queued: bool
    first_resolved: int
    in_flight: frozenset[int]
    played: frozenset[int]
    options: tuple[tuple[Op, int, int], ...]
    actions: tuple[int, ...]


class State(TrickState):
    """One game of a role game in progress (see the module docstring).

    The table (hands, pile, discard, the trick, phase, tricks, events, trace) is
    TrickState's; what is the role game's own is the file's game and deck, its zones,
    counters, flags and global counters, the places, the skips, what the others can't
    tell, a trick's task queue and the decision waiting, and the end reached."""

    def __init__(self, game: RoleGame, rules: Mapping[str, Any], players: int, rng: Stream):
        self.game = game
        self.cards = cards = cards_for(rules)
        events = {e.name: 0 for e in game.events}
        self._set_table(rules, players, cards.size, cards.copies, events, rng, kind=cards.kind)
        # Dealt after the hands and the first leader, so a file without goals draws no more.
        self.goals = secret_goals.deal(game.goals, players, rng) if game.goals else []
        # The game's chance from here on, where the deal left it: what a random discard
        # draws from (primitives/discard.py), as the kernel's streams[CHANCE].
        self.chance = rng
        self.zones: dict[str, list[list[int]]] = {
            name: [[] for _ in range(players)] for name in game.zones
        }
        self.counters = {c.name: [c.start] * players for c in game.counters}
        self.flags = {name: [False] * players for name in game.flags}
        self.globals = {g.name: g.start for g in game.globals}
        # Per place term's global: each seat's place (0: not arrived yet).
        self.places = {t.place: [0] * players for t in game.score if t.place}
        self.skip = [0] * players
        # Cards in face-down zones whose place not every seat can tell (View.recalled).
        self.unsure: set[int] = set()
        self.sole_leader: dict[str, int] = {}  # per lead_changes event: its sole leader
        self.played: set[int] = set()
        self.in_flight: set[int] = set()
        self.tasks: list[tuple[int, int, tuple[Step, ...], bool]] = []
        self.task_at = 0
        self.step_at = 0
        self.hooks_queued = False
        self.first_resolved = -1
        self.options: list[tuple[Op, int, int]] = []
        self.actions: list[int] = []
        self.ended = False
        self._start_trick(self.leader)

    @classmethod
    def arranged(
        cls,
        game: RoleGame,
        rules: Mapping[str, Any],
        hands: list[list[int]],
        *,
        pile: list[int] | None = None,
        leader: int = 0,
        zones: Mapping[str, list[list[int]]] | None = None,
        counters: Mapping[str, list[int]] | None = None,
        globals_: Mapping[str, int] | None = None,
        goals: list[list[int]] | None = None,
    ) -> State:
        """A game set up by hand (for tests and examples): the given hands, pile (top
        card first), zones, counters and global counters; every other card in the
        discard; `goals` each seat's secret goals (else as Stream(0, 0, 0) deals them)."""
        players = len(hands)
        state = cls(game, rules, players, Stream(0, 0, 0))
        if goals is not None:
            state.goals = [list(g) for g in goals]
        for name, seats in (zones or {}).items():
            state.zones[name] = [list(z) for z in seats]
        for name, values in (counters or {}).items():
            state.counters[name] = list(values)
        state.globals.update(globals_ or {})
        in_zones = [seat for zone in state.zones.values() for seat in zone]
        state._lay_out(hands, pile or [], state.cards.size, in_zones)
        state._start_trick(leader)
        return state

    # -- the contract (TrickState's, with a step's options as its decision) ----

    def one_per_kind(self, cards: list[int]) -> list[int]:
        return _distinct(cards, self.cards)

    def _note_trick(self) -> None:
        if self.tricks == 0 and self.game.goals is not None:  # each seat's, for its eyes
            names = self.game.goals.names
            self._note("dealt_goals", tuple(tuple(names[g] for g in held) for held in self.goals))
        super()._note_trick()

    def _trick_played(self) -> None:
        self._sort_out()
        self._run()

    def _decider(self) -> int:
        return self.tasks[self.task_at][0]

    def _choices(self) -> list[int]:
        return list(self.actions)

    def _choose(self, action: int) -> None:
        op, target, card = self.options[self.actions.index(action)]
        seat, played, _, _ = self.tasks[self.task_at]
        self.phase = PLAY
        self._act(op, seat, played, target, card)
        self.step_at += 1
        self._run()

    def view(self, seat: int) -> View:
        zones = {
            name: tuple(
                tuple(cards) if face == "up" or s == seat else len(cards)
                for s, cards in enumerate(self.zones[name])
            )
            for name, face in self.game.zones.items()
        }
        # Read-only mappings a bot can't write into, and that pickle: an isolated
        # plugin is sent its view through a pipe (bots/host.py).
        return View(
            seat,
            self.phase,
            tuple(self.hands[seat]),
            self.leader,
            tuple(self.plays),
            FrozenDict(zones),
            FrozenDict({k: tuple(v) for k, v in self.counters.items()}),
            FrozenDict({k: tuple(v) for k, v in self.flags.items()}),
            FrozenDict(self.globals),
            tuple(map(len, self.hands)),
            len(self.pile),
            self.tricks,
            self.rules,
            self.cards,
            tuple(self.order),
            tuple(self.skip),
            tuple(self.discard),
            self._resolution() if self.phase == CHOICE else None,
            FrozenDict({k: tuple(v) for k, v in self.places.items()}),
            FrozenDict(
                {
                    name: tuple(
                        tuple(c for c in cards if c not in self.unsure)
                        for cards in self.zones[name]
                    )
                    for name, face in self.game.zones.items()
                    if face == "down"
                }
            ),
            tuple(
                tuple(held) if s == seat or self.phase == OVER else len(held)
                for s, held in enumerate(self.goals)
            ),
        )

    def _resolution(self) -> Resolution:
        return Resolution(
            tuple(self.tasks),
            self.task_at,
            self.step_at,
            self.hooks_queued,
            self.first_resolved,
            frozenset(self.in_flight),
            frozenset(self.played),
            tuple(self.options),
            tuple(self.actions),
        )

    def scores(self) -> list[float]:
        return [float(self.terms(self.game.score, s)) for s in range(self.players)]

    def _events_at_end(self) -> dict[str, Any]:
        events: dict[str, Any] = dict(self.events)
        for event in self.game.events:
            if event.source == "at_end":
                events[event.name] = sum(self.terms(event.terms, s) for s in range(self.players))
        return events

    def check_invariants(self) -> None:
        self._check_cards(self.cards.size, [s for zone in self.zones.values() for s in zone])

    def _cards_resolving(self) -> list[int]:
        return list(self.in_flight)

    def clone(self) -> State:
        other = State.__new__(State)
        other.__dict__.update(self.__dict__)
        self._copy_table(other)
        other.zones = {k: [list(z) for z in v] for k, v in self.zones.items()}
        other.counters = {k: list(v) for k, v in self.counters.items()}
        other.flags = {k: list(v) for k, v in self.flags.items()}
        other.globals = dict(self.globals)
        other.places = {k: list(v) for k, v in self.places.items()}
        other.skip = list(self.skip)
        other.goals = [list(g) for g in self.goals]
        other.chance = self.chance.copy()  # draws what this state's would, independently
        other.unsure = set(self.unsure)
        other.sole_leader = dict(self.sole_leader)
        other.played = set(self.played)
        other.in_flight = set(self.in_flight)
        other.tasks = list(self.tasks)
        other.options = list(self.options)
        other.actions = list(self.actions)
        return other

    # -- the trick procedure --------------------------------------------------

    def _start_trick(self, leader: int) -> None:
        if self.ended or not any(self.hands):
            self._game_over()
            return
        # A seat told to skip keeps its hand out of this trick; were every seat with
        # cards skipping, the skips would lapse (a trick always has a card).
        waiting = [hand if not self.skip[s] else [] for s, hand in enumerate(self.hands)]
        if any(waiting):
            # Each trick sat out uses up one of a seat's skips.
            self.skip = [max(0, k - 1) for k in self.skip]
        else:
            self.skip = [0] * self.players
            waiting = self.hands
        self._open_trick(leader, waiting)

    def _sort_out(self) -> None:
        survivors, cancelled, neko = sort_out(self.plays, self.rules, self.cards)
        if neko:
            self._count_engine("neko_ni_koban", 1)
        self.discard.extend(cancelled)
        self._count_engine("cards_cancelled", len(cancelled))
        self._note("played", tuple(self.plays), neko, tuple(cancelled))
        self.played = {card for _, card in self.plays}
        self.in_flight = {card for _, card in survivors}
        owner = {card: seat for seat, card in self.plays}
        roles, role_of = self.game.roles, self.cards.role_names
        tasks = []
        for card in cancelled:
            steps = roles[role_of[self.cards.role[card]]].on_cancelled
            steps += self.game.hooks.get("on_cancelled", ())
            if steps:
                tasks.append((owner[card], card, steps, False))
        for seat, card in survivors:
            tasks.append((seat, card, roles[role_of[self.cards.role[card]]].resolve, True))
        self.tasks = tasks
        self.task_at = self.step_at = 0
        self.hooks_queued = False
        self.first_resolved = survivors[0][0] if survivors else -1

    def _run(self) -> None:
        """Run the queued steps until one needs a decision, then end the trick."""
        while True:
            while self.task_at < len(self.tasks):
                seat, card, steps, resolving = self.tasks[self.task_at]
                while self.step_at < len(steps):
                    if not self._step(steps[self.step_at], seat, card):
                        return  # waiting for the owner's decision
                    self.step_at += 1
                if resolving and card in self.in_flight:
                    self.in_flight.discard(card)
                    self.discard.append(card)
                self.task_at += 1
                self.step_at = 0
            hook = self.game.hooks.get("on_trick_end", ())
            if self.hooks_queued or not hook:
                break
            self.hooks_queued = True
            self.tasks += [
                ((self.leader + k) % self.players, -1, hook, False) for k in range(self.players)
            ]
        self._end_trick()

    def _end_trick(self) -> None:
        self.tricks += 1
        for name, lasts in self.game.flags.items():
            if lasts == "trick":
                self.flags[name] = [False] * self.players
        self.played = set()
        self.tasks = []
        self.task_at = self.step_at = 0
        self._arrive()
        self._count_lead_changes()
        self.ended = self._goal_reached()
        leader = self._draw_for_next_trick(self.first_resolved)
        self._start_trick(leader)
        # How it played (stats/how_it_plays.py): the scores after the trick, taken where
        # the kernel's chunk loop takes them, after the move that ended it.
        self.progress.append(tuple(int(score) for score in self.scores()))

    def _arrive(self) -> None:
        """Place terms: this trick's arrivals take their places (vocabulary.py says how)."""
        for term in self.game.score:
            if term.place is None or term.counter is None:
                continue
            places, values = self.places[term.place], self.counters[term.counter]
            gate = self._amount(term.reaches, -1, -1)
            arrived = [s for s in range(self.players) if not places[s] and values[s] >= gate]
            arrived.sort(key=lambda s: -values[s])
            taken, last = self.globals[term.place], self._amount(term.places, -1, -1)
            for rank, seat in enumerate(arrived):
                tied = rank and values[seat] == values[arrived[rank - 1]]
                places[seat] = places[arrived[rank - 1]] if tied else taken + rank + 1
                beyond = places[seat] > last
                self._note("arrive", seat, term.place, places[seat], beyond)
                if term.event and not beyond:  # an arrival past the places took none
                    self.events[term.event] += 1
                if beyond and term.beyond_event:
                    self.events[term.beyond_event] += 1
            if arrived:
                decl = next(g for g in self.game.globals if g.name == term.place)
                self.globals[term.place] = min(taken + len(arrived), decl.high)

    def _game_over(self) -> None:
        if self._trace is not None:  # each rank term's places, told before the scores
            for term in self.game.score:
                if term.rank is not None:
                    values = self.counters[term.rank]
                    places = [rank_place(values, s, term.lowest) for s in range(self.players)]
                    scores = tuple(self.terms((term,), s) for s in range(self.players))
                    self._note("ranked", term.rank, term.lowest, tuple(places), scores)
            if self.game.goals is not None:  # the secret goals shown, and what they scored
                names = self.game.goals.names
                held = tuple(tuple(names[g] for g in goals) for goals in self.goals)
                each = self.game.goals.terms
                scored = tuple(
                    sum(self.terms(each[g], s) for g in goals) for s, goals in enumerate(self.goals)
                )
                self._note("goals", held, scored)
        super()._game_over()

    def _goal_reached(self) -> bool:
        for goal in self.game.end:
            target = self._amount(goal.reaches, -1, -1)
            if goal.kind == "tricks" and self.tricks >= target:
                return True
            if goal.kind == "counter" and max(self.counters[goal.name or ""]) >= target:
                return True
            if goal.kind == "global" and self.globals[goal.name or ""] >= target:
                return True
        return False

    def _count_engine(self, source: str, by: int) -> None:
        for event in self.game.events:
            if event.source == "from" and event.engine == source:
                self.events[event.name] += by

    def _count_lead_changes(self) -> None:
        for event in self.game.events:
            if event.source != "lead_changes":
                continue
            values = [self.terms(event.terms, s) for s in range(self.players)]
            best = max(values)
            sole = values.index(best) if best > 0 and values.count(best) == 1 else -1
            standing = self.sole_leader.get(event.name, -1)
            if sole < 0 or sole == standing:
                continue  # a tie or nothing yet: the standing sole leader (if any) stays
            if standing >= 0:  # the first sole leader took the lead from nobody
                self.events[event.name] += 1
            self.sole_leader[event.name] = sole

    # -- the roles' steps ----------------------------------------------------

    def _step(self, step: Step, seat: int, card: int) -> bool:
        """Act out one step; False when it waits for `seat`'s decision."""
        ops = step.options if isinstance(step, Choose) else (step,)
        options: list[tuple[Op, int, int]] = []
        actions: list[int] = []
        takers = 0
        for index, op in enumerate(ops):
            if op.when is not None and not conditions.met(self, op.when, seat):
                # Its condition false: it does nothing, an option drops out.
                if self._trace is not None:
                    self._note("unmet", seat, op.kind, conditions.said(op.when, seat, self))
                takers += PRIMITIVES[op.kind].takes(op.params)
                continue
            for target, taken in self._ways(op, seat):
                options.append((op, target, taken))
                if taken >= 0:
                    actions.append(takers * self.cards.size + taken)
                elif target >= 0:
                    actions.append(-(1 + len(ops) + index * self.players + target))
                else:
                    actions.append(-(index + 1))
            if PRIMITIVES[op.kind].takes(op.params):
                takers += 1
        if len(options) == 1:
            op, target, taken = options[0]
            self._act(op, seat, card, target, taken)
        elif options:
            self.options, self.actions = options, actions
            self.phase = CHOICE
            return False
        return True

    def _ways(self, op: Op, seat: int) -> list[tuple[int, int]]:
        """The ways `op` can act for `seat`: (chosen rival or -1, taken card or -1)."""
        p, primitive = op.params, PRIMITIVES[op.kind]
        if primitive.card_ways is not None and primitive.takes(p):
            return primitive.card_ways(self, p, seat)
        target = p.get("target")
        if target is not None and TARGET_KINDS[target[0]].chosen:
            unless = self.flags[p["unless"]] if p.get("unless") else None
            rivals = [(seat + k) % self.players for k in range(1, self.players)]
            return [(r, -1) for r in rivals if unless is None or not unless[r]]
        return [(-1, -1)]

    def _targets(self, target: tuple[str, ...], seat: int, chosen: int) -> list[int]:
        """The seats `target` names for `seat`'s op (targets/<kind>.py), in order."""
        argument = target[1] if len(target) > 1 else None
        return TARGET_KINDS[target[0]].seats(self, seat, chosen, argument)

    def _act(self, op: Op, seat: int, card: int, chosen: int, taken: int) -> None:
        """One primitive (primitives/<name>.py), on each of its target seats in turn when
        it has a target. A step counts its event only when it changed something
        (docs/new-game.md)."""
        p, primitive = op.params, PRIMITIVES[op.kind]
        if not primitive.targeted:
            acted = primitive.act(self, p, seat, card, chosen, taken)
        else:
            acted = False
            for target in self._targets(p["target"], seat, chosen):
                if p.get("unless") and self.flags[p["unless"]][target]:
                    self._note("blocked", seat, op.kind, target, p["unless"])
                    continue
                acted = primitive.act(self, p, seat, card, target, taken) or acted
        if acted and p.get("event"):
            self.events[p["event"]] += 1

    def _recall_steal(self, source: str, goal: str, left: list[int], taken: int) -> None:
        """What every seat can still tell after `taken` moved from a zone (whose cards
        now are `left`): taken from face down into face down, the others saw a card
        go but not which, so neither it nor any card left there is sure any more."""
        faces = self.game.zones
        if faces[goal] == "up":
            self.unsure.discard(taken)  # face up: seen, and so is which card left
        elif faces[source] == "down":
            self.unsure.add(taken)
            self.unsure.update(left)

    def amount(self, amount: tuple[Any, ...]) -> int:
        """A whole-number parameter's value (a number or a knob) in this game's rules."""
        return self._amount(amount, -1, -1)

    def _amount(self, amount: tuple[Any, ...], seat: int, card: int) -> int:
        kind = amount[0]
        if kind == "int":
            return int(amount[1])
        if kind == "knob":
            return int(self.rules[amount[1]])
        if kind == "minus_knob":
            return -int(self.rules[amount[1]])
        if kind == "number":
            return self.cards.number[card] if card >= 0 else 0
        if kind == "times_number":  # sign * number * K (reader.py number_times)
            number = self.cards.number[card] if card >= 0 else 0
            return int(amount[1]) * number * self._amount(amount[2], seat, card)
        if kind == "counter":
            return self.counters[amount[1]][seat]
        if kind == "value":
            return sum(self.cards.number[c] for c in self.zones[amount[1]][seat])
        return len(self.zones[amount[1]][seat])

    def terms(self, terms: tuple[Term, ...], seat: int) -> int:
        """The sum of score terms `terms` for `seat`, each its kind's value (scores/)."""
        return sum(kind_of(term).value(self, term, seat) for term in terms)


def _distinct(cards: list[int], deck: Cards) -> list[int]:
    """One card per kind: copies of a card are one move (RULES.md §4)."""
    if deck.copies == 1:
        return list(cards)
    seen: set[int] = set()
    out = []
    for card in cards:
        if deck.kind[card] not in seen:
            seen.add(deck.kind[card])
            out.append(card)
    return out


def bounds(game: RoleGame, rules: Mapping[str, Any], players: int) -> Bounds:
    """Every card is played once and every trick plays one (skips lapse when every seat
    with cards would skip); each step of a card's role (and of the hooks, every seat,
    every trick) may add a decision. Scores: every card in the best (worst) zone term,
    every counter at its declared bound."""
    cards = cards_for(rules)
    most_steps = max([len(r.resolve) + len(r.on_cancelled) for r in game.roles.values()] or [0])
    hook_steps = sum(len(steps) for steps in game.hooks.values()) * players
    tricks = cards.size
    high = low = 0
    for term in game.score:
        if term.place is not None:
            beyond = _value(term.beyond, rules)
            high += max(_value(term.places, rules), beyond, 0)
            low += min(beyond, 0)
        elif term.zone is not None:
            per = [
                _value(term.per_card, rules) + _value(term.per_number, rules) * n
                for n in cards.number
            ]
            high += sum(v for v in per if v > 0)
            low += sum(v for v in per if v < 0)
        elif term.counter is not None:
            decl = next(c for c in game.counters if c.name == term.counter)
            times = _value(term.times, rules)
            ends = (times * decl.low, times * decl.high)
            high += max(ends)
            low += min(ends)
        elif term.rank is not None:  # a place past the points scores 0
            points = [_value(point, rules) for point in term.points]
            high += max(*points, 0)
            low += min(*points, 0)
        elif term.goals and game.goals is not None:  # `deal` goals, each its best (worst)
            each = [bounds(replace(game, score=t), rules, players).score for t in game.goals.terms]
            high += game.goals.deal * int(max(max(b[1] for b in each), 0))
            low += game.goals.deal * int(min(min(b[0] for b in each), 0))
    return Bounds(
        moves=cards.size * (1 + most_steps) + tricks * hook_steps,
        length=(1, tricks),
        score=(float(low), float(high)),
    )


def resample_hidden(state: State, seat: int, rng: Stream) -> State:
    """Redeal what `seat` can't see, from the true state: the other hands and the pile
    (sizes kept, trick/state.py), then the rivals' secret goals (goals.py); every card
    ever face up, and `seat`'s own, stay put."""
    other = redeal_unseen(state, seat, rng)
    if state.game.goals is not None:
        held = state.view(seat).goals
        other.goals = secret_goals.redeal(held, seat, state.game.goals, rng)
    return other


def _value(amount: tuple[Any, ...], rules: Mapping[str, Any]) -> int:
    if amount[0] == "int":
        return int(amount[1])
    return -int(rules[amount[1]]) if amount[0] == "minus_knob" else int(rules[amount[1]])
