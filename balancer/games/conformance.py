"""The checks every game engine passes (OpenSpiel's random_sim_test and its
information-hiding test, our way).

`check_game` plays games to the end with the given bots, exactly as a run
plays them (sim/play.py: the same streams, forced moves not asked), and
checks at every step:

- while not over: a seat to move, legal moves non-empty and distinct, the
  bot's answer among them; at the end no legal move;
- `check_invariants` after every move;
- the declared bounds (`spec.bounds`): moves, record length, every score;
- the record: one score per seat, exactly the declared events, counts whole
  and not negative;
- determinism: the same seed gives the same moves and record, twice, and the
  same record as the run's own loop (`sim.play.play_game`);
- clone independence: a clone shows every seat what the original shows; a
  clone played on differently to the end leaves the original as it was, and
  the original's moves leave an earlier clone as it was (checked through views
  and legal moves, and through the record: the game whose clones were played
  must end as the same game played without them);
- hidden information (`spec.resample_hidden`): a state whose unseen cards are
  redealt shows the seat the same view (and, when it is to move, the same
  legal moves), keeps the invariants, and at least once in a game changes the
  game (another seat's view, or how it ends): a resampler that changes
  nothing tests nothing;
- worlds (`spec.determinize`): a state sampled from a seat's view alone keeps
  the invariants, shows that seat the same view, has the same seat to move,
  the same legal moves when it is that seat, and ends when the game ends
  (docs/determinize.md).

Each failure is an AssertionError naming the game, seed, game index and move.
A game author calls it from a test:

    check_game(spec, rules, players, seed=1, games=5)
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import Any

from balancer.bots.api import Bot, RandomBot
from balancer.games.api import GameRecord, GameSpec
from balancer.rng import CHANCE, Stream, bot_stream

# Streams the checks draw from, apart from every stream a game or bot uses
# (CHANCE is 0 and bot streams are small): probing never shifts the game played.
_PROBE_STREAM = 1 << 40
_RESAMPLE_STREAM = _PROBE_STREAM + 1
_WORLD_STREAM = _PROBE_STREAM + 2
# Steps per game at which a clone is played out to the end (with the original
# played out beside it); resampling is checked at every step.
CLONE_PROBES = 3


class _Where:
    """Names the game and move in every failure."""

    def __init__(self, spec: GameSpec, seed: int, index: int) -> None:
        self.spec, self.seed, self.index, self.move = spec, seed, index, 0

    def fail(self, message: str) -> AssertionError:
        return AssertionError(
            f"{self.spec.name}: seed {self.seed}, game {self.index}, move {self.move}: {message}"
        )

    def check(self, ok: bool, message: str) -> None:
        if not ok:
            raise self.fail(message)


def _snapshot(state: Any, players: int) -> tuple[Any, ...]:
    """What the outside world sees of a state: to compare two states without their internals."""
    over = state.is_terminal()
    return (
        over,
        None if over else state.current_player(),
        tuple(state.legal_actions()),
        tuple(state.view(s) for s in range(players)),
    )


def _random_playout(state: Any, rng: Stream, limit: int, where: _Where) -> GameRecord:
    """Play `state` to the end with uniform moves, checking invariants."""
    moves = 0
    while not state.is_terminal():
        legal = state.legal_actions()
        where.check(bool(legal), "a clone or resampled state has no legal move before the end")
        state.apply_action(legal[rng.randrange(len(legal))])
        state.check_invariants()
        moves += 1
        where.check(moves <= limit, f"a clone's playout passed the declared {limit} moves")
    record: GameRecord = state.record()
    return record


def _check_record(
    record: GameRecord, spec: GameSpec, rules: Mapping[str, Any], players: int, where: _Where
) -> None:
    bounds = spec.bounds(rules, players)
    where.check(len(record.scores) == players, f"{len(record.scores)} scores for {players} seats")
    low, high = bounds.length
    where.check(
        low <= record.length <= high,
        f"length {record.length} {spec.length_unit} outside the declared {low}..{high}",
    )
    low_score, high_score = bounds.score
    for seat, score in enumerate(record.scores):
        where.check(
            isinstance(score, int | float) and math.isfinite(score),
            f"seat {seat}'s score {score!r} is not a finite number",
        )
        where.check(
            low_score <= score <= high_score,
            f"seat {seat}'s score {score} outside the declared {low_score}..{high_score}",
        )
    where.check(
        set(record.events) == set(spec.events),
        f"events {sorted(record.events)} are not the declared {sorted(spec.events)}",
    )
    for name, value in record.events.items():
        where.check(
            isinstance(value, int | float) and math.isfinite(value),
            f"event {name} = {value!r} is not a finite number",
        )
        if name not in spec.value_events:
            where.check(
                value >= 0 and value == int(value),
                f"event {name} = {value} is a count: whole and not negative",
            )


def _check_resample(state: Any, spec: GameSpec, players: int, rng: Stream, where: _Where) -> bool:
    """Every seat's view survives a redeal of what it can't see; True if a redeal
    changed what another seat sees."""
    assert spec.resample_hidden is not None
    changed = False
    before = _snapshot(state, players)
    mover = state.current_player() if not state.is_terminal() else None
    for seat in range(players):
        other = spec.resample_hidden(state, seat, rng)
        where.check(other is not state, "resample_hidden returned the state itself")
        where.check(
            _snapshot(state, players) == before,
            f"resample_hidden for seat {seat} changed the state",
        )
        try:
            other.check_invariants()
        except Exception as exc:
            raise where.fail(
                f"a state resampled for seat {seat} breaks an invariant: {exc}"
            ) from exc
        where.check(
            other.view(seat) == state.view(seat),
            f"seat {seat}'s view changes when only cards it can't see are redealt: "
            "the view shows a hidden card",
        )
        where.check(
            other.is_terminal() == state.is_terminal(),
            f"redealing cards seat {seat} can't see changes whether the game is over",
        )
        if mover == seat:
            where.check(
                other.current_player() == seat
                and list(other.legal_actions()) == list(state.legal_actions()),
                f"seat {seat}'s legal moves change when only cards it can't see are redealt",
            )
        changed = changed or any(
            other.view(s) != state.view(s) for s in range(players) if s != seat
        )
    return changed


def _check_determinize(
    state: Any, spec: GameSpec, players: int, rng: Stream, where: _Where
) -> None:
    """A world sampled from each seat's view is a game that seat can't tell from this one."""
    assert spec.determinize is not None
    over = state.is_terminal()
    mover = None if over else state.current_player()
    for seat in range(players):
        view = state.view(seat)
        world = spec.determinize(view, rng)
        where.check(world is not state, "determinize returned the state itself")
        try:
            world.check_invariants()
        except Exception as exc:
            raise where.fail(
                f"a world sampled from seat {seat}'s view breaks an invariant: {exc}"
            ) from exc
        where.check(
            world.view(seat) == view,
            f"a world sampled from seat {seat}'s view shows it another view",
        )
        where.check(
            world.is_terminal() == over and (over or world.current_player() == mover),
            f"a world sampled from seat {seat}'s view has another seat to move, or end",
        )
        if mover == seat:
            where.check(
                list(world.legal_actions()) == list(state.legal_actions()),
                f"a world sampled from seat {seat}'s view offers it other moves",
            )


def _play_checked(
    spec: GameSpec,
    rules: Mapping[str, Any],
    bots: Sequence[Bot],
    seed: int,
    index: int,
    probes: bool,
) -> tuple[list[Hashable], GameRecord]:
    """One game with every step checked; with `probes`, clones and resamples too."""
    players = len(bots)
    where = _Where(spec, seed, index)
    bounds = spec.bounds(rules, players)
    state = spec.new_state(rules, players, Stream(seed, index, CHANCE))
    bot_rngs = [Stream(seed, index, bot_stream(s)) for s in range(players)]
    probe_rng = Stream(seed, index, _PROBE_STREAM)
    resample_rng = Stream(seed, index, _RESAMPLE_STREAM)
    world_rng = Stream(seed, index, _WORLD_STREAM)
    clone_at = {probe_rng.randrange(max(bounds.moves, 1)) for _ in range(CLONE_PROBES)} | {0}
    resample_mattered = spec.resample_hidden is None or not probes
    state.check_invariants()
    moves: list[Hashable] = []
    kept: tuple[Any, tuple[Any, ...]] | None = None  # an earlier clone and its snapshot
    while not state.is_terminal():
        where.move = len(moves)
        seat = state.current_player()
        where.check(
            isinstance(seat, int) and 0 <= seat < players, f"seat to move {seat!r} is no seat"
        )
        legal = list(state.legal_actions())
        where.check(bool(legal), "no legal move before the end")
        where.check(len(set(legal)) == len(legal), f"legal moves repeat: {legal}")
        if probes:
            if spec.resample_hidden is not None:
                resample_mattered |= _check_resample(state, spec, players, resample_rng, where)
            if spec.determinize is not None:
                _check_determinize(state, spec, players, world_rng, where)
            if len(moves) in clone_at:
                resample_mattered |= _probe_clone(
                    state, spec, players, bounds.moves, probe_rng, where
                )
            kept = (state.clone(), _snapshot(state, players))
        if len(legal) == 1:
            action = legal[0]  # a forced move: the bot is not asked (sim/play.py)
        else:
            action = bots[seat].act(state.view(seat), legal, bot_rngs[seat])
            where.check(action in legal, f"the bot for seat {seat} chose {action!r}, not legal")
        state.apply_action(action)
        moves.append(action)
        try:
            state.check_invariants()
        except Exception as exc:
            raise where.fail(f"after {action!r}: {exc}") from exc
        if kept is not None:
            where.check(
                _snapshot(kept[0], players) == kept[1],
                f"playing {action!r} on the original changed a clone made before it",
            )
        where.check(len(moves) <= bounds.moves, f"more moves than the declared {bounds.moves}")
    where.move = len(moves)
    where.check(list(state.legal_actions()) == [], "legal moves after the end")
    if probes and spec.resample_hidden is not None:
        _check_resample(state, spec, players, resample_rng, where)
    if probes and spec.determinize is not None:
        _check_determinize(state, spec, players, world_rng, where)
    record: GameRecord = state.record()
    _check_record(record, spec, rules, players, where)
    if not resample_mattered:
        raise where.fail(
            "resample_hidden never changed another seat's view or how the game ends: "
            "it redeals nothing, so it can't show that views hide cards"
        )
    return moves, record


def _probe_clone(
    state: Any, spec: GameSpec, players: int, limit: int, rng: Stream, where: _Where
) -> bool:
    """A clone is the same game, and playing it out leaves the original alone.

    Returns whether a state resampled for the seat to move ends differently
    from the same playout of the state itself (that the resampler redeals
    something that matters, for games where no seat sees it, e.g. a deck).
    """
    before = _snapshot(state, players)
    clone = state.clone()
    where.check(clone is not state, "clone() returned the state itself")
    where.check(
        _snapshot(clone, players) == before, "a clone shows a seat what the original doesn't"
    )
    legal = clone.legal_actions()
    # Step the clone differently from what the original will most likely do.
    clone.apply_action(legal[-1])
    clone.check_invariants()
    _random_playout(clone, rng, limit, where)
    where.check(_snapshot(state, players) == before, "playing a clone on changed the original")
    if spec.resample_hidden is None:
        return False
    seat = state.current_player()
    resampled = spec.resample_hidden(state, seat, rng)
    same = state.clone()
    playout = rng.copy()
    ends = _random_playout(same, playout, limit, where)
    ends_resampled = _random_playout(resampled, rng, limit, where)
    where.check(
        _snapshot(state, players) == before, "playing a resampled state on changed the original"
    )
    return ends != ends_resampled


def check_game(
    spec: GameSpec,
    rules: Mapping[str, Any],
    players: int,
    seed: int = 1,
    games: int = 3,
    bots: Sequence[Bot] | Callable[[int], Sequence[Bot]] | None = None,
) -> list[GameRecord]:
    """Play `games` games (indices 0..games-1) and check each (module docstring).

    `bots` holds one bot per physical seat, or is a function of the game index
    giving them (a variant's seat rotation: `variant.seated`); default: the
    uniform random bot in every seat. `rules` holds every knob of the game.
    Returns the records.
    """
    from balancer.sim.play import Seat, play_game

    reason = spec.unplayable(rules, players)
    if reason is not None:
        raise ValueError(f"{spec.name} can't be played so: {reason}")
    records = []
    for index in range(games):
        if bots is None:
            seats: Sequence[Bot] = [RandomBot() for _ in range(players)]
        else:
            seats = bots(index) if callable(bots) else bots
        if len(seats) != players:
            raise ValueError(f"{len(seats)} bots for {players} players")
        moves, record = _play_checked(spec, rules, seats, seed, index, probes=True)
        again_moves, again = _play_checked(spec, rules, seats, seed, index, probes=False)
        where = _Where(spec, seed, index)
        where.move = len(moves)
        where.check(
            again_moves == moves and again == record,
            "the same seed played twice gives another game (or the probes, clones and "
            "resampled states, changed the game they were made from)",
        )
        loop = play_game(
            spec, rules, [Seat(f"seat {s}", b) for s, b in enumerate(seats)], seed, index
        )
        where.check(loop == record, "the run's own loop (sim/play.py) gives another record")
        records.append(record)
    return records
