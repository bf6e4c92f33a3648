"""A validated role game as a game balancer runs: its knobs, GameSpec and GameDefinition.

The knobs are the deck (its default the file's deck, its roles those the file
defines), the trick procedure's (defaults from the file), then the file's own
named numbers; so `balancer knobs`, `sweep --set` and `tune --knob` work on
all of them. The game plays compiled (roles/kernel/, through roles/compiled.py)
when every seat's bot is compiled, else step by step on engine.py.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from functools import cache
from typing import TYPE_CHECKING, Any, cast

from balancer import knobs
from balancer.bot import RANDOM
from balancer.games.api import GameSpec
from balancer.games.definition import GameDefinition, LocalNames, Narrator
from balancer.games.roles import bounds, engine
from balancer.games.roles.deck import (
    MAX_DECK_CARDS,
    DeckSpec,
    group_problems,
    is_groups,
    written,
)
from balancer.games.roles.determinize import determinize
from balancer.games.roles.lookahead import lookahead_spec
from balancer.games.roles.model import RoleGame
from balancer.games.roles.validate import FIRST_LEADER, IF_NOTHING_RESOLVES

if TYPE_CHECKING:
    from balancer.games.kernel_api import Kernel

# 2: a step counts its event only when it changes something; a place term's `event`
# counts only arrivals that take a place.
RULES_VERSION = 2


def _deck_knob(game: RoleGame) -> knobs.Knob:
    if is_groups(game.deck):
        return _groups_knob(game)
    defined = list(game.roles)
    line = cast(Mapping[str, Any], game.deck)

    def check(value: Any) -> dict[str, Any]:
        if is_groups(value):
            raise ValueError(
                "this game's deck is one line (colours, roles, numbers, copies): a "
                "variant's deck is written the same way, not as card groups"
            )
        if not isinstance(value, Mapping):
            raise ValueError("expected a mapping with colours, roles, numbers, copies")
        unknown = set(value) - set(line)
        if unknown:
            raise ValueError(f"unknown deck key {sorted(map(str, unknown))[0]!r}")
        deck = {**line, **value}
        colours, roles, numbers, copies = (
            deck[k] for k in ("colours", "roles", "numbers", "copies")
        )
        for what, names in (("colours", colours), ("roles", roles)):
            if not isinstance(names, list | tuple) or not names or len(set(names)) != len(names):
                raise ValueError(f"deck.{what} must be a list of different names")
        if not all(r in defined for r in roles):
            raise ValueError(f"deck.roles must be roles the game defines: {', '.join(defined)}")
        if (
            not isinstance(numbers, list | tuple)
            or len(numbers) != 2
            or not all(knobs.is_whole_number(n) for n in numbers)
            or not 0 <= numbers[0] <= numbers[1] <= knobs.INT_LIMIT
        ):
            raise ValueError("deck.numbers must be [low, high], whole numbers, 0 <= low <= high")
        if not knobs.is_whole_number(copies) or copies < 1:
            raise ValueError("deck.copies must be a whole number, at least 1")
        size = len(colours) * len(roles) * (numbers[1] - numbers[0] + 1) * copies
        if size > MAX_DECK_CARDS:
            raise ValueError(f"the deck would hold {size} cards; at most {MAX_DECK_CARDS}")
        _sums_fit(game, deck)
        return {
            "colours": list(colours),
            "roles": list(roles),
            "numbers": list(numbers),
            "copies": copies,
        }

    return knobs.custom(
        "deck",
        "rules",
        dict(line),
        "the deck: colours × roles × numbers [low, high] × copies of each card",
        check,
        "mapping",
    )


def _sums_fit(game: RoleGame, deck: DeckSpec) -> None:
    """A zone term's bound grows with the deck's numbers: the game's sums must still fit."""
    for terms in [game.score, *(e.terms for e in game.events)]:
        found = bounds.first_overflow(terms, deck, game.counters, game.knobs, game.goals)
        if found is not None:
            raise ValueError(f"with this deck, {bounds.overflow_message(found[1])}")


def _groups_knob(game: RoleGame) -> knobs.Knob:
    """The deck knob of a file whose deck is card groups: a variant's deck is such a
    list too, whole (no merging into the file's groups), its roles the file's."""
    defined = list(game.roles)

    def check(value: Any) -> list[dict[str, Any]]:
        if not is_groups(value):
            raise ValueError(
                "this game's deck is a list of card groups: a variant's deck is such a "
                "list too ([{roles, colours, numbers, copies}, ...])"
            )
        found = group_problems(value, defined)
        if found:
            path, message = found[0]
            raise ValueError(f"{written(('deck', *path))}: {message}")
        _sums_fit(game, value)
        return [
            {
                "roles": list(g["roles"]),
                "colours": list(g["colours"]),
                "numbers": list(g["numbers"]),
                "copies": g.get("copies", 1),
            }
            for g in value
        ]

    return knobs.custom(
        "deck",
        "rules",
        [dict(g) for g in cast(Sequence[Mapping[str, Any]], game.deck)],
        "the deck: card groups, each its colours × roles × numbers [low, high] × copies",
        check,
        "list of card groups",
    )


