"""Python side of the fdc kernel: tables from knobs, new states, conversion from and to
the engine's State, bot parameter rows and records."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from balancer.games.api import GameRecord
from balancer.games.fdc import bots as py_bots
from balancer.games.fdc import deck as fdc_deck
from balancer.games.fdc import engine as fdc
from balancer.games.fdc.kernel.layout import (
    CCOUNT,
    CMONEY,
    COLOUR,
    COMPILED_BOTS,
    DASH_CHOICE,
    DECK,
    EFFECT,
    EFFECT_TERRITORY,
    EVENTS,
    F_SIZE,
    HANDS,
    HCAP,
    HLEN,
    KIND,
    LEADER,
    MONEY,
    N_COLUMNS,
    N_EVENTS,
    N_PARAMS,
    NEXT_LEADER,
    NORDER,
    NUMBER,
    O_PILE,
    O_TERR,
    ORDER,
    OVER,
    P_CASH_AT,
    P_COST,
    P_FISH_WEIGHT,
    P_LEAD_RESOLVES,
    P_RIVAL_WEIGHT,
    PCARD,
    PHASE,
    PILE_LEN,
    PLAYERS,
    PROT,
    PSEAT,
    QAT,
    QCARD,
    QLEN,
    QSEAT,
    ROLE_EFFECTS,
    SOLE,
    T_CARDS,
    T_COPIES,
    T_DECK,
    T_FIRST_RANDOM,
    T_HAND_SIZE,
    T_LEADER_NEXT,
    T_NEKO,
    T_NEKO_DEDUPE,
    T_NEKO_MIN,
    T_PLAYERS,
    T_TERRITORY_CARDS,
    T_UNCASHED,
    TCAP,
    TLEN,
    TMAX2,
    TMAXM,
    TRICKS,
    TURN,
    TWORTH,
    W_TERR,
)
from balancer.games.fdc.kernel.resolution import write_record


def make_tables(rules: Mapping[str, Any], players: int) -> np.ndarray:
    """The rules of one (rules, players) as an int64 array (layout: module docstring)."""
    if not fdc.SPEC.min_players <= players <= fdc.SPEC.max_players:
        raise ValueError(f"fdc is for 2 to 6 players, not {players}")
    deck = fdc.deck_for(rules)
    money = fdc_deck.money_values(rules)
    d = deck.size
    tables = np.zeros(T_CARDS + N_COLUMNS * d, np.int64)
    tables[T_PLAYERS] = players
    tables[T_DECK] = d
    tables[T_COPIES] = deck.copies
    tables[T_HAND_SIZE] = rules["hand_size"]
    tables[T_FIRST_RANDOM] = {"seat0": 0, "random": 1}[rules["first_leader"]]
    tables[T_NEKO] = bool(rules["neko_ni_koban"])
    tables[T_NEKO_MIN] = rules["neko_min_followers"]
    tables[T_NEKO_DEDUPE] = bool(rules["neko_cancel_duplicates"])
    tables[T_LEADER_NEXT] = {"same": 0, "next": 1}[rules["leader_if_nothing_resolves"]]
    tables[T_UNCASHED] = rules["uncashed_value"]
    for card in range(d):
        effect = ROLE_EFFECTS[fdc.ROLE_NAMES[deck.role[card]]]
        tables[T_CARDS + COLOUR * d + card] = deck.colour[card]
        tables[T_CARDS + EFFECT * d + card] = effect
        tables[T_CARDS + NUMBER * d + card] = deck.number[card]
        tables[T_CARDS + MONEY * d + card] = money[card]
        tables[T_CARDS + KIND * d + card] = card // deck.copies  # copies of a card: one kind
        tables[T_TERRITORY_CARDS] += effect == EFFECT_TERRITORY
    return tables


def new_state(tables: np.ndarray, hand_capacity: int | None = None) -> np.ndarray:
    """An empty state array laid out for these tables (deal into it with `start_game`).

    Hands never outgrow max(hand_size, the longest hand + 1) from any position
    (each player with cards plays one per trick and draws at most one).
    """
    players, d = int(tables[T_PLAYERS]), int(tables[T_DECK])
    hcap = max(int(tables[T_HAND_SIZE]), 1, hand_capacity or 0)
    tcap = max(int(tables[T_TERRITORY_CARDS]), 1)
    o_terr = HANDS + players * hcap
    o_pile = o_terr + players * tcap
    state = np.zeros(o_pile + d, np.int64)
    state[PLAYERS], state[HCAP], state[TCAP] = players, hcap, tcap
    state[O_TERR], state[O_PILE], state[DECK] = o_terr, o_pile, d
    state[PHASE] = OVER
    return state


def new_streams(players: int) -> np.ndarray:
    """Stream states for one game: rng.CHANCE and one bot stream per seat."""
    return np.zeros((1 + players, 2), np.uint64)


def new_work(state: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The heuristic's scratch arrays (int64, float64) for states shaped like `state`."""
    players = int(state[PLAYERS])
    size = W_TERR + 2 * players * int(state[TCAP])  # territories, and a flag per card
    return np.zeros(size, np.int64), np.zeros(F_SIZE, np.float64)


