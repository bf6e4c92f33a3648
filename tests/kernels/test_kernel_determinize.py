"""Compiled rollouts: `play_out` from any position and `determinize` from a seat's view.

For each game, from mid-game positions reached by the compiled bots:

- `play_out` from a position plays the game the step path plays from there
  (legal / choose / apply called one move at a time) with the same streams,
  from the deal the chunk loop's game, and from a Python engine position
  (converted) the engine's game with the same bots and streams;
- a world keeps everything the seat sees (its hand, every public array part,
  every hand size) and the original state is untouched;
- two true states that differ only in cards the seat can't see give
  bit-identical worlds from the same rng; a leaking determinizer (the pool
  taken in the order the true state holds it) fails that test: the control.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from balancer import knobs
from balancer.bot import bot_params_with_defaults
from balancer.bots import registry as bot_registry
from balancer.config.variant import load
from balancer.games.daqizi import engine as dqz
from balancer.games.daqizi import kernel as DQ
from balancer.games.fdc import engine as fdc
from balancer.games.fdc import kernel as F
from balancer.games.kimekimera import engine as kk
from balancer.games.kimekimera import kernel as KK
from balancer.rng import Stream, bot_stream, init_streams
from tests.helpers import stopped_mid_game

ROOT = Path(__file__).parents[2]

# -- Fish! Dash! Cash! ----------------------------------------------------------------

FDC_RULES = knobs.defaults(fdc.KNOBS)
FDC_SEATS = [
    ("heuristic", {}),
    ("random", {}),
    ("heuristic", {}),
    ("random", {}),
    ("heuristic", {}),
]


def fdc_game(seed: int, game: int, players: int = 5) -> tuple[Any, ...]:
    """A dealt fdc game: (state, tables, streams, plan, params, scratch)."""
    tables = F.make_tables(FDC_RULES, players)
    state = F.new_state(tables)
    streams = F.new_streams(players)
    F.start_game(state, tables, streams, seed, game)
    plan, params = F.encode_bots(FDC_SEATS[:players])
    return state, tables, streams, plan, params, F.new_scratch(state)


def fdc_step(state: np.ndarray, tables: np.ndarray, streams: np.ndarray, plan: Any, params: Any):
    """One move of the step path: the seat's compiled bot, a forced move unasked."""
    moves = F.new_legal(state)
    iwork, fwork = F.new_work(state)
    n = F.legal(state, tables, moves)
    if n == 1:
        action = moves[0]
    else:
        seat = F.current_player(state)
        row = params[plan[F.PLAN_PARAMS + seat] :][: F.N_PARAMS]
        action = F.choose(
            state, tables, streams, plan[F.PLAN_KIND + seat], row, moves, n, iwork, fwork
        )
    F.apply(state, tables, streams, action)


def fdc_mid_game(seed: int, game: int, moves: int) -> tuple[Any, ...]:
    parts = fdc_game(seed, game)
    state, tables, streams, plan, params, _ = parts
    for _ in range(moves):
        if state[F.PHASE] == F.OVER:
            break
        fdc_step(state, tables, streams, plan, params)
    assert state[F.PHASE] != F.OVER
    return parts


def fdc_scores(state: np.ndarray, tables: np.ndarray) -> list[float]:
    return list(F.record(state, tables).scores)


@pytest.mark.parametrize("moves", [0, 7, 23, 41])
def test_fdc_play_out_plays_the_step_paths_game(moves: int) -> None:
    state, tables, streams, plan, params, scratch = fdc_mid_game(11, 3, moves)
    rolled, rolled_streams = state.copy(), streams.copy()
    scores = np.zeros(5)
    length = F.play_out(rolled, tables, rolled_streams, plan, params, scratch, scores)
    while state[F.PHASE] != F.OVER:
        fdc_step(state, tables, streams, plan, params)
    assert list(scores) == fdc_scores(state, tables)
    assert length == state[F.TRICKS]
    assert np.array_equal(rolled, state) and np.array_equal(rolled_streams, streams)


