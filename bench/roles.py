"""`python -m bench.throughput --roles`: role games compiled, beside fdc's kernel and
beside their own Python interpreter, side by side in one run.

Contenders (default knobs, `random` in every seat, CPU seconds per game, in
interleaved rounds: bench.throughput's `interleaved`):

    fdc kernel                 Fish! Dash! Cash!'s hand-written kernel (5 players)
    fdc-roles compiled         the same game from its game file
                               (fish-dash-cash-roles) on the role kernel
    fdc-roles Python           the same file on the Python interpreter, as a
                               `--check` run plays it (sim/play.py)
    mega-racer compiled/Python the same two paths for MEGA RACER (4 players)

    mega-racer-4p lookahead    the shipped variant mega-racer-4p (`lookahead` in
      compiled/--check         every seat, seats rotated) on the role kernel, and
                               as a `--check` run plays it: sim/play.py with the
                               Python bot, the engine's invariants checked after
                               every move (issue 36)

Ratios: fdc-roles compiled over fdc kernel (issue 29 asks at most 1.10), each
role game's Python over its compiled (at least 30), and mega-racer-4p's `--check`
over its compiled (issue 36 asks at least 30).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from balancer import games, knobs
from balancer.bot import RANDOM
from balancer.config.shipped import shipped_dir
from balancer.config.variant import Variant, load
from balancer.sim import DEFAULT_PLUGIN_MOVE_LIMIT, compiled
from balancer.sim.play import Seat, play_game
from balancer.sim.runner import build_seats

Player = Callable[[int, int], None]
ROLE_GAMES = {"fish-dash-cash-roles": 5, "mega-racer": 4}


def _compiled(game: str, players: int) -> Player:
    definition = games.definition(game)
    kernel = definition.kernel()
    assert kernel is not None
    rules = knobs.defaults(definition.spec.knobs)
    slots = [("random", {})] * players

    def play(first: int, n: int) -> None:
        kernel.play_chunk(rules, players, 1, first, first + n, slots, True)

    return play


def _python(game: str, players: int) -> Player:
    spec = games.get(game)
    rules = knobs.freeze(knobs.defaults(spec.knobs))
    seats = [Seat("random", RANDOM.factory())] * players

    def play(first: int, n: int) -> None:
        for index in range(first, first + n):
            play_game(spec, rules, seats, 1, index)

    return play


LOOKAHEAD_VARIANT = "mega-racer-4p"


def variant_compiled(variant: Variant) -> Player:
    """The variant's games as a run plays them compiled (sim/compiled.py play_columns)."""
    assert compiled.can_compile(variant), f"{variant.name} does not play compiled"

    def play(first: int, n: int) -> None:
        compiled.play_columns(variant.with_overrides(games=first + n), first, first + n)

    return play


def variant_checked(variant: Variant) -> Player:
    """The variant's games as `run --check` plays them (sim/runner.py play_uncounted)."""
    slots = build_seats(variant, DEFAULT_PLUGIN_MOVE_LIMIT)

    def play(first: int, n: int) -> None:
        for index in range(first, first + n):
            seated = variant.seated(slots, index)
            play_game(variant.spec, variant.rules, seated, variant.seed, index, check=True)

    return play


def measure_roles(
    rounds: int,
    seconds: float,
    interleaved: Callable[[dict[str, Player], int, float], dict[str, float]],
) -> dict[str, Any]:
    contenders: dict[str, Player] = {"fdc kernel": _compiled("fish-dash-cash", 5)}
    for game, players in ROLE_GAMES.items():
        contenders[f"{game} compiled"] = _compiled(game, players)
        contenders[f"{game} Python"] = _python(game, players)
    lookahead = load(shipped_dir() / f"{LOOKAHEAD_VARIANT}.yaml")
    contenders[f"{LOOKAHEAD_VARIANT} lookahead compiled"] = variant_compiled(lookahead)
    contenders[f"{LOOKAHEAD_VARIANT} lookahead --check"] = variant_checked(lookahead)
    per_game = interleaved(contenders, rounds, seconds)
    rows = [
        {"contender": name, "cpu_us_per_game": round(t * 1e6, 2)} for name, t in per_game.items()
    ]
    ratios = {
        "fdc_roles_compiled_over_fdc_kernel": round(
            per_game["fish-dash-cash-roles compiled"] / per_game["fdc kernel"], 3
        ),
        **{
            f"{game}_python_over_compiled": round(
                per_game[f"{game} Python"] / per_game[f"{game} compiled"], 1
            )
            for game in ROLE_GAMES
        },
        f"{LOOKAHEAD_VARIANT}_lookahead_check_over_compiled": round(
            per_game[f"{LOOKAHEAD_VARIANT} lookahead --check"]
            / per_game[f"{LOOKAHEAD_VARIANT} lookahead compiled"],
            1,
        ),
    }
    return {"rows": rows, "ratios": ratios}
