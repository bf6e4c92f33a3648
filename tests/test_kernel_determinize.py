"""Compiled rollouts: `play_out` from any position and `determinize` from a seat's view.

For each game, from mid-game positions reached by the compiled bots:

- `play_out` from a position plays the game the step path plays from there
  (legal / choose / apply called one move at a time) with the same streams,
  and from the deal the chunk loop's game;
- a world keeps everything the seat sees (its hand, every public array part,
  every hand size) and the original state is untouched;
- two true states that differ only in cards the seat can't see give
  bit-identical worlds from the same rng; a leaking determinizer (the pool
  taken in the order the true state holds it) fails that test: the control.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from balancer import knobs
from balancer.games.fdc import kernel as F
from balancer.games.fdc import rules as fdc

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


def fdc_world(state: np.ndarray, seat: int, key: int, determinize: Callable[..., None]):
    tables = F.make_tables(FDC_RULES, int(state[F.PLAYERS]))
    out = np.zeros_like(state)
    rng = np.array([[key, 0]], np.uint64)
    out_streams = F.new_streams(int(state[F.PLAYERS]))
    determinize(state, tables, seat, rng, out, out_streams)
    return out


def fdc_leaking_determinize(state, tables, seat, rng, out, out_streams) -> None:
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
    determinize: Callable[..., None], leaks: bool, seed: int, game: int, moves: int
) -> None:
    state = fdc_mid_game(seed, game, moves)[0]
    seat = int(F.current_player(state))
    other = fdc_reshuffled(state, seat, seed)
    assert fdc_public(other, seat) == fdc_public(state, seat)
    same = np.array_equal(
        fdc_world(state, seat, 7, determinize), fdc_world(other, seat, 7, determinize)
    )
    assert same != leaks
