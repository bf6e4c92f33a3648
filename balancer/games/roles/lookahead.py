"""The `lookahead` bot of every role game: one trick ahead through the Python interpreter.

For each legal move (a card to play, or an option of a decision) it plays the
rest of the current trick in `samples` worlds sampled from its own view
(determinize.py: unseen cards dealt uniformly from the unseen pool; it never
reads a hidden card) and scores where each world stands when the trick is over:

    value = own score - best rival's score                       (the race for points)
          + goal_weight * (own progress - best rival's progress)   (the pull toward a goal)
          + win_bonus * own win share, when the game ended in that trick

The scores before the trick are the same for every move, so ranking by the
margin after it is ranking by its own gain less the leading rival's gain.
Progress toward a `counter` end goal is the counter over its goal (capped at 1),
toward a place term's gate (`place` in score) the counter over its `reaches`; a
seat with its place is at 1. The goal pull is what moves a race whose points
come only at the gate (the zodiac race); in one whose score is the counter
itself (MEGA RACER) it only adds weight to the same thing.

Every other seat's replies in the trick, and this seat's own later decisions in
it, are drawn uniformly among the legal moves (the `random` bot's rule): a
simple model of the table that costs one interpreter step per move. Every
move is tried in the same worlds with the same replies' random draws (common
random numbers), so two moves are compared on the same luck. Ties go to the
first in the legal order.
"""

from __future__ import annotations

from collections.abc import Sequence

from balancer import knobs
from balancer.bot import BotSpec
from balancer.games.api import win_shares
from balancer.games.roles.determinize import determinize
from balancer.games.roles.engine import State, View
from balancer.games.roles.model import Amount, RoleGame
from balancer.rng import Stream

_SEED_SPAN = 1 << 62


class Lookahead:
    def __init__(
        self, game: RoleGame, samples: int = 8, goal_weight: int = 4, win_bonus: int = 100
    ) -> None:
        self.game = game
        self.samples = samples
        self.goal_weight = goal_weight
        self.win_bonus = win_bonus

    def act(self, view: View, legal: Sequence[int], rng: Stream) -> int:
        if len(legal) == 1:
            return legal[0]
        values = self.values(view, legal, rng)
        best = max(values)
        return legal[values.index(best)]

    def values(self, view: View, legal: Sequence[int], rng: Stream) -> list[float]:
        """Each legal move's mean value over the sampled worlds (the module docstring)."""
        worlds = [determinize(self.game, view, rng) for _ in range(self.samples)]
        replies = [Stream(rng.below(_SEED_SPAN), 0, 0) for _ in worlds]
        totals = []
        for move in legal:
            total = 0.0
            for world, draws in zip(worlds, replies, strict=True):
                trial = world.clone()
                trial.apply_action(move)
                finish_trick(trial, view.tricks_played, draws.copy())
                total += self.value(trial, view.seat)
            totals.append(total / len(worlds))
        return totals

    def value(self, state: State, seat: int) -> float:
        """Where `seat` stands in `state` (the module docstring's formula)."""
        scores = state.scores()
        if not state.game.higher_is_better:
            scores = [-s for s in scores]
        rivals = [s for s in range(state.players) if s != seat]
        progress = goal_progress(state)  # all 0 in a game with no counter goal
        # A game file seats 2 players at least: there is always a rival.
        value = scores[seat] - max(scores[r] for r in rivals)
        value += self.goal_weight * (progress[seat] - max(progress[r] for r in rivals))
        if state.is_terminal():
            shares = win_shares(tuple(state.scores()), state.game.higher_is_better)
            value += self.win_bonus * shares[seat]
        return value


def finish_trick(state: State, tricks_played: int, rng: Stream) -> None:
    """Play `state` on, every decision at random, until the trick in play has ended."""
    while not state.is_terminal() and state.tricks == tricks_played:
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])


def goal_progress(state: State) -> list[float]:
    """Each seat's progress toward the game's counter goals and place terms' gates,
    0..1 each, summed."""
    progress = [0.0] * state.players
    goals: list[tuple[str | None, Amount, str | None]]
    goals = [(g.name, g.reaches, None) for g in state.game.end if g.kind == "counter"]
    goals += [(t.counter, t.reaches, t.place) for t in state.game.score if t.place]
    for counter, reaches, place in goals:
        target = state.amount(reaches)
        if counter is None or target <= 0:
            continue
        for s, value in enumerate(state.counters[counter]):
            arrived = place is not None and state.places[place][s] > 0
            progress[s] += 1.0 if arrived else min(value, target) / target
    return progress


def lookahead_spec(game: RoleGame) -> BotSpec:
    """The bot as the registry lists it for `game`."""

    def factory(samples: int = 8, goal_weight: int = 4, win_bonus: int = 100) -> Lookahead:
        return Lookahead(game, samples, goal_weight, win_bonus)

    return BotSpec(
        "lookahead",
        "one trick ahead: each move played out to the trick's end in worlds sampled from "
        "its view, scored by its margin over the best rival and its pull toward the goal",
        factory,
        (
            knobs.integer("samples", "params", 8, "worlds sampled per decision", low=1, high=1000),
            knobs.integer(
                "goal_weight", "params", 4, "points the whole way to the goal is worth", low=0
            ),
            knobs.integer(
                "win_bonus", "params", 100, "points a won game ending in the trick is worth", low=0
            ),
        ),
    )
