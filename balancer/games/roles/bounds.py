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

A zone term's bound depends on the deck, which a variant may change (the `deck`
knob): definition.py checks a variant's deck with `first_overflow` too.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from balancer.games.roles.model import Amount, Counter, KnobDef, Term

INT64_MAX = 2**63 - 1


def _most_amount(amount: Amount, spans: Mapping[str, tuple[int, int]]) -> int:
    """The largest magnitude an amount of a term (a whole number or a knob) can take."""
    if amount[0] == "int":
        return abs(int(amount[1]))
    low, high = spans.get(amount[1], (0, 0))
    return max(abs(low), abs(high))


def term_most(
    term: Term,
    deck: Mapping[str, Any],
    counters: Sequence[Counter],
    knob_defs: Sequence[KnobDef],
) -> int:
    """The largest magnitude term `term` can give one seat: a zone holding the whole
    deck, a counter at its further bound, a place or `beyond` at its largest."""
    spans = {k.name: (k.low, k.high) for k in knob_defs}
    if term.place is not None:
        return max(_most_amount(term.places, spans), _most_amount(term.beyond, spans))
    if term.zone is not None:
        low, high = deck["numbers"]
        per_number = len(deck["colours"]) * len(deck["roles"]) * deck["copies"]
        cards = per_number * (high - low + 1)
        numbers = per_number * (low + high) * (high - low + 1) // 2  # every card's number
        return (
            _most_amount(term.per_card, spans) * cards
            + _most_amount(term.per_number, spans) * numbers
        )
    decl = next(c for c in counters if c.name == term.counter)
    return _most_amount(term.times, spans) * max(abs(decl.low), abs(decl.high))


def first_overflow(
    terms: Sequence[Term],
    deck: Mapping[str, Any],
    counters: Sequence[Counter],
    knob_defs: Sequence[KnobDef],
) -> tuple[int, int] | None:
    """(index, bound): the first term at which the sum of the terms' bounds passes
    INT64_MAX, and that sum; None when the whole sum fits."""
    total = 0
    for index, term in enumerate(terms):
        total += term_most(term, deck, counters, knob_defs)
        if total > INT64_MAX:
            return index, total
    return None


def overflow_message(total: int) -> str:
    """What a refusal says: how far the sum could reach, and the limit it passes."""
    return (
        f"the sum up to this term could reach {total}, past {INT64_MAX}, the 64-bit "
        "limit the compiled game counts in (smaller numbers, or fewer terms)"
    )