def new_legal(state: np.ndarray) -> np.ndarray:
    """A buffer long enough for any legal-move list of states shaped like `state`."""
    return np.zeros(2 + max(int(state[HCAP]), int(state[PLAYERS]) * int(state[TCAP])), np.int64)


def from_state(py: fdc.State) -> tuple[np.ndarray, np.ndarray]:
    """A Python `State` (any position, e.g. `State.arranged(...)`) as (state, tables) arrays."""
    tables = make_tables(py.rules, py.players)
    state = new_state(tables, max(len(h) for h in py.hands) + 1)
    players, hcap, tcap = py.players, int(state[HCAP]), int(state[TCAP])
    money = py.money_of
    state[PHASE] = py.phase
    state[LEADER] = py.leader
    state[NEXT_LEADER] = py.next_leader
    state[TRICKS] = py.tricks
    state[SOLE] = py.sole_leader
    for i, name in enumerate(fdc.EVENTS):
        state[EVENTS + i] = py.events[name]
    state[NORDER] = len(py.order)
    state[ORDER : ORDER + len(py.order)] = py.order
    state[TURN] = len(py.plays)
    for i, (seat, card) in enumerate(py.plays):
        state[PSEAT + i], state[PCARD + i] = seat, card
    if py.phase == DASH_CHOICE:
        state[QLEN], state[QAT] = len(py.resolve_queue), py.resolve_at
        for i, (seat, card) in enumerate(py.resolve_queue):
            state[QSEAT + i], state[QCARD + i] = seat, card
    o_terr = int(state[O_TERR])
    for s in range(players):
        state[PROT + s] = py.protected[s]
        state[CMONEY + s] = sum(money[c] for c in py.cashed[s])
        state[CCOUNT + s] = len(py.cashed[s])
        state[HLEN + s] = len(py.hands[s])
        state[HANDS + s * hcap : HANDS + s * hcap + len(py.hands[s])] = py.hands[s]
        state[TLEN + s] = len(py.territory[s])
        state[o_terr + s * tcap : o_terr + s * tcap + len(py.territory[s])] = py.territory[s]
        values = sorted((money[c] for c in py.territory[s]), reverse=True) + [-1, -1]
        state[TWORTH + s] = sum(money[c] for c in py.territory[s])
        state[TMAXM + s], state[TMAX2 + s] = values[0], values[1]
    o_pile = int(state[O_PILE])
    state[PILE_LEN] = len(py.pile)
    state[o_pile : o_pile + len(py.pile)] = py.pile
    return state, tables


