"""What A and B were set up to be: the knobs and bots that differ between two reports.

A diff's figures only make sense beside what was changed to produce them, so
the header of every diff names it: each knob whose value differs (wherever
the file put it, `rules:` or `scoring:`, it is one knob), and each seat whose
bot differs. Bots are matched by name: `cautious` and `cautious` with other
parameters are one bot whose parameters changed, said as such.

Read from each report's resolved variant (report.json's `variant`), so it
works for any two report folders, not only for two variant files.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from balancer import games
from balancer.knobs import SECTIONS

if TYPE_CHECKING:
    from balancer.report.model import Report

# Top-level keys the header already states (name, games, seed) or that must
# match for a diff at all (game, players); seats and knobs are told apart below.
_STATED = frozenset({"name", "game", "players", "games", "seed", "seats", "extends", *SECTIONS})


@dataclass(frozen=True)
class Side:
    """One run as the header states it."""

    folder: str
    name: str
    games: int
    seed: int
    versions: str = ""  # "rules v2, balancer 0.1.0"

    def line(self, letter: str) -> str:
        about = [self.name, f"{self.games:,} games", f"seed {self.seed}"]
        if self.versions:
            about.append(self.versions)
        return f"{letter}: {self.folder} ({', '.join(about)})"


@dataclass(frozen=True)
class Change:
    """One setting that differs: `what` (a knob, `seat 2`, `seat_rotation`), A's and B's value."""

    what: str
    a: str
    b: str

    def text(self) -> str:
        return f"{self.what}: {self.a} → {self.b}"

    def record(self) -> dict[str, str]:
        return {"what": self.what, "a": self.a, "b": self.b}


@dataclass(frozen=True)
class Setup:
    """The header of a diff: the two runs, and the knobs and bots that differ."""

    a: Side
    b: Side
    game: str = ""  # "fish-dash-cash, 5 players": the same on both sides, or no diff
    knobs: tuple[Change, ...] = ()
    bots: tuple[Change, ...] = ()
    bots_same: str = ""  # when no bot differs: who played ("heuristic at every seat")
    others: tuple[Change, ...] = field(default=())  # seat_rotation, and anything else
    # What differs between the two game files (game_file_changes), when both sides are
    # role games; None when either is a hand-written game.
    game_file: tuple[Change, ...] | None = None

    def lines(self) -> list[str]:
        """The header as plain lines (the terminal and Markdown indent them their own way)."""
        out = [self.a.line("A"), self.b.line("B")]
        if self.game_file:
            out.append(f"game file changes ({len(self.game_file)}):")
            out += [f"  {c.text()}" for c in self.game_file]
        elif self.game_file is not None:
            out.append("game file: the same in A and B")
        if self.knobs:
            out.append(f"knobs that differ ({len(self.knobs)}):")
            out += [f"  {c.text()}" for c in self.knobs]
        else:
            out.append("knobs: the same in A and B")
        if self.bots:
            out.append(f"bots that differ ({len(self.bots)}):")
            out += [f"  {c.text()}" for c in self.bots]
        else:
            who = f" ({self.bots_same})" if self.bots_same else ""
            out.append(f"bots: the same in A and B{who}")
        out += [c.text() for c in self.others]
        return out

    def record(self) -> dict[str, Any]:
        return {
            "knobs": [c.record() for c in self.knobs],
            "bots": [c.record() for c in self.bots],
            "other": [c.record() for c in self.others],
            **(
                {"game_file": [c.record() for c in self.game_file]}
                if self.game_file is not None
                else {}
            ),
        }


def value_text(value: Any) -> str:
    """A setting as a variant file writes it (YAML flow style: true, [0, 9], {1: 3})."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{value_text(k)}: {value_text(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(value_text(v) for v in value) + "]"
    return str(value)


def _knobs(variant: Mapping[str, Any]) -> dict[str, tuple[str, Any]]:
    """knob name -> (section it is under, value): a knob is one setting wherever it sits.

    A knob a resolved variant lists only away from its default (a deck at the
    printed deck, knobs.py `listed_at_default`) is its default when left out.
    """
    out: dict[str, tuple[str, Any]] = {}
    for section in SECTIONS:
        for name, value in (variant.get(section) or {}).items():
            out[str(name)] = (section, value)
    game = variant.get("game")
    if isinstance(game, str) and games.canonical(game) is not None:
        for knob in games.get(game).knobs:
            if not knob.listed_at_default and knob.name not in out:
                out[knob.name] = (knob.section, knob.default)
    return out


def knob_changes(a: Mapping[str, Any], b: Mapping[str, Any]) -> list[Change]:
    """Every knob whose value differs, in A's order then B's; one missing on a side is `-`."""
    in_a, in_b = _knobs(a), _knobs(b)
    changes = []
    for name in dict.fromkeys([*in_a, *in_b]):
        (section_a, va), (section_b, vb) = in_a.get(name, ("", None)), in_b.get(name, ("", None))
        if name in in_a and name in in_b and va == vb:
            continue
        section = section_a or section_b
        changes.append(
            Change(
                f"{section}.{name}",
                value_text(va) if name in in_a else "-",
                value_text(vb) if name in in_b else "-",
            )
        )
    return changes


def _seat(seat: Any) -> tuple[str, dict[str, Any]]:
    if isinstance(seat, Mapping):
        return str(seat.get("bot", "?")), dict(seat.get("params") or {})
    return str(seat), {}


