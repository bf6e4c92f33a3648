"""Variant files: YAML -> a frozen, fully validated `Variant`.

A variant names a game, its players and bots, and sets knobs. `extends:`
names a parent file (relative to the child); mappings merge, the child wins,
and `name` is never inherited (it defaults to the file's stem). Every mistake
is a `UserError` naming the file, line and key path where the bad value was
written, with the nearest valid key for a misspelling.

Knobs go under `rules:` or `scoring:` (their canonical section is the one
`balancer knobs GAME` shows; either is accepted, and one file may not set a
knob twice). A knob's name at the top level (e.g. `deck:`) is read as that knob
too. Under `extends` a knob is one setting wherever each file put it: the
child's value replaces the parent's (mappings merge), so a base's `rules:`
knob can be changed under the child's `scoring:`.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, TypeVar

from balancer import games, i18n, knobs
from balancer.bots import registry as bot_registry
from balancer.config import shipped
from balancer.config.plays_sample import PlaysSample, read_plays
from balancer.config.seats import SeatSpec, read_seats
from balancer.errors import UserError, attempt, nearest, shown
from balancer.escape import hidden_in, hidden_message
from balancer.files import FILE, kind_of, path_error
from balancer.games.api import GameSpec
from balancer.yamlsafe import KeyPath, format_keypath, load_yaml

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
    "lang",
    "rules",
    "scoring",
    # How far behind at halfway a winner must have been for a comeback, besides last
    # (games/progress.py); not said: last only.
    "comeback_margin",
    "expect",  # balance targets for `balancer check` (analysis/expect.py checks them)
    # The opt-in sample a run also watches move by move (config/plays_sample.py).
    "plays",
)
MAX_GAMES = 100_000_000
# Swept and tuned like a knob (sweep --set players=3,4,5; tune --knob players=2..6),
# though it is the variant's own key, not a game's knob.
PLAYERS = "players"
# Below NO_MARGIN, so a margin said is one some deficit can pass.
MAX_COMEBACK_MARGIN = 2**62
MAX_EXTENDS_DEPTH = 32
# A variant's name becomes a folder name (with -sweep, and balancer's lock and
# temporary names beside it): well under the file systems' 255 bytes.
MAX_NAME_BYTES = 200
DEFAULT_GAMES = 1000
DEFAULT_SEED = 0

T = TypeVar("T")


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
    lang: str | None = None  # the reports' language (i18n.LANGS); None: not said, English
    # A comeback's margin (games/progress.py): a winner more than this behind the best at
    # halfway came back, as a last one did; None: not said, last only.
    comeback_margin: int | None = None
    # `plays:`: the sample on which a run also measures real decisions, kingmaking and
    # luck (config/plays_sample.py); None: not said, not measured.
    plays: PlaysSample | None = None

    @property
    def margin(self) -> int:
        """The comeback margin as the kernels and engines take it (NO_MARGIN: last only)."""
        # Here, not at the top: games/progress.py loads numba, which reading a variant
        # (a CLI's every start) need not.
        from balancer.games.progress import NO_MARGIN

        return NO_MARGIN if self.comeback_margin is None else self.comeback_margin

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

    def with_lang(self, lang: str | None) -> Variant:
        """The variant whose reports are written in `lang` (None: as the file says)."""
        return self if lang is None else replace(self, lang=lang)

    def with_knobs(self, values: Mapping[str, Any]) -> Variant:
        """The variant with some knobs set to values already checked; `players` among
        them (PLAYERS) sets the player count (`with_players`)."""
        rest = dict(values)
        variant = self.with_players(rest.pop(PLAYERS)) if PLAYERS in rest else self
        return replace(variant, rules=knobs.freeze({**variant.rules, **rest}))

    def with_players(self, players: int) -> Variant:
        """The variant at another player count, the one bot of every seat at each."""
        if players == self.players:
            return self
        first = self.seats[0]
        if any(seat != first for seat in self.seats):
            raise UserError(
                "players can be swept only when one bot sits in every seat (bots: NAME), "
                "not with seats: listing each",
                key=PLAYERS,
            )
        return replace(self, players=players, seats=(first,) * players)

    def check_players(self, value: Any, key: str) -> int:
        """A player count this variant's game takes, or a UserError naming `key`."""
        spec = self.spec
        if isinstance(value, bool) or not isinstance(value, int):
            raise UserError(f"players must be a whole number, not {shown(value)}", key=key)
        if not spec.min_players <= value <= spec.max_players:
            raise UserError(
                f"{self.game} takes {spec.min_players} to {spec.max_players} players, not {value}",
                key=key,
            )
        self.with_players(value)  # one bot in every seat, or said here
        return value

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
                inside = getattr(exc, "path", ())
                key = format_keypath((name, *inside))
                raise UserError(str(exc), key=key) from None
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
            # A designer's game file by its path: a report read back in another
            # process (replay, check, diff) registers it again from there.
            "game": _game_file_of(self.game) or self.game,
            "players": self.players,
            "games": self.games,
            "seed": self.seed,
            "seats": [{"bot": s.bot, "params": dict(s.params)} for s in self.seats],
            "seat_rotation": self.seat_rotation,
            # Only when said: a report in English has the variant it always had.
            **({"lang": self.lang} if self.lang is not None else {}),
            **(
                {"comeback_margin": self.comeback_margin}
                if self.comeback_margin is not None
                else {}
            ),
            **({"plays": self.plays.to_json()} if self.plays is not None else {}),
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


