"""The trick procedure compiled (numba), with public names, for every compiled game on
it: Fish! Dash! Cash!'s kernel (games/fdc/kernel/) and the role games'
(games/roles/kernel/) lay their arrays out on `layout` and call these kernels.

One module a job: layout (the procedure's words and the game's slots in the state and
tables arrays, the jit flavours), lists (seats around the table, list kernels),
procedure (deal, who plays, a play, cancelling and order, next leader, draw),
random_bot (RULES.md §4's bot). A game's kernel package that inlines these calls
`jit.stamp_with(its folder, this folder)`, so an edit here recompiles it.
"""
