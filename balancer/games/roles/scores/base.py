"""The shape every score term's module fills in: `ScoreTerm`.

A score term kind (`score:`'s `{zone: ...}`, `{counter: ...}`, ...) keeps all of
itself in its module, as a primitive does (primitives/base.py says why a frozen
dataclass): its key word, which Terms are its own, its reading and checks, its
static bound, its term row, its Python value for a seat and its compiled value,
built on the kernel's first import (kernel/scoring.py, one dispatch line per kind).

This module imports nothing heavy: `balancer validate` reads every term without
numpy or numba.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from balancer.games.roles.primitives.base import Encoding

if TYPE_CHECKING:
    from balancer.games.roles.deck import DeckSpec
    from balancer.games.roles.engine import State
    from balancer.games.roles.gamefile import KeyPath
    from balancer.games.roles.model import Amount, Counter, GoalDeck, Term


class TermReader(Protocol):
    """What a term's reading asks of the validator (validate.py's checker, a
    reader.Reader): its checks, the file, and what the place term records."""

    data: dict[str, Any]
    ops_events: set[str]  # events something counts (a place term's arrivals do)
    place_globals: dict[str, KeyPath]  # global -> the place term handing it out

    def fail(self, keypath: KeyPath, message: str) -> None: ...
    def absent(self, keypath: KeyPath, block: dict[str, Any], key: str, what: str) -> bool: ...
    def known_keys(self, keypath: KeyPath, value: dict[str, Any], valid: Sequence[str]) -> None: ...
    def use(self, kind: str, keypath: KeyPath, name: Any) -> str | None: ...
    def amount(self, keypath: KeyPath, value: Any, *, numbers: bool) -> Amount | None: ...


@dataclass(frozen=True)
class Span:
    """What a term's static bound reads (bounds.py builds it): the deck, the declared
    counters, each knob's range, the secret goals, and the bound of another term (a
    goal's own terms)."""

    deck: DeckSpec
    counters: Sequence[Counter]
    knobs: Mapping[str, tuple[int, int]]
    goals: GoalDeck | None
    of: Callable[[Term], int]

    def amount(self, amount: Amount) -> int:
        """The largest magnitude an amount of a term (a whole number or a knob) takes."""
        if amount[0] == "int":
            return abs(int(amount[1]))
        low, high = self.knobs.get(amount[1], (0, 0))
        return max(abs(low), abs(high))


class TermEncoding(Encoding, Protocol):
    """What a term row may ask of the compiler (kernel/tables.py): a primitive's
    Encoding, and a list of whole numbers put in the points table (where it starts)."""

    def points(self, values: Sequence[int]) -> int: ...


@dataclass(frozen=True)
class ScoreTerm:
    # The key a file writes (`{zone: bank, ...}`): a term holding it is this kind's.
    name: str
    # Whether a read Term is this kind's (the kinds' tests exclude one another).
    holds: Callable[[Term], bool]
    # Reads the file's mapping at the key path as a Term, or None with each problem
    # recorded: (reader, key path, mapping, whether it sits in `score:` itself).
    read: Callable[[TermReader, KeyPath, dict[str, Any], bool], Term | None]
    # Its value for a seat, on the Python engine: (state, term, seat).
    value: Callable[[State, Term, int], int]
    # The largest magnitude it can give one seat (bounds.py sums them).
    most: Callable[[Term, Span], int]
    # Its term row (kernel/layout.py TERM_WIDTH words after the kind), and the builder
    # of its compiled value value(state, tables, row, seat) -> int (kernel/scoring.py
    # calls it once; `{goals: true}`'s tells where a held goal's own rows are, with
    # the goal's place in the seat's hand of goals as a fifth argument); None for a
    # kind the kernel does not play.
    row: Callable[[Term, TermEncoding], list[int]] | None = None
    kernel_value: Callable[[], Callable[..., int]] | None = None

    def compiled(self) -> Callable[..., int]:
        """Its compiled value, built (kernel/scoring.py asks once per kind it plays)."""
        assert self.kernel_value is not None, f"the kernel plays no {self.name!r} term"
        return self.kernel_value()


def amount_words(term: Term, encoding: TermEncoding) -> list[int]:
    """A zone or counter term's row after its index: per_card, per_number and times as
    (kind, value) each, the same six words for both kinds (each reads its own)."""
    return [
        *encoding.amount(term.per_card),
        *encoding.amount(term.per_number),
        *encoding.amount(term.times),
    ]
