"""A world of a role game sampled from one seat's view alone (docs/determinize.md).

What the seat can't see (the other hands, the pile, and the cards of the other
seats' face-down zones it can't recall) is dealt from the cards it has not seen,
uniformly (shuffled by the caller's stream); everything else is as the view
shows it. The cards it has seen: its own hand, every face-up zone, its own
face-down zones, the discard (each card there was played face up), the cards of
the trick still in play, and every card it saw go into a rival's face-down zone
(`view.recalled`): those stay where they are, listed first in their zone, and
only the rest of the zone is dealt (docs/determinize.md). The rivals' secret goals
are dealt from the goal cards it has not seen (goals.py).

The game's chance after the deal is hidden too: a file whose ops draw from it while
they are played (a random discard) gives the world a chance stream of its own, keyed
from one draw of the caller's stream after the deal, as the kernel's determinize
keys its out_streams[CHANCE]; a world that kept the true stream would know every
future draw. A file that draws none draws no more.

Events start from 0 and there is no deal to record (no view shows them): a
world is for looking ahead (lookahead.py, a search), not for a report.
"""

from __future__ import annotations

from balancer.games.roles import goals as secret_goals
from balancer.games.roles.engine import CHOICE, OVER, State, View
from balancer.games.roles.model import Choose, RoleGame
from balancer.games.roles.primitives import PRIMITIVES
from balancer.rng import CHANCE, Stream


def determinize(game: RoleGame, view: View, rng: Stream) -> State:
    """A state `view.seat` can't tell from the true one (see the module docstring)."""
    cards, seat = view.cards, view.seat
    players = len(view.hand_sizes)
    resolution = view.resolution
    seen = set(view.hand)
    seen.update(view.discard)
    if resolution is not None:
        seen.update(resolution.in_flight)
    elif view.phase != OVER:  # once over, the last trick's cards lie where they went
        seen.update(card for _, card in view.trick)
    hidden: list[tuple[str, int, int]] = []  # (zone, seat, count) to deal from the pool
    for name, zone in view.zones.items():
        for s, held in enumerate(zone):
            if isinstance(held, int):
                known = view.recalled[name][s]
                seen.update(known)
                hidden.append((name, s, held - len(known)))
            else:
                seen.update(held)
    pool = [card for card in range(cards.size) if card not in seen]
    others = [s for s in range(players) if s != seat]
    wanted = sum(view.hand_sizes[s] for s in others) + view.pile_size
    wanted += sum(count for _, _, count in hidden)
    if len(pool) != wanted:
        raise ValueError("the view's unseen cards don't fill the hidden places")
    rng.shuffle(pool)
    dealt = iter(pool)

    state = State.__new__(State)
    state.game, state.rules, state.cards, state.players = game, view.rules, cards, players
    state._trace = None
    state.opening_held = ()  # a world has no deal of its own to record
    state.progress = []  # nor a record of its past tricks
    state.hands = [
        list(view.hand) if s == seat else [next(dealt) for _ in range(view.hand_sizes[s])]
        for s in range(players)
    ]
    state.zones = {
        name: [list(held) if not isinstance(held, int) else [] for held in zone]
        for name, zone in view.zones.items()
    }
    # Unsure: the cards dealt into rivals' face-down zones, and those of the seat's own
    # that the others can't recall.
    state.unsure = set()
    for name, per_seat in view.recalled.items():
        state.unsure.update(c for c in state.zones[name][seat] if c not in per_seat[seat])
    for name, s, count in hidden:
        dealt_here = [next(dealt) for _ in range(count)]
        state.zones[name][s] = [*view.recalled[name][s], *dealt_here]
        state.unsure.update(dealt_here)
    state.pile = list(dealt)
    # The rivals' secret goals dealt again from the goal cards the seat has not seen.
    state.goals = secret_goals.redeal(view.goals, seat, game.goals, rng) if game.goals else []
    state.counters = {k: list(v) for k, v in view.counters.items()}
    state.flags = {k: list(v) for k, v in view.flags.items()}
    state.globals = dict(view.globals)
    state.places = {k: list(v) for k, v in view.places.items()}
    state.skip = list(view.skip)
    state.discard = list(view.discard)
    state.tricks = view.tricks_played
    state.events = {e.name: 0 for e in game.events}
    state.sole_leader = {}
    state.leader = view.leader
    state.order = list(view.order)
    state.plays = list(view.trick)
    state.ended = False
    state.phase = view.phase
    # Last, after every card and goal is dealt (kernel/play.py's order).
    state.chance = Stream(rng.next_u64(), 0, CHANCE) if draws_chance(game) else Stream(0, 0, 0)
    if resolution is not None and view.phase == CHOICE:
        state.turn = len(state.order)
        state.tasks = list(resolution.tasks)
        state.task_at, state.step_at = resolution.task_at, resolution.step_at
        state.hooks_queued = resolution.hooks_queued
        state.first_resolved = resolution.first_resolved
        state.in_flight = set(resolution.in_flight)
        state.played = set(resolution.played)
        state.options, state.actions = list(resolution.options), list(resolution.actions)
    else:
        state.turn = len(view.trick)
        state.tasks, state.task_at, state.step_at = [], 0, 0
        state.hooks_queued, state.first_resolved = False, -1
        state.in_flight, state.played = set(), set()
        state.options, state.actions = [], []
    return state


def draws_chance(game: RoleGame) -> bool:
    """Whether some op of `game` draws from its chance stream while it is played
    (Primitive.draws_chance: a random discard)."""
    lists = [steps for role in game.roles.values() for steps in (role.resolve, role.on_cancelled)]
    lists += list(game.hooks.values())
    return any(
        PRIMITIVES[op.kind].draws_chance(op.params)
        for steps in lists
        for step in steps
        for op in (step.options if isinstance(step, Choose) else (step,))
    )
