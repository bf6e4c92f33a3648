"""A variant's `plays:` key: the opt-in sample on which a run also measures how the game plays
move by move (real decisions, kingmaking) and by duplicate play (luck, what search buys).

    plays: {games: 20, deals: 40, search_budget: 30, margin: 0.1, threshold: 0.05}

Every key is optional and defaults to `balancer plays`'s flag of the same meaning (the
command reads its defaults from here). Read by config/variant.py, whose `_Origins` makes
an error name the file and line (a `Locator`, as config/seats.py takes).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from balancer.bots import registry as bot_registry
from balancer.bots.search import SEARCH
from balancer.config.seats import Locator
from balancer.errors import UserError, nearest, shown
from balancer.knobs import is_whole_number

KEY = "plays"
# About a minute for `balancer plays fdc-5p` on a loaded two-core machine
# (docs/analysis.md#decisions-kingmaking-luck says what was measured).
DEFAULT_GAMES = 20
DEFAULT_DEALS = 40
DEFAULT_BUDGET = 30
DEFAULT_MARGIN = 0.1
DEFAULT_THRESHOLD = 0.05
MAX_GAMES = 1_000_000
MAX_DEALS = 1_000_000
MAX_BUDGET = 100_000


@dataclass(frozen=True)
class PlaysSample:
    """How much of the variant `plays:` watches, and the margins it judges by."""

    games: int = DEFAULT_GAMES  # games 0..games-1 watched move by move
    deals: int = DEFAULT_DEALS  # deals of duplicate play; 0: none
    search_budget: int = DEFAULT_BUDGET  # worlds per search evaluation; 0: no search
    margin: float = DEFAULT_MARGIN  # win probability a real decision's moves differ by
    threshold: float = DEFAULT_THRESHOLD  # win probability under which a seat is out

    def to_json(self) -> dict[str, Any]:
        """As report.json's resolved variant keeps it."""
        return {
            "games": self.games,
            "deals": self.deals,
            "search_budget": self.search_budget,
            "margin": self.margin,
            "threshold": self.threshold,
        }


FIELDS = tuple(PlaysSample().to_json())

RANDOM = "random"
# A game's best scripted bot, the first of these it offers: Fish! Dash! Cash!'s and Da
# Qi Zi's heuristic, Kimekimera's expected, a game file's lookahead (or the heuristic of
# a file playing Fish! Dash! Cash!'s roles).
SCRIPTED = ("heuristic", "expected", "lookahead")


def scripted_bot(game: str) -> str:
    """Duplicate play's field: the game's best scripted bot (`random` where it has none)."""
    offered = bot_registry.builtin(game)
    return next((name for name in SCRIPTED if name in offered), RANDOM)


def measured_bots(game: str, samples: int) -> tuple[str, ...]:
    """The bots duplicate play hands each seat, strongest first: search (with `samples`
    worlds; none when 0 or the game can't search), the scripted bot, random."""
    offered = bot_registry.builtin(game)
    names = [SEARCH] if samples > 0 and SEARCH in offered else []
    names += [scripted_bot(game), RANDOM]
    return tuple(dict.fromkeys(names))


def _whole(value: Any, low: int, high: int) -> str | None:
    """Why `value` is no whole number in [low, high], or None."""
    if not is_whole_number(value):
        return f"expected a whole number, got {shown(value)}"
    if not low <= value <= high:
        return f"must be between {low} and {high}, got {value}"
    return None


def _fraction(value: Any, low_open: bool, high_open: bool) -> str | None:
    """Why `value` is no number in (or at the closed ends of) 0..1, or None."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return f"expected a number between 0 and 1, got {shown(value)}"
    too_low = value <= 0 if low_open else value < 0
    too_high = value >= 1 if high_open else value > 1
    if too_low or too_high:
        ends = ("above 0" if low_open else "at least 0") + (
            ", below 1" if high_open else ", at most 1"
        )
        return f"must be {ends}, got {value}"
    return None


def read_plays(
    data: dict[str, Any],
    game: str,
    players: int | None,
    origins: Locator,
    problems: list[UserError],
) -> PlaysSample | None:
    """The variant's `plays:` (None when it has none), each mistake added to `problems`."""
    if KEY not in data:
        return None
    raw = data[KEY]
    if raw is None:  # `plays:` alone: every default
        return PlaysSample()
    if not isinstance(raw, dict):
        problems.append(
            origins.error((KEY,), f"expected a mapping of {', '.join(FIELDS)}, got {shown(raw)}")
        )
        return None
    before = len(problems)
    for key in raw:
        if key not in FIELDS:
            problems.append(origins.error((KEY, key), f"unknown key{nearest(str(key), [*FIELDS])}"))
    checks = {
        "games": lambda v: _whole(v, 1, MAX_GAMES),
        "deals": lambda v: _whole(v, 0, MAX_DEALS),
        "search_budget": lambda v: _whole(v, 0, MAX_BUDGET),
        "margin": lambda v: _fraction(v, False, True),
        "threshold": lambda v: _fraction(v, True, True),
    }
    values: dict[str, Any] = {}
    for key, check in checks.items():
        if key not in raw:
            continue
        why = check(raw[key])
        if why is not None:
            problems.append(origins.error((KEY, key), why))
        else:
            values[key] = float(raw[key]) if key in ("margin", "threshold") else raw[key]
    if len(problems) > before:
        return None
    sample = PlaysSample(**values)
    why_not = _unusable(sample, game, players)
    if why_not is not None:
        key, message = why_not
        problems.append(origins.error((KEY, key), message))
        return None
    return sample


def _unusable(sample: PlaysSample, game: str, players: int | None) -> tuple[str, str] | None:
    """(key, why) when the sample can't be measured for this game, as `balancer plays`
    refuses its flags."""
    if sample.search_budget == 1:
        # One world gives no standard error: its noise would pass for real decisions.
        return "search_budget", "must be 0 (no search) or at least 2 worlds"
    if sample.deals == 1:
        return "deals", "duplicate play needs at least 2 deals (0: none)"
    if sample.search_budget > 0:
        from balancer.bots.search import can_search

        if not can_search(game):
            why = f"{game} has no search (no kernel or no determinize): use search_budget: 0"
            return "search_budget", why
    if sample.deals and players is not None and players < 2:
        return "deals", "duplicate play needs at least 2 players: use deals: 0"
    if sample.deals and len(measured_bots(game, sample.search_budget)) < 2:
        return "deals", f"{game} has one bot only: nothing to compare by duplicate play"
    return None
