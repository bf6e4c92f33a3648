"""Views built only if an in-process plugin looks at them.

A plugin is handed its seat's view at every decision, but a plugin that
ignores it (the designer's first plugin, `legal[rng.randrange(len(legal))]`)
would pay for building it at every move: more than the rest of the move.
So an in-process plugin is handed a `lazy` view, an instance of a subclass
of the game's View (a frozen slots dataclass) whose fields are filled from
`state.view(seat)` the first time any of them is read.

A view is a snapshot of the moment it was handed out. A lazy view read after
the move was applied would show a later state, so the move loop looks after
the bot answers: if anything besides the loop still holds the view (the bot
kept it, or something it made), `settle` fills it before the move is
applied; if nothing does, nobody can ever read it, and the loop drops it.
CPython's reference count (`sys.getrefcount`) says which, exactly (a view,
like the game's own, takes no weak reference, which the count would miss);
where there is none, views are built eagerly (`available` is False).

Until it is filled, a lazy view holds the state's bound `view` method. That
hides nothing from an in-process plugin that could not already reach the
state (its caller's frame holds it); hiding the state from a plugin is the
out-of-process host's job (bots/host.py), which is always handed a full view.
"""

from __future__ import annotations

import dataclasses
import sys
from collections.abc import Callable
from typing import Any

available = hasattr(sys, "getrefcount")

_CLASSES: dict[type, type] = {}


def lazy_class(view_class: type) -> type:
    """The lazy subclass of `view_class` (a frozen slots dataclass), made once."""
    cls = _CLASSES.get(view_class)
    if cls is None:
        cls = _make(view_class)
        _CLASSES[view_class] = cls
    return cls


def _make(view_class: type) -> type:
    names = tuple(f.name for f in dataclasses.fields(view_class))
    field_names = frozenset(names)
    setter = object.__setattr__

    def fill(self: Any) -> None:
        build = getattr(self, "_build", None)  # None once filled, or if made whole
        if build is None:
            return
        full = build(self._seat)
        for name in names:
            setter(self, name, getattr(full, name))
        setter(self, "_build", None)

    def __getattr__(self: Any, name: str) -> Any:
        # Reached only for a slot not yet set: a field before the view is filled.
        if name not in field_names:
            raise AttributeError(f"{view_class.__qualname__!r} object has no attribute {name!r}")
        fill(self)
        return object.__getattribute__(self, name)

    def __reduce__(self: Any) -> tuple[Any, ...]:
        # Pickled or copied, it is the game's own View: the lazy class is nobody's to import.
        fill(self)
        return (view_class, tuple(getattr(self, name) for name in names))

    def __eq__(self: Any, other: object) -> bool:
        if not isinstance(other, view_class):
            return NotImplemented
        return all(getattr(self, n) == getattr(other, n) for n in names)

    def __setattr__(self: Any, name: str, value: Any) -> None:
        # Frozen like the View, and its own two slots too (they are set by their
        # descriptors here): a bot can't point its view at another state.
        raise dataclasses.FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self: Any, name: str) -> None:
        raise dataclasses.FrozenInstanceError(f"cannot delete field {name!r}")

    namespace = {
        "__slots__": ("_build", "_seat"),
        "__setattr__": __setattr__,
        "__delattr__": __delattr__,
        "__getattr__": __getattr__,
        "__reduce__": __reduce__,
        "__eq__": __eq__,
        "__hash__": view_class.__hash__,  # as the game's (an __eq__ here would unset it)
        "_fill": fill,
        "__qualname__": view_class.__qualname__,
        "__module__": view_class.__module__,
        "__doc__": view_class.__doc__,
    }
    return type(view_class.__name__, (view_class,), namespace)


_MAKERS: dict[type, Callable[[Callable[[int], Any], int], Any]] = {}


def maker(view_class: type) -> Callable[[Callable[[int], Any], int], Any] | None:
    """A function of (build, seat) handing out a lazy view, filled from `build(seat)` when read;
    None if `view_class` is no slots dataclass (its views are then built as they are asked for)."""
    make = _MAKERS.get(view_class)
    if make is not None:
        return make
    if not dataclasses.is_dataclass(view_class) or "__slots__" not in vars(view_class):
        return None
    cls = lazy_class(view_class)
    new = object.__new__
    set_build = cls._build.__set__  # type: ignore[attr-defined]
    set_seat = cls._seat.__set__  # type: ignore[attr-defined]

    def lazy(build: Callable[[int], Any], seat: int) -> Any:
        view: Any = new(cls)
        set_build(view, build)
        set_seat(view, seat)
        return view

    _MAKERS[view_class] = lazy
    return lazy


def unread(view: Any) -> bool:
    """Whether a lazy view was never filled (no field of it was read)."""
    return view._build is not None


def settle(view: Any) -> None:
    """Fill a lazy view now (if it isn't yet), while it still shows the state it was made of."""
    view._fill()
