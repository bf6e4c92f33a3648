"""Checking a game file: every mistake at once, each `file:line: key: message`.

`check(source)` walks the merged file (gamefile.py) and returns the
validated `RoleGame` (model.py) or the list of every problem found, in file
order: unknown keys, primitives and parameters (with the nearest valid
name), names used but not declared or declared twice, values of the wrong
type or out of range, `choose` inside `choose`, a role in the deck without a
definition (a deck of card groups: deck.py, each group at its line), a zone
nothing fills or nothing scores, an end goal the deck can
never reach, a sum of terms that could pass 64 bits, a name another game has,
and a deck too small to deal every player's hand. reader.py reads the small
values and declared names; bounds.py works out how large numbers can grow.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from balancer import knobs
from balancer.errors import UserError, shown
from balancer.games.hand_written import owner as hand_written_owner
from balancer.games.roles import bounds, conditions, gamefile, goals
from balancer.games.roles import vocabulary as voc
from balancer.games.roles.bounds import most_reached
from balancer.games.roles.deck import MAX_DECK_CARDS, DeckSpec, deck_size, read_groups
from balancer.games.roles.gamefile import KeyPath, Source
from balancer.games.roles.model import (
    MAX_OPTIONS,
    Amount,
    Choose,
    Counter,
    EndDef,
    EventDef,
    GoalDeck,
    KnobDef,
    Op,
    Role,
    RoleGame,
    Step,
    Term,
)
from balancer.games.roles.primitives import PRIMITIVES
from balancer.games.roles.reader import Reader, nearest, whole
from balancer.games.roles.scores import READ_ORDER

MAX_PLAYERS = 12
LIMIT = knobs.INT_LIMIT
FIRST_LEADER = ("seat0", "random")
IF_NOTHING_RESOLVES = ("same", "next")
# A variant file's own top-level keys (config/variant.py's TOP_KEYS; a test keeps the two
# the same): a variant may set a knob at its top level, so a knob of that name would be
# read as the variant's key (a `seed` knob passes validate and fails the run at its end).
VARIANT_KEYS = (
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
    "comeback_margin",
    "expect",
    "plays",
)
RESERVED_KNOB_NAMES = ("deck", "number", *voc.ENGINE_KNOBS)
TRICK_DEFAULTS: dict[str, Any] = {
    "first_leader": "seat0",
    "neko_ni_koban": True,
    "neko_min_followers": 2,
    "neko_cancel_duplicates": True,
    "leader_if_nothing_resolves": "same",
}


class _Checker(Reader):
    def __init__(self, source: Source) -> None:
        super().__init__(source)
        self.notes: list[str] = []  # what is said without refusing the file
        self.filled: set[str] = set()  # zones some op puts cards into
        self.sources_of: dict[str, set[str]] = {}  # zone -> zones cards move to from it
        self.ops_events: set[str] = set()
        # Effects that failed their own checks: what the others add up to (an end goal's
        # reach, the events effects count) is then not known, and not blamed.
        self.broken_ops = 0
        self.placing = False  # whether the steps being read are a resolved card's
        self.place_globals: dict[str, KeyPath] = {}  # global -> the place term handing it out

    # -- the whole file ---------------------------------------------------

    def run(self) -> RoleGame | None:
        data = self.data
        self.hidden_characters()
        self.known_keys((), data, voc.TOP_KEYS)
        name, short = self.game_names()
        titles = self.titles()
        players = self.players()
        deck = self.deck()
        trick = self.trick()
        zones = {
            name: self.zone((("zones", name)), spec)
            for name, spec in self.declare(voc.ZONE, "zones").items()
        }
        counters = self.counters(voc.COUNTER, "counters")
        flags = {
            name: self.flag(("flags", name), spec)
            for name, spec in self.declare(voc.FLAG, "flags").items()
        }
        globals_ = self.counters(voc.GLOBAL, "globals")
        knob_defs = self.knobs()
        self.knob_defaults = {k.name: k.default for k in knob_defs}
        self.most_players = players[1] if players else 0
        self.declare(voc.EVENT, "events")
        roles = self.roles(deck)
        hooks = self.hooks()
        goal_deck = goals.read(self, self.terms, self.most_players)
        score = self.score()
        events = self.events()
        end = self.end(roles, hooks, deck, counters, globals_, knob_defs)
        if deck is not None:
            self.gates_reachable(score, roles, hooks, deck, counters)
        win = data.get("win", "highest")
        if win not in ("highest", "lowest"):
            self.fail(("win",), f"expected highest or lowest, got {shown(win)}")
        goal_terms = tuple(t for terms in goal_deck.terms for t in terms) if goal_deck else ()
        # Goals refused (their deal, one card) leave unknown which zones they score.
        goals_unread = goals.written(data) and goal_deck is None
        self.zone_flow(zones, score + goal_terms, events, goals_unread)
        if deck is not None:
            self.sums_fit(score, events, deck, counters, knob_defs, goal_deck)
        if deck is not None and players is not None and trick.get("hand_size") is not None:
            size = deck_size(deck)
            if trick["hand_size"] * players[1] > size:
                self.fail(
                    ("hand_size",),
                    f"the deck holds {size} cards, too few to deal {trick['hand_size']} to "
                    f"each of {players[1]} players (players: {players[0]}..{players[1]})",
                )
        if self.problems:
            return None
        assert name and short and players and deck is not None
        return RoleGame(
            name=name,
            short=short,
            path=self.source.path,
            names=titles,
            min_players=players[0],
            max_players=players[1],
            deck=deck,
            trick=trick,
            zones=zones,
            counters=counters,
            flags=flags,
            globals=globals_,
            knobs=knob_defs,
            roles=roles,
            hooks=hooks,
            score=score,
            end=end,
            higher_is_better=win == "highest",
            events=events,
            goals=goal_deck,
            notes=tuple(self.notes),
        )

    def game_names(self) -> tuple[str | None, str | None]:
        out: list[str | None] = []
        for key in ("name", "short"):
            value = self.data.get(key)
            if self.absent((), self.data, key, "a plain name"):
                out.append(None)
            elif (
                not isinstance(value, str)
                or not value
                or not all(c.isalnum() or c in "-_" for c in value)
            ):
                self.fail((key,), "expected a plain name (letters, digits, - and _)")
                out.append(None)
            elif taken := self.taken_name(key, value):
                self.fail((key,), taken)
                out.append(None)
            else:
                out.append(value)
        return out[0], out[1]

    def taken_name(self, key: str, value: str) -> str | None:
        """Why `value` can't be this file's name (or short name): another game's, shipped,
        so that a hand copy would silently stand in for it; else None."""
        what = "name" if key == "name" else "short name"
        shipped = gamefile.shipped_owner(value, self.source.path)
        if shipped is not None:
            return (
                f"{value!r} is the {what} of the shipped game file {shipped}: a game file "
                "needs a name of its own (a copy would stand in for the shipped game)"
            )
        full = hand_written_owner(value)
        if full is not None:
            return f"{value!r} is the {what} of the game {full}: a game file needs its own"
        return None

    def titles(self) -> dict[str, str]:
        names = self.mapping(("names",), self.data.get("names"), "language: title")
        for language, title in names.items():
            if not isinstance(title, str) or not title:
                self.fail(("names", language), f"expected the title as text, got {shown(title)}")
        return {str(k): str(v) for k, v in names.items()}

    def players(self) -> tuple[int, int] | None:
        value = self.data.get("players")
        if self.absent((), self.data, "players", "[fewest, most]"):
            return None
        if not isinstance(value, list) or len(value) != 2:
            self.fail(("players",), f"expected [fewest, most], got {shown(value)}")
            return None
        low = self.integer(("players", 0), value[0], 2, MAX_PLAYERS)
        high = self.integer(("players", 1), value[1], 2, MAX_PLAYERS)
        if low is None or high is None:
            return None
        if low > high:
            self.fail(("players",), f"fewest ({low}) is more than most ({high})")
            return None
        return low, high

    def deck(self) -> DeckSpec | None:
        block = self.data.get("deck")
        if self.absent((), self.data, "deck", "colours, roles, numbers, copies"):
            return None
        if isinstance(block, list):  # card groups (deck.py)
            return read_groups(self, block)
        block = self.mapping(("deck",), block, "colours, roles, numbers, copies")
        self.known_keys(("deck",), block, ("colours", "roles", "numbers", "copies"))
        colours = self.name_list(("deck", "colours"), block.get("colours"), "colours")
        roles = self.name_list(("deck", "roles"), block.get("roles"), "roles")
        numbers = block.get("numbers")
        if (
            not isinstance(numbers, list)
            or len(numbers) != 2
            or not all(whole(n) for n in numbers)
            or not 0 <= numbers[0] <= numbers[1] <= LIMIT
        ):
            self.fail(
                ("deck", "numbers"),
                f"expected [low, high], 0 <= low <= high <= {LIMIT}, got {shown(numbers)}",
            )
            numbers = None
        copies = self.integer(("deck", "copies"), block.get("copies", 1), 1, MAX_DECK_CARDS)
        if not colours or not roles or numbers is None or copies is None:
            return None
        deck = {"colours": colours, "roles": roles, "numbers": list(numbers), "copies": copies}
        if deck_size(deck) > MAX_DECK_CARDS:
            self.fail(
                ("deck",), f"the deck would hold {deck_size(deck)} cards; at most {MAX_DECK_CARDS}"
            )
            return None
        return deck

    def trick(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        hand = self.data.get("hand_size")
        if not self.absent((), self.data, "hand_size", "a whole number of cards"):
            out["hand_size"] = self.integer(("hand_size",), hand, 1, 1000)
        block = self.mapping(("trick",), self.data.get("trick"), "the trick procedure's knobs")
        self.known_keys(("trick",), block, TRICK_DEFAULTS)
        for key, default in TRICK_DEFAULTS.items():
            value = block.get(key, default)
            where = ("trick", key)
            if key == "first_leader" and value not in FIRST_LEADER:
                self.fail(where, f"expected one of {', '.join(FIRST_LEADER)}, got {shown(value)}")
            elif key == "leader_if_nothing_resolves" and value not in IF_NOTHING_RESOLVES:
                self.fail(
                    where, f"expected one of {', '.join(IF_NOTHING_RESOLVES)}, got {shown(value)}"
                )
            elif isinstance(default, bool) and not isinstance(value, bool):
                self.fail(where, f"expected true or false, got {shown(value)}")
            elif key == "neko_min_followers":
                value = self.integer(where, value, 1, 1000)
            out[key] = value
        return out

    def zone(self, keypath: KeyPath, spec: Any) -> str:
        spec = self.mapping(keypath, spec, "face")
        self.known_keys(keypath, spec, ("face",))
        face = spec.get("face", "up")
        if face not in ("up", "down"):
            self.fail((*keypath, "face"), f"expected up or down, got {shown(face)}")
        return str(face)

    def flag(self, keypath: KeyPath, spec: Any) -> str:
        spec = self.mapping(keypath, spec, "lasts")
        self.known_keys(keypath, spec, ("lasts",))
        lasts = spec.get("lasts", "trick")
        if lasts not in ("trick", "game"):
            self.fail((*keypath, "lasts"), f"expected trick or game, got {shown(lasts)}")
        return str(lasts)

    def counters(self, kind: str, section: str) -> tuple[Counter, ...]:
        out = []
        for name, spec in self.declare(kind, section).items():
            keypath = (section, name)
            spec = self.mapping(keypath, spec, "start, min, max")
            self.known_keys(keypath, spec, ("start", "min", "max"))
            low = self.integer((*keypath, "min"), spec.get("min", -LIMIT))
            high = self.integer((*keypath, "max"), spec.get("max", LIMIT))
            start = self.integer((*keypath, "start"), spec.get("start", 0))
            if None in (low, high, start):
                continue
            assert low is not None and high is not None and start is not None
            if not low <= start <= high:
                self.fail(keypath, f"start {start} is not within min..max ({low}..{high})")
                continue
            out.append(Counter(str(name), start, low, high))
        return tuple(out)

    def knobs(self) -> tuple[KnobDef, ...]:
        out = []
        for name, spec in self.declare("knob", "knobs").items():
            keypath = ("knobs", name)
            if name in RESERVED_KNOB_NAMES:
                # The engine's knobs sit beside the file's, and `number` is an amount.
                self.fail(keypath, f"{name!r} is a name the engine already uses; pick another")
                self.declared["knob"].pop(name, None)
                continue
            if name in VARIANT_KEYS:
                self.fail(keypath, f"{name!r} is a key of a variant file; pick another name")
                self.declared["knob"].pop(name, None)
                continue
            spec = self.mapping(keypath, spec, "default, range, meaning")
            self.known_keys(keypath, spec, ("default", "range", "meaning", "section"))
            span = spec.get("range", [-LIMIT, LIMIT])
            if (
                not isinstance(span, list)
                or len(span) != 2
                or not all(whole(v) for v in span)
                or span[0] > span[1]
            ):
                self.fail((*keypath, "range"), f"expected [low, high], got {shown(span)}")
                continue
            if not -LIMIT <= span[0] <= span[1] <= LIMIT:
                # Every number of a game file is within it: the sums stay within 64 bits.
                self.fail((*keypath, "range"), f"must be within -{LIMIT}..{LIMIT}")
                continue
            if "default" not in spec:
                self.fail(keypath, "missing key 'default'")
                continue
            default = self.integer((*keypath, "default"), spec["default"], span[0], span[1])
            section = spec.get("section", "rules")
            if section not in knobs.SECTIONS:
                self.fail((*keypath, "section"), f"expected rules or scoring, got {shown(section)}")
                continue
            meaning = spec.get("meaning", "")
            if default is not None:
                out.append(KnobDef(str(name), default, span[0], span[1], str(meaning), section))
        return tuple(out)

    # -- roles and ops ----------------------------------------------------

    def roles(self, deck: DeckSpec | None) -> dict[str, Role]:
        block = self.mapping(("roles",), self.data.get("roles"), "role: effects")
        if not block and "roles" not in self.data:
            self.fail((), "missing key 'roles' (role: effects, for each of deck.roles)")
        elif not block:
            self.fail(("roles",), "is empty; expected role: effects, for each of deck.roles")
        out = {}
        for name, spec in block.items():
            keypath = ("roles", name)
            if isinstance(spec, dict):
                self.known_keys(keypath, spec, ("resolve", "on_cancelled"))
                resolve = self.steps((*keypath, "resolve"), spec.get("resolve", []), placing=True)
                cancelled = self.steps((*keypath, "on_cancelled"), spec.get("on_cancelled", []))
            else:
                resolve, cancelled = self.steps(keypath, spec, placing=True), ()
            out[str(name)] = Role(str(name), resolve, cancelled)
        if isinstance(deck, dict):  # a list of groups is checked in deck.py
            for index, role in enumerate(deck["roles"]):
                if role not in out:
                    self.fail(
                        ("deck", "roles", index),
                        f"role {role!r} has no definition under roles:{nearest(role, out)}",
                    )
        return out

    def hooks(self) -> dict[str, tuple[Step, ...]]:
        block = self.mapping(("hooks",), self.data.get("hooks"), "hook: effects")
        self.known_keys(("hooks",), block, voc.HOOKS)
        return {
            str(name): self.steps(("hooks", name), steps)
            for name, steps in block.items()
            if name in voc.HOOKS
        }

    def steps(self, keypath: KeyPath, value: Any, *, placing: bool = False) -> tuple[Step, ...]:
        """A list of steps; `placing`: a resolved card's, where `place` has a card to put."""
        self.placing = placing
        if not isinstance(value, list):
            self.fail(keypath, f"expected a list of effects, got {shown(value)}")
            return ()
        out: list[Step] = []
        for index, item in enumerate(value):
            step = self.step((*keypath, index), item, inside_choose=False)
            if step is not None:
                out.append(step)
        return tuple(out)

    def step(self, keypath: KeyPath, item: Any, *, inside_choose: bool) -> Step | None:
        if not isinstance(item, dict) or len(item) != 1:
            self.fail(keypath, f"expected one effect as {{primitive: {{...}}}}, got {shown(item)}")
            self.broken_ops += 1
            return None
        ((kind, params),) = item.items()
        where = (*keypath, kind)
        if kind == voc.CHOOSE:
            if inside_choose:
                self.fail(where, "choose inside choose: list every option in one choose")
                self.broken_ops += 1
                return None
            if not isinstance(params, list) or not params:
                self.fail(where, "expected a list of options")
                return None
            options = [
                self.step((*where, index), option, inside_choose=True)
                for index, option in enumerate(params)
            ]
            if len(params) > MAX_OPTIONS:  # each still read: its names count as used
                self.fail(where, f"at most {MAX_OPTIONS} options, got {len(params)}")
                return None
            found = tuple(o for o in options if isinstance(o, Op))
            return Choose(found) if len(found) == len(options) else None
        if kind not in voc.PRIMITIVES:
            self.fail(where, f"unknown primitive{nearest(kind, [*voc.PRIMITIVES, voc.CHOOSE])}")
            self.broken_ops += 1
            return None
        return self.op(where, str(kind), params)

    def op(self, keypath: KeyPath, kind: str, params: Any) -> Op | None:
        params = self.mapping(keypath, params, "parameters")
        spec = {p.name: p for p in voc.PRIMITIVES[kind]}
        ok = True
        when = None  # its `if:` (conditions.py), read beside its parameters
        if conditions.KEY in params:
            when = conditions.read(self, (*keypath, conditions.KEY), params[conditions.KEY])
            ok = when is not None
        for key in params:
            if key not in spec and key != conditions.KEY:
                self.fail((*keypath, key), f"unknown parameter of {kind}{nearest(key, spec)}")
                ok = False
        out: dict[str, Any] = {}
        for param in spec.values():
            where = (*keypath, param.name)
            if param.name not in params:
                if param.required:
                    self.fail(keypath, f"{kind} needs {param.name!r}")
                    ok = False
                elif param.default is not None:
                    out[param.name] = self.parse(param.kind, where, param.default)
                continue
            value = self.parse(param.kind, where, params[param.name])
            if value is None:
                ok = False
            out[param.name] = value
        if not ok:
            self.broken_ops += 1
            return None
        primitive = PRIMITIVES[kind]
        refusal = primitive.refuse(out, self.placing)
        if refusal is not None:
            self.fail(keypath, refusal)
            self.broken_ops += 1
            return None
        for key in primitive.fills:
            self.filled.add(out[key])
        if primitive.moves is not None:
            source, goal = primitive.moves
            self.sources_of.setdefault(out[source], set()).add(out[goal])
        for param in primitive.params:
            if param.kind == voc.EVENT and out.get(param.name):
                self.ops_events.add(out[param.name])
        return Op(kind, out, when)

    # -- scoring, events, end ---------------------------------------------

    def term(self, keypath: KeyPath, value: Any, *, in_score: bool = False) -> Term | None:
        if not isinstance(value, dict):
            self.fail(
                keypath,
                "expected a term {zone: ...}, {counter: ...}, {rank: ...} or {place: ...}, "
                f"got {shown(value)}",
            )
            return None
        for module in READ_ORDER:  # the first kind whose key the term holds reads it
            if module.SPEC.name in value:
                return module.SPEC.read(self, keypath, value, in_score)
        self.fail(keypath, "a term needs zone:, counter:, rank: or place:")
        return None

    def terms(self, keypath: KeyPath, value: Any, *, in_score: bool = False) -> tuple[Term, ...]:
        items = value if isinstance(value, list) else [value]
        found = [
            self.term((*keypath, i) if isinstance(value, list) else keypath, v, in_score=in_score)
            for i, v in enumerate(items)
        ]
        return tuple(t for t in found if t is not None)

    def score(self) -> tuple[Term, ...]:
        value = self.data.get("score")
        if not isinstance(value, list) or not value:
            self.fail(("score",) if "score" in self.data else (), "expected score: a list of terms")
            return ()
        return self.terms(("score",), value, in_score=True)

    def events(self) -> tuple[EventDef, ...]:
        out = []
        block = self.data.get("events") or {}
        for name in self.declared[voc.EVENT]:
            keypath = ("events", name)
            spec = self.mapping(keypath, block[name], "meaning, ja, and how it is counted")
            self.known_keys(keypath, spec, ("meaning", "ja", *voc.EVENT_SOURCES))
            meaning = spec.get("meaning")
            what = "what the event counts, one line"
            if self.absent(keypath, spec, "meaning", what):
                pass
            elif not isinstance(meaning, str) or not meaning.strip():
                self.fail((*keypath, "meaning"), f"expected {what}, got {shown(meaning)}")
            ja = spec.get("ja")
            if ja is not None and not (
                isinstance(ja, list) and len(ja) == 2 and all(isinstance(s, str) for s in ja)
            ):
                self.fail((*keypath, "ja"), "expected [name, meaning] in Japanese")
                ja = None
            sources = [s for s in voc.EVENT_SOURCES if s in spec]
            if len(sources) > 1:
                self.fail(keypath, f"counted one way only, not by {' and '.join(sources)}")
                continue
            source = sources[0] if sources else "ops"
            engine: str | None = None
            terms: tuple[Term, ...] = ()
            if source == "from":
                engine = spec["from"]
                if engine not in voc.ENGINE_EVENTS:
                    self.fail(
                        (*keypath, "from"),
                        f"unknown engine event {shown(engine)}{nearest(engine, voc.ENGINE_EVENTS)}",
                    )
            elif source in ("at_end", "lead_changes"):
                terms = self.terms((*keypath, source), spec[source])
            elif name not in self.ops_events and not self.broken_ops:
                file, line = self.source.locate(keypath)
                if file != self.source.path:
                    # Inherited, and the role that counted it replaced: not this file's
                    # mistake, and no count to report.
                    self.notes.append(
                        f"{file}:{line}: events.{name}: dropped, as no effect counts it any "
                        f"more (write events: {{{name}: null}} to drop it yourself)"
                    )
                    continue
                self.fail(
                    keypath,
                    "no effect counts it (give an op event: "
                    f"{name}, or from:, at_end: or lead_changes:)",
                )
            out.append(
                EventDef(str(name), str(meaning), tuple(ja) if ja else None, source, engine, terms)
            )
        return tuple(out)

    def end(
        self,
        roles: dict[str, Role],
        hooks: dict[str, tuple[Step, ...]],
        deck: DeckSpec | None,
        counters: tuple[Counter, ...],
        globals_: tuple[Counter, ...],
        knob_defs: tuple[KnobDef, ...],
    ) -> tuple[EndDef, ...]:
        value = self.data.get("end", [])
        if not isinstance(value, list):
            self.fail(("end",), "expected a list of goals (hands empty always ends the game)")
            return ()
        out = []
        defaults = {k.name: k.default for k in knob_defs}
        for index, item in enumerate(value):
            keypath = ("end", index)
            if not isinstance(item, dict):
                self.fail(keypath, f"expected {{counter|global|tricks: ...}}, got {shown(item)}")
                continue
            kinds = [k for k in voc.END_KINDS if k in item]
            if len(kinds) != 1:
                self.fail(keypath, f"name one of {', '.join(voc.END_KINDS)}")
                continue
            kind = kinds[0]
            self.known_keys(keypath, item, (kind, "reaches") if kind != "tricks" else ("tricks",))
            if kind == "tricks":
                goal = self.amount((*keypath, "tricks"), item["tricks"], numbers=False)
                lowest = self.lowest_value(goal, knob_defs)
                if lowest is not None and lowest < 1:
                    # 0 tricks is reached at the first trick's end: every game one trick long.
                    self.fail(
                        (*keypath, "tricks"),
                        f"expected at least 1 trick, got {lowest}"
                        + (
                            f" (the lowest of knob {goal[-1]!r}'s range)"
                            if goal and "knob" in goal[0]
                            else ""
                        ),
                    )
                elif goal is not None:
                    out.append(EndDef("tricks", None, goal))
                continue
            name = self.use(
                voc.COUNTER if kind == "counter" else voc.GLOBAL, (*keypath, kind), item[kind]
            )
            if "reaches" not in item:
                self.fail(keypath, "missing key 'reaches'")
                continue
            goal = self.amount((*keypath, "reaches"), item["reaches"], numbers=False)
            if name is None or goal is None or deck is None:
                continue
            target = goal[1] if goal[0] == "int" else defaults.get(goal[1], 0)
            decl = {c.name: c for c in (counters if kind == "counter" else globals_)}.get(name)
            self.reachable((*keypath, "reaches"), name, kind, target, roles, hooks, deck, decl)
            out.append(EndDef(kind, name, goal))
        return tuple(out)

    def gates_reachable(
        self,
        score: tuple[Term, ...],
        roles: dict[str, Role],
        hooks: dict[str, tuple[Step, ...]],
        deck: DeckSpec,
        counters: tuple[Counter, ...],
    ) -> None:
        """Each place term's `reaches`: a gate no seat's counter can reach hands out nothing."""
        declared = {c.name: c for c in counters}
        for term in score:
            if term.place is None or term.counter is None:
                continue
            kind, *value = term.reaches
            target = value[0] if kind == "int" else self.knob_defaults.get(value[0], 0)
            keypath = (*self.place_globals[term.place][:-1], "reaches")
            sign = -1 if kind == "minus_knob" else 1
            counter = declared.get(term.counter)
            goal = sign * int(target)
            self.reachable(keypath, term.counter, "counter", goal, roles, hooks, deck, counter)

    @staticmethod
    def lowest_value(amount: Amount | None, knob_defs: tuple[KnobDef, ...]) -> int | None:
        """The least a whole-number parameter can be: the number, or the lowest of its
        knob's range (negated: the highest); None when it was refused."""
        if amount is None:
            return None
        if amount[0] == "int":
            return int(amount[1])
        knob = {k.name: k for k in knob_defs}.get(amount[1])
        if knob is None:
            return None
        return knob.low if amount[0] == "knob" else -knob.high

    def reachable(
        self,
        keypath: KeyPath,
        name: str,
        kind: str,
        target: int,
        roles: dict[str, Role],
        hooks: dict[str, tuple[Step, ...]],
        deck: DeckSpec,
        decl: Counter | None,
    ) -> None:
        """A problem at `keypath` when the deck can never bring counter or global `name`
        to `target` (knobs at their defaults)."""
        defaults = self.knob_defaults
        if self.broken_ops:  # only the counter's own bound is known
            most = decl.high if decl is not None else None
        else:
            most = most_reached(name, kind, roles, hooks, deck, defaults, decl)
            if most is None and decl is not None:  # no bound from the effects: its own
                most = decl.high
            if most is not None and kind == "global" and name in self.place_globals:
                # Each seat's arrival takes a place from it.
                most = min(most + self.most_players, decl.high if decl else most)
        if most is not None and most < target:
            self.fail(keypath, f"the deck can never bring {name} to {target} (at most {most})")

    def sums_fit(
        self,
        score: tuple[Term, ...],
        events: tuple[EventDef, ...],
        deck: DeckSpec,
        counters: tuple[Counter, ...],
        knob_defs: tuple[KnobDef, ...],
        goal_deck: GoalDeck | None,
    ) -> None:
        """Each sum of terms (the score, an at_end or lead_changes event's) within 64-bit
        integers for any knob values (bounds.py); a term that failed its own checks
        leaves its sum unknown, and unblamed."""
        sums: list[tuple[KeyPath, Any, tuple[Term, ...]]]
        sums = [(("score",), self.data.get("score"), score)]
        block = self.data.get("events") or {}
        for event in events:
            if event.source in ("at_end", "lead_changes"):
                keypath = ("events", event.name, event.source)
                sums.append((keypath, block[event.name][event.source], event.terms))
        # A counter refused at its declaration (a range past the limit) is named there,
        # and a term reading it has no bound to sum.
        declared = {c.name for c in counters}
        goal_terms = [t for g in goal_deck.terms for t in g] if goal_deck else []
        for keypath, written, terms in sums:
            items = written if isinstance(written, list) else [written]
            if len(items) != len(terms) or (goal_deck is None and any(t.goals for t in terms)):
                continue  # a term failed its own checks, or the goals it reads did
            read = [*terms, *(goal_terms if any(t.goals for t in terms) else [])]
            if any(t.counter is not None and t.counter not in declared for t in read):
                continue
            found = bounds.first_overflow(terms, deck, counters, knob_defs, goal_deck)
            if found is not None:
                index, total = found
                at = (*keypath, index) if isinstance(written, list) else keypath
                self.fail(at, bounds.overflow_message(total))

    def zone_flow(
        self,
        zones: dict[str, str],
        score: tuple[Term, ...],
        events: tuple[EventDef, ...],
        goals_unread: bool = False,
    ) -> None:
        scored = {t.zone for t in score if t.zone}
        # A zone scores when its cards score or move on to a zone that scores.
        changed = True
        while changed:
            changed = False
            for zone, goes in self.sources_of.items():
                if zone not in scored and goes & scored:
                    scored.add(zone)
                    changed = True
        for zone in zones:
            if zone not in self.filled:
                self.fail(
                    ("zones", zone),
                    "nothing fills this zone (no place, move_all or steal puts a card in it)",
                )
            elif zone not in scored and not goals_unread:
                self.fail(
                    ("zones", zone),
                    "nothing scores this zone (no score term reads it, "
                    "nor one of the zones its cards move to)",
                )


def check(source: Source) -> tuple[RoleGame | None, list[UserError]]:
    """The validated game, or None and every problem, in file order."""
    checker = _Checker(source)
    game = checker.run()
    problems = sorted(checker.problems, key=_order)
    return (game if not problems else None), problems


def _order(error: UserError) -> tuple[str, int]:
    return (error.file or "", error.line or 0)


Validator = Callable[[Source], tuple[RoleGame | None, list[UserError]]]
