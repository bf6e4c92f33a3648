"""Fish! Dash! Cash! as compiled kernels: the same games as engine.py, move for move.

The Python engine (engine.py) is the authority; these kernels play exactly its
games (same chance draws, same legal-move lists in the same order, same bot
choices), only as numba code over small integer arrays, so a chunk of games
runs in one compiled call and a search bot can copy a state and step it.

Card roles are data. Each card carries an *effect code* in a per-card table,
and resolution dispatches on the effect, not on a role name:

    EFFECT_TERRITORY (fish)   the card goes face up into its owner's territory
    EFFECT_STEAL_OR_PROTECT (dash)  steal a stealable card from another
                              territory, or protect the owner's territory
    EFFECT_CASH (cash)        every uncashed card in the owner's territory
                              becomes money

`ROLE_EFFECTS` maps a deck role name to its effect; a new role is a new row
there (and, for a new kind of effect, a new branch in `_resolve`). Every knob
is runtime data in the `tables` array (built once per (rules, players) by
`make_tables`); nothing is compiled per knob value.

Action encoding (the Python engine's): to play, the card number
(`engine.py`'s card encoding); for a dash choice, `PROTECT` (-1) or the card
number of the fish to steal. Identical copies are one move (the first copy in
hand or territory order, as `Deck.distinct`).

Step functions: `start_game` (deal game i of a seed), `current_player`,
`legal`, `apply`, `choose` (a compiled bot's move), `write_record`; a state
is copied with `.copy()`. `from_state` converts any rules.State position;
`snapshot` reads a position back as plain lists. `play_chunk` is the batch
entry point. `advance_to_outside` (compiled callers) and `step` / `StepGame`
(Python: plugin seats, sim/kernel_step.py; positions via `StepGame.load`)
play on to the next decision made outside the kernel (stepping.py).
Kernels compile inlined, without reference counting and with numpy's error
model (see `inlined`): that is what makes a move cheap.

The trick procedure (the deal's shuffle, who plays, a play, cancelling and
order, next leader, draw, the random bot) and the first words of both arrays
are the trick package's (games/trick/kernel/), which the role games' kernel
stands on too; fdc names its own words in the slots it leaves.

The package, one module a job: layout (the arrays' layouts and codes, the jit
flavours), tables (the Python side: tables, states, conversion), resolution
(the rules), bots (the compiled bots: random, and the heuristic's dash), heuristic
(the heuristic's play), chunk (whole games in one call),
stepping (on to the next outside decision), rollout (`play_out` from any
position and `determinize` from a seat's view: a search bot's rollouts). Every
public name is re-exported here, and by name the internals the kernel tests
call in their hand-worked situations.
"""

from __future__ import annotations

from balancer.games.fdc.kernel.bots import *  # noqa: F403
from balancer.games.fdc.kernel.chunk import *  # noqa: F403
from balancer.games.fdc.kernel.chunk import _play_games as _play_games
from balancer.games.fdc.kernel.heuristic import *  # noqa: F403
from balancer.games.fdc.kernel.heuristic import _dashless_gain as _dashless_gain
from balancer.games.fdc.kernel.heuristic import _dashless_gains as _dashless_gains
from balancer.games.fdc.kernel.heuristic import _dashless_place as _dashless_place
from balancer.games.fdc.kernel.heuristic import _dashless_value as _dashless_value
from balancer.games.fdc.kernel.heuristic import _foresee as _foresee
from balancer.games.fdc.kernel.heuristic import _foresee_few_dashes as _foresee_few_dashes
from balancer.games.fdc.kernel.heuristic import _foreseen_value as _foreseen_value
from balancer.games.fdc.kernel.heuristic import _lead_value as _lead_value
from balancer.games.fdc.kernel.heuristic import _place as _place
from balancer.games.fdc.kernel.heuristic import _prepare_play as _prepare_play
from balancer.games.fdc.kernel.layout import *  # noqa: F403
from balancer.games.fdc.kernel.resolution import *  # noqa: F403
from balancer.games.fdc.kernel.rollout import *  # noqa: F403
from balancer.games.fdc.kernel.stepping import *  # noqa: F403
from balancer.games.fdc.kernel.tables import *  # noqa: F403
from balancer.rng_kernels import below as below
from balancer.rng_kernels import init_streams as init_streams
