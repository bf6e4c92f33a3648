"""The shape every primitive module fills in: `Primitive`, its parameters' types, and
the few pieces two primitives share.

A primitive is a frozen dataclass of plain values and functions, not a Protocol
over modules, because the registry (`__init__.py`) needs one value per primitive
that it can put in a dict, that mypy checks field by field when the module builds
it, and whose optional parts (a check, a bound, a teller) have defaults a module
may leave out. A module-level Protocol would make every primitive spell out every
hook, and mypy checks a module against a Protocol only where the module is passed
as one.

The compiled act is the one part that is not a field: numba cannot call a function
read from a Python object at run time, so the kernel (kernel/acts.py) builds each
primitive's compiled act once (`Primitive.kernel_act()`, which imports numba then,
not when a game file is validated) and calls it by name, one dispatch line per op.

This module imports nothing heavy: `balancer validate` reads the parameters and
checks of every primitive without numpy or numba (tests/cli/test_cli_startup.py).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from balancer.games.definition import LogEntry

if TYPE_CHECKING:  # the engine imports this package: only its types are needed here
    from balancer.games.roles.engine import Cards, State

# Parameter types (`Param.kind`); vocabulary.py says what each accepts.
ZONE, COUNTER, FLAG, GLOBAL, EVENT = "zone", "counter", "flag", "global", "event"
TARGET, AMOUNT, INT, BOOL = "target", "amount", "int", "bool"
# A zone's name, or HAND: the seat's hand (which no file declares as a zone).
HAND_OR_ZONE, HAND = "hand_or_zone", "hand"


@dataclass(frozen=True)
class Param:
    name: str
    kind: str
    required: bool = False
    default: object = None


def param(name: str, kind: str, default: object = None, *, required: bool = False) -> Param:
    return Param(name, kind, required, default)


# Every primitive may count an event each time it acts: changes something
# (docs/new-game.md, "When an event counts").
EVENT_PARAM = param("event", EVENT)


class Encoding(Protocol):
    """What a primitive's table encoding may ask of the compiler (kernel/tables.py):
    each declared name's index, an amount as (kind, value) with knobs filled in."""

    def zone(self, name: str) -> int: ...
    def counter(self, name: str) -> int: ...
    def flag(self, name: str) -> int: ...
    def glob(self, name: str) -> int: ...
    def event(self, name: str | None) -> int: ...  # -1 for none
    def amount(self, amount: tuple[Any, ...]) -> tuple[int, int]: ...
    def constant(self, amount: tuple[Any, ...]) -> int: ...


# A Python act: (state, params, seat, card, target, taken) -> whether it changed
# anything. `target` is the seat acted on for a targeted primitive (the engine calls
# it once per target), else the rival a decision chose (-1 none); `taken` the card a
# decision took (-1 none).
PythonAct = Callable[["State", Mapping[str, Any], int, int, int, int], bool]
# Narration of one trace event the act recorded: its lines in a language (i18n.LANGS),
# from the module's own `Words`.
Teller = Callable[[tuple[Any, ...], "Cards", str], list[LogEntry]]
# A module's narration: language -> key -> a str.format template. Every language holds
# the same keys with the same fields (tests/unit/test_roles_narration_ja.py).
Words = Mapping[str, Mapping[str, str]]


def _no_refusal(params: Mapping[str, Any], resolving: bool) -> str | None:
    return None


def _no_gain(
    params: Mapping[str, Any], name: str, kind: str, number: int, defaults: Mapping[str, int]
) -> int | None:
    return 0


def _nothing_unseen(faces: Mapping[str, str], params: Mapping[str, Any]) -> bool:
    return False


def _always(params: Mapping[str, Any]) -> bool:
    return True


def _never(params: Mapping[str, Any]) -> bool:
    return False


