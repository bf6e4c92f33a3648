"""`search` with `method: ismcts`: single-observer information-set MCTS.

One tree for the searching seat's decision, grown over worlds drawn from its view
(the same worlds as the flat search: bots/search.py's `_worlds`, one world per
iteration). Each iteration plays one world down the tree: at a node, the moves legal
in that world; a move not yet tried there is added as a child and played, and the
world is played out from it with the rollout bot (its horizon's value, every seat's);
otherwise the child with the highest UCB for the seat to move,

    mean value to that seat + c * range * sqrt(ln(availability) / visits),

where a child's availability counts the iterations its move was legal when its
parent was reached (a move that exists in few worlds is not favoured for having
been tried in few), and `range` is the spread of the values seen so far (1 for win
shares, chips under `horizon: deal`), so c means the same under either horizon.
Every seat's moves are nodes of the one tree (single observer: a rival's face-down
discard is a move like any other in the sampled world). The values are credited
along the path, each node for the seat that moved into it.

The decision is the root child played most often (ties to the first candidate). The
budget is samples x candidates iterations, each one play-out: the rollouts of the
flat search at the same parameters. Everything is drawn from the bot's stream (a new
node's move among the untried ones too), so a search is a function of the view and
the stream, as the flat one.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING, Any

from balancer.rng import Stream

if TYPE_CHECKING:  # search.py calls in here: a type only, or the two would import each other
    from balancer.bots.search import MonteCarloSearch

EXPLORATION = 0.7
"""UCB's c, per unit of the values' range: about 1/sqrt(2), the usual for [0, 1] rewards."""


class Node:
    """A move of the tree (the root: the decision itself): its statistics for the seat
    that played it, and its children by move."""

    __slots__ = ("availability", "children", "total", "visits")

    def __init__(self) -> None:
        self.children: dict[int, Node] = {}
        self.visits = 0
        self.total = 0.0
        self.availability = 0


def tree_search(
    search: MonteCarloSearch, view: Any, moves: Sequence[Hashable], rng: Stream
) -> tuple[tuple[float, ...], int]:
    """The tree search of `search`'s decision (the module's docstring) over `moves`:
    each move's mean value at the root, and the index of the move chosen."""
    kernel = search.kernel
    root = Node()
    candidates = [int(m) for m in moves]  # type: ignore[call-overload]
    iterations = search.samples * len(candidates)
    low, high = math.inf, -math.inf
    horizon = None
    for world in search._worlds(view, rng, iterations):
        horizon = horizon or search._horizon(world)
        bots = search._bots(len(world.streams) - 1)
        position = world.copy()
        node = root
        path: list[tuple[Node, int]] = []
        while not horizon.over(position):
            if node is root:
                legal = candidates  # the decision's own moves, as the view shows them
            else:
                n = kernel.legal(position)
                legal = position.moves[:n].tolist()
            mover = kernel.current_player(position)
            move = _select(node, legal, rng, high - low if high > low else 1.0)
            kernel.apply(position, move)
            child = node.children[move]
            path.append((child, mover))
            if child.visits == 0:  # just added: play out from it
                break
            node = child
        values = horizon.play_on(position, bots)
        low, high = min(low, *values), max(high, *values)
        for child, mover in path:
            child.visits += 1
            child.total += values[mover]
    means = tuple(
        root.children[m].total / root.children[m].visits if m in root.children else 0.0
        for m in candidates
    )
    visits = [root.children[m].visits if m in root.children else 0 for m in candidates]
    return means, max(range(len(candidates)), key=visits.__getitem__)


def _select(node: Node, legal: Sequence[int], rng: Stream, spread: float) -> int:
    """The move to play at `node`: an untried one (drawn from `rng`), else the best UCB
    for the seat to move; counts each legal move's availability."""
    untried = [m for m in legal if m not in node.children or node.children[m].visits == 0]
    for m in legal:
        child = node.children.get(m)
        if child is None:
            child = node.children[m] = Node()
        child.availability += 1
    if untried:
        return untried[rng.below(len(untried))]
    scale = EXPLORATION * spread
    best, best_score = legal[0], -math.inf
    for m in legal:
        child = node.children[m]
        score = child.total / child.visits + scale * math.sqrt(
            math.log(child.availability) / child.visits
        )
        if score > best_score:
            best, best_score = m, score
    return best
