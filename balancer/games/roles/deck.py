"""A role game's deck: its cards, from the one-line deck or from a list of card groups.

A file writes its deck one of two ways:

- one line, `{colours, roles, numbers: [low, high], copies}`: every role in every
  colour at every number, `copies` of each;
- a list of card groups, each written as that line: `[{roles: [speed], colours:
  [red, blue], numbers: [1, 6]}, {roles: [block], colours: [red], numbers: [3, 3],
  copies: 2}]`, the deck being the groups' cards, group after group.

The one line is one group. A group's cards are numbered as the hand-written engine
numbers its deck, `((colour * R + role) * N + number - low) * K + copy`, and the groups
follow each other, so the one-line deck keeps its numbering (the deal a seed gives).

A card's **kind** is its (colour, role, number): copies of a kind are one move
(RULES.md §4) and one line of card impact. Kinds are numbered in the order the deck
first lists them; a card two groups both give (an extra red speed 1) is one more
copy of that kind, not a kind of its own. For the one-line deck the kind is
`card // copies`, as before.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from balancer import knobs
from balancer.errors import shown
from balancer.games.roles.model import DeckSpec as DeckSpec
from balancer.games.roles.reader import Reader, nearest

MAX_DECK_CARDS = 10_000
KEYS = ("colours", "roles", "numbers", "copies")
# (colours, roles, low, high, copies)
Group = tuple[tuple[str, ...], tuple[str, ...], int, int, int]


@dataclass(frozen=True)
class Cards:
    """Look-up tables of one deck: each card's colour, role, number and kind."""

    size: int
    colour: tuple[int, ...]
    role: tuple[int, ...]  # index into `role_names`
    number: tuple[int, ...]
    colour_names: tuple[str, ...]
    role_names: tuple[str, ...]
    # The most copies any kind has: 1 when every card is a kind of its own (no
    # two cards are one move), which the compiled procedure checks first.
    copies: int
    kind: tuple[int, ...] = ()  # each card's kind (0 .. kinds - 1)
    first: tuple[int, ...] = ()  # each kind's first card

    @property
    def kinds(self) -> int:
        return len(self.first)

    def describe(self, card: int) -> str:
        colour = self.colour_names[self.colour[card]]
        return f"{colour} {self.role_names[self.role[card]]} {self.number[card]}"


def is_groups(deck: Any) -> bool:
    """Whether a deck (as a file or the rules hold it) is a list of card groups."""
    return isinstance(deck, list | tuple)


def groups(deck: Any) -> tuple[Group, ...]:
    """A checked deck as its card groups (the one-line deck is one group)."""
    items = deck if is_groups(deck) else [deck]
    return tuple(
        (
            tuple(g["colours"]),
            tuple(g["roles"]),
            int(g["numbers"][0]),
            int(g["numbers"][1]),
            int(g.get("copies", 1)),
        )
        for g in items
    )


def group_size(group: Group) -> int:
    colours, roles, low, high, copies = group
    return len(colours) * len(roles) * (high - low + 1) * copies


def deck_size(deck: Any) -> int:
    """How many cards a checked deck holds."""
    return sum(group_size(g) for g in groups(deck))


def deck_roles(deck: Any) -> list[str]:
    """Every role the deck holds, in the order it first lists them."""
    return list(dict.fromkeys(r for g in groups(deck) for r in g[1]))


def cards_for(rules: Mapping[str, Any]) -> Cards:
    return _cards(groups(rules["deck"]))


@lru_cache(maxsize=64)
def _cards(deck: tuple[Group, ...]) -> Cards:
    colour_names = tuple(dict.fromkeys(c for g in deck for c in g[0]))
    role_names = tuple(dict.fromkeys(r for g in deck for r in g[1]))
    colour: list[int] = []
    role: list[int] = []
    number: list[int] = []
    kind: list[int] = []
    first: list[int] = []
    kinds: dict[tuple[int, int, int], int] = {}
    for colours, roles, low, high, copies in deck:
        for c in colours:
            for r in roles:
                for n in range(low, high + 1):
                    key = (colour_names.index(c), role_names.index(r), n)
                    if key not in kinds:
                        kinds[key] = len(first)
                        first.append(len(colour))
                    for _ in range(copies):
                        colour.append(key[0])
                        role.append(key[1])
                        number.append(n)
                        kind.append(kinds[key])
    most = max((kind.count(k) for k in range(len(first))), default=1)
    return Cards(
        len(colour),
        tuple(colour),
        tuple(role),
        tuple(number),
        colour_names,
        role_names,
        most,
        tuple(kind),
        tuple(first),
    )