def load(path: str | Path) -> Variant:
    """Read and validate a variant file; raises UserError on its first mistake."""
    found, problems = check(path)
    if problems:
        raise problems[0]
    assert found is not None
    return found


def check(path: str | Path) -> tuple[Variant | None, list[UserError]]:
    """Read and validate a variant file, collecting every mistake instead of the first.

    A file that can't be read or parsed, or whose `extends` chain is broken,
    gives one error: nothing past it can be checked. Otherwise every key is
    checked and each mistake is one `UserError`, in the order `load` meets them.
    """
    origins = _Origins()
    origins.top_file = str(path)
    try:
        layers = _load_chain(Path(path), origins, [])
    except UserError as exc:
        return None, [exc]
    problems: list[UserError] = []
    found = _validate(layers, Path(path), origins, problems)
    return (None if problems else found), problems


def _is_game_file(path: Path) -> bool:
    from balancer.games.roles import is_game_file

    return is_game_file(path)


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
    problems: list[UserError] = []
    variant = _validate([_Layer(data, {})], Path(where), origins, problems)
    if problems:
        raise problems[0]
    assert variant is not None
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


@dataclass
class _Layer:
    """One file of an extends chain: its keys (`extends` removed) and where each was written."""

    data: dict[str, Any]
    lines: dict[KeyPath, tuple[str, int]]

    def line(self, where: KeyPath) -> int:
        return self.lines.get(where, ("", 0))[1]


def _load_chain(path: Path, origins: _Origins, stack: list[Path]) -> list[_Layer]:
    """The files of an extends chain, the root ancestor first, `extends` removed."""
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
        return [_Layer(data, own)]
    where = own.get(("extends",), (str(path), None))
    if not isinstance(parent_name, str) or not parent_name:
        raise UserError("must name a variant file", file=where[0], line=where[1], key="extends")
    if "\x00" in parent_name:
        raise UserError(
            "holds a NUL byte, which no file name can", file=where[0], line=where[1], key="extends"
        )
    parent_file = path.parent / parent_name
    if not os.path.lexists(parent_file):
        # A bare name of a shipped variant (`extends: fdc-base.yaml`) from any folder:
        # a file beside the child always comes first.
        parent_file = shipped.named(parent_name) or parent_file
    try:
        parent = parent_file.resolve()
        chain = [*stack, path.resolve()]
    except RuntimeError:  # Python 3.11's resolve on a loop of links
        raise UserError(
            f"{parent_name!r} lies under a loop of symbolic links",
            file=where[0],
            line=where[1],
            key="extends",
        ) from None
    except OSError as exc:
        detail = path_error(exc, parent_name).message
        raise UserError(detail, file=where[0], line=where[1], key="extends") from None
    if parent in chain:
        cycle = " -> ".join(p.name for p in [*chain, parent])
        raise UserError(
            f"extends makes a cycle: {cycle}", file=where[0], line=where[1], key="extends"
        )
    if len(chain) > MAX_EXTENDS_DEPTH:
        raise UserError("extends chain too deep", file=where[0], line=where[1], key="extends")
    try:
        # As named, links followed by the system: /dev/stdin resolves to a "pipe:[N]"
        # that names nothing, yet is a pipe.
        kind = kind_of(parent_file, name=parent_name)
    except UserError as exc:
        raise UserError(exc.message, file=where[0], line=where[1], key="extends") from None
    if kind is None:
        missing = f"no such variant file {parent_name!r}"
        if os.path.lexists(parent_file):
            missing = f"{parent_name!r} is a link to nothing that exists"
        raise UserError(missing, file=where[0], line=where[1], key="extends")
    if kind != FILE:
        raise UserError(
            f"{parent_name!r} is {kind}, not a variant file",
            file=where[0],
            line=where[1],
            key="extends",
        )
    base = _load_chain(parent, origins, chain)
    origins.where.update(own)
    return [*base, _Layer(data, own)]


