"""Variant files: YAML -> a frozen, fully validated `Variant`.

A variant names a game, its players and bots, and sets knobs. `extends:`
names a parent file (relative to the child); mappings merge, the child wins,
and `name` is never inherited (it defaults to the file's stem). Every mistake
is a `UserError` naming the file, line and key path where the bad value was
written, with the nearest valid key for a misspelling.

Knobs go under `rules:` or `scoring:` (their canonical section is the one
`balancer knobs GAME` shows; either is accepted, one knob may not be set in
both). A knob's name at the top level (e.g. `deck:`) is read as that knob too.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, TypeVar

from balancer import games, knobs
from balancer.bots import registry as bot_registry
from balancer.bots.api import BotSpec
from balancer.config.yamlsafe import format_keypath, load_yaml
from balancer.errors import UserError
from balancer.games.api import GameSpec

TOP_KEYS = (
    "name",
    "extends",
    "game",
    "players",
    "games",
    "seed",
    "bots",
    "seats",
    "seat_rotation",
    "rules",
    "scoring",
)
MAX_GAMES = 100_000_000
MAX_EXTENDS_DEPTH = 32
DEFAULT_GAMES = 1000
DEFAULT_SEED = 0

KeyPath = tuple[Any, ...]
T = TypeVar("T")


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
        return f"{self.bot}({inner})"


@dataclass(frozen=True)
class Variant:
    name: str
    path: str
    game: str  # full game name
    players: int
    games: int
    seed: int
    seats: tuple[SeatSpec, ...]  # bot slots; slot j sits at seat j unless seats rotate
    seat_rotation: bool
    rules: Mapping[str, Any]  # every knob of the game, flat and read-only: name -> value

    @property
    def spec(self) -> GameSpec:
        return games.get(self.game)

    def bot_slot(self, seat: int, index: int) -> int:
        """The bot slot sitting at physical `seat` in game `index`."""
        if not self.seat_rotation:
            return seat
        return (seat + index) % self.players

    def seated(self, items: Sequence[T], index: int) -> list[T]:
        """Per physical seat of game `index`, the item of the bot slot sitting there."""
        return [items[self.bot_slot(seat, index)] for seat in range(self.players)]

    def with_overrides(self, *, games: int | None = None, seed: int | None = None) -> Variant:
        return replace(
            self,
            games=self.games if games is None else games,
            seed=self.seed if seed is None else seed,
        )

    def with_knobs(self, values: Mapping[str, Any]) -> Variant:
        """The variant with some knobs set to values already checked."""
        return replace(self, rules=knobs.freeze({**self.rules, **values}))

    def with_checked_knobs(self, values: Mapping[str, Any]) -> Variant:
        """The variant with some knobs set, each value checked as a variant file's would be."""
        by_name = {k.name: k for k in self.spec.knobs}
        checked = {}
        for name, value in values.items():
            if name not in by_name:
                raise UserError(f"{self.game} has no knob {name!r} (knobs: {', '.join(by_name)})")
            try:
                checked[name] = by_name[name].check(value)
            except ValueError as exc:
                raise UserError(str(exc), key=name) from None
        variant = self.with_knobs(checked)
        why = variant.spec.unplayable(variant.rules, variant.players)
        if why:
            raise UserError(f"can't be played: {why}")
        return variant

    def resolved(self) -> dict[str, Any]:
        """The variant with every knob spelled out, as report.json stores it."""
        sections = knobs.resolved_sections(self.spec.knobs, self.rules)
        return {
            "name": self.name,
            "game": self.game,
            "players": self.players,
            "games": self.games,
            "seed": self.seed,
            "seats": [{"bot": s.bot, "params": dict(s.params)} for s in self.seats],
            "seat_rotation": self.seat_rotation,
            **sections,
        }


class _Origins:
    """Where each key path was written: (file, line), for error messages."""

    def __init__(self) -> None:
        self.where: dict[KeyPath, tuple[str, int]] = {}
        self.top_file = ""

    def locate(self, path: KeyPath) -> tuple[str, int | None]:
        for end in range(len(path), -1, -1):
            found = self.where.get(tuple(path[:end]))
            if found:
                return found
        return self.top_file, None

    def error(self, path: KeyPath, message: str) -> UserError:
        file, line = self.locate(path)
        return UserError(message, file=file, line=line, key=format_keypath(path) or None)