def test_fdc_play_out_from_the_deal_is_the_chunk_loops_game() -> None:
    cols = F.play_chunk(FDC_RULES, 5, 11, 0, 4, FDC_SEATS, False)
    for game in range(4):
        state, tables, streams, plan, params, scratch = fdc_game(11, game)
        scores = np.zeros(5)
        F.play_out(state, tables, streams, plan, params, scratch, scores)
        assert list(scores) == list(cols.scores[game])


def fdc_public(state: np.ndarray, seat: int) -> dict[str, Any]:
    """What `seat` sees of a kernel position: the snapshot without the others' hands
    and the pile, with every hand's and the pile's size."""
    snap = F.snapshot(state)
    snap.pop("events")  # no view shows them: a world resets them
    hands = snap.pop("hands")
    pile = snap.pop("pile")
    snap["my_hand"] = hands[seat]
    snap["hand_sizes"] = [len(h) for h in hands]
    snap["pile_size"] = len(pile)
    return snap


def fdc_hidden(state: np.ndarray, seat: int) -> list[int]:
    snap = F.snapshot(state)
    others = [c for s, hand in enumerate(snap["hands"]) if s != seat for c in hand]
    return sorted(others + snap["pile"])


def fdc_reshuffled(state: np.ndarray, seat: int, seed: int) -> np.ndarray:
    """`state` with the cards `seat` can't see moved among the other hands and the pile
    (sizes kept): a true state the seat can't tell from `state`."""
    other = state.copy()
    hcap, pile = int(state[F.HCAP]), int(state[F.O_PILE])
    slots = [
        F.HANDS + s * hcap + j
        for s in range(int(state[F.PLAYERS]))
        if s != seat
        for j in range(int(state[F.HLEN + s]))
    ] + [pile + j for j in range(int(state[F.PILE_LEN]))]
    cards = state[slots]
    other[slots] = np.random.default_rng(seed).permutation(cards)
    assert not np.array_equal(other, state)
    return other


def fdc_world(state: np.ndarray, seat: int, key: int, determinize: Callable[..., int]):
    tables = F.make_tables(FDC_RULES, int(state[F.PLAYERS]))
    out = np.zeros_like(state)
    rng = np.array([[key, 0]], np.uint64)
    out_streams = F.new_streams(int(state[F.PLAYERS]))
    determinize(state, tables, seat, rng, out, out_streams)
    return out


def fdc_leaking_determinize(state, tables, seat, rng, out, out_streams) -> int:
    """The control: the pool in the order the true state holds it (the other hands seat
    by seat, then the pile), not by card number; dealt by the same code."""
    out[:] = state
    hcap, pile = int(state[F.HCAP]), int(state[F.O_PILE])
    pool = [
        int(state[F.HANDS + s * hcap + j])
        for s in range(int(state[F.PLAYERS]))
        if s != seat
        for j in range(int(state[F.HLEN + s]))
    ] + [int(state[pile + j]) for j in range(int(state[F.PILE_LEN]))]
    out[pile : pile + len(pool)] = pool
    F.deal_unseen(state, seat, rng, out, len(pool))
    return 0


FDC_POSITIONS = [(11, 3, 9), (12, 0, 17), (13, 5, 30)]


@pytest.mark.parametrize(("seed", "game", "moves"), FDC_POSITIONS)
def test_fdc_world_keeps_what_the_seat_sees_and_leaves_the_state(
    seed: int, game: int, moves: int
) -> None:
    state = fdc_mid_game(seed, game, moves)[0]
    before = state.copy()
    for seat in range(5):
        world = fdc_world(state, seat, 99 + seat, F.determinize)
        assert np.array_equal(state, before)
        assert fdc_public(world, seat) == fdc_public(state, seat)
        assert fdc_hidden(world, seat) == fdc_hidden(state, seat)  # the same cards, redealt
        events = slice(F.EVENTS, F.EVENTS + F.N_EVENTS)
        assert not world[events].any()
        world[events] = state[events]
        assert world[: F.HANDS].tolist() == state[: F.HANDS].tolist()


