"""fdc's `heuristic` on fish-dash-cash-roles: compiled against `--check` (issue 36).

    python -m bench.roles_heuristic [--players 5] [--rounds 3] [--seconds 0.5]

Three contenders, timed in CPU seconds per game in interleaved rounds
(bench/throughput.py `interleaved`), as bench/roles.py times mega-racer-4p's
lookahead: a variant of fish-dash-cash-roles with the heuristic in every seat, as a
run plays it compiled (sim/compiled.py play_columns: roles/kernel/fdc_bridge.py),
and as `run --check` plays it (sim/play.py with the Python bot through the file's
view, the engine's invariants checked after every move); and, for the bridge's
cost, fdc's own kernel with its heuristic in every seat at its default knobs (the
same games). Prints one JSON object.
"""

from __future__ import annotations

import argparse
import json
import tempfile
from pathlib import Path
from typing import Any

from balancer import games, knobs
from balancer.config.variant import Variant, load
from bench.roles import Player, variant_checked, variant_compiled
from bench.throughput import interleaved


def _variant(players: int) -> Variant:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "fdc-roles-heuristic.yaml"
        path.write_text(
            f"game: fish-dash-cash-roles\nplayers: {players}\nbots: heuristic\nseed: 1\n",
            encoding="utf-8",
        )
        return load(path)


def _fdc_kernel(players: int) -> Player:
    definition = games.definition("fish-dash-cash")
    kernel = definition.kernel()
    assert kernel is not None
    rules = knobs.defaults(definition.spec.knobs)
    slots: list[tuple[str, dict[str, Any]]] = [("heuristic", {})] * players

    def play(first: int, n: int) -> None:
        kernel.play_chunk(rules, players, 1, first, first + n, slots, True)

    return play


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=5)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=0.5)
    args = parser.parse_args()
    variant = _variant(args.players)
    contenders = {
        "heuristic compiled": variant_compiled(variant),
        "heuristic --check": variant_checked(variant),
        "fdc kernel heuristic": _fdc_kernel(args.players),
    }
    contenders["heuristic compiled"](0, 1)  # compiled before timing
    per_game = interleaved(contenders, args.rounds, args.seconds)
    print(
        json.dumps(
            {
                "players": args.players,
                "cpu_us_per_game": {k: round(t * 1e6, 2) for k, t in per_game.items()},
                "check_over_compiled": round(
                    per_game["heuristic --check"] / per_game["heuristic compiled"], 1
                ),
                "compiled_over_fdc_kernel": round(
                    per_game["heuristic compiled"] / per_game["fdc kernel heuristic"], 2
                ),
            }
        )
    )


if __name__ == "__main__":
    main()