def _bot_text(name: str, params: Mapping[str, Any]) -> str:
    return f"{name} {value_text(params)}" if params else name


def bot_changes(a: Sequence[Any], b: Sequence[Any]) -> list[Change]:
    """Each seat whose bot differs; one line for every seat when all changed alike.

    Matched by name: the same bot with other parameters is a parameter change
    (`seat 0 cautious parameters: {} → {rank: 1}`), another bot a swap.
    """
    seats = max(len(a), len(b))
    found: list[tuple[int, str, str, str]] = []  # seat, what changed, A, B
    for index in range(seats):
        name_a, params_a = _seat(a[index]) if index < len(a) else ("-", {})
        name_b, params_b = _seat(b[index]) if index < len(b) else ("-", {})
        if (name_a, params_a) == (name_b, params_b):
            continue
        if name_a == name_b:
            found.append(
                (index, f" {name_a} parameters", value_text(params_a), value_text(params_b))
            )
        else:
            found.append((index, "", _bot_text(name_a, params_a), _bot_text(name_b, params_b)))
    if seats > 1 and len(found) == seats and len({f[1:] for f in found}) == 1:
        _, what, in_a, in_b = found[0]
        return [Change(f"every seat{what}", in_a, in_b)]
    return [Change(f"seat {index}{what}", in_a, in_b) for index, what, in_a, in_b in found]


def _who(seats: Sequence[Any]) -> str:
    labels = [_bot_text(*_seat(s)) for s in seats]
    if labels and len(set(labels)) == 1:
        return f"{labels[0]} at every seat"
    return ", ".join(labels)


# Parts of a game file that are not what the game does, or that the diff states
# elsewhere: the game's names (the header's game line), the file it extends, and
# the knobs' defaults (deck, hand_size, trick and each knob's `default`), whose
# values in force are the knobs that differ.
_NOT_GAME_CHANGES = frozenset({"name", "short", "names", "extends", "deck", "hand_size", "trick"})


def game_file_changes(a: Mapping[str, Any], b: Mapping[str, Any]) -> list[Change]:
    """What differs between two game files' contents, as key paths a designer can find
    in the file (`roles.block[1].add.by: 1 → 2`), A's order then B's; `-` where a side
    has nothing. A list of the same length on both sides is compared item by item (one
    effect of a role changed), else whole (effects added or removed)."""
    changes: list[Change] = []

    def walk(path: str, va: Any, vb: Any, in_a: bool, in_b: bool) -> None:
        if in_a and in_b and va == vb:
            return
        if isinstance(va, Mapping) and isinstance(vb, Mapping):
            for key in dict.fromkeys([*va, *vb]):
                if path.startswith("knobs.") and path.count(".") == 1 and key == "default":
                    continue  # a knob's value in force is in the knobs that differ
                walk(f"{path}.{key}", va.get(key), vb.get(key), key in va, key in vb)
            return
        if isinstance(va, list) and isinstance(vb, list) and len(va) == len(vb):
            for index, (item_a, item_b) in enumerate(zip(va, vb, strict=True)):
                walk(f"{path}[{index}]", item_a, item_b, True, True)
            return
        changes.append(
            Change(path, value_text(va) if in_a else "-", value_text(vb) if in_b else "-")
        )

    for key in dict.fromkeys([*a, *b]):
        if key not in _NOT_GAME_CHANGES:
            walk(str(key), a.get(key), b.get(key), key in a, key in b)
    return changes


def setup(
    a: Mapping[str, Any],
    b: Mapping[str, Any],
    a_side: Side,
    b_side: Side,
    game: str = "",
    game_files: tuple[Mapping[str, Any], Mapping[str, Any]] | None = None,
) -> Setup:
    """The header for resolved variants `a` and `b` (report.json's `variant`), and
    `game_files`, the contents of both sides' game files when both are role games."""
    bots = bot_changes(a.get("seats") or [], b.get("seats") or [])
    others = [
        Change(key, value_text(a.get(key)), value_text(b.get(key)))
        for key in dict.fromkeys([*a, *b])
        if key not in _STATED and a.get(key) != b.get(key)
    ]
    return Setup(
        a_side,
        b_side,
        game or f"{a.get('game', '?')}, {a.get('players', '?')} players",
        tuple(knob_changes(a, b)),
        tuple(bots),
        "" if bots else _who(a.get("seats") or []),
        tuple(others),
        None if game_files is None else tuple(game_file_changes(*game_files)),
    )


def of_reports(a: Report, b: Report) -> Setup:
    """The header of a diff of two reports."""

    def side(r: Report) -> Side:
        versions = f"rules v{r.rules_version}, balancer {r.balancer_version}"
        name = str(r.variant.get("name", "?"))
        if r.command_line:  # a one-off run: what the command line changed over the file
            name += " with " + " ".join(r.command_line)
        return Side(str(r.folder), name, r.n_games, r.seed, versions)

    def seats(r: Report) -> Mapping[str, Any]:
        # A report's variant names its seats; one that doesn't still has its seats' bots.
        if r.variant.get("seats"):
            return r.variant
        return {**r.variant, "seats": [{"bot": seat.bot} for seat in r.seats]}

    game = a.game if a.game == b.game else f"{a.game} → {b.game}"
    files = None
    if a.game_file is not None and b.game_file is not None:
        files = (a.game_file.get("content") or {}, b.game_file.get("content") or {})
    return setup(seats(a), seats(b), side(a), side(b), f"{game}, {a.players} players", files)
