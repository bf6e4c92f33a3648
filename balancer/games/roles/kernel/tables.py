"""Python side of the role kernel: a game file and its knobs compiled into integer tables,
new states, conversion from the engine's State, and records.

`make_tables(game, rules, players)` is the compiler: every name (zone, counter,
flag, global, event, role) becomes an index, every knob in an op or a term
its value, so one compiled interpreter (interpreter.py) plays every game file
at every knob value. The layout is layout.py's.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from balancer.games.api import GameRecord
from balancer.games.roles import engine
from balancer.games.roles.kernel.layout import (
    AMT_CONST,
    AMT_COUNT,
    AMT_COUNTER,
    AMT_NUMBER,
    AMT_VALUE,
    CHOICE,
    COLOUR,
    DECK,
    END_COUNTER,
    END_GLOBAL,
    END_TRICKS,
    END_WIDTH,
    EV_AT_END,
    EV_CANCELLED,
    EV_LEAD,
    EV_NEKO,
    EV_OPS,
    EV_WIDTH,
    HANDS,
    HCAP,
    HLEN,
    IF_COUNT,
    IF_COUNTER,
    IF_FLAG,
    IF_NO_HIGH,
    IF_NO_LOW,
    IF_NONE,
    KIND,
    LEADER,
    MAX_EVENTS,
    MAXP,
    N_COLUMNS,
    N_DIRECTORY,
    N_SCALARS,
    NEXT_LEADER,
    NORDER,
    NUMBER,
    O_PILE,
    O_ROLES,
    OP_WIDTH,
    ORDER,
    OVER,
    PCARD,
    PHASE,
    PILE_LEN,
    PLAYERS,
    PSEAT,
    R_A,
    R_EVENT,
    R_IF,
    R_IF_HIGH,
    R_OP,
    R_TAKES,
    R_TARGET,
    R_TARGET_ARG,
    R_UNLESS,
    ROLE,
    S_ENDED,
    S_HOOKS,
    S_NTASK,
    S_STEP_AT,
    S_TASK_AT,
    STEP_WIDTH,
    T_CARDS,
    T_COPIES,
    T_DECK,
    T_DIR,
    T_FIRST_RANDOM,
    T_HAND_SIZE,
    T_LEADER_NEXT,
    T_LOWER_WINS,
    T_NCOUNTERS,
    T_NEKO,
    T_NEKO_DEDUPE,
    T_NEKO_MIN,
    T_NEVENTS,
    T_NFLAGS,
    T_NGLOBALS,
    T_NZONES,
    T_PLAYERS,
    TASKS_PER_SEAT,
    TERM_WIDTH,
    TRICKS,
    TURN,
    X_ANY_CANCELLED,
    X_CANCELLED_EVENTS,
    X_CDECL,
    X_CNT,
    X_DRAWS_CHANCE,
    X_ENDS,
    X_EVDECL,
    X_EVT,
    X_FDECL,
    X_FLG,
    X_GDECL,
    X_GLB,
    X_GOAL_DEAL,
    X_GOAL_POOL,
    X_GOAL_ROWS,
    X_GOALS,
    X_LEAD_EVENTS,
    X_LISTS,
    X_MAXWAYS,
    X_NEKO_EVENTS,
    X_NENDS,
    X_NGOALS,
    X_NSCORE,
    X_OPS,
    X_PLC,
    X_POINTS,
    X_REGION,
    X_ROLES,
    X_SCALARS,
    X_SCORE,
    X_SKIP,
    X_SOLE,
    X_STEPS,
    X_TCARD,
    X_TERMS,
    X_TLIST,
    X_TRES,
    X_TRICK_END,
    X_TSEAT,
    X_UNSURE,
    X_ZCARDS,
    X_ZFACE,
    X_ZLEN,
)
from balancer.games.roles.model import Choose, Condition, Op, RoleGame, Step, Term
from balancer.games.roles.primitives import OPS, PRIMITIVES
from balancer.games.roles.scores import TERMS, kind_of
from balancer.games.roles.targets import CHOSEN, DEFAULT_TARGET, TGTS


class _Names:
    """Each declared name's index, per kind (in the order the file declares them)."""

    def __init__(self, game: RoleGame) -> None:
        self.zone = {name: i for i, name in enumerate(game.zones)}
        self.counter = {c.name: i for i, c in enumerate(game.counters)}
        self.flag = {name: i for i, name in enumerate(game.flags)}
        self.glob = {g.name: i for i, g in enumerate(game.globals)}
        self.event = {e.name: i for i, e in enumerate(game.events)}