def test_fdc_worlds_differ_from_call_to_call() -> None:
    state = fdc_mid_game(11, 3, 9)[0]
    tables = F.make_tables(FDC_RULES, 5)
    rng = np.array([[5, 0]], np.uint64)
    worlds = set()
    for _ in range(6):
        out = np.zeros_like(state)
        F.determinize(state, tables, 0, rng, out, F.new_streams(5))
        worlds.add(tuple(fdc_hidden_layout(out, 0)))
    assert len(worlds) == 6


def fdc_hidden_layout(state: np.ndarray, seat: int) -> list[int]:
    snap = F.snapshot(state)
    return [c for s, h in enumerate(snap["hands"]) if s != seat for c in h] + snap["pile"]


@pytest.mark.parametrize(
    ("determinize", "leaks"), [(F.determinize, False), (fdc_leaking_determinize, True)]
)
@pytest.mark.parametrize(("seed", "game", "moves"), FDC_POSITIONS)
def test_fdc_worlds_of_states_alike_to_the_seat_are_identical(
    determinize: Callable[..., int], leaks: bool, seed: int, game: int, moves: int
) -> None:
    state = fdc_mid_game(seed, game, moves)[0]
    seat = int(F.current_player(state))
    other = fdc_reshuffled(state, seat, seed)
    assert fdc_public(other, seat) == fdc_public(state, seat)
    same = np.array_equal(
        fdc_world(state, seat, 7, determinize), fdc_world(other, seat, 7, determinize)
    )
    assert same != leaks


# -- Kimekimera ------------------------------------------------------------------------

KK_RULES = knobs.defaults(kk.KNOBS)
KK_SEATS: list[tuple[str, dict[str, Any]]] = [
    ("expected", {}), ("random", {}), ("cautious", {}), ("random", {})
]  # fmt: skip


def kk_game(seed: int, game: int) -> tuple[Any, ...]:
    tables = KK.encode_rules(KK_RULES, 4)
    state = np.zeros(KK.STATE_SIZE, np.int64)
    streams = np.zeros((5, 2), np.uint64)
    init_streams(streams, seed, game)
    KK.new_game(state, tables, streams)
    plan, params = KK.encode_bots(KK_SEATS)
    return state, tables, streams, plan, params, KK.new_scratch(state)


def kk_step(state, tables, streams, plan, params) -> None:
    moves = np.zeros(KK.MAX_FREE + 1, np.int64)
    n = KK.legal(state, tables, moves)
    if n == 1:
        action = moves[0]
    else:
        seat = int(state[KK.S_SEAT])
        kind, at = plan[KK.PLAN_KIND + seat], plan[KK.PLAN_PARAMS + seat]
        row = params[at : at + KK.N_PARAMS]
        action = KK.bot_action(kind, row, state, tables, streams, moves, n, np.zeros(16, np.int64))
    KK.apply(state, tables, streams, action)


def kk_mid_game(seed: int, game: int, moves: int) -> tuple[Any, ...]:
    parts = kk_game(seed, game)
    for _ in range(moves):
        kk_step(*parts[:5])
    assert parts[0][KK.S_SEAT] >= 0
    return parts


@pytest.mark.parametrize("moves", [0, 5, 13])
def test_kk_play_out_plays_the_step_paths_game(moves: int) -> None:
    state, tables, streams, plan, params, scratch = kk_mid_game(21, 2, moves)
    rolled, rolled_streams = state.copy(), streams.copy()
    scores = np.zeros(4)
    rounds = KK.play_out(rolled, tables, rolled_streams, plan, params, scratch, scores)
    while state[KK.S_SEAT] >= 0:
        kk_step(state, tables, streams, plan, params)
    assert list(scores) == state[KK.S_TOTALS : KK.S_TOTALS + 4].tolist()
    assert rounds == state[KK.S_ROUND] == KK_RULES["rounds"]
    assert np.array_equal(rolled, state) and np.array_equal(rolled_streams, streams)


