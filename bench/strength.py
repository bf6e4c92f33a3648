"""The search bot's strength by duplicate play (balancer/analysis/duplicate.py), per game.

    python -m bench.strength [--games 1000] [--samples 50] [--game fdc] [--seed 20261130]
                             [--params '{"horizon": "deal"}'] [--versus '{"method": "flat"}']

For each game: the search bot (at `--samples`) against the game's best scripted bot,
every deal played twice (search in one seat / the scripted bot there), the search's
seat moving round the table; prints the paired margin of win share with its 95%
interval, each side's mean win share in that seat, the CPU seconds the search games
took, and Da Qi Zi's tricks per deal with and without the search seated. Results are
added to bench/results/strength.json.

`--params` adds the search's other parameters (JSON). `--versus` compares two
searches head to head instead: the search with `--params` against the search with
`--versus` (both at `--samples` unless they say otherwise), each deal played with
one and then the other in the measured seat, the scripted bot in every other seat.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from balancer import games, knobs
from balancer.analysis.duplicate import duplicate_margin
from balancer.bots.search import _scripted

TABLES = {"fdc": 5, "kk": 4, "dqz": 4}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--samples", type=int, default=50)
    parser.add_argument("--game", choices=sorted(TABLES), action="append")
    parser.add_argument("--seed", type=int, default=20261130)
    parser.add_argument("--params", type=json.loads, default={}, help="the search's, JSON")
    parser.add_argument("--versus", type=json.loads, default=None, help="a second search's")
    args = parser.parse_args()
    out = Path("bench/results/strength.json")
    out.parent.mkdir(parents=True, exist_ok=True)
    results = json.loads(out.read_text()) if out.exists() else []
    for short in args.game or sorted(TABLES):
        spec = games.get(short)
        players = TABLES[short]
        rules = knobs.freeze(knobs.defaults(spec.knobs))
        scripted = _scripted(spec.name)
        search = {"samples": args.samples, **args.params}
        if args.versus is None:
            incumbent, others = (scripted, {}), None
        else:
            incumbent = ("search", {"samples": args.samples, **args.versus})
            others = (scripted, {})
        started = time.process_time()
        margin = duplicate_margin(
            short, players, rules, ("search", search), incumbent,
            seed=args.seed, games_played=args.games, others=others,
        )  # fmt: skip
        took = time.process_time() - started
        row = {
            "game": short,
            "players": players,
            "games": margin.games,
            "samples": args.samples,
            "params": search,
            "against": scripted if args.versus is None else incumbent[1],
            "margin": [margin.mean, margin.low, margin.high],
            "search_share": margin.challenger_share,
            "scripted_share": margin.incumbent_share,
            "cpu_seconds": took,
            "length_with": margin.length_with,
            "length_without": margin.length_without,
        }
        if "tricks" in margin.events_with:
            row["tricks_per_deal_with"] = margin.events_with["tricks"] / margin.length_with
            row["tricks_per_deal_without"] = margin.events_without["tricks"] / margin.length_without
        results.append(row)
        print(json.dumps(row))
    out.write_text(json.dumps(results, indent=2) + "\n")


if __name__ == "__main__":
    main()
