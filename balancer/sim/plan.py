"""How a run plays its games, decided once before its first game: the plan its chunks carry.

Three ways of playing give the same records (the kernels are tested game for
game against the Python engines); they differ in speed and in what they allow:

- compiled (sim/compiled.py): a chunk in one call to the game's kernel, when
  every seat's bot is one the kernel plays and --check is off;
- stepped (sim/kernel_step.py): the kernel stepped from one plugin decision
  to the next, when every other seat is compiled, the kernel can be stepped,
  --check is off and every plugin runs in the playing process;
- step by step on the Python engine (sim/play.py): everything else. --check
  is always here: its conservation checks need the engine's own state.

`decide` picks one and resolves each seat's bot (its BotSpec, its parameters
with defaults filled in, whether a plugin runs in a process of its own)
once, in the run's process. sim/runner.py hands the plan to every chunk, on
any backend, and the paths read it instead of deciding again: a worker never
makes a choice the run's process did not, and a bot name is resolved once per
run, not once per chunk.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from balancer.bot import BotSpec
from balancer.bots import host as plugin_host
from balancer.bots import registry as bot_registry
from balancer.bots.build import slot_bots
from balancer.config.variant import Variant
from balancer.games.kernel_api import Kernel
from balancer.sim import DEFAULT_PLUGIN_MOVE_LIMIT, compiled, kernel_step


class PlayPath(enum.Enum):
    """The way a run's chunks are played."""

    COMPILED = "compiled"
    STEPPED = "stepped"
    ENGINE = "step by step"


@dataclass(frozen=True)
class SlotBot:
    """A bot slot's bot, resolved: what building it, and the kernel's slot plans, need."""

    label: str  # the seat's name in reports (SeatSpec.label)
    name: str
    spec: BotSpec
    # What the bot is built with: a built-in's parameters with every default filled in,
    # a plugin's as the variant gives them.
    params: Mapping[str, Any]
    plugin: bool
    hosted: bool  # a plugin in a process of its own (bots/host.py); False for a built-in


def resolve_slots(variant: Variant, host_plugins: bool) -> tuple[SlotBot, ...]:
    """Each bot slot's bot; a plugin is hosted in a process of its own when `host_plugins`.

    A name that can't be resolved is bots/build.py's ValueError naming the slot
    (a loaded variant's names were checked when it was read)."""
    resolved = []
    for seat, (name, spec, with_defaults) in zip(
        variant.seats, slot_bots(variant.spec, variant.seats), strict=True
    ):
        plugin = bot_registry.is_plugin(name)
        resolved.append(
            SlotBot(
                label=seat.label,
                name=name,
                spec=spec,
                params=seat.params if plugin else with_defaults,
                plugin=plugin,
                hosted=plugin and host_plugins,
            )
        )
    return tuple(resolved)


@dataclass(frozen=True)
class Plan:
    """One run's way of playing: built by `decide`, read by every chunk of the run."""

    variant: Variant
    path: PlayPath
    why: str  # in a few words, why this path (shown by tests and when debugging a run)
    slots: tuple[SlotBot, ...]
    check: bool
    plugin_move_limit: float
    # The game's kernel on the compiled and stepped paths, else None. Not sent to a Dask
    # worker (see __getstate__).
    kernel: Kernel | None = field(default=None, repr=False, compare=False)

    def __getstate__(self) -> dict[str, Any]:
        # A kernel holds compiled code, and a game file's kernel its tables: a Dask
        # worker looks up its own (`kernel_to_play`), once it has registered the run's
        # game files (sim/backends/dask.py), which it can't before the task unpickles.
        state = dict(self.__dict__)
        state["kernel"] = None
        return state

    def kernel_to_play(self) -> Kernel:
        """The game's kernel, for the compiled and stepped paths."""
        kernel = self.kernel or compiled.kernel_of(self.variant.game)
        assert kernel is not None and self.path is not PlayPath.ENGINE, "only a kernel's paths"
        return kernel

    def kernel_slots(self) -> list[tuple[str, Mapping[str, Any]] | None]:
        """Per bot slot, as the kernel's chunk loop and step_game take it: (bot name, its
        parameters with defaults), or None for a plugin (asked from outside the kernel)."""
        return [None if s.plugin else (s.name, s.params) for s in self.slots]

    def compiled_slots(self) -> list[tuple[str, Mapping[str, Any]]]:
        """Per bot slot, on the compiled path (no plugin): (bot name, its parameters)."""
        assert not self.plugins, "a plugin is never played compiled"
        return [(s.name, s.params) for s in self.slots]

    @property
    def plugins(self) -> bool:
        """Whether a seat holds a plugin bot."""
        return any(s.plugin for s in self.slots)


def decide(
    variant: Variant,
    *,
    check: bool = False,
    plugin_move_limit: float = DEFAULT_PLUGIN_MOVE_LIMIT,
    backend: str = "local",
) -> Plan:
    """The run's plan: its path, why, the seats' bots resolved, and the kernel if it plays one.

    Plugins run in a process of their own unless they are trusted (--trust-plugins,
    bots/host.py) and the run is played on this machine: the trust is this
    process's setting, which a Dask worker never had.
    """
    slots = resolve_slots(variant, host_plugins=backend == "dask" or not plugin_host.trusted())
    path, why = _choose(variant, check, slots)
    kernel = None if path is PlayPath.ENGINE else compiled.kernel_of(variant.game)
    return Plan(variant, path, why, slots, check, plugin_move_limit, kernel)


def _choose(variant: Variant, check: bool, slots: Sequence[SlotBot]) -> tuple[PlayPath, str]:
    if check:
        return PlayPath.ENGINE, "--check: the Python engine's checks after every move"
    if compiled.can_compile(variant):
        return PlayPath.COMPILED, "every seat's bot is compiled"
    if any(s.hosted for s in slots):
        # A hosted plugin is handed a full view at every decision, which the Python
        # engine builds at half the cost of one made from the kernel's arrays (bench:
        # 22 against 48 ms a fdc game): stepping the kernel pays only for plugins
        # in the playing process.
        return PlayPath.ENGINE, "a plugin in a process of its own: the engine's views are cheaper"
    if kernel_step.can_step(variant):
        return PlayPath.STEPPED, "a plugin in the playing process, every other seat compiled"
    return PlayPath.ENGINE, "a bot the game's kernel doesn't play, or no kernel to step"
