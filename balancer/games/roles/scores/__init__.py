"""Score term kinds, one module each, and their one registry (as primitives/ and
targets/: base.py says what a kind holds). Outside its module a kind is named only
here (its TERM number) and in the compiled dispatch (kernel/scoring.py `_terms`).

A kind's TERM number is 1 + its place in ORDER (0: no kind), the first word of its
term row: the order is the old one, so the tables are word for word as before.
"""

from __future__ import annotations

from balancer.games.roles.model import Term
from balancer.games.roles.scores import counter, goals, place, rank, zone
from balancer.games.roles.scores.base import ScoreTerm

ORDER = (zone, counter, place, rank, goals)
SCORE_TERMS: dict[str, ScoreTerm] = {module.SPEC.name: module.SPEC for module in ORDER}
TERMS = {name: code for code, name in enumerate(SCORE_TERMS, start=1)}
# The TERM numbers the compiled dispatch (kernel/scoring.py) compares a row's kind with.
TERM_ZONE = TERMS[zone.SPEC.name]
TERM_COUNTER = TERMS[counter.SPEC.name]
TERM_PLACE = TERMS[place.SPEC.name]
TERM_RANK = TERMS[rank.SPEC.name]
TERM_GOALS = TERMS[goals.SPEC.name]
# The order a term's mapping is read in: a place term holds a counter: key too.
READ_ORDER = (place, rank, goals, zone, counter)


def kind_of(term: Term) -> ScoreTerm:
    """The kind a read Term is (each kind's `holds` excludes the others')."""
    return next(module.SPEC for module in ORDER if module.SPEC.holds(term))
