"""Role games compiled: one interpreter (numba) for every game file, the same games as
the Python interpreter (roles/engine.py, the authority), move for move.

A game file and its knobs compile into small integer tables (tables.py's
`make_tables`: names become indices, knobs their values), read by one
interpreter (interpreter.py): nothing is compiled per game file or knob
value. The trick procedure is Fish! Dash! Cash!'s compiled one (fdc's
kernel: its deal, sort_out, random bot and held-kinds record, over arrays
laid out as fdc's, layout.py); what a resolved card does is the tables'.

The package, one module a job: layout (the arrays and codes), tables (the
compiler, states, conversion from engine.State, records), interpreter (the
rules), play (a chunk of whole games, `play_out` and `determinize`, the
search bot's two steps). games/roles/compiled.py adapts it to the one
kernel interface (games/kernel_api.py).
"""

from __future__ import annotations
