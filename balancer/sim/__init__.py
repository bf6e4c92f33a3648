"""Playing games: the move loop (play.py), and runs in chunks into a games table (runner.py)."""

# A plugin bot gets this long per move unless the run says otherwise; the
# built-in bots are ours and tested, and pay no timer cost. Here, not in
# runner.py, so the command line can show it without importing the engines.
DEFAULT_PLUGIN_MOVE_LIMIT = 10.0
