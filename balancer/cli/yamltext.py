"""Knob values and variants written as YAML a variant file reads back as is.

`knobs`, `init` and `show` print values through here, so whatever they print
can be pasted into a variant: `{1: 3, 2: 7}`, not JSON's `{"1": 3, "2": 7}`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def value(item: Any) -> str:
    """One value in YAML flow style, on one line: `true`, `[red, blue]`, `{1: 3, 2: 7}`."""
    import yaml

    if item is None:
        return "null"
    plain = _plain(item)
    text: str = yaml.safe_dump(
        plain, default_flow_style=True, allow_unicode=True, sort_keys=False, width=10**6
    )
    return text.removesuffix("\n...\n").strip()


def _plain(item: Any) -> Any:
    # Rules are frozen (FrozenDict, tuples): the dumper wants plain dicts and lists.
    if isinstance(item, Mapping):
        return {key: _plain(inner) for key, inner in item.items()}
    if isinstance(item, list | tuple):
        return [_plain(inner) for inner in item]
    return item


def comment(text: str) -> str:
    """Text as a YAML comment on one line."""
    return "# " + " ".join(text.split())


def knob_value(knob: Any, item: Any) -> str:
    """A knob's value; None as `none` where the knob reads that (`multiplier_cap: none`)."""
    if item is None:
        try:
            knob.check("none")
        except ValueError:
            return "null"
        return "none"
    return value(item)