def test_kk_play_out_from_the_deal_is_the_chunk_loops_game() -> None:
    cols = KK.play_chunk(KK_RULES, 4, 21, 0, 4, KK_SEATS, False)
    for game in range(4):
        state, tables, streams, plan, params, scratch = kk_game(21, game)
        scores = np.zeros(4)
        KK.play_out(state, tables, streams, plan, params, scratch, scores)
        assert list(scores) == list(cols.scores[game])


def kk_public(state: np.ndarray) -> list[int]:
    """Everything of a kk position but the deck's order (every seat sees the same)."""
    n = int(state[KK.S_DECK_N])
    out = state.copy()
    out[KK.S_DECK : KK.S_DECK + n] = np.sort(state[KK.S_DECK : KK.S_DECK + n])
    out[KK.S_DECK + n : KK.S_DECK + KK.DECK] = 0  # past the deck: no card
    out[KK.S_EVENTS : KK.S_EVENTS + KK.N_EVENTS] = 0  # no view shows them: a world resets
    out[KK.S_HELD : KK.S_HELD + KK.MAX_PLAYERS] = 0  # them, and card impact's bits
    return out.tolist()


def kk_world(state: np.ndarray, key: int, determinize: Callable[..., int]):
    tables = KK.encode_rules(KK_RULES, 4)
    out, out_streams = np.zeros_like(state), np.zeros((5, 2), np.uint64)
    determinize(state, tables, 0, np.array([[key, 0]], np.uint64), out, out_streams)
    return out, out_streams


def kk_leaking_determinize(state, tables, seat, rng, out, out_streams) -> int:
    """The control: the deck shuffled from the order the true state holds it."""
    out[:] = state
    KK.deal_unseen(rng, out, int(state[KK.S_DECK_N]), out_streams)
    return 0


KK_POSITIONS = [(21, 2, 3), (22, 0, 9), (23, 4, 14)]


@pytest.mark.parametrize(("seed", "game", "moves"), KK_POSITIONS)
def test_kk_world_keeps_what_the_seat_sees_and_reseeds_chance(
    seed: int, game: int, moves: int
) -> None:
    state, _, streams = kk_mid_game(seed, game, moves)[:3]
    before = state.copy()
    world, world_streams = kk_world(state, 5, KK.determinize)
    assert np.array_equal(state, before)
    assert kk_public(world) == kk_public(state)
    n = int(state[KK.S_DECK_N])
    assert not np.array_equal(world[KK.S_DECK : KK.S_DECK + n], state[KK.S_DECK : KK.S_DECK + n])
    # The world's chance stream is drawn from the bot's rng, not the game's.
    assert world_streams[0, 1] == 0 and world_streams[0, 0] != streams[0, 0]
    assert kk_world(state, 6, KK.determinize)[1][0, 0] != world_streams[0, 0]


@pytest.mark.parametrize(
    ("determinize", "leaks"), [(KK.determinize, False), (kk_leaking_determinize, True)]
)
@pytest.mark.parametrize(("seed", "game", "moves"), KK_POSITIONS)
def test_kk_worlds_of_states_alike_to_the_seat_are_identical(
    determinize: Callable[..., int], leaks: bool, seed: int, game: int, moves: int
) -> None:
    state = kk_mid_game(seed, game, moves)[0]
    other = state.copy()
    n = int(state[KK.S_DECK_N])
    other[KK.S_DECK : KK.S_DECK + n] = np.random.default_rng(seed).permutation(
        state[KK.S_DECK : KK.S_DECK + n]
    )
    assert kk_public(other) == kk_public(state) and not np.array_equal(other, state)
    a, a_streams = kk_world(state, 7, determinize)
    b, b_streams = kk_world(other, 7, determinize)
    assert np.array_equal(a_streams, b_streams)
    assert np.array_equal(a, b) != leaks


# -- Da Qi Zi ---------------------------------------------------------------------------

DQZ_RULES = knobs.defaults(dqz.KNOBS)  # must beat when able: discards reveal
DQZ_SEATS: list[tuple[str, dict[str, Any]]] = [
    ("heuristic", {}), ("random", {}), ("heuristic", {}), ("random", {})
]  # fmt: skip
DK = DQ.K


