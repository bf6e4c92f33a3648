"""A variant file's seats: `bots:` (one bot in every seat) or `seats:` (one per seat), each a
bot's name or `{bot:, params:}`, checked against the game's bots (or a plugin's name) and
the bot's parameters. Read by config/variant.py, whose `_Origins` turns a key path into
the file and line an error names (a `Locator` here, so this module needs nothing of that one).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from balancer.bot import BotSpec
from balancer.bots import registry as bot_registry
from balancer.bots.build import resolve_bot
from balancer.errors import UserError, attempt, nearest, shown
from balancer.escape import hidden_in, hidden_message, visible
from balancer.games.api import GameSpec
from balancer.yamlsafe import KeyPath


class Locator(Protocol):
    """Makes the error of a key path: the file and line where it was written."""

    def error(self, path: KeyPath, message: str) -> UserError: ...


@dataclass(frozen=True)
class SeatSpec:
    """A bot slot: which bot, with which parameters."""

    bot: str
    params: Mapping[str, Any] = field(default_factory=dict)

    @property
    def label(self) -> str:
        """How reports name this bot: its name, with its parameters when it has any."""
        if not self.params:
            return self.bot
        # Sorted by their text: a plugin's parameter names may mix types (1 and "a").
        items = sorted(self.params.items(), key=lambda item: (str(item[0]), repr(item[0])))
        inner = ",".join(f"{k}={v}" for k, v in items)
        # A plugin's parameter may hold a newline or an escape sequence; the label
        # goes to the terminal, summary.md and the CSVs, so those are written as \xNN.
        return f"{self.bot}({visible(inner)})"


def read_seats(
    data: dict[str, Any],
    spec: GameSpec,
    players: int | None,
    origins: Locator,
    problems: list[UserError],
) -> tuple[SeatSpec, ...] | None:
    """The variant's seats from its `bots:` (one bot in every seat) or `seats:` (one a seat),
    each mistake added to `problems`; None when any."""
    if "seats" in data and "bots" in data:
        problems.append(
            origins.error(("seats",), "give either bots (every seat) or seats (one per seat)")
        )
        return None
    if "seats" in data:
        listed = data["seats"]
        if not isinstance(listed, list):
            problems.append(
                origins.error(
                    ("seats",), f"expected a list with one bot per seat, got {shown(listed)}"
                )
            )
            return None
        if players is not None and len(listed) != players:
            message = f"lists {len(listed)} bots for {players} players"
            problems.append(origins.error(("seats",), message))
            return None
        found = [
            attempt(problems, _seat, entry, spec, ("seats", i), origins)
            for i, entry in enumerate(listed)
        ]
        return None if None in found else tuple(found)
    if "bots" in data:
        if isinstance(data["bots"], list):
            message = "names one bot for every seat; to seat different bots, list them in seats:"
            problems.append(origins.error(("bots",), message))
            return None
        one = attempt(problems, _seat, data["bots"], spec, ("bots",), origins)
        return None if one is None or players is None else (one,) * players
    problems.append(
        origins.error((), "missing key 'bots' (a bot for every seat) or 'seats' (one per seat)")
    )
    return None


def _seat(entry: Any, spec: GameSpec, where: KeyPath, origins: Locator) -> SeatSpec:
    name: Any
    if isinstance(entry, str):
        name, params = entry, {}
    elif isinstance(entry, dict):
        extra = set(entry) - {"bot", "params"}
        if extra:
            key = sorted(map(str, extra))[0]
            raise origins.error((*where, key), f"unknown key{nearest(key, ['bot', 'params'])}")
        name, params = entry.get("bot"), entry.get("params", {})
        if params is None:
            params = {}
        if not isinstance(params, dict):
            raise origins.error((*where, "params"), "expected a mapping of parameter: value")
    else:
        raise origins.error(where, f"expected a bot name or {{bot:, params:}}, got {shown(entry)}")
    if not isinstance(name, str) or not name:
        raise origins.error((*where, "bot"), "expected a bot name")
    bot = resolve_bot(spec, name, lambda msg: origins.error(where, msg))
    for key, value in params.items():
        found = hidden_in(key) or hidden_in(value)
        if found:
            # The parameters are part of the bot's label, which reports show.
            raise origins.error((*where, "params", key), hidden_message(found))
        if bot_registry.is_plugin(name) and not isinstance(key, str):
            # The plugin's constructor takes them by name: run would fail building it.
            raise origins.error(
                (*where, "params", key),
                f"a plugin's parameters are passed by name, so each must be text, not "
                f"{type(key).__name__} {_cut(repr(key))}",
            )
    return SeatSpec(name, _bot_params(bot, params, where, origins))


def _cut(text: str, limit: int = 60) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _bot_params(
    bot: BotSpec, params: dict[str, Any], where: KeyPath, origins: Locator
) -> dict[str, Any]:
    if bot_registry.is_plugin(bot.name):
        return dict(params)  # a plugin checks its own parameters
    by_name = {p.name: p for p in bot.params}
    out = {}
    for key, raw in params.items():
        at = (*where, "params", key)
        if key not in by_name:
            valid = list(by_name) or ["(this bot takes no parameters)"]
            raise origins.error(at, f"unknown parameter for bot {bot.name}{nearest(key, valid)}")
        try:
            out[key] = by_name[key].check(raw)
        except ValueError as exc:
            raise origins.error(at, str(exc)) from None
    return out
