"""Target kinds, one module each, and their one registry (as primitives/ for the
effect primitives: base.py says what a kind holds). Outside its module a kind is
named only here (its TGT number) and in the compiled dispatch (kernel/acts.py).

A kind's TGT number is its place in ORDER: the R_TARGET word of an op row.
"""

from __future__ import annotations

from balancer.games.roles.targets import (
    all_rivals,
    bottom,
    every_seat,
    next_seat,
    owner,
    prev_seat,
    rival,
    top,
    trick_leader,
)
from balancer.games.roles.targets.base import TargetKind

ORDER = (owner, rival, next_seat, prev_seat, all_rivals, trick_leader, top, bottom, every_seat)
TARGET_KINDS: dict[str, TargetKind] = {module.SPEC.name: module.SPEC for module in ORDER}
TGTS = {name: code for code, name in enumerate(TARGET_KINDS)}
# The TGT numbers the compiled dispatch (kernel/acts.py) compares R_TARGET with.
TGT_OWNER = ORDER.index(owner)
TGT_RIVAL = ORDER.index(rival)
TGT_NEXT_SEAT = ORDER.index(next_seat)
TGT_PREV_SEAT = ORDER.index(prev_seat)
TGT_ALL_RIVALS = ORDER.index(all_rivals)
TGT_TRICK_LEADER = ORDER.index(trick_leader)
TGT_TOP = ORDER.index(top)
TGT_BOTTOM = ORDER.index(bottom)
TGT_EVERY_SEAT = ORDER.index(every_seat)
# Bit k set for each kind the owner picks a rival for (TargetKind.chosen), for each
# that names every rival (every_rival), and for each that names every seat (every_seat).
CHOSEN = sum(1 << k for k, kind in enumerate(TARGET_KINDS.values()) if kind.chosen)
EVERY_RIVAL = sum(1 << k for k, kind in enumerate(TARGET_KINDS.values()) if kind.every_rival)
EVERY_SEAT = sum(1 << k for k, kind in enumerate(TARGET_KINDS.values()) if kind.every_seat)
# What an op without a `target:` acts on (its owner): its op row says so too.
DEFAULT_TARGET = owner.SPEC.name
# The targets a file writes as a word (`target: next`), and those with an argument.
WORDS = tuple(name for name, kind in TARGET_KINDS.items() if kind.argument is None)
