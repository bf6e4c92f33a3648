"""Reading a game file's values: the checks every part of the validator shares.

`Reader` holds the merged file (gamefile.Source), records each problem with
the file and line that wrote it, and reads small typed values (a mapping, a
whole number in range, a list of names, an amount, a target) and declared
names (zones, counters, flags, globals, events, knobs); validate.py reads the
game's structure with them.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable
from typing import Any

from balancer import knobs
from balancer.errors import UserError, shown
from balancer.escape import hidden_in, hidden_message
from balancer.games.roles import vocabulary as voc
from balancer.games.roles.gamefile import KeyPath, Source
from balancer.games.roles.model import Amount
from balancer.games.roles.targets import TARGET_KINDS

LIMIT = knobs.INT_LIMIT


def nearest(word: Any, valid: Iterable[str]) -> str:
    """' (did you mean X?)' for the closest valid name, else the valid names."""
    valid = list(valid)
    close = difflib.get_close_matches(str(word), valid, n=1, cutoff=0.6)
    if close:
        return f" (did you mean {close[0]!r}?)"
    return f" (valid: {', '.join(valid)})" if valid else " (none is declared)"


def whole(value: Any) -> bool:
    return knobs.is_whole_number(value)


def where_text(keypath: KeyPath) -> str:
    """A key path as the messages write it: `score.0.place`."""
    return ".".join(map(str, keypath))


class Reader:
    """A game file being read: its problems so far, and the names it declares."""

    def __init__(self, source: Source) -> None:
        self.source = source
        self.data = source.data
        self.problems: list[UserError] = []
        self.declared: dict[str, dict[str, KeyPath]] = {
            kind: {} for kind in (voc.ZONE, voc.COUNTER, voc.FLAG, voc.GLOBAL, voc.EVENT, "knob")
        }

    def fail(self, keypath: KeyPath, message: str) -> None:
        self.problems.append(self.source.error(keypath, message))

    def hidden_characters(self) -> None:
        """Refuse a bidi control or an invisible format character in any text of the file
        (a name, a title, an event's words), as a variant's name is refused: reports show
        them, and a name holding one ("a\u200db") looks like another ("ab")."""
        stack: list[tuple[KeyPath, Any]] = [((), self.data)]
        while stack:
            keypath, value = stack.pop()
            if isinstance(value, str):
                if found := hidden_in(value):
                    self.fail(keypath, hidden_message(found))
            elif isinstance(value, dict):
                for key, inner in value.items():
                    if found := hidden_in(key):
                        self.fail((*keypath, key), hidden_message(found))
                    stack.append(((*keypath, key), inner))
            elif isinstance(value, list):
                stack.extend(((*keypath, index), inner) for index, inner in enumerate(value))

    # -- small readers ----------------------------------------------------

    def absent(self, keypath: KeyPath, block: dict[str, Any], key: str, what: str) -> bool:
        """Whether `block` has no value for `key`, said as it is: a key missing, or one
        written with nothing after it (YAML's null). `what` is what the key holds."""
        if block.get(key) is not None:
            return False
        if key in block:
            self.fail((*keypath, key), f"is empty (null); expected {what}")
        else:
            self.fail(keypath, f"missing key {key!r} ({what})")
        return True

    def mapping(self, keypath: KeyPath, value: Any, what: str) -> dict[str, Any]:
        if value is None:
            return {}
        if not isinstance(value, dict):
            self.fail(keypath, f"expected a mapping of {what}, got {shown(value)}")
            return {}
        return value

    def known_keys(self, keypath: KeyPath, value: dict[str, Any], valid: Iterable[str]) -> None:
        valid = list(valid)
        for key in value:
            if key not in valid:
                self.fail((*keypath, key), f"unknown key{nearest(key, valid)}")

    def integer(
        self, keypath: KeyPath, value: Any, low: int = -LIMIT, high: int = LIMIT
    ) -> int | None:
        if not whole(value):
            self.fail(keypath, f"expected a whole number, got {shown(value)}")
            return None
        if not low <= value <= high:
            self.fail(keypath, f"must be in {low}..{high}, got {knobs.shown(value)}")
            return None
        return int(value)

    def name_list(self, keypath: KeyPath, value: Any, what: str) -> list[str]:
        if not isinstance(value, list) or not value:
            self.fail(keypath, f"expected a non-empty list of {what}")
            return []
        out: list[str] = []
        for index, item in enumerate(value):
            if not isinstance(item, str) or not item:
                self.fail((*keypath, index), f"expected a name, got {shown(item)}")
            elif item in out:
                self.fail((*keypath, index), f"{item!r} is listed twice")
            else:
                out.append(item)
        return out

    # -- declarations -----------------------------------------------------

    def declare(self, kind: str, section: str) -> dict[str, Any]:
        block = self.mapping((section,), self.data.get(section), f"{kind}s")
        for name in block:
            if not isinstance(name, str) or not name.isidentifier():
                self.fail((section, name), "a name is letters, digits and _ (not first a digit)")
                continue
            for other_kind, names in self.declared.items():
                if name in names:
                    self.fail(
                        (section, name),
                        f"declared twice (also a {other_kind} at {where_text(names[name])})",
                    )
                    break
            else:
                self.declared[kind][name] = (section, name)
        return block

    def use(self, kind: str, keypath: KeyPath, name: Any) -> str | None:
        """`name`, when a declared `kind`; else a problem and None."""
        names = self.declared[kind]
        if isinstance(name, str) and name in names:
            return name
        label = {voc.GLOBAL: "global counter"}.get(kind, kind)
        self.fail(keypath, f"unknown {label} {name!r}{nearest(name, names)}")
        return None

    def parse(self, kind: str, keypath: KeyPath, value: Any) -> Any:
        """A parameter's value as the engine reads it, or None with a problem recorded."""
        if kind in (voc.ZONE, voc.COUNTER, voc.FLAG, voc.GLOBAL, voc.EVENT):
            return self.use(kind, keypath, value)
        if kind == voc.HAND_OR_ZONE:  # `hand` first: a zone of that name is out of reach
            return voc.HAND if value == voc.HAND else self.use(voc.ZONE, keypath, value)
        if kind == voc.BOOL:
            if not isinstance(value, bool):
                self.fail(keypath, f"expected true or false, got {shown(value)}")
                return None
            return value
        if kind == voc.TARGET:
            return self.target(keypath, value)
        if kind == voc.INT:
            return self.amount(keypath, value, numbers=False)
        return self.amount(keypath, value, numbers=True)

    def target(self, keypath: KeyPath, value: Any) -> tuple[str, ...] | None:
        if isinstance(value, str) and value in voc.TARGETS:
            return (value,)
        if isinstance(value, dict) and len(value) == 1:
            ((word, argument),) = value.items()
            kind = TARGET_KINDS.get(word)
            if kind is not None and kind.argument is not None:
                name = self.use(kind.argument, (*keypath, word), argument)
                return None if name is None else (word, name)
        self.fail(keypath, f"unknown target {shown(value)}{nearest(value, [*TARGET_KINDS])}")
        return None

    def amount(self, keypath: KeyPath, value: Any, *, numbers: bool) -> Amount | None:
        if whole(value):
            if abs(value) > LIMIT:
                self.fail(keypath, f"must be within -{LIMIT}..{LIMIT}")
                return None
            return ("int", int(value))
        if numbers and value == "number":
            return ("number",)
        if numbers and isinstance(value, str) and (product := _NUMBER_TIMES.fullmatch(value)):
            return self.number_times(keypath, value, product)
        if (
            numbers
            and isinstance(value, dict)
            and len(value) == 1
            and (key := [*value][0])
            in (
                "count",
                "value",
                "counter",
            )
        ):
            kind = voc.COUNTER if key == "counter" else voc.ZONE
            name = self.use(kind, (*keypath, key), value[key])
            return None if name is None else (key, name)
        if isinstance(value, str) and value in self.declared["knob"]:
            return ("knob", value)
        if isinstance(value, str) and value[1:] in self.declared["knob"] and value[0] == "-":
            return ("minus_knob", value[1:])
        valid = [*self.declared["knob"], *(["number"] if numbers else [])]
        what = (
            "a whole number, number, number * K, {count: ZONE}, {value: ZONE}, "
            "{counter: COUNTER} or a knob"
            if numbers
            else ("a whole number or a knob")
        )
        self.fail(keypath, f"expected {what}, got {shown(value)}{nearest(value, valid)}")
        return None

    def number_times(self, keypath: KeyPath, value: str, product: re.Match[str]) -> Amount | None:
        """`-number`, `number * K` or `-number * K` (K a whole number or a knob, `-knob`
        too): ("times_number", sign, K as an amount)."""
        sign = -1 if product["minus"] else 1
        factor = product["factor"]
        if factor is None:
            return ("times_number", sign, ("int", 1))
        if re.fullmatch(r"-?[0-9]+", factor):
            k = self.amount(keypath, int(factor), numbers=False)
        elif factor in self.declared["knob"] or factor[1:] in self.declared["knob"]:
            k = self.amount(keypath, factor, numbers=False)
        else:
            hint = nearest(factor, self.declared["knob"])
            self.fail(keypath, f"{value!r}: {factor!r} is neither a whole number nor a knob{hint}")
            return None
        return None if k is None else ("times_number", sign, k)


# `-number`, `number * K`, `-number * K`: the played card's number, negated or times K.
_NUMBER_TIMES = re.compile(r"\s*(?P<minus>-)?\s*number\s*(?:\*\s*(?P<factor>\S+)\s*)?")
