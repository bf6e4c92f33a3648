"""Da Qi Zi: a Python State converted to the kernel (`from_python`) carries the deal's
record of face-down discards that the compiled `determinize` reads (S_FD_N,
S_UP_PLAYED, S_FD), exactly as the kernel writes it when it plays the moves itself.

- The same game played move for move in the engine and in the kernel, stopped
  mid-deal after face-down discards: the converted array equals the kernel's on the
  record and everywhere else (but the deal's shuffle scratch and record entries of
  earlier deals past S_FD_N, which nothing reads), and the compiled determinize
  gives identical worlds from both with the same rng. The control: the record left
  empty (the conversion before it was written) fails that equality.
- A deal laid by hand (RULES.md §3, must beat when able; docs/determinize.md): a
  seat that discarded both generals face down never sees them dealt to anyone else
  in its worlds, and two seats that discarded under a pair never get a pair that
  beats it in another seat's worlds; with the revelations blanked out (the
  control) some world gives them one.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from balancer import knobs
from balancer.games.daqizi import combos as dc
from balancer.games.daqizi import compiled
from balancer.games.daqizi import engine as daqizi
from balancer.games.daqizi import kernel as kn
from balancer.rng import CHANCE, Stream, bot_stream, init_streams
from tests.unit.test_daqizi import arrange, combo, discard, hand_of, kind, new

DEFAULTS = knobs.defaults(daqizi.KNOBS)
K = kn.K
RECORD = slice(kn.S_FD_N, kn.STATE_SIZE)


def live(array: np.ndarray) -> np.ndarray:
    """`array` less what no reader looks at: the deal's shuffle scratch, and the record's
    entries past S_FD_N (left over from earlier deals: a new deal only resets the count)."""
    out = array.copy()
    out[kn.S_DECK : kn.S_DECK + kn.N_CARDS] = 0
    out[kn.S_FD + int(array[kn.S_FD_N]) * kn.FD_WIDTH :] = 0
    return out


def old_from_python(state: daqizi.State) -> np.ndarray:
    """The control: the conversion as it was, with no record of face-down discards."""
    out = kn.from_python(state)
    out[RECORD] = 0
    return out


def played_both_ways(
    seed: int, changes: dict[str, Any], deal: int, downs: int
) -> tuple[daqizi.State, np.ndarray, np.ndarray]:
    """One game played in the engine and the kernel move for move (moves picked by a
    walk stream among the engine's legal ones), stopped in deal `deal` once it holds
    `downs` face-down discards; (engine state, kernel state, tables)."""
    rules = {**DEFAULTS, **changes}
    py = daqizi.new_state(rules, 4, Stream(seed, 0, CHANCE))
    tables = kn.encode_rules(rules)
    array, streams = kn.new_state(), kn.new_streams()
    init_streams(streams, seed, 0)
    kn.new_game(array, tables, streams)
    walk = Stream(seed, 1, 0)
    moves = np.zeros(kn.MAX_LEGAL, np.int64)
    while py.deal < deal or len(py.face_down) < downs:
        assert not py.is_terminal(), "the game ended before the position wanted"
        legal = py.legal_actions()
        assert moves[: kn.legal(array, tables, moves)].tolist() == legal
        action = legal[walk.below(len(legal))]
        py.apply_action(action)
        kn.apply(array, tables, streams, action)
    return py, array, tables


# (seed, rule changes, deal, face-down discards this deal)
POSITIONS = [
    (1, {}, 1, 3),
    (3, {}, 1, 11),  # the last trick: a discard the last-trick rule forced
    (2, {}, 2, 5),
    (3, {}, 3, 7),
    (4, {"mixed_suit_combos": True}, 2, 4),
    (5, {"may_discard_when_able": True}, 1, 6),
    (6, {"may_discard_when_able": True, "mixed_suit_combos": True}, 2, 5),
]


@pytest.mark.parametrize(("convert", "same"), [(kn.from_python, True), (old_from_python, False)])
@pytest.mark.parametrize(("seed", "changes", "deal", "downs"), POSITIONS)
def test_the_converted_array_is_the_kernels(
    convert: Callable[[daqizi.State], np.ndarray],
    same: bool,
    seed: int,
    changes: dict[str, Any],
    deal: int,
    downs: int,
) -> None:
    py, array, _ = played_both_ways(seed, changes, deal, downs)
    assert array[kn.S_FD_N] == downs
    converted = convert(py)
    assert np.array_equal(live(converted), live(array)) == same
    # Outside the record the old conversion was already right.
    outside = live(converted)
    outside[RECORD] = live(array)[RECORD]
    assert np.array_equal(outside, live(array))


def entries(array: np.ndarray) -> list[list[int]]:
    return [
        array[kn.S_FD + j * kn.FD_WIDTH : kn.S_FD + (j + 1) * kn.FD_WIDTH].tolist()
        for j in range(int(array[kn.S_FD_N]))
    ]


def test_the_positions_exercise_every_field_of_the_record() -> None:
    """Among the positions above: discards that reveal (a single and a combination of
    several cards beaten) and ones that don't, of several sizes, by a seat that had
    played face up earlier in the deal (FD_UP), after an earlier deal's record."""
    rows = [
        (e, changes, deal)
        for seed, changes, deal, downs in POSITIONS
        for e in entries(played_both_ways(seed, changes, deal, downs)[1])
    ]
    beaten = [e[kn.FD_BEAT] for e, _, _ in rows if e[kn.FD_BEAT] >= 0]
    assert {dc.MOVE_SIZE[b] for b in beaten} >= {1, 2}
    assert any(e[kn.FD_BEAT] < 0 for e, changes, _ in rows if not changes)  # last-trick rule
    assert len({e[kn.FD_CARDS] for e, _, _ in rows}) >= 2
    assert any(e[kn.FD_UP] for e, _, _ in rows)
    assert any(deal > 1 for _, _, deal in rows)


def world(array: np.ndarray, tables: np.ndarray, seat: int, key: int) -> tuple[Any, ...]:
    out, out_streams = np.zeros_like(array), kn.new_streams()
    dropped = kn.determinize(array, tables, seat, np.array([[key, 0]], np.uint64), out, out_streams)
    return out, out_streams, dropped


@pytest.mark.parametrize(("seed", "changes", "deal", "downs"), POSITIONS)
def test_worlds_from_the_converted_position_are_the_kernels(
    seed: int, changes: dict[str, Any], deal: int, downs: int
) -> None:
    py, array, tables = played_both_ways(seed, changes, deal, downs)
    converted = kn.from_python(py)
    for seat in range(4):
        for key in (seat, 100 + seat):
            a, a_streams, a_dropped = world(array, tables, seat, key)
            b, b_streams, b_dropped = world(converted, tables, seat, key)
            assert np.array_equal(live(a), live(b))
            assert np.array_equal(a_streams, b_streams) and a_dropped == b_dropped


def test_the_old_conversion_could_not_deal_a_world() -> None:
    """The control of the test above: without the record the pool holds every face-down
    discard's cards but no slot does, and determinize's check that they match stops it."""
    py, _, tables = played_both_ways(2, {}, 2, 5)
    with pytest.raises(AssertionError):
        world(old_from_python(py), tables, 0, 1)


def test_the_search_bots_position_carries_the_record() -> None:
    """compiled.py's `from_state` (what the search bot lays a world with) converts with it."""
    py, array, _ = played_both_ways(2, {}, 2, 5)
    position = compiled.KERNEL.from_state(py, [Stream(2, 0, bot_stream(s)) for s in range(4)])
    assert np.array_equal(position.state[RECORD], kn.from_python(py)[RECORD])
    assert position.state[kn.S_FD_N] == 5


# -- a deal laid by hand ------------------------------------------------------------------

HANDS = [
    ["bR", "bR", "bS", "bS", "bS", "bS", "bS", "rS"],
    ["bG", "rG", "bE", "rE", "bA", "rA", "rS", "rS"],
    ["rR", "rR", "bC", "bC", "rC", "rC", "bH", "bH"],
    ["rS", "rS", "rH", "rH", "bE", "rE", "bA", "rA"],
]
# Seat 0 leads the black chariots; seat 1 holds no pair above them and must discard:
# both generals. Seat 2 beats with the red chariots; seat 3 holds no pair above them
# (red horses are below) and discards its advisors. Seat 2 leads next.
MOVES = [combo("bR", "bR"), discard("bG", "rG"), combo("rR", "rR"), discard("bA", "rA")]
# The pairs above the red chariots, and above the black ones but for the red chariots
# (both face up now): elephants and advisors of either suit. No general makes a pair
# (one copy each).
ABOVE_CHARIOTS = [kind(c) for c in ("bE", "rE", "bA", "rA")]


def hand_made() -> tuple[daqizi.State, np.ndarray, np.ndarray]:
    """The deal above in the engine, and the same moves played in the kernel from the
    deal's start (converted before any discard: nothing to record)."""
    py = new()
    arrange(py, HANDS, 0)  # all 32 cards in hand
    py.tricks = 0
    tables = kn.encode_rules(py.rules)
    array = kn.from_python(py)
    assert array[kn.S_FD_N] == 0
    streams = kn.streams_from(py.rng, [Stream(1, 0, bot_stream(s)) for s in range(4)])
    for move in MOVES:
        assert move in py.legal_actions()
        py.apply_action(move)
        kn.apply(array, tables, streams, move)
    py.check_invariants()
    return py, array, tables


def held_then(world: np.ndarray, seat: int) -> list[int]:
    """What `seat` held at its discard in `world`: its hand and its discard's kinds."""
    packed = int(world[kn.S_PACKED + seat])
    for e in entries(world):
        if e[kn.FD_SEAT] == seat:
            packed += e[kn.FD_PACKED]
    return [(packed >> (4 * k)) & 15 for k in range(K)]


def unseen_kinds(world: np.ndarray, seat: int) -> list[int]:
    """Per kind, the cards of `world` in the other hands and the others' discards."""
    counts = [0] * K
    for r in range(4):
        if r != seat:
            for k in range(K):
                counts[k] += int(world[kn.S_HANDS + r * K + k])
    for e in entries(world):
        if e[kn.FD_SEAT] != seat:
            for k in range(K):
                counts[k] += (e[kn.FD_PACKED] >> (4 * k)) & 15
    return counts


def test_the_hand_made_record_is_the_kernels() -> None:
    py, array, _ = hand_made()
    converted = kn.from_python(py)
    assert np.array_equal(live(converted), live(array))
    # Worked out by hand: seat 1 revealed it could not beat the black chariots (before
    # any face-up play of its own), seat 3 the red chariots; seat 2's pair is face up.
    pack = dc.pack
    assert entries(converted) == [
        [1, 2, pack(hand_of("bG", "rG")), combo("bR", "bR"), 0],
        [3, 2, pack(hand_of("bA", "rA")), combo("rR", "rR"), 0],
    ]
    up = converted[kn.S_UP_PLAYED : kn.S_UP_PLAYED + 4].tolist()
    assert up == [pack(hand_of("bR", "bR")), 0, pack(hand_of("rR", "rR")), 0]


def test_a_seats_own_discards_never_come_back_in_its_worlds() -> None:
    """Seat 1 discarded both generals: its worlds deal the other 20 cards it has not
    seen (all 32 less its hand, its discard and the four chariots face up), never a
    general."""
    py, _, tables = hand_made()
    converted = kn.from_python(py)
    rest = [2] * K
    rest[kind("bS")] = rest[kind("rS")] = 5
    rest[kind("bG")] = rest[kind("rG")] = 1
    for code in [*HANDS[1][2:], "bG", "rG", "bR", "bR", "rR", "rR"]:
        rest[kind(code)] -= 1
    assert sum(rest) == 20 and rest[kind("bG")] == rest[kind("rG")] == 0
    for key in range(40):
        w = world(converted, tables, 1, key)[0]
        assert unseen_kinds(w, 1) == rest
        assert held_then(w, 1)[kind("bG")] == held_then(w, 1)[kind("rG")] == 1


def blanked(array: np.ndarray) -> np.ndarray:
    """The control: the record with every revelation blanked out (FD_BEAT -1)."""
    out = array.copy()
    for j in range(int(array[kn.S_FD_N])):
        out[kn.S_FD + j * kn.FD_WIDTH + kn.FD_BEAT] = -1
    return out


@pytest.mark.parametrize(("reveals", "kept"), [(True, True), (False, False)])
def test_a_discard_under_a_pair_is_never_dealt_a_pair_above_it(reveals: bool, kept: bool) -> None:
    """In seat 0's worlds (22 unseen cards, two of each elephant and advisor among
    them) neither seat 1 nor seat 3 held, when it discarded, a pair of elephants or
    advisors (the pairs above the chariots). With the revelations blanked, the unseen
    cards fall anywhere and some world breaks that."""
    py, _, tables = hand_made()
    converted = kn.from_python(py)
    if not reveals:
        converted = blanked(converted)
    broken = 0
    for key in range(60):
        w, _, dropped = world(converted, tables, 0, key)
        assert dropped == 0
        for seat in (1, 3):
            held = held_then(w, seat)
            assert sum(held) == 8
            broken += any(held[k] >= 2 for k in ABOVE_CHARIOTS)
    assert (broken == 0) == kept