def dqz_game(seed: int, game: int, rules: dict[str, Any] = DQZ_RULES) -> tuple[Any, ...]:
    tables = DQ.encode_rules(rules)
    state, streams = DQ.new_state(), DQ.new_streams()
    init_streams(streams, seed, game)
    DQ.new_game(state, tables, streams)
    plan, params = DQ.encode_bots(DQZ_SEATS)
    return state, tables, streams, plan, params, DQ.new_scratch(state)


def dqz_step(state, tables, streams, plan, params) -> None:
    moves = np.zeros(DQ.MAX_LEGAL, np.int64)
    n = DQ.legal(state, tables, moves)
    if n == 1:
        action = moves[0]
    else:
        seat = int(state[DQ.S_TO_ACT])
        kind, at = plan[DQ.PLAN_KIND + seat], plan[DQ.PLAN_PARAMS + seat]
        action = DQ.choose(state, tables, streams, moves, n, kind, params[at : at + DQ.N_PARAMS])
    DQ.apply(state, tables, streams, action)


def dqz_mid_game(seed: int, game: int, moves: int, rules: dict[str, Any] = DQZ_RULES):
    parts = dqz_game(seed, game, rules)
    for _ in range(moves):
        dqz_step(*parts[:5])
    assert parts[0][DQ.S_OVER] == 0
    return parts


@pytest.mark.parametrize("moves", [0, 9, 30, 75])
def test_dqz_play_out_plays_the_step_paths_game(moves: int) -> None:
    state, tables, streams, plan, params, scratch = dqz_mid_game(31, 1, moves)
    rolled, rolled_streams = state.copy(), streams.copy()
    scores = np.zeros(4)
    deals = DQ.play_out(rolled, tables, rolled_streams, plan, params, scratch, scores)
    while state[DQ.S_OVER] == 0:
        dqz_step(state, tables, streams, plan, params)
    assert list(scores) == state[DQ.S_CHIPS : DQ.S_CHIPS + 4].tolist()
    assert deals == state[DQ.S_EVENTS + DQ.E_DEALS] >= 1
    assert np.array_equal(rolled, state) and np.array_equal(rolled_streams, streams)


def test_dqz_play_out_from_the_deal_is_the_chunk_loops_game() -> None:
    cols = DQ.play_chunk(DQZ_RULES, 4, 31, 0, 4, DQZ_SEATS, False)
    for game in range(4):
        state, tables, streams, plan, params, scratch = dqz_game(31, game)
        scores = np.zeros(4)
        DQ.play_out(state, tables, streams, plan, params, scratch, scores)
        assert list(scores) == list(cols.scores[game])


def dqz_entries(state: np.ndarray) -> list[list[int]]:
    return [
        state[DQ.S_FD + j * DQ.FD_WIDTH : DQ.S_FD + (j + 1) * DQ.FD_WIDTH].tolist()
        for j in range(int(state[DQ.S_FD_N]))
    ]


def dqz_public(state: np.ndarray, seat: int) -> list[int]:
    """A dqz position less what `seat` can't see: the other hands (their sizes stay),
    the kinds of the other seats' face-down discards, the deal's shuffle."""
    out = state.copy()
    for r in range(4):
        if r != seat:
            out[DQ.S_HANDS + r * DK : DQ.S_HANDS + (r + 1) * DK] = 0
            out[DQ.S_PACKED + r] = 0
    for j, entry in enumerate(dqz_entries(state)):
        if entry[DQ.FD_SEAT] != seat:
            out[DQ.S_FD + j * DQ.FD_WIDTH + DQ.FD_PACKED] = 0
    out[DQ.S_DECK : DQ.S_DECK + DQ.N_CARDS] = 0
    out[DQ.S_EVENTS : DQ.S_EVENTS + DQ.N_EVENTS] = 0  # no view shows them: reset in a world
    return out.tolist()


