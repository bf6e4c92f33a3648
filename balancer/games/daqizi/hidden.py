"""Da Qi Zi's hidden cards dealt from what one seat has seen (docs/determinize.md).

What a seat can't see in a deal: the other hands and the kinds of the other
seats' face-down discards. Each such card is a *slot*. A face-down discard
under must-beat reveals that the discarding seat's hand then held nothing
beating the best so far: a single means "every card was of kind at most the
best's" (a cap per slot, met exactly: slots are filled most capped first, each
from the remaining cards it may take, and the caps being nested, every deal
meeting them is equally likely); other forms are met by rejection.

This module knows the view and the combinations, not the engine's State:
`rules.sample_world` builds the world from the deal made here.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass
from typing import TYPE_CHECKING

from balancer.games.daqizi import combos as dc
from balancer.games.daqizi.deck import deck_for
from balancer.rng import Stream

if TYPE_CHECKING:
    from balancer.games.daqizi.engine import View

# A world's multi-card revelations are met by rejection: after this many
# rejected samples in a row, the revelation that failed most is dropped.
MAX_ATTEMPTS = 32
ANY_KIND = dc.N_KINDS - 1  # the cap of a slot no single revelation binds


@dataclass(frozen=True)
class _Revelation:
    """A multi-card must-beat revelation: these slots and known cards could not beat `best`."""

    slots: tuple[int, ...]
    known: tuple[int, ...]  # counts per kind: the seat's face-up plays since
    best: int


@dataclass(frozen=True)
class HiddenDeal:
    """The hidden cards dealt: a kind per slot, and what meeting the revelations cost."""

    got: list[int]  # the kind dealt to each slot
    hand_slots: dict[int, list[int]]  # per other seat, the slots of its hand
    down_slots: list[list[int]]  # per face_down entry, its slots (none for the seat's own)
    leftover: list[int]  # unseen kinds no slot took (a deal laid by hand): to the discard
    attempts: int  # samples drawn, the accepted one included
    dropped: int  # multi-card revelations given up


def deal_hidden(view: View, rng: Stream) -> HiddenDeal:
    """The cards `view`'s seat has not seen, dealt to the other hands and the other
    seats' face-down discards, every must-beat revelation met: single ones exactly,
    others by rejection, one dropped after MAX_ATTEMPTS rejections in a row."""
    assert view.face_down is not None and view.my_discards is not None  # the caller checked
    seat, mixed = view.seat, bool(view.rules["mixed_suit_combos"])
    hidden = list(deck_for(view.rules).kind_copies)
    for kind in range(dc.N_KINDS):
        hidden[kind] -= view.hand[kind] + view.public[kind]
    for move in view.my_discards:
        for kind in dc.MOVE_KINDS[move]:
            hidden[kind] -= 1
    if min(hidden) < 0:
        raise ValueError("the view shows more of a kind than the deck holds")
    # Slots: the other hands, seat by seat, then the others' face-down discards.
    owner: list[int] = []  # the seat whose card the slot is
    hand_slots: dict[int, list[int]] = {}
    for other in range(len(view.hand_sizes)):
        if other != seat:
            hand_slots[other] = list(range(len(owner), len(owner) + view.hand_sizes[other]))
            owner += [other] * view.hand_sizes[other]
    down_slots: list[list[int]] = []  # per face_down entry (the seat's own: none)
    for entry_seat, cards, _, _ in view.face_down:
        if entry_seat == seat:
            down_slots.append([])
        else:
            down_slots.append(list(range(len(owner), len(owner) + cards)))
            owner += [entry_seat] * cards
    if len(owner) > sum(hidden):
        raise ValueError("the view's unseen cards don't fill the other hands and discards")
    cap = [ANY_KIND] * len(owner)
    revelations: list[_Revelation] = []
    for j, (entry_seat, _, best, plays_before) in enumerate(view.face_down):
        if best < 0 or entry_seat == seat:
            continue
        # The cards the seat held then: its hand now, this discard and its later
        # ones, and its face-up plays since.
        bound = list(hand_slots[entry_seat])
        for k in range(j, len(view.face_down)):
            if view.face_down[k][0] == entry_seat:
                bound += down_slots[k]
        if dc.MOVE_SIZE[best] == 1:  # a single's strength is its kind
            for slot in bound:
                cap[slot] = min(cap[slot], dc.MOVE_KINDS[best][0])
            continue
        known = [0] * dc.N_KINDS
        for play_seat, move in view.history[plays_before:]:
            if play_seat == entry_seat:
                for kind in dc.MOVE_KINDS[move]:
                    known[kind] += 1
        revelations.append(_Revelation(tuple(bound), tuple(known), best))
    pool = [kind for kind in range(dc.N_KINDS) for _ in range(hidden[kind])]
    order = sorted(range(len(owner)), key=cap.__getitem__)  # stable: slot order within a cap
    attempts = dropped = 0
    failures = [0] * len(revelations)
    while True:
        attempts += 1
        remaining = list(pool)
        got = [0] * len(owner)
        for slot in order:
            allowed = bisect_right(remaining, cap[slot])  # kinds <= cap: a prefix
            if not allowed:
                raise ValueError("the view's revelations can't all hold")
            got[slot] = remaining.pop(rng.below(allowed))
        failed = [i for i, r in enumerate(revelations) if not _holds(r, got, mixed)]
        if not failed:
            break
        for i in failed:
            failures[i] += 1
        if attempts % MAX_ATTEMPTS == 0:  # MAX_ATTEMPTS rejected since the last drop
            worst = failures.index(max(failures))  # the earliest of the most failed
            del revelations[worst]
            dropped += 1
            failures = [0] * len(revelations)
    return HiddenDeal(got, hand_slots, down_slots, remaining, attempts, dropped)


def _holds(revelation: _Revelation, got: list[int], mixed: bool) -> bool:
    counts = list(revelation.known)
    for slot in revelation.slots:
        counts[got[slot]] += 1
    return not dc.can_beat_packed(dc.pack(counts), revelation.best, mixed)