# -- checking a list of card groups ------------------------------------------------------


def group_problems(value: Any, defined: Sequence[str]) -> list[tuple[tuple[Any, ...], str]]:
    """Every mistake of a list of card groups, each (key path inside the deck, message):
    a group not a mapping or empty, a key unknown or missing, a list of names empty or
    with a name twice, numbers not [low, high], copies below 1, a role `defined` does
    not hold, more than MAX_DECK_CARDS cards. validate.py blames each at its line; a
    variant's deck knob says the first."""
    if not isinstance(value, list | tuple) or not value:
        return [((), "expected a non-empty list of card groups")]
    out: list[tuple[tuple[Any, ...], str]] = []
    size = 0
    for index, group in enumerate(value):
        found = _one_group(group, defined)
        out += [((index, *path), message) for path, message in found]
        if not found:
            size += deck_size(group)
    if not out and size > MAX_DECK_CARDS:
        out.append(((), f"the deck would hold {size} cards; at most {MAX_DECK_CARDS}"))
    return out


def written(path: Sequence[Any]) -> str:
    """A key path as a variant's message writes it: deck[1].roles[0]."""
    return "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path).lstrip(".")


def _one_group(group: Any, defined: Sequence[str]) -> list[tuple[tuple[Any, ...], str]]:
    shape = "a group {roles, colours, numbers: [low, high], copies}"
    if not isinstance(group, Mapping):
        return [((), f"expected {shape}, got {shown(group)}")]
    if not group:
        return [((), f"an empty group; expected {shape}")]
    out: list[tuple[tuple[Any, ...], str]] = []
    for key in group:
        if key not in KEYS:
            out.append(((key,), f"unknown key (valid: {', '.join(KEYS)})"))
    for key in ("roles", "colours", "numbers"):
        if key not in group:
            out.append(((), f"missing key {key!r} ({shape})"))
    for key in ("roles", "colours"):
        names = group.get(key)
        if key not in group:
            continue
        if not isinstance(names, list | tuple) or not names:
            out.append(((key,), f"expected a non-empty list of {key}"))
            continue
        for i, name in enumerate(names):
            if not isinstance(name, str) or not name:
                out.append(((key, i), f"expected a name, got {shown(name)}"))
            elif name in names[:i]:
                out.append(((key, i), f"{name!r} is listed twice"))
            elif key == "roles" and name not in defined:
                told = f"role {name!r} has no definition under roles:{nearest(name, defined)}"
                out.append(((key, i), told))
    numbers = group.get("numbers")
    if "numbers" in group and not (
        isinstance(numbers, list | tuple)
        and len(numbers) == 2
        and all(knobs.is_whole_number(n) for n in numbers)
        and 0 <= numbers[0] <= numbers[1] <= knobs.INT_LIMIT
    ):
        most = knobs.INT_LIMIT
        told = f"expected [low, high], 0 <= low <= high <= {most}, got {shown(numbers)}"
        out.append((("numbers",), told))
    copies = group.get("copies", 1)
    if not knobs.is_whole_number(copies) or not 1 <= copies <= MAX_DECK_CARDS:
        out.append((("copies",), f"expected a whole number in 1..{MAX_DECK_CARDS}"))
    return out


def read_groups(reader: Reader, block: list[Any]) -> list[dict[str, Any]] | None:
    """A file's `deck:` written as card groups: each mistake at its line (validate.py),
    and a role `roles:` defines that no group holds (written, but never dealt)."""
    roles = reader.data.get("roles")
    defined = [str(name) for name in roles] if isinstance(roles, dict) else []
    found = group_problems(block, defined)
    for path, message in found:
        reader.fail(("deck", *path), message)
    if found:
        return None
    used = deck_roles(block)
    for role in defined:
        if role not in used:
            reader.fail(("roles", role), f"role {role!r} is in no group of the deck")
    return [
        {
            "roles": list(g["roles"]),
            "colours": list(g["colours"]),
            "numbers": [int(n) for n in g["numbers"]],
            "copies": int(g.get("copies", 1)),
        }
        for g in block
    ]
