"""A fast way to build a game's View, a frozen slots dataclass, once per decision.

A frozen dataclass's `__init__` sets each field through `object.__setattr__`
(it can't assign, being frozen): with a view's dozen or more fields that
costs several microseconds, more than computing the fields. `constructor`
returns a function taking the fields as the class's `__init__` does
(positionally, in order, is the quickest) that builds the same object in a
fraction of that: an unfrozen twin class with the same slots assigns them,
and the object then becomes the View proper (`__class__` assignment,
allowed between classes of one layout). The result
is an ordinary instance of the View: frozen, equal, printed and pickled as
one built by its own `__init__`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")


def constructor(view_class: type[T]) -> Callable[..., T]:
    """A function of the fields of `view_class`, as its `__init__` takes them, returning one."""
    fields = dataclasses.fields(view_class)  # type: ignore[arg-type]
    if getattr(view_class, "__slots__", None) != tuple(f.name for f in fields):
        raise TypeError(f"{view_class.__qualname__} is not a slots dataclass of its fields alone")
    draft = dataclasses.make_dataclass(
        f"_{view_class.__name__}Draft",
        # Trailing fields with a default keep it: a producer that doesn't know a
        # field (a kernel's step view, before it learns the recall fields) may
        # leave it out.
        [
            (f.name, f.type)
            if f.default is dataclasses.MISSING
            else (f.name, f.type, dataclasses.field(default=f.default))
            for f in fields
        ],
        slots=True,
        eq=False,
        repr=False,
        match_args=False,
    )

    def build(*values: Any, **named: Any) -> T:
        view = draft(*values, **named)
        view.__class__ = view_class
        return view

    return build


def without_recall(view: T) -> T:
    """`view` with its class's recall fields (`RECALL`) left unsaid (None), as a
    compiled kernel's step view gives them until it learns them (docs/determinize.md)."""
    names: tuple[str, ...] = getattr(type(view), "RECALL", ())
    return dataclasses.replace(view, **dict.fromkeys(names))  # type: ignore[type-var]