class _Encoding:
    """What a primitive's `encode` asks (primitives/base.py Encoding): names' indices,
    amounts with the run's knobs filled in."""

    def __init__(self, rules: Mapping[str, Any], names: _Names) -> None:
        self.rules, self.names = rules, names

    def zone(self, name: str) -> int:
        return self.names.zone[name]

    def counter(self, name: str) -> int:
        return self.names.counter[name]

    def flag(self, name: str) -> int:
        return self.names.flag[name]

    def glob(self, name: str) -> int:
        return self.names.glob[name]

    def event(self, name: str | None) -> int:
        return self.names.event[name] if name else -1

    def amount(self, amount: tuple[Any, ...]) -> tuple[int, int]:
        return _amount(amount, self.rules, self.names)

    def constant(self, amount: tuple[Any, ...]) -> int:
        return _constant(amount, self.rules, self.names)


class _TermEncoding(_Encoding):
    """A term row's encoding (scores/base.py TermEncoding): a rank term's points go to
    the points table (X_POINTS), one list after another."""

    def __init__(self, rules: Mapping[str, Any], names: _Names, points: list[int]) -> None:
        super().__init__(rules, names)
        self.table = points

    def points(self, values: Sequence[int]) -> int:
        first = len(self.table)
        self.table += values
        return first


def _amount(amount: tuple[Any, ...], rules: Mapping[str, Any], names: _Names) -> tuple[int, int]:
    """An amount as (AMT_* kind, value), a knob's value filled in from `rules`."""
    kind = amount[0]
    if kind == "int":
        return AMT_CONST, int(amount[1])
    if kind == "knob":
        return AMT_CONST, int(rules[amount[1]])
    if kind == "minus_knob":
        return AMT_CONST, -int(rules[amount[1]])
    if kind == "number":
        return AMT_NUMBER, 1
    if kind == "times_number":  # sign * number * K: K (a number or a knob) filled in
        return AMT_NUMBER, int(amount[1]) * _constant(amount[2], rules, names)
    if kind == "counter":
        return AMT_COUNTER, names.counter[amount[1]]
    if kind == "value":
        return AMT_VALUE, names.zone[amount[1]]
    return AMT_COUNT, names.zone[amount[1]]


def _op_row(op: Op, rules: Mapping[str, Any], names: _Names) -> list[int]:
    """An op's row: the words every op has, then its primitive's own (its `encode`)."""
    p = op.params
    row = [0] * OP_WIDTH
    row[R_OP] = OPS[op.kind]
    row[R_EVENT] = names.event[p["event"]] if p.get("event") else -1
    target: tuple[str, ...] = p.get("target") or (DEFAULT_TARGET,)
    row[R_TARGET] = TGTS[target[0]]
    # A kind's argument is a counter (every kind taking one takes a counter).
    row[R_TARGET_ARG] = names.counter[target[1]] if len(target) > 1 else -1
    row[R_UNLESS] = names.flag[p["unless"]] if p.get("unless") else -1
    words = PRIMITIVES[op.kind].encode(p, _Encoding(rules, names))
    row[R_A : R_A + len(words)] = words
    row[R_IF : R_IF_HIGH + 1] = _condition_row(op.when, rules, names)
    row[R_TAKES] = int(PRIMITIVES[op.kind].takes(p))
    return row


