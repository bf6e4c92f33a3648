"""打棋子 Da Qi Zi as compiled kernels: the same games as engine.py, move for move.

Everything a kernel touches is a flat numpy array, so a state can be copied
(`state.copy()`) and stepped from any position, and knobs are runtime data:

- `tables` (int64): the rules header (`R_*`, built by `encode_rules` once per
  rule set) followed by the combination tables of `combos.py`, enumerated once
  at import (`T_*` offsets): per move its packed multiset, size, kinds and top
  kind; per combination its form and strength; per (mixed, form) the allowed
  combinations in strength order, and per (mixed, combination) where in that
  list the stronger ones start, so "what beats this?" is a suffix of one list;
  per discard size the discards sorted by packed value, to look a move id up;
  then the game's deck (the `deck` knob, deck.py): the packed full deck and
  each of the 32 cards' kind, written by `encode_rules`, so a deck is data.
- `state` (int64, `STATE_SIZE`), offsets `S_*`:

      S_HANDS    4 x 14  cards per kind in each hand
      S_PACKED   4       each hand packed, 4 bits per kind (combos.pack)
      S_CAPTURED 4 x 14  captured cards per kind, face up
      S_NCAP     4       captured cards per seat
      S_SIZES    4       cards in each hand
      S_PUBLIC   14      cards per kind seen face up this deal
      S_CHIPS    4
      S_DEAL .. S_OVER   scalars: deal (1-based), dealer, multiplier, streak,
                         last deal winner, leader, turn (plays so far this
                         trick), seat to act, best combination (-1 before the
                         lead), its seat, cards led, cards left per hand,
                         last trick (0/1), face-up plays and face-down
                         discards this trick, tricks this deal, game over
      S_PUBLIC_PACKED    S_PUBLIC packed (combos.pack)
      S_EVENTS   13      SPEC.events order, counts (max_multiplier a value)
      S_DECK     32      scratch for the shuffle of a deal
      S_FD_N, S_UP_PLAYED, S_FD   the deal's face-down discards as their seats
                         remember them (`_note_face_down`, for `determinize`;
                         `from_python` writes the same from a State)

- `streams` (uint64, (1 + 4, 2)): rng.py's streams, row 0 the game's chance,
  row 1 + s the bot in physical seat s.

Actions are engine.py's move ids (combos.py): below `DISCARD_BASE` a
combination played face up, from `DISCARD_BASE` on a multiset of kinds
discarded face down; `legal` lists them in engine.py's order (combinations in
table order, then discards in table order), so `legal[below(n)]` is the
random bot's move on both paths.

Compiled bots (`BOT_RANDOM`, `BOT_HEURISTIC`; parameters a float64 row in
`bots.PARAMS` order) read only what the seat to act can see: its own hand
(S_HANDS, S_PACKED, S_SIZES of that seat), its own captured count (S_NCAP),
the face-up cards of the deal (S_PUBLIC), and the trick's public state
(S_BEST, S_TURN, S_LASTTRICK). The random bot reads nothing but its stream.

Plugin seats (sim/kernel_step.py) step the same engine through `step` and
`StepGame` (stepping.py), and a Python `State`'s position
comes into a StepGame through `StepGame.load` (a search bot's rollouts). The
deal's face-up plays and the opening hands' held kinds, which a view and a
record show and the state does not keep, are kept there beside the state, so
the whole-game path above does no more work for them.

The package, one module a job: layout (the arrays' layouts, the rules header,
bot kinds), resolution (the rules), heuristic (the compiled bots), chunk (whole
games in one call, conversion from Python), stepping (on to the next outside
decision), rollout (`play_out` from any position and `determinize` from a
seat's view). Every public name is re-exported here, and by name the internals
the kernel tests call.
"""

from __future__ import annotations

from balancer.games.daqizi.kernel.chunk import *  # noqa: F403
from balancer.games.daqizi.kernel.chunk import _play_games as _play_games
from balancer.games.daqizi.kernel.heuristic import *  # noqa: F403
from balancer.games.daqizi.kernel.layout import *  # noqa: F403
from balancer.games.daqizi.kernel.resolution import *  # noqa: F403
from balancer.games.daqizi.kernel.rollout import *  # noqa: F403
from balancer.games.daqizi.kernel.stepping import *  # noqa: F403