@dataclass(frozen=True)
class Primitive:
    """One effect primitive, everything about it but its compiled act's call site."""

    name: str
    params: tuple[Param, ...]
    # Acts seat by seat on its `target`: the engine and the kernel work out the seats,
    # skip those whose `unless` flag is set, and call `act` once for each.
    targeted: bool
    # The op row's words R_A, R_B, ... (kernel/layout.py), from its checked parameters.
    encode: Callable[[Mapping[str, Any], Encoding], Sequence[int]]
    act: PythonAct
    # Builds the compiled act (kernel/acts.py calls it once): numba's njit function
    # act(state, tables, row, seat, card, target, taken) -> bool, as `act` above (one
    # that `draws_chance` takes the game's streams after the tables).
    kernel_act: Callable[[], Callable[..., bool]]
    # Trace event tag -> how it is told (narrate.py), and the words it tells it in.
    tells: Mapping[str, Teller] = field(default_factory=dict)
    words: Words = field(default_factory=dict)
    # Why this op can't stand where it is (None: it can); `resolving`: the steps are a
    # resolved card's, so there is a card at hand (validate.py).
    refuse: Callable[[Mapping[str, Any], bool], str | None] = _no_refusal
    # Parameters naming a zone this op puts cards into (validate.py's `filled`).
    fills: tuple[str, ...] = ()
    # (from, to) parameters when this op moves cards between two zones (validate.py).
    moves: tuple[str, str] | None = None
    # (-1, card) for each card it may take (`takes_card`); None: it takes none.
    card_ways: Callable[[State, Mapping[str, Any], int], list[tuple[int, int]]] | None = None
    # With card_ways: whether an op of these parameters takes a card (a random discard
    # does not: it acts one way, `takes`).
    picks: Callable[[Mapping[str, Any]], bool] = _always
    # Whether an op of these parameters draws from the game's chance stream while it is
    # played (a random discard): a world a bot samples then gets a chance of its own
    # (determinize.py, kernel/play.py), so it never knows a future draw.
    draws_chance: Callable[[Mapping[str, Any]], bool] = _never
    # bounds.most_reached: the most this op adds, for a card numbered `number`, to
    # counter (kind "counter") or global (kind "global") `name`; None: no bound.
    gain: Callable[[Mapping[str, Any], str, str, int, Mapping[str, int]], int | None] = _no_gain
    # Whether its owner's options may list cards the view does not show (compiled.py).
    unseen_choice: Callable[[Mapping[str, str], Mapping[str, Any]], bool] = _nothing_unseen

    @property
    def takes_card(self) -> bool:
        """One way per card it may take (a decision `takers * deck + card`): the owner
        picks a card, not a rival; `card_ways(state, params, seat)` lists them."""
        return self.card_ways is not None

    def takes(self, params: Mapping[str, Any]) -> bool:
        """Whether an op of these parameters takes a card (its ways are `card_ways`'s);
        else it acts one way, or one per rival its target lets the owner choose."""
        return self.card_ways is not None and self.picks(params)


def most_added(by: tuple[Any, ...], number: int, defaults: Mapping[str, int]) -> int | None:
    """The most an `add`-like amount adds for a card numbered `number`, knobs at their
    defaults, never less than 0; None when it depends on play (a zone's count or
    value, a counter's value)."""
    if by[0] in ("count", "value", "counter"):
        return None
    if by[0] == "number":
        per = number
    elif by[0] == "times_number":  # sign * number * K
        per = by[1] * number * _at_default(by[2], defaults)
    else:
        per = _at_default(by, defaults)
    return max(int(per), 0)


def _at_default(amount: tuple[Any, ...], defaults: Mapping[str, int]) -> int:
    """A whole number or a knob (`-knob` too), knobs at their defaults."""
    if amount[0] == "int":
        return int(amount[1])
    return defaults.get(amount[1], 0) * (-1 if amount[0] == "minus_knob" else 1)


def say(words: Words, lang: str) -> Mapping[str, str]:
    """The templates of `words` in `lang`; English where the module has none in it (a
    primitive added in English only is still told, and the words test names it)."""
    return words.get(lang) or words["en"]


# add and catch_up both record ("counter", ...): its lines are here, once.
COUNTER_WORDS: Words = {
    "en": {"counter": "  seat {seat}: seat {target}'s {counter} {old} -> {new}"},
    "ja": {"counter": "  席 {seat}: 席 {target} の {counter} {old} → {new}"},
}


def tell_counter(event: tuple[Any, ...], cards: Cards, lang: str) -> list[LogEntry]:
    """("counter", seat, counter, target, old, new): a seat's counter changed (add and
    catch_up both record it)."""
    _, seat, counter, target, old, new = event
    line = say(COUNTER_WORDS, lang)["counter"]
    return [line.format(seat=seat, target=target, counter=counter, old=old, new=new)]