def _key_text(key: Any) -> Any:
    # YAML's 1 and "1" are one key to a person: what `balancer knobs` prints,
    # report.json's JSON keys and a hand-written file must merge as one.
    if isinstance(key, int | str) and not isinstance(key, bool):
        return str(key)
    return key


def _merge(base: dict[str, Any], child: dict[str, Any]) -> dict[str, Any]:
    out = dict(base)
    for key, value in child.items():
        same = [k for k in out if _key_text(k) == _key_text(key)]
        old = out.pop(same[0]) if same else None
        if isinstance(value, dict) and isinstance(old, dict):
            out[key] = _merge(old, value)
        else:
            out[key] = value
    return out


@dataclass
class _KnobEntry:
    value: Any
    where: KeyPath  # as the last file that set it wrote it: ("scoring", "cash_value")
    layer: int  # index in the extends chain, root ancestor 0


@dataclass
class _Combined:
    """An extends chain merged: plain keys, and each knob wherever a file put it."""

    data: dict[str, Any]
    knobs: dict[Any, _KnobEntry]
    players_layer: int


def _combine(
    layers: list[_Layer], knob_names: set[str], origins: _Origins, problems: list
) -> _Combined:
    data: dict[str, Any] = {}
    entries: dict[Any, _KnobEntry] = {}
    players_layer = -1
    for index, file in enumerate(layers):
        layer = file.data
        plain = {k: v for k, v in layer.items() if k not in knobs.SECTIONS and k not in knob_names}
        # Choosing seats in the child replaces bots in the parent, and vice versa.
        if "seats" in plain:
            data.pop("bots", None)
        if "bots" in plain:
            data.pop("seats", None)
        if "players" in plain:
            players_layer = index
        data = _merge(data, plain)
        # A knob is one setting whichever section (or the top level) holds it:
        # the child's value replaces the parent's wherever each wrote it.
        sources: list[tuple[KeyPath, dict]] = [
            ((), {k: layer[k] for k in layer if k in knob_names})
        ]
        for section in knobs.SECTIONS:
            block = layer.get(section)
            if block is None:
                continue
            if not isinstance(block, dict):
                problems.append(origins.error((section,), "expected a mapping of knob: value"))
                continue
            sources.append(((section,), block))
        # In the order the file has them, so the second of a pair is the one blamed.
        settings = sorted(
            (((*prefix, key), key, raw) for prefix, block in sources for key, raw in block.items()),
            key=lambda setting: file.line(setting[0]),
        )
        here: dict[Any, KeyPath] = {}
        for where, key, raw in settings:
            if key in here:
                file_name, line = file.lines.get(where, (origins.top_file, None))
                message = f"set twice (also at {format_keypath(here[key])})"
                problems.append(
                    UserError(message, file=file_name, line=line, key=format_keypath(where))
                )
                continue
            here[key] = where
            old = entries.get(key)
            if isinstance(raw, dict) and old is not None and isinstance(old.value, dict):
                raw = _merge(old.value, raw)
            entries[key] = _KnobEntry(raw, where, index)
    return _Combined(data, entries, players_layer)


