"""CPU time of one search decision, per game and per search setting.

    python -m bench.decisions [--game dqz] [--positions 10] [--samples 50]

For each game: `--positions` mid-game decisions (game g of seed 1 played by the
scripted bots until the fifth decision of two moves or more, g = 0, 1, ...), each
searched once by every setting below after one warm-up search (compiling is not
counted); prints CPU milliseconds per decision (`time.process_time`, mean over the
positions) and the mean number of candidates searched. The settings: flat and
ismcts, with `candidates` 0 and 4, and for Da Qi Zi each at `horizon` game and
deal. A decision's cost is about samples x candidates play-outs.
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

from balancer import games, knobs
from balancer.bots import registry as bot_registry
from balancer.bots.search import _scripted
from balancer.rng import CHANCE, Stream

TABLES = {"fdc": 5, "kk": 4, "dqz": 4}


def positions(short: str, count: int) -> list[Any]:
    """`count` mid-game decisions of `short` (the module's docstring)."""
    spec = games.get(short)
    rules = knobs.freeze(knobs.defaults(spec.knobs))
    scripted = bot_registry.builtin(spec.name)[_scripted(spec.name)].factory()
    found = []
    for g in range(count):
        state = spec.new_state(rules, TABLES[short], Stream(1, g, CHANCE))
        decisions = 0
        while state.current_player() >= 0:
            legal = state.legal_actions()
            if len(legal) > 1:
                decisions += 1
                if decisions == 5:
                    found.append(state)
                    break
                move = scripted.act(state.view(state.current_player()), legal, Stream(1, g, 1))
            else:
                move = legal[0]
            state.apply_action(move)
    return found


def settings(short: str) -> list[dict[str, Any]]:
    horizons = ["game", "deal"] if short == "dqz" else [None]
    out = []
    for method in ("flat", "ismcts"):
        for candidates in (0, 4):
            for horizon in horizons:
                params: dict[str, Any] = {"method": method, "candidates": candidates}
                if horizon is not None:
                    params["horizon"] = horizon
                out.append(params)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--game", choices=sorted(TABLES), action="append")
    parser.add_argument("--positions", type=int, default=10)
    parser.add_argument("--samples", type=int, default=50)
    args = parser.parse_args()
    for short in args.game or sorted(TABLES):
        states = positions(short, args.positions)
        spec = bot_registry.builtin(games.get(short).name)["search"]
        for params in settings(short):
            bot = spec.factory(samples=args.samples, **params)
            warm = states[0]
            bot.evaluate(warm.view(warm.current_player()), warm.legal_actions(), Stream(0, 0, 1))
            searched = 0
            started = time.process_time()
            for i, state in enumerate(states):
                view, legal = state.view(state.current_player()), state.legal_actions()
                searched += len(bot.evaluate(view, legal, Stream(i, 0, 1)).moves)
            took = time.process_time() - started
            row = {
                "game": short,
                "samples": args.samples,
                **params,
                "ms_per_decision": round(1000 * took / len(states), 1),
                "candidates_searched": searched / len(states),
            }
            print(json.dumps(row))


if __name__ == "__main__":
    main()