def dqz_hidden_slots(state: np.ndarray, seat: int) -> list[tuple[int, int]]:
    """(owner, kind) of every card `seat` can't see, slot by slot: owner r < 4 a hand,
    4 + j face-down discard j."""
    slots = []
    for r in range(4):
        if r != seat:
            for k in range(DK):
                slots += [(r, k)] * int(state[DQ.S_HANDS + r * DK + k])
    for j, entry in enumerate(dqz_entries(state)):
        if entry[DQ.FD_SEAT] != seat:
            packed = entry[DQ.FD_PACKED]
            for k in range(DK):
                slots += [(4 + j, k)] * ((packed >> (4 * k)) & 15)
    return slots


def dqz_with_hidden(state: np.ndarray, seat: int, slots: list[tuple[int, int]]) -> np.ndarray:
    """`state` with the unseen cards laid as (owner, kind) `slots` say."""
    out = state.copy()
    for owner, _ in slots:
        if owner < 4:
            out[DQ.S_HANDS + owner * DK : DQ.S_HANDS + (owner + 1) * DK] = 0
            out[DQ.S_PACKED + owner] = 0
        else:
            out[DQ.S_FD + (owner - 4) * DQ.FD_WIDTH + DQ.FD_PACKED] = 0
    for owner, kind in slots:
        if owner < 4:
            out[DQ.S_HANDS + owner * DK + kind] += 1
            out[DQ.S_PACKED + owner] += 1 << (4 * kind)
        else:
            out[DQ.S_FD + (owner - 4) * DQ.FD_WIDTH + DQ.FD_PACKED] += 1 << (4 * kind)
    return out


def dqz_world(state, seat, key, determinize, rules=DQZ_RULES):
    tables = DQ.encode_rules(rules)
    out, out_streams = np.zeros_like(state), DQ.new_streams()
    dropped = determinize(state, tables, seat, np.array([[key, 0]], np.uint64), out, out_streams)
    return out, out_streams, dropped


def dqz_leaking_determinize(state, tables, seat, rng, out, out_streams) -> int:
    """The control: the pool in the order the true state holds it (the other hands by
    seat, then the others' discards), dealt by the same code."""
    out[:] = state
    pool = np.array([kind for _, kind in dqz_hidden_slots(state, seat)] + [0] * 32, np.int64)
    return int(DQ.deal_unseen(state, tables, seat, rng, out, out_streams, pool, len(pool) - 32))


def dqz_constraints_hold(world: np.ndarray, seat: int) -> int:
    """Checks every must-beat revelation of the other seats on `world`; returns how many."""
    tables = DQ.encode_rules(DQZ_RULES)
    entries = dqz_entries(world)
    checked = 0
    for j, entry in enumerate(entries):
        r, beat = entry[DQ.FD_SEAT], entry[DQ.FD_BEAT]
        if r == seat or beat < 0:
            continue
        held = int(world[DQ.S_PACKED + r]) + int(world[DQ.S_UP_PLAYED + r]) - entry[DQ.FD_UP]
        held += sum(e[DQ.FD_PACKED] for e in entries[j:] if e[DQ.FD_SEAT] == r)
        assert not DQ.can_beat(tables, np.int64(held), beat)
        checked += 1
    return checked


# Positions with face-down discards of every seat, some of them must-beat revelations.
DQZ_POSITIONS = [(31, 0, 18), (32, 1, 26), (34, 0, 26), (35, 2, 18)]


@pytest.mark.parametrize(("seed", "game", "moves"), DQZ_POSITIONS)
def test_dqz_world_keeps_what_the_seat_sees_and_what_discards_revealed(
    seed: int, game: int, moves: int
) -> None:
    state = dqz_mid_game(seed, game, moves)[0]
    before = state.copy()
    checked = 0
    for seat in range(4):
        world, world_streams, dropped = dqz_world(state, seat, 40 + seat, DQ.determinize)
        assert np.array_equal(state, before)
        assert dqz_public(world, seat) == dqz_public(state, seat)
        hidden = sorted(k for _, k in dqz_hidden_slots(state, seat))
        assert sorted(k for _, k in dqz_hidden_slots(world, seat)) == hidden
        assert world_streams[0, 1] == 0
        if dropped == 0:
            checked += dqz_constraints_hold(world, seat)
    assert checked > 0, "no revelation was checked: the position tests little"