def _validate(
    layers: list[_Layer], path: Path, origins: _Origins, problems: list[UserError]
) -> Variant | None:
    game_name, game_given = None, False
    for layer in layers:
        if "game" in layer.data:
            game_name, game_given = layer.data["game"], True
    if game_name is None:
        names = ", ".join(games.offered())
        if game_given:  # `game:` with nothing after it (YAML's null)
            message = f"is empty (null); name the game: {names} or a game file"
            problems.append(origins.error(("game",), message))
        elif _is_game_file(path):  # the game itself given where a variant of it was asked
            message = (
                "is a game file, not a variant: play it from a variant that says "
                f"game: ./{path.name} (balancer docs new-game)"
            )
            problems.append(origins.error((), message))
        else:
            problems.append(origins.error((), f"missing key 'game' (one of {names})"))
        return None
    if isinstance(game_name, str) and _names_game_file(game_name):
        game_name = attempt(problems, _game_file, game_name, layers, origins)
        if game_name is None:
            return None
    if not isinstance(game_name, str) or games.canonical(game_name) is None:
        problems.append(
            origins.error(
                ("game",), f"unknown game {game_name!r}{nearest(game_name, games.offered())}"
            )
        )
        return None
    spec = games.get(game_name)
    knob_names = [k.name for k in spec.knobs]
    combined = _combine(layers, set(knob_names), origins, problems)
    data = combined.data

    for key in data:
        if key not in TOP_KEYS:
            message = f"unknown key{nearest(key, [*TOP_KEYS, *knob_names])}"
            problems.append(origins.error((key,), message))

    name = data.get("name", path.stem)
    attempt(problems, _check_name, name, origins)
    players = attempt(
        problems, _integer, data, "players", origins, None, spec.min_players, spec.max_players
    )
    n_games = attempt(problems, _integer, data, "games", origins, DEFAULT_GAMES, 1, MAX_GAMES)
    seed = attempt(problems, _integer, data, "seed", origins, DEFAULT_SEED, 0, 2**63 - 1)
    rotation = data.get("seat_rotation", False)
    if not isinstance(rotation, bool):
        problems.append(
            origins.error(("seat_rotation",), f"expected true or false, got {shown(rotation)}")
        )

    lang = data.get("lang")
    if lang is not None and lang not in i18n.LANGS:
        problems.append(origins.error(("lang",), f"expected en or ja, got {shown(lang)}"))

    margin = None
    if "comeback_margin" in data:
        margin = attempt(
            problems, _integer, data, "comeback_margin", origins, None, 0, MAX_COMEBACK_MARGIN
        )

    knob_problems = len(problems)
    rules = _knob_values(combined.knobs, spec, origins, problems)
    if players is not None and len(problems) == knob_problems:
        why = spec.unplayable(rules, players)
        if why:
            problems.append(_unplayable_error(why, spec, rules, players, combined, origins))
    # With players unreadable the bots are still checked, all but their count.
    seats = read_seats(data, spec, players, origins, problems)
    plays = read_plays(data, spec.name, players, origins, problems)
    if problems:
        return None
    assert players is not None and n_games is not None and seed is not None and seats
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
        lang=lang,
        comeback_margin=margin,
        plays=plays,
    )


def _game_file_of(game: str) -> str | None:
    from balancer.games import registered_file

    return registered_file(game)


def _names_game_file(name: str) -> bool:
    from balancer.games.roles import looks_like_file

    return looks_like_file(name)


def _game_file(name: str, layers: list[_Layer], origins: _Origins) -> str:
    """Register the game file `game:` names (relative to the file that wrote it): its name.

    A bad game file is its own first problem, file:line in the game file."""
    from balancer.games import register_file

    written_in, line = origins.locate(("game",))
    base = Path(written_in).parent if written_in else Path(".")
    path = base / name
    kind = kind_of(path, name=name)
    if kind != FILE:
        what = f"no such game file {name!r}"
        if kind is not None:
            what = f"{name!r} is {kind}, not a game file"
        raise UserError(what, file=written_in, line=line, key="game")
    return register_file(path)


