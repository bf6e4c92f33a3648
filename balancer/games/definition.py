"""What a game is, as one object: its definition, and the Game it compiles into.

A `GameDefinition` is everything balancer knows of one game, in one place
(OpenSpiel's registered game type, pgx's `make`): its rules engine and knobs
(the `GameSpec`), its built-in bots, its compiled kernel, its words (event
meanings, names in other languages, a narrator for replays) and the commands
it contributes to the command line. It is registered once (games/__init__.py);
nothing is looked up by module name, so a game with no Python package of its
own (a game file) registers the same way as a shipped one.

Every part that costs an import (bots, kernel, narrator, other languages) is a
loader, called on first use: `balancer knobs fdc` never pays for numba.

`definition.compile(rules, players)` gives a `Game`: the knobs and the players
fixed once, immutable, with what a run reads of them (events, score bounds,
card kinds, `rules_version`) and `new_state`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from balancer.games.api import Bounds, GameSpec

if TYPE_CHECKING:  # the kernel interface imports numpy: `balancer knobs` needn't
    from balancer.games.kernel_api import Kernel
    from balancer.rng import Stream

# A replay's line: a plain string (seen by everyone) or (seat, text), seen by that seat only.
LogEntry = str | tuple[int, str]
# narrator(trace, rules, lang) -> the play-by-play of a traced game, in `lang` (i18n.LANGS)
# where the narrator has its words, else in English
Narrator = Callable[[Sequence[tuple[Any, ...]], Mapping[str, Any], str], list[LogEntry]]


@dataclass(frozen=True)
class LocalNames:
    """A game's words in one language other than English."""

    title: str
    length_units: Mapping[str, str]  # the game's length unit -> its word here
    events: Mapping[str, tuple[str, str]]  # event -> (name, meaning), keyed by spec.events


def _no_kernel() -> Kernel | None:
    return None


@dataclass(frozen=True)
class GameDefinition:
    """One game, registered once: see the module's docstring."""

    spec: GameSpec
    # name -> BotSpec (bot.py) of the game's built-in bots.
    bots: Callable[[], Mapping[str, Any]]
    # What every event counts, one line each, keyed by spec.events.
    event_meanings: Mapping[str, str]
    # The compiled kernel (games/kernel_api.py), or None: such a game plays step by step.
    kernel: Callable[[], Kernel | None] = _no_kernel
    # The play-by-play of a traced game; None: a replay gives the record without one.
    narrator: Callable[[], Narrator] | None = None
    # language -> a loader of the game's words in it; English is the spec's own.
    languages: Mapping[str, Callable[[], LocalNames]] = field(default_factory=dict)
    # command name -> "module:attribute" of the click command the game contributes.
    commands: Mapping[str, str] = field(default_factory=dict)

    @property
    def name(self) -> str:
        return self.spec.name

    @property
    def short(self) -> str:
        return self.spec.short

    @property
    def has_kernel(self) -> bool:
        """Whether the game plays compiled, known without loading the kernel (numba)."""
        return self.kernel is not _no_kernel

    def local_names(self, lang: str) -> LocalNames | None:
        """The game's words in `lang`, or None where it has none."""
        load = self.languages.get(lang)
        return None if load is None else load()

    def compile(self, rules: Mapping[str, Any], players: int) -> Game:
        """The game with its knobs and players fixed; raises ValueError if unplayable."""
        why = self.spec.unplayable(rules, players)
        if why is not None:
            raise ValueError(why)
        return Game(self, MappingProxyType(dict(rules)), players)


@dataclass(frozen=True, eq=False)
class Game:
    """A game definition with its knobs and players fixed: what a run plays."""

    definition: GameDefinition
    rules: Mapping[str, Any]  # read-only
    players: int

    @property
    def spec(self) -> GameSpec:
        return self.definition.spec

    @property
    def events(self) -> tuple[str, ...]:
        return self.spec.events

    @property
    def rules_version(self) -> int:
        return self.spec.rules_version

    @cached_property
    def bounds(self) -> Bounds:
        return self.spec.bounds(self.rules, self.players)

    @cached_property
    def card_kinds(self) -> tuple[str, ...]:
        kinds = self.spec.card_kinds
        return () if kinds is None else kinds(self.rules)

    def new_state(self, rng: Stream) -> Any:
        """A new game dealt with `rng`: a GameState (games/api.py)."""
        return self.spec.new_state(self.rules, self.players, rng)
