"""The trick procedure of RULES.md §1 in a room of its own: the deal, may-follow,
cancelling, 猫に小判, resolution order, next leader and draw, in Python (procedure.py)
and compiled (kernel/), with public names. Fish! Dash! Cash! (games/fdc/) and every
game file (games/roles/) stand on it; it imports neither."""
