"""The words a game file may use: effect primitives, their parameters, targets, score terms.

This module only names things; each primitive's parameters and meaning are its
module's (primitives/<name>.py), each target kind's too (targets/<kind>.py),
read here from their registries. The validator (validate.py) checks a file
against these names. docs/new-game.md shows every primitive with an example.

Parameter types (`Param.kind`):

- ZONE, COUNTER, FLAG, GLOBAL, EVENT: a name the file declares (per-player
  zones, counters and flags; global counters; events);
- TARGET: whose zone / counter / flag an op acts on (`TARGETS`, or
  `top: COUNTER` / `bottom: COUNTER`, the rival with the most / fewest of it);
- AMOUNT: a whole number, `number` (the played card's number), a knob's name
  (`-name`: less it), `{count: ZONE}` (how many cards the owner holds there),
  `-number`, `number * K`, `-number * K` (K a whole number or a knob),
  `{counter: COUNTER}` (the owner's), `{value: ZONE}` (the sum of the numbers of
  the owner's cards there);
- INT: a whole number or a knob's name; BOOL: true or false;
- HAND_OR_ZONE: `hand` (the seat's hand) or a ZONE.
"""

from __future__ import annotations

from balancer.games.roles.primitives import PRIMITIVES as REGISTERED

# The parameter types are the primitives' (base.py); named here too, as the validator
# reads them.
from balancer.games.roles.primitives.base import AMOUNT as AMOUNT
from balancer.games.roles.primitives.base import BOOL as BOOL
from balancer.games.roles.primitives.base import COUNTER as COUNTER
from balancer.games.roles.primitives.base import EVENT as EVENT
from balancer.games.roles.primitives.base import FLAG as FLAG
from balancer.games.roles.primitives.base import GLOBAL as GLOBAL
from balancer.games.roles.primitives.base import HAND as HAND
from balancer.games.roles.primitives.base import HAND_OR_ZONE as HAND_OR_ZONE
from balancer.games.roles.primitives.base import INT as INT
from balancer.games.roles.primitives.base import TARGET as TARGET
from balancer.games.roles.primitives.base import ZONE as ZONE
from balancer.games.roles.primitives.base import Param as Param
from balancer.games.roles.targets import WORDS

# Each primitive's parameters, in the registry's order (primitives/<name>.py says
# what each primitive does with them).
PRIMITIVES: dict[str, tuple[Param, ...]] = {name: spec.params for name, spec in REGISTERED.items()}

# `choose: [op, op, ...]`: the owner picks one option (not a primitive with parameters).
# Any primitive may also hold `if: CONDITION` (conditions.py), beside its parameters.
CHOOSE = "choose"

# Targets written as a word (targets/<kind>.py says what each names; `rival`: the
# owner picks one, a decision); the others take an argument ({top: COUNTER}).
TARGETS = WORDS

# Hooks a game may run besides a role's own effects: for each cancelled card's owner
# (the card is the cancelled one), and for each seat at a trick's end (seat order from
# the trick's leader). A role may also have its own `on_cancelled`.
HOOKS = ("on_cancelled", "on_trick_end")

# A score term: {zone: Z, per_card: N, per_number: N} (per_card for each card, per_number
# times each card's number) or {counter: C, times: N}. N: a whole number or a knob.
ZONE_TERM_KEYS = ("zone", "per_card", "per_number")
COUNTER_TERM_KEYS = ("counter", "times")
# A place behind a global counter: {place: G, counter: C, reaches: N, places: N, beyond: N}.
# When a trick ends, each seat without a place whose C has reached N arrives: that
# trick's arrivals, furthest C first, each take the next place from G (G + 1, and G
# goes up by one per arrival); arrivals with equal C share a place (1, 2, 2, 4).
# Place p <= places scores places + 1 - p, a later one `beyond`, none 0. Score only.
# `event` counts each arrival that takes a place, `beyond_event` each arrival after
# every place is taken.
PLACE_TERM_KEYS = ("place", "counter", "reaches", "places", "beyond", "event", "beyond_event")

# End conditions besides hands empty (always): {counter: C, reaches: N} (any seat's),
# {global: G, reaches: N}, {tricks: N}. Checked when a trick ends.
END_KINDS = ("counter", "global", "tricks")

# Events the trick procedure itself counts; a game lists those it reports.
ENGINE_EVENTS = ("neko_ni_koban", "cards_cancelled")
# How else an event may be counted: `at_end: TERM` (a term summed over the seats at the
# end), `lead_changes: [TERM, ...]` (changes of the sole leader in those terms' sum).
EVENT_SOURCES = ("from", "at_end", "lead_changes")

# The trick procedure's own knobs (RULES.md §1), each game file giving their defaults.
ENGINE_KNOBS = (
    "hand_size",
    "first_leader",
    "neko_ni_koban",
    "neko_min_followers",
    "neko_cancel_duplicates",
    "leader_if_nothing_resolves",
)

TOP_KEYS = (
    "name",
    "short",
    "extends",
    "names",
    "players",
    "deck",
    "hand_size",
    "trick",
    "zones",
    "counters",
    "flags",
    "globals",
    "knobs",
    "roles",
    "hooks",
    "score",
    "end",
    "win",
    "events",
    "goals",
)