def _condition_row(when: Condition | None, rules: Mapping[str, Any], names: _Names) -> list[int]:
    """An op's R_IF words (layout.py): its condition's kind, its counter, flag or zone,
    the seat it reads (`of`: a target kind and its counter, -1 none), the lowest and
    highest value that meets it (a flag: 1, set)."""
    if when is None:
        return [IF_NONE, 0, 0, -1, IF_NO_LOW, IF_NO_HIGH]
    index = {"counter": names.counter, "flag": names.flag, "zone": names.zone}[when.kind]
    argument = names.counter[when.of[1]] if len(when.of) > 1 else -1
    low, high = (1, 1) if when.kind == "flag" else (IF_NO_LOW, IF_NO_HIGH)
    if when.at_least is not None:
        low = _constant(when.at_least, rules, names)
    if when.at_most is not None:
        high = _constant(when.at_most, rules, names)
    kind = {"counter": IF_COUNTER, "flag": IF_FLAG, "zone": IF_COUNT}[when.kind]
    return [kind, index[when.name], TGTS[when.of[0]], argument, low, high]


def _constant(amount: tuple[Any, ...], rules: Mapping[str, Any], names: _Names) -> int:
    """A whole-number parameter (a number or a knob): its value."""
    kind, value = _amount(amount, rules, names)
    if kind != AMT_CONST:  # pragma: no cover - INT parameters are numbers or knobs
        raise ValueError(f"{amount!r} is not a whole number or a knob")
    return value