def _nearest(word: Any, valid: list[str]) -> str:
    close = difflib.get_close_matches(str(word), valid, n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else f" (valid: {', '.join(valid)})"


def load(path: str | Path) -> Variant:
    """Read and validate a variant file; raises UserError on any mistake."""
    origins = _Origins()
    origins.top_file = str(path)
    data = _load_chain(Path(path), origins, [])
    return _validate(data, Path(path), origins)


def from_resolved(data: Any, where: str, *, allow_plugins: bool = False) -> Variant:
    """A variant from its resolved form (report.json's `variant`), checked as a file is.

    A report is data: a plugin bot it names is code, refused unless
    `allow_plugins` (the user's `--allow-plugins`) says to run it.
    """
    if not isinstance(data, dict):
        raise UserError("variant: expected the resolved variant as a mapping", file=where)
    origins = _Origins()
    origins.top_file = where
    data = dict(data)
    seats = data.get("seats", [])
    if not isinstance(seats, list):
        raise UserError("expected a list with one bot per seat", file=where, key="variant.seats")
    data["seats"] = [dict(s) if isinstance(s, dict) else s for s in seats]
    variant = _validate(data, Path(where), origins)
    if not allow_plugins:
        for index, seat in enumerate(variant.seats):
            if bot_registry.is_plugin(seat.bot):
                raise UserError(
                    f"names the plugin bot {seat.bot!r}, which is code: a report's plugins run "
                    "only with --allow-plugins",
                    file=where,
                    key=f"variant.seats[{index}].bot",
                )
    return variant


def _load_chain(path: Path, origins: _Origins, stack: list[Path]) -> dict[str, Any]:
    loaded = load_yaml(path)
    data = loaded.data
    if data is None:
        raise UserError(
            "the file is empty; a variant needs at least game and players", file=str(path)
        )
    if not isinstance(data, dict):
        raise UserError(
            "a variant file must be a mapping of keys (game:, players:, ...)", file=str(path)
        )
    own = {kp: (str(path), line) for kp, line in loaded.lines.items()}
    data = dict(data)
    if stack:
        data.pop("name", None)  # a parent's name is not inherited
    parent_name = data.pop("extends", None)
    if parent_name is None:
        origins.where.update(own)
        return data
    where = own.get(("extends",), (str(path), None))
    if not isinstance(parent_name, str) or not parent_name:
        raise UserError("must name a variant file", file=where[0], line=where[1], key="extends")
    parent = (path.parent / parent_name).resolve()
    chain = [*stack, path.resolve()]
    if parent in chain:
        cycle = " -> ".join(p.name for p in [*chain, parent])
        raise UserError(
            f"extends makes a cycle: {cycle}", file=where[0], line=where[1], key="extends"
        )
    if len(chain) > MAX_EXTENDS_DEPTH:
        raise UserError("extends chain too deep", file=where[0], line=where[1], key="extends")
    if not parent.is_file():
        raise UserError(
            f"no such variant file {parent_name!r}", file=where[0], line=where[1], key="extends"
        )
    base = _load_chain(parent, origins, chain)
    origins.where.update(own)
    # Choosing seats in the child replaces bots in the parent, and vice versa.
    if "seats" in data:
        base.pop("bots", None)
    if "bots" in data:
        base.pop("seats", None)
    return _merge(base, data)


def _merge(base: dict[str, Any], child: dict[str, Any]) -> dict[str, Any]:
    out = dict(base)
    for key, value in child.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = _merge(out[key], value)
        else:
            out[key] = value
    return out


def _validate(data: dict[str, Any], path: Path, origins: _Origins) -> Variant:
    game_name = data.get("game")
    if game_name is None:
        raise origins.error((), "missing key 'game' (one of " + ", ".join(games.names()) + ")")
    if not isinstance(game_name, str) or games.canonical(game_name) is None:
        raise origins.error(
            ("game",), f"unknown game {game_name!r}{_nearest(game_name, games.names())}"
        )
    spec = games.get(game_name)
    knob_names = [k.name for k in spec.knobs]

    for key in data:
        if key not in TOP_KEYS and key not in knob_names:
            raise origins.error((key,), f"unknown key{_nearest(key, [*TOP_KEYS, *knob_names])}")

    name = data.get("name", path.stem)
    if not isinstance(name, str) or not name.strip() or "/" in name or name.startswith("."):
        raise origins.error(("name",), "must be a plain name (no '/', not starting with '.')")
    # The name becomes a folder and heads one-line messages and reports: no
    # control characters (C0, DEL, C1) or line separators, and valid UTF-8.
    if any(c < " " or "\x7f" <= c <= "\x9f" or c in "\u2028\u2029" for c in name):
        raise origins.error(("name",), "must not hold control characters (tab, newline, NUL, ...)")
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        raise origins.error(
            ("name",), "must be text UTF-8 can write (it holds a lone surrogate)"
        ) from None

    players = _integer(data, "players", origins, None, spec.min_players, spec.max_players)
    n_games = _integer(data, "games", origins, DEFAULT_GAMES, 1, MAX_GAMES)
    seed = _integer(data, "seed", origins, DEFAULT_SEED, 0, 2**63 - 1)
    rotation = data.get("seat_rotation", False)
    if not isinstance(rotation, bool):
        raise origins.error(("seat_rotation",), f"expected true or false, got {rotation!r}")

    rules = _knob_values(data, spec, origins)
    why = spec.unplayable(rules, players)
    if why:
        raise origins.error(("players",), f"can't be played: {why}")
    seats = _seats(data, spec, players, origins)
    return Variant(
        name=name,
        path=str(path),
        game=spec.name,
        players=players,
        games=n_games,
        seed=seed,
        seats=seats,
        seat_rotation=rotation,
        rules=knobs.freeze(rules),
    )


def _integer(
    data: dict[str, Any], key: str, origins: _Origins, default: int | None, low: int, high: int
) -> int:
    if key not in data:
        if default is None:
            raise origins.error((), f"missing key {key!r}")
        return default
    value = data[key]
    if not knobs.is_whole_number(value):
        raise origins.error((key,), f"expected a whole number, got {value!r}")
    if not low <= value <= high:
        raise origins.error((key,), f"must be between {low} and {high}, got {value}")
    return value


def _knob_values(data: dict[str, Any], spec: GameSpec, origins: _Origins) -> dict[str, Any]:
    by_name = {k.name: k for k in spec.knobs}
    values = knobs.defaults(spec.knobs)
    set_at: dict[str, KeyPath] = {}
    sources: list[tuple[KeyPath, dict]] = [((), {k: data[k] for k in data if k in by_name})]
    for section in knobs.SECTIONS:
        block = data.get(section, {})
        if block is None:
            continue
        if not isinstance(block, dict):
            raise origins.error((section,), "expected a mapping of knob: value")
        sources.append(((section,), block))
    for prefix, block in sources:
        for key, raw in block.items():
            where = (*prefix, key)
            knob = by_name.get(key)
            if knob is None:
                raise origins.error(
                    where, f"unknown knob for {spec.name}{_nearest(key, list(by_name))}"
                )
            if key in set_at:
                raise origins.error(where, f"set twice (also at {format_keypath(set_at[key])})")
            set_at[key] = where
            try:
                values[key] = knob.check(raw)
            except ValueError as exc:
                raise origins.error(where, str(exc)) from None
    return values


def _seats(
    data: dict[str, Any], spec: GameSpec, players: int, origins: _Origins
) -> tuple[SeatSpec, ...]:
    if "seats" in data and "bots" in data:
        raise origins.error(("seats",), "give either bots (every seat) or seats (one per seat)")
    if "seats" in data:
        listed = data["seats"]
        if not isinstance(listed, list):
            raise origins.error(("seats",), "expected a list with one bot per seat")
        if len(listed) != players:
            raise origins.error(("seats",), f"lists {len(listed)} bots for {players} players")
        return tuple(_seat(entry, spec, ("seats", i), origins) for i, entry in enumerate(listed))
    if "bots" in data:
        one = _seat(data["bots"], spec, ("bots",), origins)
        return (one,) * players
    raise origins.error((), "missing key 'bots' (a bot for every seat) or 'seats' (one per seat)")


def _seat(entry: Any, spec: GameSpec, where: KeyPath, origins: _Origins) -> SeatSpec:
    if isinstance(entry, str):
        name, params = entry, {}
    elif isinstance(entry, dict):
        extra = set(entry) - {"bot", "params"}
        if extra:
            key = sorted(map(str, extra))[0]
            raise origins.error((*where, key), f"unknown key{_nearest(key, ['bot', 'params'])}")
        name, params = entry.get("bot"), entry.get("params", {})
        if params is None:
            params = {}
        if not isinstance(params, dict):
            raise origins.error((*where, "params"), "expected a mapping of parameter: value")
    else:
        raise origins.error(where, f"expected a bot name or {{bot:, params:}}, got {entry!r}")
    if not isinstance(name, str) or not name:
        raise origins.error((*where, "bot"), "expected a bot name")
    bot = resolve_bot(spec, name, lambda msg: origins.error(where, msg))
    return SeatSpec(name, _bot_params(bot, params, where, origins))


def resolve_bot(spec: GameSpec, name: str, fail: Any) -> BotSpec:
    """The BotSpec for a built-in or plugin bot name; `fail(message)` builds the error."""
    if bot_registry.is_plugin(name):
        try:
            return bot_registry.plugin_spec(name)  # checked for form; nothing imported
        except ValueError as exc:
            raise fail(str(exc)) from None
    known = bot_registry.builtin(spec.name)
    if name not in known:
        raise fail(f"unknown bot {name!r} for {spec.name}{_nearest(name, list(known))}")
    return known[name]


def _bot_params(
    bot: BotSpec, params: dict[str, Any], where: KeyPath, origins: _Origins
) -> dict[str, Any]:
    if bot_registry.is_plugin(bot.name):
        return dict(params)  # a plugin checks its own parameters
    by_name = {p.name: p for p in bot.params}
    out = {}
    for key, raw in params.items():
        at = (*where, "params", key)
        if key not in by_name:
            valid = list(by_name) or ["(this bot takes no parameters)"]
            raise origins.error(at, f"unknown parameter for bot {bot.name}{_nearest(key, valid)}")
        try:
            out[key] = by_name[key].check(raw)
        except ValueError as exc:
            raise origins.error(at, str(exc)) from None
    return out


def bot_params_with_defaults(bot: BotSpec, params: Mapping[str, Any]) -> dict[str, Any]:
    """A built-in bot's parameters, defaults filled in (a plugin's are passed as given)."""
    return {**{p.name: p.default for p in bot.params}, **params}
