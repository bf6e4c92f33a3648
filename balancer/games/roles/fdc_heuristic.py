"""Fish! Dash! Cash!'s `heuristic` bot on a game file that plays its roles.

A designer who starts from fish-dash-cash-roles and changes the deck, the hand
size, the trick knobs or the scoring keeps a game the hand-written heuristic
understands: fish go to a face-up territory, a dash protects or steals a fresh
fish, a cash banks the territory. For such a game (`plays_fdc_roles`) the
heuristic of games/fdc/bots.py plays unchanged: each of its decisions is asked
of it with the role game's view written as the hand-written engine's (`fdc_view`),
and its answer is a legal move of the role game as it is (the file's engine
numbers cards and a dash's moves as the hand-written engine does). The shipped
file played by it gives the hand-written engine's games, game for game
(tests/reference/test_roles_fdc.py).

A game that changes what a role does, or names its zones or flags otherwise,
has no `heuristic`: its values (what a fish is worth uncashed, when a cash
pays) would be another game's.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from functools import lru_cache
from typing import Any

from balancer.bot import BotSpec
from balancer.games.fdc import bots as fdc_bots
from balancer.games.fdc import deck as fdc_deck
from balancer.games.fdc import engine as fdc_engine
from balancer.games.roles import gamefile
from balancer.games.roles.deck import is_groups
from balancer.games.roles.engine import CHOICE
from balancer.games.roles.engine import View as RoleView
from balancer.games.roles.model import RoleGame
from balancer.games.roles.validate import check
from balancer.rng import Stream

SHIPPED = "fish-dash-cash-roles"
# The knobs the heuristic's money comes from (the file's score terms of the bank).
MONEY_KNOBS = ("cash_per_card", "cash_per_number")


@lru_cache(maxsize=1)
def _shipped() -> RoleGame:
    path = gamefile.shipped_path(SHIPPED)
    assert path is not None
    game, problems = check(gamefile.read(path))
    assert game is not None, problems
    return game


def plays_fdc_roles(game: RoleGame) -> bool:
    """Whether `game`'s fish, dash and cash do what Fish! Dash! Cash!'s do, in zones
    and flags of the same names, with money from the same two knobs."""
    fdc = _shipped()
    return (
        not is_groups(game.deck)  # fdc_view reads a one-line deck (fdc/deck.py)
        and dict(game.roles) == dict(fdc.roles)
        and dict(game.zones) == dict(fdc.zones)
        and dict(game.flags) == dict(fdc.flags)
        and not game.hooks
        and all(any(k.name == name for k in game.knobs) for name in MONEY_KNOBS)
    )


def heuristic_compiles(game: RoleGame) -> bool:
    """Whether the role kernel plays the heuristic on `game` (roles/kernel/fdc_bridge.py):
    it plays fdc's roles and its first score term on the bank pays the two money knobs
    per card and per number, so the kernel reads from its tables the money fdc_view
    reads from the knobs. Another file that plays fdc's roles keeps the heuristic,
    step by step."""
    if not plays_fdc_roles(game):
        return False
    bank = next((term for term in game.score if term.zone == "bank"), None)
    return (
        bank is not None
        and bank.per_card == ("knob", MONEY_KNOBS[0])
        and bank.per_number == ("knob", MONEY_KNOBS[1])
    )


def fdc_view(view: RoleView) -> fdc_engine.View:
    """The role game's view as the hand-written engine shows the same position."""
    rules = view.rules
    deck = fdc_deck.deck_for(rules)
    per_card, per_number = (int(rules[name]) for name in MONEY_KNOBS)
    money = tuple(per_card + per_number * number for number in deck.number)
    territories = view.zones["territory"]
    bank = view.zones["bank"]
    mine = bank[view.seat]
    assert isinstance(mine, tuple)  # a seat sees its own face-down zone
    protected = view.flags["protected"]
    return fdc_engine.View(
        seat=view.seat,
        phase=fdc_engine.DASH_CHOICE if view.phase == CHOICE else fdc_engine.PLAY,
        hand=view.hand,
        leader=view.leader,
        trick=view.trick,
        territories=tuple(t for t in territories if isinstance(t, tuple)),
        cashed_counts=tuple(len(b) if isinstance(b, tuple) else b for b in bank),
        my_cashed=mine,
        hand_sizes=view.hand_sizes,
        pile_size=view.pile_size,
        to_resolve=_still_to_resolve(view),
        protected=tuple(seat for seat, on in enumerate(protected) if on),
        played_this_trick=view.resolution.played if view.resolution else frozenset(),
        tricks_played=view.tricks_played,
        rules=rules,
        deck=deck,
        money=money,
    )


def _still_to_resolve(view: RoleView) -> tuple[tuple[int, int], ...]:
    """The (seat, card) plays that resolve after the one deciding now, in order."""
    if view.resolution is None:
        return ()
    later = view.resolution.tasks[view.resolution.task_at + 1 :]
    return tuple((seat, card) for seat, card, _, resolving in later if resolving)


class OnGameFile:
    """games/fdc/bots.py's Heuristic, asked through `fdc_view`."""

    def __init__(self, **params: Any) -> None:
        self.inner = fdc_bots.Heuristic(**params)

    def act(self, view: RoleView, legal: Sequence[Hashable], rng: Stream) -> Hashable:
        return self.inner.act(fdc_view(view), legal, rng)  # type: ignore[arg-type]


def bot() -> BotSpec:
    heuristic = fdc_bots.BOTS["heuristic"]
    return BotSpec(heuristic.name, heuristic.meaning, OnGameFile, heuristic.params)
