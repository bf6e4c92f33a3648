"""Effect primitives, one module each, and their one registry.

A primitive's module holds everything about it (base.py says why as a frozen
dataclass): its parameters, its checks, what it adds to the static bounds, its
op row in the compiled tables, its Python act, its compiled act and its
narration. The rest of the role engine reads them from here, by name or by op
number; none of it names a primitive, but for the compiled dispatch
(kernel/acts.py, one line per op: numba calls a function it knows by name).

So far only `guard` lives here; the others are still spread over the role engine
(the next commit moves them).
"""

from __future__ import annotations

from balancer.games.roles.primitives import guard
from balancer.games.roles.primitives.base import Primitive

ORDER = (guard,)
PRIMITIVES: dict[str, Primitive] = {module.SPEC.name: module.SPEC for module in ORDER}