class _Program:
    """The program's tables, built as lists: step lists, steps, op rows, terms."""

    def __init__(self, game: RoleGame, rules: Mapping[str, Any], names: _Names, players: int):
        self.rules, self.names, self.players = rules, names, players
        self.deck = engine.cards_for(rules).size
        self.lists: list[int] = []  # per list: first step, steps
        self.steps: list[int] = []  # per step: first op, ops, acts one way
        self.ops: list[int] = []
        self.terms: list[int] = []
        self.points: list[int] = []  # the rank terms' points, one list after another
        self.max_ways = 1
        self.draws_chance = False  # some op draws chance in play (layout.X_DRAWS_CHANCE)

    def step_list(self, steps: tuple[Step, ...]) -> int:
        """The id of a new step list (-1 for none: an empty list queues no task)."""
        if not steps:
            return -1
        at = len(self.lists) // 2
        self.lists += [len(self.steps) // STEP_WIDTH, len(steps)]
        for step in steps:
            ops = step.options if isinstance(step, Choose) else (step,)
            self.steps += [len(self.ops) // OP_WIDTH, len(ops), 0, 0]
            ways = 0
            one_way = len(ops) == 1
            for op in ops:
                row = _op_row(op, self.rules, self.names)
                self.ops += row
                self.draws_chance |= PRIMITIVES[op.kind].draws_chance(op.params)
                if PRIMITIVES[op.kind].takes(op.params):
                    ways += self.deck  # a card a way, each card once
                    one_way = False
                elif (CHOSEN >> row[R_TARGET]) & 1:  # a rival a way
                    ways += self.players - 1
                    one_way = False  # one rival (two players) is still a rival to name
                else:
                    ways += 1
            self.max_ways = max(self.max_ways, ways)
            self.steps[-2] = int(one_way)
            self.steps[-1] = int(any(op.when is not None for op in ops))
        return at

    def term_list(self, terms: tuple[Term, ...]) -> tuple[int, int]:
        """Term rows for `terms` (each its kind's row after the kind's TERM number, the
        rest 0): where they start and how many."""
        first = len(self.terms) // TERM_WIDTH
        encoding = _TermEncoding(self.rules, self.names, self.points)
        for term in terms:
            kind = kind_of(term)
            assert kind.row is not None, "a game the kernel does not play has no tables"
            words = [TERMS[kind.name], *kind.row(term, encoding)]
            self.terms += words + [0] * (TERM_WIDTH - len(words))
        return first, len(terms)


def make_tables(game: RoleGame, rules: Mapping[str, Any], players: int) -> np.ndarray:
    """The compiled rules of one (game file, rules, players), int64 (layout.py)."""
    if not 2 <= players <= MAXP:
        raise ValueError(f"role games are for 2 to {MAXP} players, not {players}")
    cards = engine.cards_for(rules)
    names = _Names(game)
    d = cards.size
    header = np.zeros(T_CARDS + N_COLUMNS * d, np.int64)
    header[T_PLAYERS] = players
    header[T_DECK] = d
    header[T_COPIES] = cards.copies  # the most copies of a kind (1: no two cards alike)
    header[T_HAND_SIZE] = rules["hand_size"]
    header[T_FIRST_RANDOM] = {"seat0": 0, "random": 1}[rules["first_leader"]]
    header[T_NEKO] = bool(rules["neko_ni_koban"])
    header[T_NEKO_MIN] = rules["neko_min_followers"]
    header[T_NEKO_DEDUPE] = bool(rules["neko_cancel_duplicates"])
    header[T_LEADER_NEXT] = {"same": 0, "next": 1}[rules["leader_if_nothing_resolves"]]
    nz, nc, nf = len(game.zones), len(game.counters), len(game.flags)
    ng, ne = len(game.globals), len(game.events)
    header[T_NZONES], header[T_NCOUNTERS], header[T_NFLAGS] = nz, nc, nf
    header[T_NGLOBALS], header[T_NEVENTS] = ng, ne
    header[T_LOWER_WINS] = not game.higher_is_better
    for card in range(d):
        header[T_CARDS + COLOUR * d + card] = cards.colour[card]
        header[T_CARDS + ROLE * d + card] = cards.role[card]
        header[T_CARDS + NUMBER * d + card] = cards.number[card]
        header[T_CARDS + KIND * d + card] = cards.kind[card]

    program = _Program(game, rules, names, players)
    roles: list[int] = []
    cancel_hook = game.hooks.get("on_cancelled", ())
    for name in cards.role_names:
        role = game.roles[name]
        roles += [
            program.step_list(role.resolve),
            program.step_list(role.on_cancelled + cancel_hook),
        ]
    trick_end = program.step_list(game.hooks.get("on_trick_end", ()))
    score = program.term_list(game.score)
    events: list[int] = []
    for event in game.events:
        source = EV_OPS
        terms = (0, 0)
        if event.source == "from":
            source = {"neko_ni_koban": EV_NEKO, "cards_cancelled": EV_CANCELLED}[event.engine or ""]
        elif event.source in ("at_end", "lead_changes"):
            source = EV_AT_END if event.source == "at_end" else EV_LEAD
            terms = program.term_list(event.terms)
        events += [source, *terms]
    ends: list[int] = []
    for goal in game.end:
        kind = {"tricks": END_TRICKS, "counter": END_COUNTER, "global": END_GLOBAL}[goal.kind]
        index = 0
        if goal.kind == "counter":
            index = names.counter[goal.name or ""]
        elif goal.kind == "global":
            index = names.glob[goal.name or ""]
        ends += [kind, index, *_amount(goal.reaches, rules, names)]
    assert len(ends) == END_WIDTH * len(game.end)
    assert len(events) == EV_WIDTH * ne
    # The goal cards' terms after every other term row (so a file without goals has the
    # rows it had): per goal card, its (first term row, terms).
    goal_rows: list[int] = []
    for goal_terms in game.goals.terms if game.goals else ():
        goal_rows += program.term_list(goal_terms)
    held = game.goals.deal if game.goals else 0

    # The state's role region, relative to its start.
    region: dict[int, int] = {}
    at = 0
    tasks = TASKS_PER_SEAT * players
    for key, size in (
        (X_SCALARS, N_SCALARS),
        (X_ZLEN, nz * players),
        (X_ZCARDS, nz * players * d),
        (X_CNT, nc * players),
        (X_FLG, nf * players),
        (X_GLB, ng),
        (X_SKIP, players),
        (X_EVT, ne),
        (X_SOLE, ne),
        (X_PLC, ng * players),
        (X_TSEAT, tasks),
        (X_TCARD, tasks),
        (X_TLIST, tasks),
        (X_TRES, tasks),
        (X_UNSURE, d),
        (X_GOALS, held * players),
        (X_GOAL_POOL, len(goal_rows) // 2),
    ):
        region[key] = at
        at += size
    region[X_REGION] = at

    parts: list[tuple[int, list[int]]] = [
        (X_ZFACE, [int(face == "down") for face in game.zones.values()]),
        (X_CDECL, [v for c in game.counters for v in (c.start, c.low, c.high)]),
        (X_FDECL, [int(lasts == "trick") for lasts in game.flags.values()]),
        (X_GDECL, [v for g in game.globals for v in (g.start, g.low, g.high)]),
        (X_EVDECL, events),
        (X_ROLES, roles),
        (X_LISTS, program.lists),
        (X_STEPS, program.steps),
        (X_OPS, program.ops),
        (X_TERMS, program.terms),
        (X_ENDS, ends),
        (X_POINTS, program.points),
        (X_GOAL_ROWS, goal_rows),
    ]
    directory = [0] * N_DIRECTORY
    for key, value in region.items():
        directory[key] = value
    at = len(header)  # the program's tables follow the header and the card columns
    body: list[int] = []
    for key, values in parts:
        directory[key] = at
        body += values
        at += len(values)
    directory[X_TRICK_END] = trick_end
    directory[X_SCORE], directory[X_NSCORE] = score
    directory[X_NENDS] = len(game.end)
    directory[X_MAXWAYS] = program.max_ways
    directory[X_GOAL_DEAL], directory[X_NGOALS] = held, len(goal_rows) // 2
    directory[X_DRAWS_CHANCE] = int(program.draws_chance)
    if ne > MAX_EVENTS:
        raise ValueError(f"the kernel counts at most {MAX_EVENTS} events, not {ne}")
    for key, source in (
        (X_NEKO_EVENTS, EV_NEKO),
        (X_CANCELLED_EVENTS, EV_CANCELLED),
        (X_LEAD_EVENTS, EV_LEAD),
    ):
        directory[key] = sum(1 << e for e in range(ne) if events[EV_WIDTH * e] == source)
    directory[X_ANY_CANCELLED] = int(any(roles[i] >= 0 for i in range(1, len(roles), 2)))
    header[T_DIR : T_DIR + N_DIRECTORY] = directory
    return np.concatenate([header, np.array(body, np.int64)])


def region_size(tables: np.ndarray) -> int:
    return int(tables[T_DIR + X_REGION])


def new_state(tables: np.ndarray, hand_capacity: int | None = None) -> np.ndarray:
    """An empty state laid out for these tables (deal into it with `start_game`).

    A hand holds at most the deck: a seat sitting tricks out (skip_turn) still
    draws, so a hand is not bounded by hand_size + 1 as fdc's is."""
    players, d = int(tables[T_PLAYERS]), int(tables[T_DECK])
    hcap = max(int(tables[T_HAND_SIZE]), 1, hand_capacity or 0, d)
    o_pile = HANDS + players * hcap
    state = np.zeros(o_pile + d + region_size(tables), np.int64)
    state[PLAYERS], state[HCAP], state[O_PILE], state[DECK] = players, hcap, o_pile, d
    state[O_ROLES] = o_pile + d
    state[PHASE] = OVER
    return state


def new_streams(players: int) -> np.ndarray:
    """Stream states for one game: rng.CHANCE and one bot stream per seat."""
    return np.zeros((1 + players, 2), np.uint64)


def new_legal(state: np.ndarray, tables: np.ndarray) -> np.ndarray:
    """A buffer long enough for any legal-move list of states shaped like `state`."""
    return np.zeros(2 + max(int(state[HCAP]), region_ways(tables)), np.int64)


def region_ways(tables: np.ndarray) -> int:
    return int(tables[T_DIR + X_MAXWAYS])


class Region:
    """Where each role block of a state lies (absolute indices), for Python readers."""

    def __init__(self, state: np.ndarray, tables: np.ndarray) -> None:
        base = int(state[O_PILE]) + int(state[DECK])
        self.players, self.deck = int(tables[T_PLAYERS]), int(tables[T_DECK])

        def at(key: int) -> int:
            return base + int(tables[T_DIR + key])

        self.scalars, self.zlen, self.zcards = at(X_SCALARS), at(X_ZLEN), at(X_ZCARDS)
        self.cnt, self.flg, self.glb, self.skip = at(X_CNT), at(X_FLG), at(X_GLB), at(X_SKIP)
        self.evt, self.sole, self.plc = at(X_EVT), at(X_SOLE), at(X_PLC)
        self.unsure, self.goals = at(X_UNSURE), at(X_GOALS)
        self.held = int(tables[T_DIR + X_GOAL_DEAL])  # the goals each seat holds
        self.tseat, self.tcard, self.tlist, self.tres = (
            at(X_TSEAT), at(X_TCARD), at(X_TLIST), at(X_TRES),
        )  # fmt: skip

    def zone(self, z: int, seat: int) -> tuple[int, int]:
        """(start, length index) of zone z of `seat`."""
        return self.zcards + (
            z * self.players + seat
        ) * self.deck, self.zlen + z * self.players + seat


def from_state(py: engine.State) -> tuple[np.ndarray, np.ndarray]:
    """An engine `State` (any position) as (state, tables) arrays.

    A position waiting for a decision (CHOICE) keeps its task queue; its pending
    options are worked out again from the position when asked (they are a function
    of it)."""
    game = py.game
    tables = make_tables(game, py.rules, py.players)
    state = new_state(tables, max(len(h) for h in py.hands) + 1)
    names = _Names(game)
    r = Region(state, tables)
    players, hcap = py.players, int(state[HCAP])
    state[PHASE] = py.phase
    state[LEADER] = py.leader
    state[TRICKS] = py.tricks
    state[NEXT_LEADER] = py.first_resolved
    state[NORDER] = len(py.order)
    state[ORDER : ORDER + len(py.order)] = py.order
    state[TURN] = len(py.plays)
    for i, (seat, card) in enumerate(py.plays):
        state[PSEAT + i], state[PCARD + i] = seat, card
    for s in range(players):
        state[HLEN + s] = len(py.hands[s])
        state[HANDS + s * hcap : HANDS + s * hcap + len(py.hands[s])] = py.hands[s]
    o_pile = int(state[O_PILE])
    state[PILE_LEN] = len(py.pile)
    state[o_pile : o_pile + len(py.pile)] = py.pile
    for name, z in names.zone.items():
        for s in range(players):
            start, length = r.zone(z, s)
            cards = py.zones[name][s]
            state[length] = len(cards)
            state[start : start + len(cards)] = cards
    for name, c in names.counter.items():
        state[r.cnt + c * players : r.cnt + (c + 1) * players] = py.counters[name]
    for name, f in names.flag.items():
        state[r.flg + f * players : r.flg + (f + 1) * players] = py.flags[name]
    for name, g in names.glob.items():
        state[r.glb + g] = py.globals[name]
    for name, g in names.glob.items():
        if name in py.places:
            state[r.plc + g * players : r.plc + (g + 1) * players] = py.places[name]
    state[r.skip : r.skip + players] = py.skip
    for card in py.unsure:
        state[r.unsure + card] = 1
    for s, goals in enumerate(py.goals):
        state[r.goals + s * r.held : r.goals + (s + 1) * r.held] = goals
    for name, e in names.event.items():
        state[r.evt + e] = py.events[name]
        state[r.sole + e] = py.sole_leader.get(name, -1)
    state[r.scalars + S_ENDED] = py.ended
    state[r.scalars + S_HOOKS] = py.hooks_queued
    state[r.scalars + S_TASK_AT] = py.task_at
    state[r.scalars + S_STEP_AT] = py.step_at
    if py.phase == CHOICE:
        _lay_tasks(py, tables, state, r)
    return state, tables


def _lay_tasks(py: engine.State, tables: np.ndarray, state: np.ndarray, r: Region) -> None:
    """The engine's task queue as step-list ids: each task's steps are one of the lists
    make_tables built (a role's resolve or on_cancelled list, or on_trick_end)."""
    game, cards = py.game, py.cards
    cancel_hook = game.hooks.get("on_cancelled", ())
    roles_at = int(tables[T_DIR + X_ROLES])
    trick_end = int(tables[T_DIR + X_TRICK_END])
    for i, (seat, card, steps, resolving) in enumerate(py.tasks):
        if card < 0:
            list_id = trick_end
        else:
            role = cards.role[card]
            expect = game.roles[cards.role_names[role]]
            which = 0 if resolving else 1
            assert steps == (expect.resolve if resolving else expect.on_cancelled + cancel_hook)
            list_id = int(tables[roles_at + 2 * role + which])
        state[r.tseat + i], state[r.tcard + i] = seat, card
        state[r.tlist + i], state[r.tres + i] = list_id, resolving
    state[r.scalars + S_NTASK] = len(py.tasks)


def record(state: np.ndarray, tables: np.ndarray, game: RoleGame) -> GameRecord:
    """A finished kernel game as the engine's `GameRecord` (held kinds unknown)."""
    from balancer.games.roles.kernel.interpreter import write_record

    players = int(state[PLAYERS])
    scores = np.zeros(players, np.float64)
    events = np.zeros(len(game.events), np.float64)
    length = write_record(state, tables, scores, events)
    return GameRecord(
        tuple(float(x) for x in scores),
        int(length),
        {e.name: float(events[i]) for i, e in enumerate(game.events)},
    )


def snapshot(state: np.ndarray, tables: np.ndarray, game: RoleGame) -> dict[str, Any]:
    """Everything about a position that can change play, as plain lists by name."""
    r = Region(state, tables)
    players, hcap = int(state[PLAYERS]), int(state[HCAP])
    names = _Names(game)
    o_pile = int(state[O_PILE])

    def ints(a: np.ndarray) -> list[int]:
        return [int(x) for x in a]

    out: dict[str, Any] = {
        "phase": int(state[PHASE]),
        "tricks": int(state[TRICKS]),
        "hands": [
            ints(state[HANDS + s * hcap : HANDS + s * hcap + state[HLEN + s]])
            for s in range(players)
        ],
        "pile": ints(state[o_pile : o_pile + state[PILE_LEN]]),
        "zones": {
            name: [
                ints(state[r.zone(z, s)[0] : r.zone(z, s)[0] + state[r.zone(z, s)[1]]])
                for s in range(players)
            ]
            for name, z in names.zone.items()
        },
        "counters": {
            name: ints(state[r.cnt + c * players : r.cnt + (c + 1) * players])
            for name, c in names.counter.items()
        },
        "flags": {
            name: ints(state[r.flg + f * players : r.flg + (f + 1) * players])
            for name, f in names.flag.items()
        },
        "globals": {name: int(state[r.glb + g]) for name, g in names.glob.items()},
        "skip": ints(state[r.skip : r.skip + players]),
        "unsure": [c for c in range(r.deck) if state[r.unsure + c]],
        "places": {
            name: ints(state[r.plc + g * players : r.plc + (g + 1) * players])
            for name, g in names.glob.items()
            if any(t.place == name for t in game.score)
        },
    }
    if game.goals is not None:
        out["secret_goals"] = [
            ints(state[r.goals + s * r.held : r.goals + (s + 1) * r.held]) for s in range(players)
        ]
    if out["phase"] != OVER:
        out["leader"] = int(state[LEADER])
        out["order"] = ints(state[ORDER : ORDER + state[NORDER]])
    return out


def snapshot_of(py: engine.State) -> dict[str, Any]:
    state, tables = from_state(py)
    return snapshot(state, tables, py.game)


__all__ = [
    "AMT_CONST",
    "AMT_COUNT",
    "AMT_NUMBER",
    "EV_AT_END",
    "EV_CANCELLED",
    "EV_LEAD",
    "EV_NEKO",
    "EV_OPS",
    "Region",
    "from_state",
    "make_tables",
    "new_legal",
    "new_state",
    "new_streams",
    "record",
    "snapshot",
    "snapshot_of",
]