def game_knobs(game: RoleGame) -> tuple[knobs.Knob, ...]:
    t = game.trick
    return (
        _deck_knob(game),
        knobs.integer(
            "hand_size", "rules", t["hand_size"], "cards dealt to each player", low=1, high=1000
        ),
        knobs.choice(
            "first_leader", "rules", t["first_leader"], "who leads the first trick", FIRST_LEADER
        ),
        knobs.boolean(
            "neko_ni_koban",
            "rules",
            t["neko_ni_koban"],
            "猫に小判: all followers off-colour discards the lead",
        ),
        knobs.integer(
            "neko_min_followers",
            "rules",
            t["neko_min_followers"],
            "followers who must have played for 猫に小判 to fire",
            low=1,
            high=1000,
        ),
        knobs.boolean(
            "neko_cancel_duplicates",
            "rules",
            t["neko_cancel_duplicates"],
            "under 猫に小判, followers' cards with a repeated number cancel",
        ),
        knobs.choice(
            "leader_if_nothing_resolves",
            "rules",
            t["leader_if_nothing_resolves"],
            "who leads when no card resolved: the same leader or the next seat",
            IF_NOTHING_RESOLVES,
        ),
        *(
            knobs.integer(k.name, k.section, k.default, k.meaning or k.name, low=k.low, high=k.high)
            for k in game.knobs
        ),
    )


def _narrator() -> Narrator:
    from balancer.games.roles.narrate import narrator

    return narrator()


def _bots(game: RoleGame) -> dict[str, Any]:
    """The bots a role game offers: `random`, and Fish! Dash! Cash!'s `heuristic` for a
    game whose roles are its (fdc_heuristic.py); loaded when a run asks for bots."""
    from balancer.games.roles import fdc_heuristic

    bots: dict[str, Any] = {"random": RANDOM, "lookahead": lookahead_spec(game)}
    if fdc_heuristic.plays_fdc_roles(game):
        bots["heuristic"] = fdc_heuristic.bot()
    return bots


def build(game: RoleGame) -> GameDefinition:
    """The game balancer registers for a validated game file."""

    def new_state(rules: Mapping[str, Any], players: int, rng: Any) -> engine.State:
        return engine.State(game, rules, players, rng)

    def unplayable(rules: Mapping[str, Any], players: int) -> str | None:
        size = engine.cards_for(rules).size
        if rules["hand_size"] * players > size:
            return (
                f"the deck holds {size} cards, too few to deal {rules['hand_size']} to "
                f"each of {players} players"
            )
        return None

    def card_kinds(rules: Mapping[str, Any]) -> tuple[str, ...]:
        cards = engine.cards_for(rules)
        return tuple(cards.describe(first) for first in cards.first)

    def card_roles(rules: Mapping[str, Any]) -> tuple[str, ...]:
        cards = engine.cards_for(rules)
        return tuple(cards.role_names[cards.role[first]] for first in cards.first)

    spec = GameSpec(
        name=game.name,
        short=game.short,
        min_players=game.min_players,
        max_players=game.max_players,
        knobs=game_knobs(game),
        events=tuple(e.name for e in game.events),
        higher_is_better=game.higher_is_better,
        length_unit="tricks",
        rules_version=RULES_VERSION,
        new_state=new_state,
        unplayable=unplayable,
        bounds=lambda rules, players: engine.bounds(game, rules, players),
        resample_hidden=engine.resample_hidden,
        determinize=lambda view, rng: determinize(game, view, rng),
        card_kinds=card_kinds,
        card_roles=card_roles,
    )
    # Every game file speaks Japanese: the trick procedure and every primitive tell their
    # play in it, so the unit is the engine's word; a file without `ja:` names keeps
    # its own title and event names.
    local = LocalNames(
        title=game.names.get("ja", game.name),
        length_units={"tricks": "トリック"},
        events={e.name: e.ja or (e.name, e.meaning) for e in game.events},
    )
    languages = {"ja": lambda: local}

    @cache
    def kernel() -> Kernel:
        # Imported on first use: numba loads only for a run that plays compiled.
        from balancer.games.roles.compiled import RoleKernel

        return RoleKernel(game)

    definition = GameDefinition(
        spec=spec,
        bots=lambda: _bots(game),
        event_meanings={e.name: e.meaning for e in game.events},
        narrator=_narrator,
        languages=languages,
    )
    # Every game file compiles: the kernel's tables express every part of one.
    return replace(definition, kernel=kernel)
