"""The arrays a Da Qi Zi kernel works on: the rules header and static tables of `tables`,
the state's layout, bot kinds and parameters, the step plan.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from balancer import rng
from balancer.games.daqizi import bots as dqz_bots
from balancer.games.daqizi import combos as dc
from balancer.games.daqizi import deck as dqz_deck
from balancer.games.daqizi.engine import EVENTS, PLAYERS

K = dc.N_KINDS
GUARD = np.int64(dc.GUARD)
DISCARD_BASE = dc.DISCARD_BASE
N_MOVES = dc.N_MOVES
N_COMBOS = dc.N_COMBOS
# The most moves a position can offer: 70 discards of 4 from 8 distinct kinds,
# or fewer beats and discards of other sizes; with room to spare.
MAX_LEGAL = 128

# -- the rules header of `tables` ----------------------------------------------

R_MIXED = 0
R_MAY_DISCARD = 1
R_LAST_RULE = 2
R_RANDOM_DEALER = 3
R_MAX_DEALS = 4
R_STARTING_CHIPS = 5
R_BUST_AT = 6
R_BASE = 7
R_PENALTY = 8
R_FIRST_MULT = 9
R_STEP = 10
R_CAP = 11  # -1: no cap
R_SIZE = 16

# -- the static tables, laid out after the header ----------------------------------


def _static_tables() -> tuple[np.ndarray, dict[str, int], int]:
    parts: list[np.ndarray] = []
    offsets: dict[str, int] = {}
    at = R_SIZE

    def put(name: str, values: Sequence[Any] | np.ndarray) -> None:
        nonlocal at
        array = np.asarray(values, dtype=np.int64).ravel()
        offsets[name] = at
        parts.append(array)
        at += len(array)

    put("move_packed", dc.MOVE_PACKED)
    put("move_size", dc.MOVE_SIZE)
    put("move_kinds", [list(k) + [-1] * (dc.MAX_COMBO - len(k)) for k in dc.MOVE_KINDS])
    put("move_top", [k[-1] for k in dc.MOVE_KINDS])
    put("form", dc.COMBO_FORM)
    put("strength", dc.COMBO_STRENGTH)
    width = max(len(f) for m in (0, 1) for f in dc.BY_FORM[m])
    by_form = np.full((2, len(dc.FORMS), width), -1, dtype=np.int64)
    by_form_n = np.zeros((2, len(dc.FORMS)), dtype=np.int64)
    above = np.zeros((2, N_COMBOS), dtype=np.int64)
    for m in (0, 1):
        for f, combos in enumerate(dc.BY_FORM[m]):
            by_form[m, f, : len(combos)] = combos
            by_form_n[m, f] = len(combos)
        for best in range(N_COMBOS):
            combos = dc.BY_FORM[m][dc.COMBO_FORM[best]]
            strength = dc.COMBO_STRENGTH[best]
            above[m, best] = next(
                (i for i, c in enumerate(combos) if dc.COMBO_STRENGTH[c] > strength), len(combos)
            )
    put("by_form", by_form)
    put("by_form_n", by_form_n)
    put("above", above)
    allowed = np.full((2, N_COMBOS), -1, dtype=np.int64)
    for m in (0, 1):
        allowed[m, : len(dc.ALLOWED[m])] = dc.ALLOWED[m]
    put("allowed", allowed)
    put("allowed_n", [len(dc.ALLOWED[0]), len(dc.ALLOWED[1])])
    # Discards of each size sorted by packed value (a packed value names one multiset).
    disc_packed: list[int] = []
    disc_id: list[int] = []
    disc_off = [0]
    for size in range(1, dc.MAX_COMBO + 1):
        ids = [m for m in range(DISCARD_BASE, N_MOVES) if dc.MOVE_SIZE[m] == size]
        ids.sort(key=lambda m: dc.MOVE_PACKED[m])
        disc_packed += [dc.MOVE_PACKED[m] for m in ids]
        disc_id += ids
        disc_off.append(len(disc_id))
    put("disc_packed", disc_packed)
    put("disc_id", disc_id)
    put("disc_off", disc_off)  # size n: entries disc_off[n - 1] .. disc_off[n] - 1
    # The deck's two rows: the printed deck's here, each game's own put in by
    # encode_rules (the `deck` knob is data, never compiled in).
    put("full_deck", [dc.FULL_DECK])
    put("card_kind", dc.CARD_KIND)
    return np.concatenate(parts), offsets, width


_STATIC, _OFF, _BY_FORM_WIDTH = _static_tables()
T_MOVE_PACKED = _OFF["move_packed"]
T_MOVE_SIZE = _OFF["move_size"]
T_MOVE_KINDS = _OFF["move_kinds"]
T_MOVE_TOP = _OFF["move_top"]
T_FORM = _OFF["form"]
T_STRENGTH = _OFF["strength"]
T_BY_FORM = _OFF["by_form"]
T_BY_FORM_N = _OFF["by_form_n"]
T_ABOVE = _OFF["above"]
T_ALLOWED = _OFF["allowed"]
T_ALLOWED_N = _OFF["allowed_n"]
T_DISC_PACKED = _OFF["disc_packed"]
T_DISC_ID = _OFF["disc_id"]
T_DISC_OFF = _OFF["disc_off"]
T_FULL_DECK = _OFF["full_deck"]
T_CARD_KIND = _OFF["card_kind"]
N_FORMS = len(dc.FORMS)
BY_FORM_WIDTH = _BY_FORM_WIDTH
MAX_COMBO = dc.MAX_COMBO
N_CARDS = dc.N_CARDS  # every deck the `deck` knob allows holds 32 (deck.py)
assert N_CARDS == PLAYERS * dqz_deck.HAND
SINGLE = dc.SINGLE
CHANCE = rng.CHANCE

# -- the state layout ------------------------------------------------------------

S_HANDS = 0
S_PACKED = S_HANDS + PLAYERS * K
S_CAPTURED = S_PACKED + PLAYERS
S_NCAP = S_CAPTURED + PLAYERS * K
S_SIZES = S_NCAP + PLAYERS
S_PUBLIC = S_SIZES + PLAYERS
S_CHIPS = S_PUBLIC + K
S_DEAL = S_CHIPS + PLAYERS
S_DEALER = S_DEAL + 1
S_MULT = S_DEAL + 2
S_STREAK = S_DEAL + 3
S_LAST_WINNER = S_DEAL + 4
S_LEADER = S_DEAL + 5
S_TURN = S_DEAL + 6
S_TO_ACT = S_DEAL + 7
S_BEST = S_DEAL + 8
S_BEST_SEAT = S_DEAL + 9
S_LED = S_DEAL + 10
S_HAND_LEFT = S_DEAL + 11
S_LAST_TRICK = S_DEAL + 12
S_UP = S_DEAL + 13
S_DOWN = S_DEAL + 14
S_TRICKS = S_DEAL + 15
S_OVER = S_DEAL + 16
S_PUBLIC_PACKED = S_DEAL + 17
S_EVENTS = S_PUBLIC_PACKED + 1
N_EVENTS = len(EVENTS)
S_DECK = S_EVENTS + N_EVENTS
# What a seat remembers of the deal's face-down discards (`_note_face_down`), for
# `determinize`: their number, each seat's face-up plays so far this deal (packed),
# then per discard (seat, cards, packed kinds, the best combination it could not
# beat or -1, that seat's S_UP_PLAYED when it discarded).
S_FD_N = S_DECK + N_CARDS
S_UP_PLAYED = S_FD_N + 1
S_FD = S_UP_PLAYED + PLAYERS
FD_SEAT, FD_CARDS, FD_PACKED, FD_BEAT, FD_UP = range(5)
FD_WIDTH = 5
MAX_FD = N_CARDS  # a discard is a card at least
STATE_SIZE = S_FD + MAX_FD * FD_WIDTH

E_DEALS = EVENTS.index("deals")
E_TRICKS = EVENTS.index("tricks")
E_BUSTS = EVENTS.index("busts")
E_MAX_MULT = EVENTS.index("max_multiplier")
E_DEALER_WINS = EVENTS.index("dealer_wins")
E_ZERO = EVENTS.index("zero_capture")
E_LAST_RULE = EVENTS.index("last_trick_rule")
E_LEAD = EVENTS.index("lead_single")  # lead_<form> is E_LEAD + form (combos.FORMS order)
assert tuple(EVENTS[E_LEAD : E_LEAD + N_FORMS]) == tuple(f"lead_{f}" for f in dc.FORMS)

BOT_RANDOM = 0
BOT_HEURISTIC = 1
BOT_KINDS = {"random": BOT_RANDOM, "heuristic": BOT_HEURISTIC}
COMPILED_BOTS: frozenset[str] = frozenset(BOT_KINDS)
PARAM_NAMES = tuple(p.name for p in dqz_bots.PARAMS)
N_PARAMS = len(PARAM_NAMES)
P_RESERVE_MIN = PARAM_NAMES.index("reserve_min")
P_CHEAP_BEAT = PARAM_NAMES.index("cheap_beat")
P_SAFE_LEAD = PARAM_NAMES.index("safe_lead")
RESERVE_COST = dqz_bots.RESERVE_COST


def encode_rules(rules: Mapping[str, Any]) -> np.ndarray:
    """The `tables` array of one rule set: its knobs as the header, then the static tables."""
    header = np.zeros(R_SIZE, dtype=np.int64)
    header[R_MIXED] = bool(rules["mixed_suit_combos"])
    header[R_MAY_DISCARD] = bool(rules["may_discard_when_able"])
    header[R_LAST_RULE] = bool(rules["no_capture_last_single_rule"])
    header[R_RANDOM_DEALER] = rules["first_dealer"] == "random"
    header[R_MAX_DEALS] = rules["max_deals"]
    header[R_STARTING_CHIPS] = rules["starting_chips"]
    header[R_BUST_AT] = rules["bust_at"]
    header[R_BASE] = rules["base_payment"]
    header[R_PENALTY] = rules["zero_capture_penalty"]
    header[R_FIRST_MULT] = rules["first_deal_multiplier"]
    header[R_STEP] = rules["renchan_step"]
    cap = rules["multiplier_cap"]
    header[R_CAP] = -1 if cap is None else cap
    tables = np.concatenate([header, _STATIC])
    deck = dqz_deck.deck_for(rules)
    tables[T_FULL_DECK] = deck.full_deck
    tables[T_CARD_KIND : T_CARD_KIND + N_CARDS] = deck.card_kind
    return tables


def new_state() -> np.ndarray:
    """An empty state array (call `new_game` to deal)."""
    return np.zeros(STATE_SIZE, dtype=np.int64)


def new_streams() -> np.ndarray:
    return np.zeros((1 + PLAYERS, 2), dtype=np.uint64)


BOT_OUTSIDE = -1
"""A seat's kind in a step plan: its decisions (of two moves or more) are made outside."""

# The plan, int64: the bot of physical seat s at PLAN_KIND + s, the offset of
# its parameter row (N_PARAMS floats) in the params block at PLAN_PARAMS + s.
PLAN_KIND, PLAN_PARAMS = 0, PLAYERS
PLAN_SIZE = 2 * PLAYERS
