"""The check every compiled kernel passes against its game's engine, game for game.

`check_kernel(definition, rules, players, bots, seed, games)` plays each game
twice, on the engine (the authority) and on the kernel through the one kernel
interface (games/kernel_api.py), side by side, and holds the kernel to:

- the same seat to act and the same legal moves, in the same order, at every step;
- the same bot choices: each seat's engine bot and its compiled twin, drawing
  from the same seat stream, pick the same move (forced moves are not asked);
- the same record at the end;
- `play_out` from the deal plays the same game (a copy of the dealt position);
- copies are independent: a copy taken mid-game and played out to the end
  leaves the original to play on to the same end, and ends as the engine's
  clone of that position ends when played out with the same bots;
- `from_state` of an engine position mid-game plays on (compiled, `play_out`)
  to the same end as the engine from that position;
- `play_chunk` gives the same scores, lengths and events, and the same figures of how
  each game played (stats/how_it_plays.py: figures_of the engine record's progress,
  as sim/play.py computes them), to the last bit, NaN where the engine's is NaN.

Each failure is an AssertionError naming the game, seed, game index and move.
It runs over every registered game with a kernel (tests/kernels/test_kernel_conformance.py);
a new game's kernel needs no test of its own for these.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from balancer.games import progress as how_it_plays
from balancer.games.api import GameRecord
from balancer.games.definition import GameDefinition
from balancer.games.kernel_api import Kernel, Position, SeatBots
from balancer.rng import CHANCE, Stream, bot_stream


def _engine_bots(definition: GameDefinition, bots: Sequence[tuple[str, Mapping[str, Any]]]) -> list:
    specs = definition.bots()
    return [specs[name].factory(**params) for name, params in bots]


def _streams(seed: int, index: int, players: int) -> list[Stream]:
    return [Stream(seed, index, bot_stream(seat)) for seat in range(players)]


def _engine_play_out(state: Any, engine_bots: list, streams: Sequence[Stream]) -> GameRecord:
    """The engine's game from `state` to the end, as sim/play.py plays it, its turns and
    choices counted as that loop counts them."""
    turns = choices = 0
    while not state.is_terminal():
        legal = state.legal_actions()
        turns += 1
        if len(legal) == 1:
            state.apply_action(legal[0])
            continue
        choices += 1
        seat = state.current_player()
        state.apply_action(engine_bots[seat].act(state.view(seat), legal, streams[seat]))
    return dataclasses.replace(state.record(), decisions=(turns, choices))


def _same_end(kernel: Kernel, position: Position, engine: GameRecord, what: str) -> None:
    got = kernel.record(position)
    if tuple(kernel.scores(position).tolist()) != got.scores:
        raise AssertionError(f"{what}: scores {kernel.scores(position)}, record {got.scores}")
    if (got.scores, got.length, dict(got.events)) != (
        engine.scores,
        engine.length,
        dict(engine.events),
    ):
        raise AssertionError(f"{what}: kernel ends {got}, engine {engine}")


def check_kernel(
    definition: GameDefinition,
    rules: Mapping[str, Any],
    players: int,
    bots: Sequence[tuple[str, Mapping[str, Any]]],
    *,
    seed: int = 1,
    games: int = 5,
    margin: int = how_it_plays.NO_MARGIN,
) -> None:
    """Hold `definition`'s kernel to its engine (see the module's docstring); `bots[s]` is
    seat s's (bot name, parameters with defaults), a bot both the engine and kernel play;
    the chunk's figures are taken at the comeback `margin`."""
    kernel = definition.kernel()
    if kernel is None:
        raise ValueError(f"{definition.name} has no kernel")
    spec = definition.spec
    seat_bots = kernel.encode_bots(bots)
    for index in range(games):
        where = f"{spec.name}: seed {seed}, game {index}"
        engine_record = _check_one_game(
            definition, kernel, rules, players, bots, seat_bots, seed, index, where
        )
        dealt = kernel.new_position(rules, players)
        kernel.deal(dealt, seed, index)
        kernel.play_out(dealt, seat_bots)
        _same_end(kernel, dealt, engine_record, f"{where}: play_out from the deal")
    chunk = kernel.play_chunk(rules, players, seed, 0, games, bots, False, margin)
    for index in range(games):
        state = spec.new_state(rules, players, Stream(seed, index, CHANCE))
        record = _engine_play_out(
            state, _engine_bots(definition, bots), _streams(seed, index, players)
        )
        row = (
            tuple(chunk.scores[index].tolist()),
            int(chunk.length[index]),
            dict(zip(spec.events, chunk.events[index].tolist(), strict=True)),
        )
        where = f"{spec.name}: seed {seed}, game {index}"
        if row != (record.scores, record.length, dict(record.events)):
            raise AssertionError(f"{where}: play_chunk gives {row}")
        _same_figures(chunk.figures, index, record, spec.higher_is_better, margin, where)
        if chunk.decisions is None or tuple(chunk.decisions[index].tolist()) != record.decisions:
            counted = None if chunk.decisions is None else chunk.decisions[index].tolist()
            raise AssertionError(
                f"{where}: play_chunk's (turns, choices) {counted}, the engine's {record.decisions}"
            )


