"""Does the search bot exploit a planted dominant card more than the scripted bot?

    python -m bench.planted_card [--games 2000] [--samples 50]

fdc-5p with one card made far stronger (blue fish 4 worth 30 when cashed, every
other card as printed), one `search` seat against four `heuristic`, seats rotated.
For each bot: its seat's win share when it was dealt the planted card minus when it
was not (per seat-game), with a 95% normal interval, and the difference of the two
bots' differences with its interval. The planted value is set in this process only
(both the engine's and the kernel's money tables read it), so a run with one worker.
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import os

import numpy as np
import polars as pl

from balancer import load_variant, table
from balancer.config.shipped import shipped_dir
from balancer.config.variant import SeatSpec
from balancer.games.fdc import deck as fdc_deck
from balancer.games.fdc import engine as fdc
from balancer.sim import runner

PLANTED, WORTH = "blue fish 4", 30


def _difference(wins: np.ndarray, held: np.ndarray) -> tuple[float, float]:
    """Win share held minus not held, and its standard error."""
    a, b = wins[held], wins[~held]
    return a.mean() - b.mean(), math.sqrt(a.var(ddof=1) / len(a) + b.var(ddof=1) / len(b))


def _with_interval(value: float, se: float) -> str:
    return f"{value:+.3f} [{value - 1.96 * se:+.3f}, {value + 1.96 * se:+.3f}]"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--samples", type=int, default=50)
    args = parser.parse_args()
    variant = load_variant(shipped_dir() / "fdc-5p.yaml")
    seats = (SeatSpec("search", {"samples": args.samples}),) + (SeatSpec("heuristic", {}),) * 4
    variant = dataclasses.replace(variant, games=args.games, seats=seats, seat_rotation=True)
    kinds = fdc.card_kinds(variant.rules)
    planted = kinds.index(PLANTED)
    printed = fdc_deck.money_values

    def strengthened(rules: object) -> tuple[int, ...]:
        money = list(printed(rules))  # type: ignore[arg-type]
        money[planted] = WORTH
        return tuple(money)

    # The engine's State and the kernel's tables both read the deck module's money.
    fdc_deck.money_values = strengthened  # type: ignore[assignment]
    os.environ[runner.CHECK_ENV] = "0"
    frame = pl.DataFrame(runner.run(variant, workers=1).columns())
    held = table.held_matrix(frame, 5, len(kinds))[:, :, planted]
    found = {}
    for bot in ("search", "heuristic"):
        wins, dealt = [], []
        for seat in range(5):
            mine = np.char.startswith(frame[table.bot(seat)].to_numpy().astype(str), bot)
            wins.append(frame[table.win(seat)].to_numpy()[mine])
            dealt.append(held[mine, seat])
        found[bot] = d, se = _difference(np.concatenate(wins), np.concatenate(dealt))
        print(f"{bot}: dealt {PLANTED} minus not: {_with_interval(d, se)}")
    (d1, s1), (d2, s2) = found["search"], found["heuristic"]
    gap, se = d1 - d2, math.hypot(s1, s2)
    print(f"search's minus heuristic's: {_with_interval(gap, se)}")


if __name__ == "__main__":
    main()
