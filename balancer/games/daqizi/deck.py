"""Da Qi Zi's deck as a knob: copies of each rank per suit, checked, and its tables.

The `deck` knob (rules section) maps a rank to its copies in each suit; ranks
left out keep the printed deck's count:

    deck: {soldier: 5, cannon: 2, horse: 2, chariot: 2, elephant: 2, advisor: 2, general: 1}

What a deck may hold, and why:

- Each suit holds 16 cards, so the deck is 32: a deal gives every one of the 4
  players 8 cards and leaves none over (RULES.md §3 deals the whole deck; every
  seat counts the cards it has not seen as the other hands and the face-down
  discards, so an undealt stock would be a rule of its own).
- A rank holds 0 to 7 copies a suit: hands are kept packed, 4 bits a kind with
  a guard bit (combos.py), so a count stays below 8. A rank with 0 copies
  simply never appears; combinations needing it (a general's sequence, a
  five of soldiers with fewer than 5 soldiers) are then never made.
- The combinations stay the rule's: a pair is two of one kind, triple, four and
  five are soldiers only, sequences are general-advisor-elephant and
  chariot-horse-cannon. The move table (combos.py) lists every multiset of up
  to 5 kinds whatever the deck, so move ids never depend on the deck.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from balancer import knobs
from balancer.games.daqizi import combos as dc

DEFAULT_DECK: dict[str, int] = dict(zip(dc.RANK_NAMES, dc.RANK_COPIES, strict=True))
MAX_COPIES = 7  # a packed count stays below its guard bit (8)
PLAYERS = 4
HAND = 8
SUIT_CARDS = PLAYERS * HAND // len(dc.SUIT_NAMES)  # 16


def check_deck(value: Any) -> dict[str, int]:
    """A `deck` knob's YAML value -> copies per rank (every rank); ValueError if bad."""
    if not isinstance(value, Mapping):
        raise ValueError(
            f"expected a mapping of rank: copies per suit ({', '.join(dc.RANK_NAMES)}); "
            f"got {value!r}"
        )
    unknown = [key for key in value if key not in DEFAULT_DECK]
    if unknown:
        raise knobs.KnobValueError(
            f"unknown rank {str(unknown[0])!r} (ranks: {', '.join(dc.RANK_NAMES)})",
            (unknown[0],),
        )
    deck = {**DEFAULT_DECK, **value}
    for rank, copies in deck.items():
        if not knobs.is_whole_number(copies):
            raise knobs.KnobValueError(
                f"expected a whole number of copies a suit, got {copies!r}", (rank,)
            )
        if not 0 <= copies <= MAX_COPIES:
            raise knobs.KnobValueError(
                f"must be 0..{MAX_COPIES} copies a suit (hands are packed 4 bits a kind, the "
                f"top one a guard), got {knobs.shown(copies)}",
                (rank,),
            )
    total = sum(deck.values())
    if total != SUIT_CARDS:
        raise ValueError(
            f"the ranks' copies sum to {total} a suit, {2 * total} cards; a suit must hold "
            f"{SUIT_CARDS} so that {PLAYERS} players are dealt {HAND} cards each with none "
            "left over"
        )
    return {rank: int(deck[rank]) for rank in dc.RANK_NAMES}


@dataclass(frozen=True, eq=False)
class Deck:
    """One deck's tables: copies per kind, each card's kind, the packed full deck."""

    kind_copies: tuple[int, ...]
    card_kind: tuple[int, ...]
    full_deck: int  # packed (combos.pack) counts of the whole deck

    @property
    def n_cards(self) -> int:
        return len(self.card_kind)


@lru_cache(maxsize=64)
def _build(rank_copies: tuple[int, ...]) -> Deck:
    kind_copies = tuple(rank_copies[dc.KIND_RANK[k]] for k in range(dc.N_KINDS))
    card_kind = tuple(k for k in range(dc.N_KINDS) for _ in range(kind_copies[k]))
    return Deck(kind_copies, card_kind, dc.pack(kind_copies))


def deck_of(value: Mapping[str, Any]) -> Deck:
    """The tables of a `deck` knob value (checked here; built once per distinct deck)."""
    checked = check_deck(value)
    return _build(tuple(checked[rank] for rank in dc.RANK_NAMES))


DEFAULT = deck_of(DEFAULT_DECK)


def deck_for(rules: Mapping[str, Any]) -> Deck:
    """The deck `rules` play with (the printed one when they don't say)."""
    value = rules.get("deck")
    if value is None or value is DEFAULT_DECK:
        return DEFAULT
    return _deck_from(knobs.freeze(value))


@lru_cache(maxsize=64)
def _deck_from(value: Mapping[str, Any]) -> Deck:
    return deck_of(value)
