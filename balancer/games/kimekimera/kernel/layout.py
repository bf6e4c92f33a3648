"""The arrays a Kimekimera kernel works on: the state's and the tables' layouts, the
game's constant tables, bot ids, the step plan; `encode_rules`.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any

import numpy as np

from balancer import knobs
from balancer.games.kimekimera import deck as kk_deck
from balancer.games.kimekimera import engine as kk

# The state's deck and discard blocks, and the tables' per-card rows, hold the
# largest deck the `deck` knob allows; a game's own deck is data in its tables
# (T_DECK_SIZE, T_GREY0, the rows), so no deck is a compile-time constant.
DECK = kk_deck.MAX_DECK_CARDS
KEEP = kk.KEEP
REPLACE = kk.REPLACE
MAX_PLAYERS = 4
MAX_FREE = 23
N_EVENTS = len(kk.EVENTS)
E_BONUS1, E_BONUS2, E_EXACT, E_ROBOTS, E_RESHUFFLES = range(N_EVENTS)
assert kk.EVENTS == (
    "colour_bonus_1",
    "colour_bonus_2",
    "exact_hits",
    "robots_made",
    "reshuffles",
)

S_DECK = 0
S_DISCARD = S_DECK + DECK
S_MINE = S_DISCARD + DECK
S_FREE = S_MINE + 2 * MAX_PLAYERS
S_THEME = S_FREE + 2 * MAX_FREE
S_TOTALS = S_THEME + 2
S_EVENTS = S_TOTALS + MAX_PLAYERS
S_DECK_N = S_EVENTS + N_EVENTS
S_DISCARD_N = S_DECK_N + 1
S_FILLED = S_DISCARD_N + 1
S_ROUND = S_FILLED + 1
S_FIRST0 = S_ROUND + 1
S_FIRST = S_FIRST0 + 1
S_TURN = S_FIRST + 1
S_SEAT = S_TURN + 1
S_HELD = S_SEAT + 1  # per seat: card impact's bitmask (engine.py chimera_held)
STATE_SIZE = S_HELD + MAX_PLAYERS
# A state longer than STATE_SIZE (the chunk loop's) keeps from S_PROGRESS on the totals
# after each round, `players` words a round (how it played: stats/how_it_plays.py);
# the others (search's copies, stepped games) keep none and pay one comparison a round.
S_PROGRESS = STATE_SIZE

T_PLAYERS = 0
T_NFREE = 1
T_ROUNDS = 2
T_ROTATE = 3
T_OPTIONAL = 4
T_LEFTOVER_FREE = 5
T_RESHUFFLE = 6
T_REPLACE_AT_TURN = 7
T_GREY_BLOCKS = 8
T_FLOOR = 9
T_BONUS1 = 10
T_BONUS2 = 11
T_DECK_SIZE = 12  # cards in this game's deck
T_GREY0 = 13  # its first grey card: a card >= it is grey
T_HEADER = 16
T_NUMBER = T_HEADER  # card -> its number (grey: 0)
T_CLASS = T_NUMBER + DECK  # card -> its colour class, 0..3, 4 rainbow, 5 grey
T_KIND = T_CLASS + DECK  # card -> its card-impact kind (rules' card_kind)
T_PAIR_SUM = T_KIND + DECK  # a * DECK + b (the stride is the largest deck's)
T_PAIR_CLASS = T_PAIR_SUM + DECK * DECK
T_MATCHES = T_PAIR_CLASS + DECK * DECK
TABLES_SIZE = T_MATCHES + 6**4

# rules.PAIRS and LEFTOVERS as arrays (constants of the game, not knobs).
PAIR_I = np.array([i for i, _ in kk.PAIRS], dtype=np.int64)
PAIR_J = np.array([j for _, j in kk.PAIRS], dtype=np.int64)
LEFT_K = np.array([k for k, _ in kk.LEFTOVERS], dtype=np.int64)
LEFT_M = np.array([m for _, m in kk.LEFTOVERS], dtype=np.int64)
# A sorting network for 6 (12 comparators; checked by the 0-1 principle in
# test_kk_kernel.py): after it, values are in descending order.
SORT6 = (
    (0, 5),
    (1, 3),
    (2, 4),
    (1, 2),
    (3, 4),
    (0, 3),
    (2, 5),
    (0, 1),
    (2, 3),
    (4, 5),
    (1, 2),
    (3, 4),
)
NET_HI = np.array([hi for hi, _ in SORT6], dtype=np.int64)
NET_LO = np.array([lo for _, lo in SORT6], dtype=np.int64)

BOT_IDS = {"random": 0, "expected": 1, "cautious": 2}
COMPILED_BOTS: frozenset[str] = frozenset(BOT_IDS)
N_PARAMS = 1


@lru_cache(maxsize=16)
def _deck_rows(deck: kk_deck.Deck) -> np.ndarray:
    """[T_NUMBER, T_MATCHES) of the tables for one deck (made once per deck)."""
    rows = np.zeros(T_MATCHES - T_NUMBER, dtype=np.int64)
    size = deck.size
    rows[0:size] = deck.number
    rows[DECK : DECK + size] = deck.colour_class
    rows[2 * DECK : 2 * DECK + size] = deck.card_kind
    square = DECK * DECK
    pair_sum = np.array(deck.pair_sum, dtype=np.int64).reshape(size, size)
    pair_class = np.array(deck.pair_class, dtype=np.int64).reshape(size, size)
    at = T_PAIR_SUM - T_NUMBER
    rows[at : at + square].reshape(DECK, DECK)[:size, :size] = pair_sum
    at = T_PAIR_CLASS - T_NUMBER
    rows[at : at + square].reshape(DECK, DECK)[:size, :size] = pair_class
    rows.setflags(write=False)
    return rows


_MATCH_TABLES = {blocks: np.array(kk.MATCHES[blocks], dtype=np.int64) for blocks in (False, True)}


def encode_rules(rules: Mapping[str, Any], players: int) -> np.ndarray:
    """The tables for (rules, players): rules as `State` reads them (defaults filled in)."""
    rules = {**knobs.defaults(kk.KNOBS), **rules}
    reason = kk.unplayable(rules, players)
    if reason is not None:
        raise ValueError(reason)  # as State would: no deal could turn up a theme
    bonus = kk._check_colour_bonus(rules["colour_bonus"])
    tables = np.zeros(TABLES_SIZE, dtype=np.int64)
    tables[T_PLAYERS] = players
    tables[T_NFREE] = rules["free_chimeras"]
    tables[T_ROUNDS] = rules["rounds"]
    tables[T_ROTATE] = bool(rules["rotate_first_player"])
    tables[T_OPTIONAL] = bool(rules["breeding_optional"])
    tables[T_LEFTOVER_FREE] = rules["leftover"] == "free"
    tables[T_RESHUFFLE] = bool(rules["reshuffle_discards"])
    tables[T_REPLACE_AT_TURN] = rules["robot_replacement"] == "at_next_breeding"
    blocks = bool(rules["grey_blocks_colour_bonus"])
    tables[T_GREY_BLOCKS] = blocks
    tables[T_FLOOR] = bool(rules["floor_at_zero"])
    tables[T_BONUS1] = bonus[1]
    tables[T_BONUS2] = bonus[2]
    deck = kk.deck_for(rules)
    tables[T_DECK_SIZE] = deck.size
    tables[T_GREY0] = deck.first_grey
    tables[T_NUMBER:T_MATCHES] = _deck_rows(deck)
    tables[T_MATCHES:] = _MATCH_TABLES[blocks]
    return tables


BOT_OUTSIDE = -1
"""A seat's kind in a step plan: its decisions (of two moves or more) are made outside."""

# The plan, int64: the bot of physical seat s at PLAN_KIND + s, the offset of
# its parameter row (N_PARAMS floats) in the params block at PLAN_PARAMS + s.
PLAN_KIND, PLAN_PARAMS = 0, MAX_PLAYERS
PLAN_SIZE = 2 * MAX_PLAYERS
