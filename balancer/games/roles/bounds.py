"""How large a game file's numbers can grow, worked out from the primitives' ranges.

The compiled kernel keeps every number in 64-bit integers, where Python's
engine (`--check`) has no limit: a sum that could pass 2**63 - 1 would wrap to
a negative score compiled and not step by step. So a game is refused unless
every sum it computes provably fits, for any values its knobs may take:

- every amount (a whole number, a knob, a card's number) is within
  ±knobs.INT_LIMIT (validate refuses a knob range past it), `{count: ZONE}`
  within the deck's size; a counter or global stays within its declared
  [min, max] (±INT_LIMIT), so `add` and `catch_up` work on values within
  3 × INT_LIMIT before they are clamped: these never come near the limit;
- what can overflow is a sum of terms (the score, an `at_end` event, the sum
  a `lead_changes` event follows): each term is bounded by itself (`term_most`)
  and their bounds summed, as the seat's value can be every term's worst at once.

`most_reached` is the other bound validate asks for: the most a counter can
reach, to tell an end goal the deck can never bring about.

A zone term's bound depends on the deck, which a variant may change (the `deck`
knob): definition.py checks a variant's deck with `first_overflow` too.
"""

from __future__ import annotations

from collections.abc import Sequence

from balancer.games.roles.deck import DeckSpec, groups
from balancer.games.roles.model import (
    Choose,
    Counter,
    GoalDeck,
    KnobDef,
    Op,
    Role,
    Step,
    Term,
)
from balancer.games.roles.primitives import PRIMITIVES
from balancer.games.roles.scores import kind_of
from balancer.games.roles.scores.base import Span

INT64_MAX = 2**63 - 1


def term_most(
    term: Term,
    deck: DeckSpec,
    counters: Sequence[Counter],
    knob_defs: Sequence[KnobDef],
    goals: GoalDeck | None = None,
) -> int:
    """The largest magnitude term `term` can give one seat: its kind's bound (scores/),
    a goal's own terms bounded without goals (a goal holds no `{goals: true}`)."""
    span = Span(
        deck,
        counters,
        {k.name: (k.low, k.high) for k in knob_defs},
        goals,
        lambda t: term_most(t, deck, counters, knob_defs),
    )
    return kind_of(term).most(term, span)


def first_overflow(
    terms: Sequence[Term],
    deck: DeckSpec,
    counters: Sequence[Counter],
    knob_defs: Sequence[KnobDef],
    goals: GoalDeck | None = None,
) -> tuple[int, int] | None:
    """(index, bound): the first term at which the sum of the terms' bounds passes
    INT64_MAX, and that sum; None when the whole sum fits."""
    total = 0
    for index, term in enumerate(terms):
        total += term_most(term, deck, counters, knob_defs, goals)
        if total > INT64_MAX:
            return index, total
    return None


def overflow_message(total: int) -> str:
    """What a refusal says: how far the sum could reach, and the limit it passes."""
    return (
        f"the sum up to this term could reach {total}, past {INT64_MAX}, the 64-bit "
        "limit the compiled game counts in (smaller numbers, or fewer terms)"
    )


def most_reached(
    name: str,
    kind: str,
    roles: dict[str, Role],
    hooks: dict[str, tuple[Step, ...]],
    deck: DeckSpec,
    defaults: dict[str, int],
    decl: Counter | None,
) -> int | None:
    """The most a counter (any one seat's) or a global can reach, every card of the
    deck resolved (or cancelled) once and to one seat's good, knobs at their defaults;
    None: no bound from here (a hook acts every trick, catch_up or a count adds).
    What each op adds is its primitive's `gain` (primitives/<name>.py)."""

    def gain(op: Op, number: int) -> int | None:
        return PRIMITIVES[op.kind].gain(op.params, name, kind, number, defaults)

    def steps_gain(steps: tuple[Step, ...], number: int) -> int | None:
        total = 0
        for step in steps:
            options = step.options if isinstance(step, Choose) else (step,)
            gains = [gain(op, number) for op in options]
            if None in gains:
                return None
            total += max(g for g in gains if g is not None)
        return total

    for steps in hooks.values():
        if steps_gain(steps, 0) != 0:
            return None
    total = decl.start if decl else 0
    for colours, role_names, low, high, copies in groups(deck):
        if high - low > 1000:
            return None  # too long a range to add card by card; no bound claimed
        per_number = len(colours) * copies
        for role_name in role_names:
            role = roles.get(role_name)
            if role is None:
                continue
            for number in range(low, high + 1):
                resolved = steps_gain(role.resolve, number)
                cancelled = steps_gain(role.on_cancelled, number)
                if resolved is None or cancelled is None:
                    return None
                total += max(resolved, cancelled) * per_number
    if decl is not None:
        total = min(total, decl.high)
    return total
