"""`make bench`: games per second, per game and bot, on one core.

Each measurement plays a warm-up batch first (imports, table building and
caches excluded), then times whole games through `engine.play_game` exactly as
a run plays them, with every seat held by the same bot. Results are printed
and written to bench/results/throughput.json with the machine's description.

The baseline for speed targets is a straightforward pure-Python engine: the
independent references in tests/reference/ (written plainly from RULES.md to
cross-check the engines) play the same games with `random` in every seat, and
the `vs straightforward` column is the engine's speed over theirs.

    python -m bench.throughput [--seconds 2.0] [--game fdc]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import time
from pathlib import Path

from balancer import __version__, games, knobs
from balancer.bots import registry as bot_registry
from balancer.config.variant import bot_params_with_defaults
from balancer.sim.play import Seat, play_game

RESULTS = Path(__file__).parent / "results" / "throughput.json"
PLAYERS = {"fish-dash-cash": 5, "kimekimera": 4, "da-qi-zi": 4}


def measure(game: str, bot: str, seconds: float) -> dict:
    spec = games.get(game)
    rules = knobs.defaults(spec.knobs)
    players = PLAYERS[game]
    bot_spec = bot_registry.builtin(game)[bot]
    seats = [Seat(bot, bot_spec.factory(**bot_params_with_defaults(bot_spec, {})))] * players
    for index in range(20):  # warm-up
        play_game(spec, rules, seats, 1, index)
    played, started = 0, time.perf_counter()
    while time.perf_counter() - started < seconds:
        for _ in range(20):
            play_game(spec, rules, seats, 2, played)
            played += 1
    elapsed = time.perf_counter() - started
    return {
        "game": game,
        "bot": bot,
        "players": players,
        "games": played,
        "seconds": round(elapsed, 3),
        "games_per_second": round(played / elapsed, 1),
    }


def _reference_games(game: str) -> tuple[str, object]:
    """A function playing one game of the straightforward reference, with random play."""
    if game == "fish-dash-cash":
        from tests.reference import fdc_reference as ref

        return "fdc_reference", lambda rng: ref.play_one_game(PLAYERS[game], rng)
    if game == "kimekimera":
        from tests.reference import kk_reference as ref

        return "kk_reference", lambda rng: ref.play_one_game(PLAYERS[game], rng)
    from tests.reference import dqz_reference as ref

    return "dqz_reference", lambda rng: ref.play_one_game(rng)


def measure_reference(game: str, seconds: float) -> float:
    import random

    _, play = _reference_games(game)
    rng = random.Random(1)
    for _ in range(20):  # warm-up
        play(rng)
    played, started = 0, time.perf_counter()
    while time.perf_counter() - started < seconds:
        for _ in range(20):
            play(rng)
            played += 1
    return played / (time.perf_counter() - started)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="time per measurement")
    known = [*games.names(), *(games.get(n).short for n in games.names())]
    parser.add_argument(
        "--game", action="append", choices=known, help="only this game (repeatable)"
    )
    args = parser.parse_args()
    chosen = [games.get(g).name for g in args.game] if args.game else games.names()
    rows = []
    print(f"{'game':<16} {'bot':<10} {'players':>7} {'games/s':>9}  {'vs straightforward':>18}")
    for game in chosen:
        reference = measure_reference(game, args.seconds)
        for bot in bot_registry.builtin(game):
            row = measure(game, bot, args.seconds)
            ratio = ""
            if bot == "random":
                row["straightforward_games_per_second"] = round(reference, 1)
                row["speedup_vs_straightforward"] = round(row["games_per_second"] / reference, 2)
                ratio = f"{row['speedup_vs_straightforward']:.2f}x of {reference:.0f}/s"
            rows.append(row)
            print(
                f"{game:<16} {bot:<10} {row['players']:>7} "
                f"{row['games_per_second']:>9.1f}  {ratio:>18}"
            )
    RESULTS.parent.mkdir(exist_ok=True)
    machine = {
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "machine": platform.machine(),
        "processor": platform.processor(),
        "cpus": os.cpu_count(),
    }
    RESULTS.write_text(
        json.dumps({"balancer": __version__, "machine": machine, "results": rows}, indent=2) + "\n"
    )
    print(f"written to {RESULTS}")


if __name__ == "__main__":
    main()
