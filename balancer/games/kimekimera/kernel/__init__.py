"""Kimekimera as compiled kernels: the same games as engine.py, game for game.

Every kernel is decorated with `balancer.jit.njit`, so it is compiled by
numba or, with BALANCER_JIT=0 (or no numba), run as plain Python with the
same results. The chance draws are those of engine.py, in the same order:
the deck is `arange(size)` (54 for the printed deck) shuffled by
`rng.shuffle` on stream `rng.CHANCE`,
each breeding's blind pick is `below(6)`, each reshuffle shuffles the
discard (in its order) as the new deck. The bot in physical seat s draws
from stream `rng.bot_stream(s)`, and only when it has 2 or more legal moves.

State: one int64 array of `STATE_SIZE`, copied with `.copy()` and stepped
from any position with `current_player`, `legal` and `apply` (a Python
State's position comes in through `from_state`, or into a StepGame through
`StepGame.load`: where a search bot's rollouts start):

    [S_DECK, +DECK)    the deck, bottom first: the top card is deck[deck_n - 1]
    [S_DISCARD, +DECK) the discard pile, in the order cards reached it
                       (DECK: the largest deck the `deck` knob allows, 120)
    [S_MINE, +8)       seat s's my chimera at S_MINE + 2s, +2s+1
    [S_FREE, +46)      slot i's free chimera at S_FREE + 2i, +2i+1; -1, -1 empty
    [S_THEME, +2)      the theme chimera
    [S_TOTALS, +4)     each seat's total so far
    [S_EVENTS, +5)     event counts in `SPEC.events` order
    S_DECK_N, S_DISCARD_N   cards in the deck and in the discard
    S_FILLED           free slots holding a chimera
    S_ROUND            rounds scored so far (the game is over at `rounds`)
    S_FIRST0, S_FIRST  first seat of round 1, first seat of this round
    S_TURN             turns of this round taken (or skipped)
    S_SEAT             the seat to move, -1 when the game is over
    [S_HELD, +4)       card impact: per seat, bit rules.CARD_KIND[c] set for every
                       card c its chimera held at any scoring

Cards are engine.py's for the game's deck (deck.py; printed deck: 0..47
colour * 12 + number - 1, 48..51 rainbow, 52..53 grey). Actions are
engine.py's: a free-chimera slot index, `KEEP` (-1) when breeding is
optional, `REPLACE` (-2), a robot's forced replacement; `legal` lists them in
the order of `State.legal_actions()`.

Tables: one int64 array per (rules, players), built by `encode_rules`, so a
knob value is data, never a compile-time constant:

    [0, T_HEADER)        players, free_chimeras, rounds and the knobs as ints,
                         the deck's size (T_DECK_SIZE) and first grey card (T_GREY0)
    [T_NUMBER, +DECK)    card -> its number
    [T_CLASS, +DECK)     card -> its colour class (0..3, 4 rainbow, 5 grey)
    [T_KIND, +DECK)      card -> its card-impact kind
    [T_PAIR_SUM, +DECK²) a*DECK+b -> the pair's sum, -1 when it holds grey
    [T_PAIR_CLASS, +DECK²) a*DECK+b -> colour classes class[a] * 6 + class[b]
    [T_MATCHES, +1296)   theme classes * 36 + pair classes -> colour matches
                         under this rule set's grey_blocks_colour_bonus

Speed: every call of a compiled function with array arguments costs
reference counting (atomic increments and decrements of each array), which
is most of a small kernel's time; so the common cases on the hot path (a
pair drawn from a deck of 2 or more, the next seat breeding) are written
out where they are needed, and the scripted bots score inline.

The compiled bots (`BOT_IDS`) read what their seat can see and nothing else:
the theme (S_THEME), their own chimera (S_MINE + 2 seat), the free chimeras
(S_FREE) and the scoring knobs in the tables; `random` reads only the number
of legal moves. Bot parameters are a float64 row per bot slot (`cautious`:
[rank]).

The package, one module a job: layout (the arrays' layouts, constant tables,
`encode_rules`), resolution (the rules), bots (the compiled bots), convert (from
Python), chunk (whole games in one call), stepping (on to the next outside
decision), rollout (`play_out` from any position and `determinize` from a
seat's view). Every public name is re-exported here.
"""

from __future__ import annotations

from balancer.games.kimekimera.kernel.bots import *  # noqa: F403
from balancer.games.kimekimera.kernel.chunk import *  # noqa: F403
from balancer.games.kimekimera.kernel.convert import *  # noqa: F403
from balancer.games.kimekimera.kernel.layout import *  # noqa: F403
from balancer.games.kimekimera.kernel.resolution import *  # noqa: F403
from balancer.games.kimekimera.kernel.rollout import *  # noqa: F403
from balancer.games.kimekimera.kernel.stepping import *  # noqa: F403
