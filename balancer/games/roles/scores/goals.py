"""`{goals: true}`: each seat adds the terms of the secret goals it holds (roles/goals.py
deals them, bounds the goal deck and tells them). Its row is the kind alone: the
goals a seat holds are the state's (kernel/secret_goals.py deals them), each goal
card's terms term rows of their own (kernel/tables.py), and its compiled part tells
where a held goal's rows are, which kernel/scoring.py `_goal_terms` sums."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from balancer.games.roles import goals as secret_goals
from balancer.games.roles.model import Term
from balancer.games.roles.scores.base import ScoreTerm, Span, TermEncoding, TermReader

if TYPE_CHECKING:
    from balancer.games.roles.engine import State
    from balancer.games.roles.gamefile import KeyPath

# The term itself, as the replay tells what each seat's goals scored (engine.py).
TERM = Term(goals=True)


def holds(term: Term) -> bool:
    return term.goals


def read(
    reader: TermReader, keypath: KeyPath, value: dict[str, Any], in_score: bool
) -> Term | None:
    """`{goals: true}`, in a file that deals goals."""
    reader.known_keys(keypath, value, ("goals",))
    if value["goals"] is not True:
        reader.fail((*keypath, "goals"), f"expected true, got {value['goals']!r}")
        return None
    if "goals" not in reader.data:
        reader.fail((*keypath, "goals"), "no goals: are declared (a top-level goals: block)")
        return None
    return TERM


def value(state: State, term: Term, seat: int) -> int:
    deck = state.game.goals
    if deck is None:
        return 0
    return sum(state.terms(deck.terms[goal], seat) for goal in state.goals[seat])


def most(term: Term, span: Span) -> int:
    assert span.goals is not None, "validate refuses {goals: true} without goals:"
    return secret_goals.most(span.goals, span.of)


def row(term: Term, encoding: TermEncoding) -> list[int]:
    return []


def kernel_value() -> Callable[..., int]:
    from balancer.games.roles.kernel.layout import X_GOAL_ROWS, inlined
    from balancer.games.roles.kernel.regions import directory, goal_at

    @inlined
    def goal_row(state: Any, tables: Any, row: int, seat: int, j: int) -> int:
        """Where in `tables` the seat's j-th goal card's (first term row, terms) lie."""
        return directory(tables, X_GOAL_ROWS) + 2 * state[goal_at(state, tables, seat, j)]

    return goal_row


SPEC = ScoreTerm(
    name="goals", holds=holds, read=read, value=value, most=most, row=row,
    kernel_value=kernel_value,
)  # fmt: skip