def snapshot(state: np.ndarray) -> dict[str, Any]:
    """Everything about a position that can change play, as plain lists (for comparisons).

    Reads only the live part of each block: what a finished trick left behind
    is not part of the position.
    """
    players, hcap, tcap = int(state[PLAYERS]), int(state[HCAP]), int(state[TCAP])
    o_terr, o_pile = int(state[O_TERR]), int(state[O_PILE])
    phase = int(state[PHASE])
    turn = int(state[TURN])

    def ints(a: np.ndarray) -> list[int]:
        return [int(x) for x in a]

    out: dict[str, Any] = {
        "phase": phase,
        "tricks": int(state[TRICKS]),
        "sole_leader": int(state[SOLE]),
        "events": ints(state[EVENTS : EVENTS + N_EVENTS]),
        "hands": [
            ints(state[HANDS + s * hcap : HANDS + s * hcap + state[HLEN + s]])
            for s in range(players)
        ],
        "territory": [
            ints(state[o_terr + s * tcap : o_terr + s * tcap + state[TLEN + s]])
            for s in range(players)
        ],
        "cashed_money": ints(state[CMONEY : CMONEY + players]),
        "cashed_count": ints(state[CCOUNT : CCOUNT + players]),
        # Kept as play goes (from_state works them out): compared, they check the upkeep.
        "territory_money": ints(state[TWORTH : TWORTH + players]),
        "territory_richest": ints(state[TMAXM : TMAXM + players]),
        "territory_second": ints(state[TMAX2 : TMAX2 + players]),
        "pile": ints(state[o_pile : o_pile + state[PILE_LEN]]),
    }
    if phase != OVER:
        out["leader"] = int(state[LEADER])
        out["order"] = ints(state[ORDER : ORDER + state[NORDER]])
        out["plays"] = list(
            zip(ints(state[PSEAT : PSEAT + turn]), ints(state[PCARD : PCARD + turn]), strict=True)
        )
        out["protected"] = ints(state[PROT : PROT + players])
    if phase == DASH_CHOICE:
        qat, qlen = int(state[QAT]), int(state[QLEN])
        out["to_resolve"] = list(
            zip(
                ints(state[QSEAT + qat : QSEAT + qlen]),
                ints(state[QCARD + qat : QCARD + qlen]),
                strict=True,
            )
        )
        out["next_leader"] = int(state[NEXT_LEADER])
    return out


def snapshot_of(py: fdc.State) -> dict[str, Any]:
    """`snapshot` of a Python `State`, to compare with the kernel's."""
    return snapshot(from_state(py)[0])


def bot_params(name: str, params: Mapping[str, Any] | None = None) -> np.ndarray:
    """A compiled bot's float64 parameter row (defaults filled in from bots.PARAMS)."""
    if name not in COMPILED_BOTS:
        raise ValueError(f"no compiled fdc bot {name!r}; compiled: {sorted(COMPILED_BOTS)}")
    row = np.zeros(N_PARAMS, np.float64)
    if name == "heuristic":
        given = {**{p.name: p.default for p in py_bots.PARAMS}, **(params or {})}
        row[P_FISH_WEIGHT] = given["fish_weight"]
        row[P_RIVAL_WEIGHT] = given["rival_weight"]
        row[P_LEAD_RESOLVES] = given["lead_resolves"]
        row[P_CASH_AT] = given["cash_at"]
        for role, cost in py_bots.DISCARD_COST.items():
            row[P_COST + ROLE_EFFECTS[fdc.ROLE_NAMES[role]]] = cost
    return row


def record(state: np.ndarray, tables: np.ndarray) -> GameRecord:
    """A finished kernel game as the Python engine's `GameRecord`."""
    players = int(state[PLAYERS])
    scores = np.zeros(players, np.float64)
    events = np.zeros(N_EVENTS, np.float64)
    length = write_record(state, tables, scores, events)
    return GameRecord(
        tuple(float(x) for x in scores),
        int(length),
        {name: float(events[i]) for i, name in enumerate(fdc.EVENTS)},
    )