def test_dqz_positions_hold_revealing_discards() -> None:
    """The positions above test both kinds of constraint: discards that could not beat a
    single (sampled exactly) and a combination of several cards (by rejection)."""
    beaten = [
        e[DQ.FD_BEAT]
        for seed, game, moves in DQZ_POSITIONS
        for e in dqz_entries(dqz_mid_game(seed, game, moves)[0])
        if e[DQ.FD_BEAT] >= 0
    ]
    tables = DQ.encode_rules(DQZ_RULES)
    sizes = {int(tables[DQ.T_MOVE_SIZE + b]) for b in beaten}
    assert 1 in sizes and max(sizes) > 1


@pytest.mark.parametrize(
    ("determinize", "leaks"), [(DQ.determinize, False), (dqz_leaking_determinize, True)]
)
@pytest.mark.parametrize(("seed", "game", "moves"), DQZ_POSITIONS)
def test_dqz_worlds_of_states_alike_to_the_seat_are_identical(
    determinize: Callable[..., int], leaks: bool, seed: int, game: int, moves: int
) -> None:
    state = dqz_mid_game(seed, game, moves)[0]
    seat = int(state[DQ.S_TO_ACT])
    slots = dqz_hidden_slots(state, seat)
    kinds = [k for _, k in slots]
    # Every strong card to one rival first (adversarially stacked), then shuffled.
    for order in (
        sorted(kinds, reverse=True),
        list(np.random.default_rng(seed).permutation(kinds)),
    ):
        other = dqz_with_hidden(
            state, seat, [(o, int(k)) for (o, _), k in zip(slots, order, strict=True)]
        )
        other[DQ.S_DECK : DQ.S_DECK + DQ.N_CARDS] = np.arange(DQ.N_CARDS)
        # The last-trick rule's event counts a face-down single above the best: hidden.
        other[DQ.S_EVENTS + DQ.E_LAST_RULE] += 1
        if np.array_equal(other, state):
            continue
        assert dqz_public(other, seat) == dqz_public(state, seat)
        a, a_streams, _ = dqz_world(state, seat, 9, determinize)
        b, b_streams, _ = dqz_world(other, seat, 9, determinize)
        assert (np.array_equal(a, b) and np.array_equal(a_streams, b_streams)) != leaks


# -- play_out from an engine position ----------------------------------------------------


def kernel_position(game: str, py: Any) -> tuple[Any, np.ndarray, np.ndarray]:
    """(kernel, state, tables) of a Python State's position."""
    if game == "fish-dash-cash":
        return (F, *F.from_state(py))
    if game == "kimekimera":
        return (KK, *KK.from_state(py))
    return DQ, DQ.from_python(py), DQ.encode_rules(py.rules)


@pytest.mark.parametrize("name", ["fdc-5p", "kk-4p-bots", "dqz-4p"])
def test_play_out_from_an_engine_position_is_the_engines_game(name: str) -> None:
    """The engine stopped mid-game and converted: play_out ends the game as the engine
    does with the same bots and streams (chance going on from the State's own stream,
    each seat's bot stream from its start)."""
    variant = load(ROOT / "variants" / f"{name}.yaml")
    builtin = bot_registry.builtin(variant.game)
    slots = [
        (s.bot, dict(bot_params_with_defaults(builtin[s.bot], s.params))) for s in variant.seats
    ]
    players = variant.players
    compared = 0
    for index in range(6):
        py, _ = stopped_mid_game(variant, 5, index, 3 + 2 * index)
        if py.is_terminal():
            continue
        compared += 1
        kernel, state, tables = kernel_position(variant.game, py)
        streams = np.zeros((1 + players, 2), np.uint64)
        init_streams(streams, 5, index)
        chance = getattr(py, "rng", None)  # fdc draws chance only at the deal
        if chance is not None:
            streams[0] = chance.key, chance.counter
        plan, params = kernel.encode_bots(slots)
        scores = np.zeros(players)
        kernel.play_out(state, tables, streams, plan, params, kernel.new_scratch(state), scores)
        bots = [builtin[bot].factory(**given) for bot, given in slots]
        rngs = [Stream(5, index, bot_stream(s)) for s in range(players)]
        while not py.is_terminal():
            seat, legal = py.current_player(), py.legal_actions()
            move = legal[0] if len(legal) == 1 else bots[seat].act(py.view(seat), legal, rngs[seat])
            py.apply_action(move)
        assert tuple(scores) == py.record().scores, (name, index)
    assert compared >= 4


