"""A game file compiles into integer tables (roles/kernel/tables.py), checked word by word.

MEGA RACER's events, in its file's order: neko_ni_koban 0, cards_cancelled 1,
moves 2, accidents 3, blocks 4, lead_changes 5; its one counter `position` is
counter 0, its one flag `blocking` flag 0. Its cards: (colour * 3 + role) * 6 +
number - 1 with roles speed 0, accident 1, block 2 (tests/unit/test_roles_engine.py).
Runs without numba: building tables is plain Python.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from balancer import knobs
from balancer.games.fdc import engine as fdc
from balancer.games.fdc.kernel import tables as fdc_tables
from balancer.games.roles import gamefile, load_file
from balancer.games.roles import primitives as P
from balancer.games.roles import targets as T
from balancer.games.roles.definition import game_knobs
from balancer.games.roles.kernel import layout as L
from balancer.games.roles.kernel.tables import make_tables
from balancer.games.roles.model import RoleGame
from balancer.games.roles.primitives import add

RACER = load_file(gamefile.shipped_path("mega-racer"))  # type: ignore[arg-type]
FDC_ROLES = load_file(gamefile.shipped_path("fish-dash-cash-roles"))  # type: ignore[arg-type]


def rules_of(game: RoleGame, **overrides: Any) -> dict[str, Any]:
    return {**knobs.defaults(game_knobs(game)), **overrides}


def role_steps(tables: np.ndarray, role: int) -> list[list[list[int]]]:
    """Role `role`'s resolve list: per step, its op rows."""
    prog = L.T_DIR  # the directory
    listed = int(tables[int(tables[prog + L.X_ROLES]) + 2 * role])
    lists, steps = int(tables[prog + L.X_LISTS]), int(tables[prog + L.X_STEPS])
    ops = int(tables[prog + L.X_OPS])
    first, n = int(tables[lists + 2 * listed]), int(tables[lists + 2 * listed + 1])
    out = []
    for step in range(first, first + n):
        op0, nops = (
            int(tables[steps + L.STEP_WIDTH * step]),
            int(tables[steps + L.STEP_WIDTH * step + 1]),
        )
        out.append(
            [
                tables[ops + L.OP_WIDTH * i : ops + L.OP_WIDTH * (i + 1)].tolist()
                for i in range(op0, op0 + nops)
            ]
        )
    return out


def test_an_accident_is_one_add_row_with_its_knob_filled_in() -> None:
    tables = make_tables(RACER, rules_of(RACER), 4)
    (step,) = role_steps(tables, 1)  # accident: one step, one op
    (row,) = step
    assert row[L.R_OP] == P.OP_ADD
    assert row[L.R_EVENT] == 3  # accidents
    assert (row[L.R_TARGET], row[L.R_TARGET_ARG]) == (T.TGT_TOP, 0)  # top: position
    assert row[L.R_UNLESS] == 0  # blocking
    assert row[L.R_A] == 0  # counter position
    assert (row[L.R_B], row[L.R_C]) == (L.AMT_CONST, -3)  # by: -accident_loss, default 3
    assert (row[L.R_D], row[L.R_E]) == (0, add.NO_MAX)  # min: 0, no max
    # A speed card adds its own number: an amount of kind `number`.
    ((speed,),) = role_steps(tables, 0)
    assert (speed[L.R_OP], speed[L.R_B], speed[L.R_EVENT]) == (P.OP_ADD, L.AMT_NUMBER, 2)
    # Block: a guard of `blocking` on its owner, then +1.
    (guard,), (creep,) = role_steps(tables, 2)
    assert (guard[L.R_OP], guard[L.R_A], guard[L.R_TARGET]) == (P.OP_GUARD, 0, T.TGT_OWNER)
    assert (creep[L.R_OP], creep[L.R_B], creep[L.R_C]) == (P.OP_ADD, L.AMT_CONST, 1)


def test_a_knob_changes_its_words_only_never_the_tables_shape() -> None:
    base = make_tables(RACER, rules_of(RACER), 4)
    harder = make_tables(RACER, rules_of(RACER, accident_loss=5, goal=20), 4)
    assert base.shape == harder.shape
    changed = np.flatnonzero(base != harder)
    # accident_loss in the accident's row (-3 -> -5), goal in the end row (8 -> 20).
    assert sorted(harder[changed].tolist()) == [-5, 20]
    assert sorted(base[changed].tolist()) == [-3, 8]


def test_each_card_carries_its_colour_role_and_number() -> None:
    tables = make_tables(RACER, rules_of(RACER), 3)
    d = int(tables[L.T_DECK])
    assert d == 2 * 3 * 6
    card = (1 * 3 + 2) * 6 + 4 - 1  # blue block 4
    column = [int(tables[L.T_CARDS + k * d + card]) for k in (L.COLOUR, L.ROLE, L.NUMBER, L.KIND)]
    assert column == [1, 2, 4, card]


def test_a_dash_is_one_choice_of_a_guard_and_a_steal() -> None:
    tables = make_tables(FDC_ROLES, rules_of(FDC_ROLES), 5)
    ((guard, steal),) = role_steps(tables, 1)  # dash: one step, a choose of two ops
    assert (guard[L.R_OP], guard[L.R_A], guard[L.R_EVENT]) == (P.OP_GUARD, 0, 3)  # protects
    assert steal[L.R_OP] == P.OP_STEAL
    # territory (zone 0) to territory, fresh only, unless protected (flag 0), event steals.
    assert [steal[L.R_A], steal[L.R_B], steal[L.R_C], steal[L.R_UNLESS], steal[L.R_EVENT]] == [
        0, 0, 1, 0, 2,
    ]  # fmt: skip
    # A choice lists the guard and at most one way per card of the deck (60).
    prog = L.T_DIR  # the directory
    assert int(tables[prog + L.X_MAXWAYS]) == 1 + 60
    # The bank is face down, the territory face up.
    assert tables[int(tables[prog + L.X_ZFACE]) :][:2].tolist() == [0, 1]


def test_the_trick_procedures_words_are_fdcs_own() -> None:
    """The role kernel calls fdc's compiled deal and sort_out on its tables: the
    header and card columns they read are laid out and filled as fdc's."""
    fdc_rules = {**knobs.defaults(fdc.KNOBS), "first_leader": "random", "neko_min_followers": 1}
    roles = make_tables(
        FDC_ROLES, rules_of(FDC_ROLES, first_leader="random", neko_min_followers=1), 5
    )
    ours = fdc_tables.make_tables(fdc_rules, 5)
    shared = [L.T_PLAYERS, L.T_DECK, L.T_COPIES, L.T_HAND_SIZE, L.T_FIRST_RANDOM, L.T_NEKO]
    shared += [L.T_NEKO_MIN, L.T_NEKO_DEDUPE, L.T_LEADER_NEXT]
    assert roles[shared].tolist() == ours[shared].tolist()
    d = int(ours[L.T_DECK])
    for column in (L.COLOUR, L.NUMBER, L.KIND):
        at = L.T_CARDS + column * d
        assert roles[at : at + d].tolist() == ours[at : at + d].tolist()
