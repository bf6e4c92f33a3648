"""Plugin games played on the game's compiled kernel, stepped from one outside decision to the next.

A run with a plugin bot can't play on the compiled path (sim/compiled.py),
whose every seat is compiled. Played step by step on the Python engine
(sim/play.py), the engine itself costs more than the plugin. So where the
game's kernel offers `StepGame` (every game's: fdc's, kk's and dqz's, built
on games/kernel_api.py's StepBuffer and games/step_kernels.py), the game is
played there: one compiled call deals, plays every forced move and every
built-in seat's move (with its compiled logic and its kernel bot stream, as
the compiled path plays them) and stops at the next plugin seat's decision
or at the game's end. The plugin is then asked as
sim/play.py asks it (its `asker`: the same checks, faults, time limits and
lazy views), handed

- the legal moves as the Python engine lists them (the same Python ints, in
  the same order), so a plugin picking with its rng picks the same move;
- its seat's rng.Stream, the one the Python path hands it;
- a view equal to the Python engine's `state.view(seat)`, built from the
  kernel's state (only if an in-process plugin reads it), its perfect-recall
  fields (the View's `RECALL`) included: fdc's stepped game writes down its
  discard and cashed fish as it plays (docs/determinize.md). Role games have no
  step path: a plugin at a game file plays on the Python engine, handed the
  engine's own view.

So each game's record is the Python engine's, exactly (tests/kernels/test_kernel_step.py,
test_kk_step.py and test_dqz_step.py check it game for game). `--check`
(conservation checks after every move) and replay's narration need the Python
engine's own state, and stay there.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from balancer.bots import registry as bot_registry
from balancer.bots.build import slot_bots as slot_bots_of
from balancer.config.variant import Variant
from balancer.games.api import GameRecord
from balancer.rng import _TWO_64, Stream
from balancer.sim import compiled
from balancer.sim.play import Seat, _Clock, asker, with_clock, with_figures


class DrawnAhead(Stream):
    """A seat's rng.Stream whose first numbers the kernel drew at the deal.

    A stream's n-th number is a function of its key and n alone (rng.py), so
    reading it from `ahead` (numbers 0, 1, ... of this very stream) gives what
    computing it gives, at a fraction of the cost (Python's big-integer hash
    was a third of a uniform plugin's game). Every method draws exactly what
    Stream's draws, and the counter moves as Stream's would: past the numbers
    drawn ahead, or if the key is changed, the numbers are computed as Stream
    computes them. (bots/keeper.py's _Draws is the same idea over a pipe.)
    """

    __slots__ = ("_ahead", "_key")

    def __init__(self, key: int, ahead: list[int]) -> None:
        self.key = self._key = key
        self.counter = 0
        self._ahead = ahead  # numbers 0 .. len - 1 of the stream keyed `key`

    def next_u64(self) -> int:
        counter = self.counter
        if self.key is self._key and counter < len(self._ahead):
            self.counter = counter + 1
            return self._ahead[counter]
        return Stream.next_u64(self)

    def below(self, n: int) -> int:
        if self.key is not self._key or n < 1:
            return Stream.below(self, n)  # (n < 1 raises there)
        threshold = _TWO_64 % n  # as Stream.below: numbers under it are drawn again
        ahead, counter = self._ahead, self.counter
        while counter < len(ahead):
            x = ahead[counter]
            counter += 1
            if x >= threshold:
                self.counter = counter
                return x % n
        self.counter = counter
        return Stream.below(self, n)


def can_step_game(game: str) -> bool:
    """Whether the game's kernel can be stepped (it offers a `step_game`)."""
    kernel = compiled.kernel_of(game)
    return kernel is not None and kernel.step_game is not None


def can_step(variant: Variant) -> bool:
    """Whether the variant's games can be stepped on its kernel: the kernel offers
    `step_game` and every seat is a plugin or a bot the kernel plays."""
    kernel = compiled.kernel_of(variant.game)
    if kernel is None or kernel.step_game is None:
        return False
    compiled_bots = kernel.compiled_bots
    return all(bot_registry.is_plugin(s.bot) or s.bot in compiled_bots for s in variant.seats)


def stepper(
    game: str,
    rules: Mapping[str, Any],
    players: int,
    slots: Sequence[tuple[str, Mapping[str, Any]] | None],
) -> Any:
    """The kernel's `step_game` for (rules, players): slots[j] is bot slot j's compiled
    bot, (name, parameters with defaults), or None for a plugin."""
    kernel = compiled.kernel_of(game)
    assert kernel is not None and kernel.step_game is not None, "only where can_step_game says"
    return kernel.step_game(rules, players, slots)


def slot_bots(variant: Variant) -> list[tuple[str, Mapping[str, Any]] | None]:
    """Per bot slot: None for a plugin, else (bot name, its parameters with defaults)."""
    return [
        None if bot_registry.is_plugin(name) else (name, params)
        for name, _, params in slot_bots_of(variant.spec, variant.seats)
    ]


def warm(variant: Variant) -> None:
    """Load the stepped kernel in this process (a deal, no plugin asked), before a
    process pool forks its workers: they then share the loaded machine code."""
    steps = stepper(variant.game, variant.rules, variant.players, slot_bots(variant))
    steps.deal(variant.seed, 0, range(variant.players))


def play_chunk(
    variant: Variant, slots: Sequence[Seat], start: int, stop: int, steps: Any = None
) -> list[GameRecord]:
    """Games start..stop-1 of the variant, `slots` its seats as runner.build_seats builds
    them, on `steps`: the StepGame a run makes from its plan (sim/plan.py), else made here."""
    if steps is None:
        steps = stepper(variant.game, variant.rules, variant.players, slot_bots(variant))
    return play_games(
        steps, slots, variant.seed, range(start, stop), variant.seat_rotation,
        higher_is_better=variant.spec.higher_is_better, margin=variant.margin,
    )  # fmt: skip


def play_games(
    steps: Any,
    slots: Sequence[Seat],
    seed: int,
    indices: Iterable[int],
    rotate: bool,
    *,
    higher_is_better: bool,
    margin: int,
) -> list[GameRecord]:
    """Games `indices` of `seed` on `steps` (a StepGame made for these slots); the bot in
    physical seat s of game i is slot (s + i) % players when `rotate`, else slot s. Each
    record has its figures of how it played (sim/play.py's with_figures: the game's
    `higher_is_better`, the comeback `margin`)."""
    players = len(slots)
    outside = [s.plugin for s in slots]
    if any(outside[j] != (steps.slots[j] is None) for j in range(players)):
        raise ValueError("the StepGame's outside slots are not the plugin seats")

    def play(clock: _Clock) -> list[GameRecord]:
        records = []
        for index in indices:
            shift = index % players if rotate else 0
            seat_slots = [(seat + shift) % players for seat in range(players)]
            seated = [slots[j] for j in seat_slots]
            record = _play(steps, seated, seat_slots, seed, index, clock)
            records.append(with_figures(record, higher_is_better, margin))
        return records

    # One clock for the chunk: the alarm handler is installed once, not once per
    # game (three system calls, a twentieth of a game's time).
    return with_clock(slots, play)


def play_game(
    steps: Any, seats: Sequence[Seat], seat_slots: Sequence[int], seed: int, index: int
) -> GameRecord:
    """Game `index` of `seed`: `seats[s]` and `seat_slots[s]` are physical seat s's
    bot and slot. A plugin's failure raises GameFault, as on sim/play.py's loop."""
    return with_clock(seats, lambda clock: _play(steps, seats, seat_slots, seed, index, clock))


def _play(
    steps: Any,
    seats: Sequence[Seat],
    seat_slots: Sequence[int],
    seed: int,
    index: int,
    clock: _Clock,
) -> GameRecord:
    code = steps.deal(seed, index, seat_slots)
    # Only a plugin seat is ever asked. Its stream is the one sim/play.py hands it
    # (rng.bot_stream(n) of the game: the kernel's key for it), its first numbers
    # drawn ahead by the kernel.
    keys = steps.streams[:, 0].tolist()
    ahead = steps.ahead.tolist()
    k = len(ahead) // len(seats)
    askers: list[Any] = [
        asker(steps, s, DrawnAhead(keys[1 + n], ahead[n * k : n * k + k]), seed, index, n, clock)
        if s.plugin
        else None
        for n, s in enumerate(seats)
    ]
    # StepGame.legal and .play written out: this loop runs once per plugin decision.
    moves, step, buf, apply = steps.moves, steps.step, steps.buf, steps.STEP_APPLY
    while code:
        # code: n * 8 + seat, n >= 2 legal moves for plugin seat `seat`.
        code = step(buf, apply, askers[code & 7](moves[: code >> 3].tolist()), 0, 0)
    record: GameRecord = steps.record()
    return record
