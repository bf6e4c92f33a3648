"""Knob values that leave a rule nothing to do at the variant's player count.

Such a variant is playable, so it is no error; but a designer who sets
`neko_min_followers: 4` for a 4-player table has switched 猫に小判 off
without saying so (at most 3 followers ever play a trick), and every report
of it would show the rule at 0 per game as if it were a finding. `validate`
and `run` say so in one line and go on (exit 0).

Only what the knob's value does: a rule the printed game already can't fire
at that table (猫に小判 at 2 players) is the game, not a setting, and is quiet.
Per game, a list of checks; each reads the variant's rules and players and
returns why the rule can never fire, or None. Kept beside the variant loader,
not in the games, until the game definitions carry their own.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from balancer.config.variant import Variant

Check = Callable[[Mapping[str, Any], int], str | None]


# The printed rule's own threshold (RULES.md §1.3): at 2 players 猫に小判 never fires as
# printed, so that is the game, not a knob's doing, and is not warned about.
NEKO_PRINTED_FOLLOWERS = 2


def _neko_followers(rules: Mapping[str, Any], players: int) -> str | None:
    # RULES.md §1.3: 猫に小判 needs at least neko_min_followers non-leaders to have played;
    # a trick has players - 1 of them at most.
    needed = rules["neko_min_followers"]
    most = players - 1
    if rules["neko_ni_koban"] and needed > most >= NEKO_PRINTED_FOLLOWERS:
        return (
            f"rules.neko_min_followers: {needed} at {players} players: 猫に小判 can never fire "
            f"(at most {players - 1} followers play a trick)"
        )
    return None


CHECKS: dict[str, tuple[Check, ...]] = {
    "fish-dash-cash": (_neko_followers,),
}


def dead_rules(variant: Variant) -> list[str]:
    """Why each of the variant's rules that can never fire can't, one line each."""
    found = (check(variant.rules, variant.players) for check in CHECKS.get(variant.game, ()))
    return [why for why in found if why is not None]