# -- role games: the compiled determinize deals the view's world, recall kept ----------


def role_positions(path: Path, players: int, count: int) -> list[Any]:
    """Positions of random games of a role game file (Python engine): every decision,
    and each game's end."""
    from balancer.games.roles import load_file
    from balancer.games.roles.definition import game_knobs
    from balancer.games.roles.engine import State

    game = load_file(path)
    rules = knobs.defaults(game_knobs(game))
    found = []
    index = 0
    while len(found) < count:
        state = State(game, rules, players, Stream(4, index, 0))
        pick = Stream(4, index, 99)
        while not state.is_terminal():
            legal = state.legal_actions()
            if len(legal) > 1:
                found.append(state.clone())
            state.apply_action(legal[pick.below(len(legal))])
        found.append(state.clone())
        index += 1
    return found[:count]


def forgetting(state: np.ndarray, tables: np.ndarray, *args: Any) -> int:
    """The control: the compiled determinize of a position whose seats recall nothing
    they saw go face down (every card of every face-down zone unsure)."""
    from balancer.games.roles import kernel as R
    from balancer.games.roles.kernel.recall import face_down, unsure_at
    from balancer.games.roles.kernel.tables import Region

    forgot = state.copy()
    region = Region(state, tables)
    for z in range(int(tables[R.T_NZONES])):
        if face_down(tables, z):
            for s in range(region.players):
                start, length = region.zone(z, s)
                for card in state[start : start + state[length]]:
                    forgot[unsure_at(state, tables) + card] = 1
    return int(R.determinize(forgot, tables, *args))


@pytest.mark.parametrize(
    ("path", "players"),
    [
        (ROOT / "balancer" / "games" / "roles" / "shipped" / "fish-dash-cash-roles.yaml", 4),
        (ROOT / "tests" / "kernels" / "recall.yaml", 3),
        (ROOT / "tests" / "kernels" / "every_primitive.yaml", 3),
    ],
    ids=lambda p: getattr(p, "stem", str(p)),
)
@pytest.mark.parametrize("compiled", ["determinize", "forgetting"])
def test_a_role_worlds_compiled_deal_is_the_views_world(
    path: Path, players: int, compiled: str
) -> None:
    """From every seat at decisions and ends of random games, the compiled determinize
    deals, from the same stream, the world roles/determinize.py draws from the seat's
    view alone: the same hands, pile, zones (the cards recalled in rivals' face-down
    zones kept first) and unsure flags. The control forgets what was seen go face
    down: its worlds differ where the view recalls a card there."""
    from balancer.games.roles import kernel as R
    from balancer.games.roles.determinize import determinize

    deal = R.determinize if compiled == "determinize" else forgetting
    differ = recalled = 0
    for n, py in enumerate(role_positions(path, players, 120)):
        state, tables = R.from_state(py)
        for seat in range(players):
            view = py.view(seat)
            stream = Stream(9, n, seat)
            world = determinize(py.game, view, stream.copy())
            out = state.copy()
            deal(state, tables, seat, np.array([[stream.key, stream.counter]], np.uint64), out,
                 np.zeros((players + 1, 2), np.uint64))  # fmt: skip
            same = R.snapshot(out, tables, py.game) == R.snapshot_of(world)
            differ += not same
            seen = [c for zone in view.recalled.values() for s, cards in enumerate(zone)
                    if s != seat for c in cards]  # fmt: skip
            recalled += bool(seen)
            if compiled == "determinize":
                assert same, (path.stem, n, seat)
    assert recalled > 20  # rivals' face-down zones held cards the seat recalls
    if compiled == "forgetting":
        assert differ > 20
