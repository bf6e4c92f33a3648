"""Role games compiled: one interpreter (numba) for every game file, the same games as
the Python interpreter (roles/engine.py, the authority), move for move.

A game file and its knobs compile into small integer tables (tables.py's
`make_tables`: names become indices, knobs their values), read by one
interpreter (interpreter.py): nothing is compiled per game file or knob
value. The trick procedure is the compiled one Fish! Dash! Cash!'s kernel
runs too (games/trick/kernel/: its deal, who plays, a play, sort_out, next
leader, draw, random bot and held-kinds record, over arrays laid out on its
layout, layout.py); what a resolved card does is the tables'. Only
fdc_bridge.py imports fdc's kernel (its heuristic, seated at a file that
plays fdc's roles).

The package, one module a job: layout (the arrays and codes), tables (the
compiler, states, conversion from engine.State, records), the rules split
by job: interpreter (the deal, the contract, the trick procedure), acts (a
step's ways and primitives), scoring (the score terms and what reads them),
regions (where the state keeps each thing), secret_goals (the goals' deal and a
world's redeal); play (`determinize`: a world from a seat's view), lookahead
(the `lookahead` bot compiled), bots (the compiled bots: `choose`,
`play_out`), chunk (a chunk of whole games).
games/roles/compiled.py adapts it to the one kernel interface
(games/kernel_api.py).
"""

from __future__ import annotations

from balancer.games.roles.kernel.bots import (
    COMPILED_BOTS as COMPILED_BOTS,
)
from balancer.games.roles.kernel.bots import (
    choose as choose,
)
from balancer.games.roles.kernel.bots import (
    encode_bots as encode_bots,
)
from balancer.games.roles.kernel.bots import (
    play_out as play_out,
)
from balancer.games.roles.kernel.bots import (
    scratch_for as scratch_for,
)
from balancer.games.roles.kernel.chunk import (
    play_chunk as play_chunk,
)
from balancer.games.roles.kernel.interpreter import (
    apply as apply,
)
from balancer.games.roles.kernel.interpreter import (
    current_player as current_player,
)
from balancer.games.roles.kernel.interpreter import (
    legal as legal,
)
from balancer.games.roles.kernel.interpreter import (
    scores_of as scores_of,
)
from balancer.games.roles.kernel.interpreter import (
    start_game as start_game,
)
from balancer.games.roles.kernel.interpreter import (
    write_record as write_record,
)
from balancer.games.roles.kernel.layout import *  # noqa: F403
from balancer.games.roles.kernel.play import (
    determinize as determinize,
)
from balancer.games.roles.kernel.tables import (
    from_state as from_state,
)
from balancer.games.roles.kernel.tables import (
    make_tables as make_tables,
)
from balancer.games.roles.kernel.tables import (
    new_legal as new_legal,
)
from balancer.games.roles.kernel.tables import (
    new_state as new_state,
)
from balancer.games.roles.kernel.tables import (
    new_streams as new_streams,
)
from balancer.games.roles.kernel.tables import (
    record as record,
)
from balancer.games.roles.kernel.tables import (
    snapshot as snapshot,
)
from balancer.games.roles.kernel.tables import (
    snapshot_of as snapshot_of,
)
