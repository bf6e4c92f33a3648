"""`make bench`: games per second, per game and bot, on one core.

Each measurement plays a warm-up batch first (imports, table building and
caches excluded), then times whole games through `engine.play_game` exactly as
a run plays them, with every seat held by the same bot. Results are printed
and written to bench/results/throughput.json with the machine's description.

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
from balancer import bots as bot_registry
from balancer.engine import Seat, play_game
from balancer.variant import bot_params_with_defaults

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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="time per measurement")
    parser.add_argument("--game", action="append", help="only this game (repeatable)")
    args = parser.parse_args()
    chosen = [games.get(g).name for g in args.game] if args.game else games.names()
    rows = []
    print(f"{'game':<16} {'bot':<10} {'players':>7} {'games/s':>9}")
    for game in chosen:
        for bot in bot_registry.builtin(game):
            row = measure(game, bot, args.seconds)
            rows.append(row)
            print(f"{game:<16} {bot:<10} {row['players']:>7} {row['games_per_second']:>9.1f}")
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
