"""Effect primitives, one module each, and their one registry.

A primitive's module holds everything about it (base.py says why as a frozen
dataclass): its parameters, its checks, what it adds to the static bounds, its
op row in the compiled tables, its Python act, its compiled act and its
narration. The rest of the role engine reads them from here, by name or by op
number; none of it names a primitive, but for the compiled dispatch
(kernel/acts.py, one line per op: numba calls a function it knows by name).

An op number is a primitive's place in ORDER: the R_OP word of its op rows. A new
primitive goes at the end (docs/new-game.md, "Adding a primitive").
"""

from __future__ import annotations

from balancer.games.roles.primitives import (
    add,
    add_global,
    catch_up,
    clear,
    discard,
    draw,
    guard,
    move_all,
    place,
    skip_turn,
    steal,
)
from balancer.games.roles.primitives.base import Primitive

ORDER = (
    place,
    move_all,
    steal,
    guard,
    add,
    catch_up,
    skip_turn,
    add_global,
    clear,
    draw,
    discard,
)
PRIMITIVES: dict[str, Primitive] = {module.SPEC.name: module.SPEC for module in ORDER}
OPS = {name: op for op, name in enumerate(PRIMITIVES)}
# The op numbers the compiled dispatch (kernel/acts.py) compares R_OP with.
OP_PLACE = ORDER.index(place)
OP_MOVE_ALL = ORDER.index(move_all)
OP_STEAL = ORDER.index(steal)
OP_GUARD = ORDER.index(guard)
OP_ADD = ORDER.index(add)
OP_CATCH_UP = ORDER.index(catch_up)
OP_SKIP_TURN = ORDER.index(skip_turn)
OP_ADD_GLOBAL = ORDER.index(add_global)
OP_CLEAR = ORDER.index(clear)
OP_DRAW = ORDER.index(draw)
OP_DISCARD = ORDER.index(discard)
# Bit op set for each targeted primitive (Primitive.targeted): the kernel acts on its
# seats one by one, as the engine does.
TARGETED = sum(1 << op for op, spec in enumerate(PRIMITIVES.values()) if spec.targeted)