def _same_figures(
    figures: np.ndarray | None,
    index: int,
    record: GameRecord,
    higher_is_better: bool,
    margin: int,
    where: str,
) -> None:
    """The chunk's figures of game `index` are the engine's (from its record's progress, one
    row a step); neither kept (a kernel and engine that record no progress) passes."""
    if figures is None and not record.progress:
        return
    if figures is None or not record.progress:
        kept = "the engine's record" if record.progress else "the kernel's chunk"
        raise AssertionError(f"{where}: only {kept} keeps how the game played")
    if len(record.progress) != record.length:
        raise AssertionError(
            f"{where}: the engine kept {len(record.progress)} steps of {record.length}"
        )
    expected = how_it_plays.figures_of(record.progress, record.scores, higher_is_better, margin)
    if not np.array_equal(figures[index], expected, equal_nan=True):
        raise AssertionError(
            f"{where}: play_chunk's figures {figures[index].tolist()}, the engine's "
            f"{expected.tolist()} (progress {record.progress})"
        )


def _check_one_game(
    definition: GameDefinition,
    kernel: Kernel,
    rules: Mapping[str, Any],
    players: int,
    bots: Sequence[tuple[str, Mapping[str, Any]]],
    seat_bots: SeatBots,
    seed: int,
    index: int,
    where: str,
) -> GameRecord:
    """One game stepped on both, move by move; its engine record. A copy and an engine
    position are played out from the middle of the game on the way."""
    spec = definition.spec
    state = spec.new_state(rules, players, Stream(seed, index, CHANCE))
    engine_bots = _engine_bots(definition, bots)
    streams = _streams(seed, index, players)
    position = kernel.new_position(rules, players)
    kernel.deal(position, seed, index)
    middle_copy: tuple[Position, GameRecord] | None = None
    move = 0
    while not state.is_terminal():
        here = f"{where}, move {move}"
        seat = state.current_player()
        if kernel.current_player(position) != seat:
            raise AssertionError(
                f"{here}: kernel's seat {kernel.current_player(position)}, engine's {seat}"
            )
        legal = state.legal_actions()
        n = kernel.legal(position)
        if position.moves[:n].tolist() != list(legal):
            raise AssertionError(
                f"{here}: kernel's moves {position.moves[:n].tolist()}, engine's {legal}"
            )
        if middle_copy is None and move >= 4 and n > 1:
            middle_copy = _probe_middle(
                kernel, state, streams, position, seat_bots, engine_bots, here
            )
            # The probe used buffers of its own: the original's moves are as they were.
            kernel.legal(position)
        if n == 1:
            action = legal[0]
        else:
            action = engine_bots[seat].act(state.view(seat), legal, streams[seat])
            compiled = kernel.choose(position, seat_bots, n)
            if compiled != action:
                raise AssertionError(
                    f"{here}: seat {seat}'s compiled bot plays {compiled}, engine's {action}"
                )
        state.apply_action(action)
        kernel.apply(position, int(action))
        move += 1
    if kernel.current_player(position) != -1:
        raise AssertionError(f"{where}: the engine's game is over, the kernel's is not")
    record: GameRecord = state.record()
    _same_end(kernel, position, record, where)
    if middle_copy is not None:
        copy, copy_end = middle_copy
        _same_end(kernel, copy, copy_end, f"{where}: a copy played out from the middle")
    return record


def _probe_middle(
    kernel: Kernel,
    state: Any,
    streams: Sequence[Stream],
    position: Position,
    seat_bots: SeatBots,
    engine_bots: list,
    here: str,
) -> tuple[Position, GameRecord]:
    """From the middle: a copy of the kernel's position and the engine's position laid
    into the kernel (`from_state`), each played out, against the engine's clone played
    out with the same bots and copies of the same streams. Returns the copy and its
    expected end, checked once the original has played on to its own end."""
    # Bots are functions of (view, legal, rng), with no state of their own to copy.
    end = _engine_play_out(state.clone(), engine_bots, [s.copy() for s in streams])
    copy = position.copy()
    kernel.play_out(copy, seat_bots)
    laid = kernel.from_state(state.clone(), [s.copy() for s in streams])
    _check_determinize(kernel, laid, state.current_player(), seat_bots, here)
    kernel.play_out(laid, seat_bots)
    _same_end(kernel, laid, end, f"{here}: from_state then play_out")
    return copy, end


def _check_determinize(
    kernel: Kernel, position: Position, seat: int, seat_bots: SeatBots, here: str
) -> None:
    """A world dealt for the seat to act leaves `position` as it was, is the same world
    again from the same rng, offers that seat the same moves, in which its bot (a
    function of its view and its stream) picks the same one, and plays to an end."""
    before = position.copy()
    legal = position.moves[: kernel.legal(position)].tolist()
    worlds = []
    for _ in range(2):
        world = position.copy()
        kernel.determinize(position, seat, np.array([[12345, 0]], np.uint64), world)
        worlds.append(world)
    if not (np.array_equal(position.state, before.state)
            and np.array_equal(position.streams, before.streams)):  # fmt: skip
        raise AssertionError(f"{here}: determinize changed the position it read")
    if not np.array_equal(worlds[0].state, worlds[1].state):
        raise AssertionError(f"{here}: determinize from the same rng gave two worlds")
    world = worlds[0]
    if kernel.current_player(world) != seat:
        raise AssertionError(f"{here}: in the world seat {kernel.current_player(world)} acts")
    n = kernel.legal(world)
    if world.moves[:n].tolist() != legal:
        raise AssertionError(f"{here}: the world offers seat {seat} other moves than {legal}")
    if n > 1:
        there = kernel.choose(world.copy(), seat_bots, n)
        kernel.legal(position)
        if kernel.choose(position.copy(), seat_bots, n) != there:
            raise AssertionError(f"{here}: in the world seat {seat}'s bot picks other moves")
    kernel.play_out(world, seat_bots)
    if kernel.current_player(world) != -1:
        raise AssertionError(f"{here}: a world played out does not end")
