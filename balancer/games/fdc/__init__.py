"""Fish! Dash! Cash!: its definition, registered in games/__init__.py.

The engine (the authority) is engine.py, the compiled kernel kernel.py (seen
through the one kernel interface in compiled.py), the
built-in bots bots.py; events.py says what each event counts, names_ja.py
gives the game's words in Japanese, narrate.py tells a replay. Each part that
costs an import is loaded on first use.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from balancer.games.definition import GameDefinition, LocalNames, Narrator
from balancer.games.fdc.engine import SPEC
from balancer.games.fdc.events import EVENT_MEANINGS

if TYPE_CHECKING:  # it imports numpy, which `balancer knobs` needn't
    from balancer.games.kernel_api import Kernel


def _bots() -> Mapping[str, Any]:
    from balancer.games.fdc.bots import BOTS

    return BOTS


def _kernel() -> Kernel:
    from balancer.games.fdc.compiled import KERNEL

    return KERNEL


def _narrator() -> Narrator:
    from balancer.games.fdc.narrate import lines

    return lines


def _japanese() -> LocalNames:
    from balancer.games.fdc import names_ja

    return LocalNames(names_ja.TITLE, names_ja.LENGTH_UNITS, names_ja.EVENTS)


DEFINITION = GameDefinition(
    spec=SPEC,
    bots=_bots,
    event_meanings=EVENT_MEANINGS,
    kernel=_kernel,
    narrator=_narrator,
    languages={"ja": _japanese},
)

__all__ = ["DEFINITION", "SPEC"]