def _check_name(name: Any, origins: _Origins) -> None:
    if name is None:
        raise origins.error(
            ("name",), "is empty (null): give a name, or leave name: out to use the file's"
        )
    if not isinstance(name, str) or not name.strip() or "/" in name or name.startswith("."):
        raise origins.error(("name",), "must be a plain name (no '/', not starting with '.')")
    # The name becomes a folder and heads one-line messages and reports: no
    # control characters (C0, DEL, C1) or line separators, and valid UTF-8.
    if any(c < " " or "\x7f" <= c <= "\x9f" or c in "\u2028\u2029" for c in name):
        raise origins.error(("name",), "must not hold control characters (tab, newline, NUL, ...)")
    try:
        size = len(name.encode("utf-8"))
    except UnicodeEncodeError:
        raise origins.error(
            ("name",), "must be text UTF-8 can write (it holds a lone surrogate)"
        ) from None
    if found := hidden_in(name):
        raise origins.error(("name",), hidden_message(found))
    if size > MAX_NAME_BYTES:
        # It names the report folder, reports/<name>/, and a sweep's <name>-sweep/.
        raise origins.error(
            ("name",),
            f"is {size} bytes long; a name becomes a folder, so it may be {MAX_NAME_BYTES} "
            "bytes (of UTF-8) at most",
        )


def _unplayable_error(
    why: str,
    spec: GameSpec,
    rules: dict[str, Any],
    players: int,
    combined: _Combined,
    origins: _Origins,
) -> UserError:
    """Blame the setting that made the variant unplayable, not always `players`.

    The settings involved are those whose change alone would make it playable:
    `players` (another count in the game's range), or a knob set away from its
    default (back at its default). Of these, the one written last in the
    extends chain is blamed (in one file: a knob before `players`, then the
    later line), and the others are named with their place.
    """
    defaults = knobs.defaults(spec.knobs)
    involved: list[tuple[int, int, int, KeyPath]] = []
    for name, entry in combined.knobs.items():
        if name not in defaults or rules[name] == defaults[name]:
            continue
        if spec.unplayable({**rules, name: defaults[name]}, players) is None:
            line = origins.locate(entry.where)[1] or 0
            involved.append((entry.layer, 1, line, entry.where))
    others = [n for n in range(spec.min_players, spec.max_players + 1) if n != players]
    if any(spec.unplayable(rules, n) is None for n in others):
        line = origins.locate(("players",))[1] or 0
        involved.append((combined.players_layer, 0, line, ("players",)))
    if not involved:
        return origins.error(("players",), f"can't be played: {why}")
    involved.sort()
    *rest, (_, _, _, blamed) = involved
    message = f"can't be played: {why}"
    if rest:
        shown = []
        for *_, where in reversed(rest):
            file, at = origins.locate(where)
            shown.append(f"{format_keypath(where)} at {file}" + (f":{at}" if at else ""))
        message += f" (with {', '.join(shown)})"
    return origins.error(blamed, message)


def _integer(
    data: dict[str, Any], key: str, origins: _Origins, default: int | None, low: int, high: int
) -> int:
    if key not in data:
        if default is None:
            raise origins.error((), f"missing key {key!r}")
        return default
    value = data[key]
    if not knobs.is_whole_number(value):
        raise origins.error((key,), f"expected a whole number, got {shown(value)}")
    if not low <= value <= high:
        raise origins.error((key,), f"must be between {low} and {high}, got {value}")
    return value


def _knob_values(
    entries: dict[Any, _KnobEntry], spec: GameSpec, origins: _Origins, problems: list[UserError]
) -> dict[str, Any]:
    by_name = {k.name: k for k in spec.knobs}
    values = knobs.defaults(spec.knobs)
    for key, entry in entries.items():
        knob = by_name.get(key)
        if knob is None:
            message = f"unknown knob for {spec.name}{nearest(key, list(by_name))}"
            problems.append(origins.error(entry.where, message))
            continue
        try:
            values[key] = knob.check(entry.value)
        except ValueError as exc:
            # A mistake inside a mapping knob is blamed on its own key and line.
            where = (*entry.where, *getattr(exc, "path", ()))
            problems.append(origins.error(where, str(exc)))
    return values
