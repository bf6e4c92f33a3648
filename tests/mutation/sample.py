"""A seeded random sample of a folder's mutants, for `make mutate SAMPLE=N`.

Checking every mutant of stats/, games/roles/ and bots/ takes hours on two cores. A
simple random sample of them, drawn with a fixed seed from every mutant mutmut made,
estimates the folder's score without bias, and score.py gives that estimate its 95%
interval. The sample is drawn from the sorted names, so the same seed names the same
mutants on every machine, and a stopped run goes on with the same sample.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path


def every_mutant(mutants: Path) -> list[str]:
    """Every mutant's name mutmut made for the folder, sorted."""
    names: list[str] = []
    for meta in mutants.rglob("*.meta"):
        names.extend(json.loads(meta.read_text(encoding="utf-8"))["exit_code_by_key"])
    return sorted(names)


def sample(mutants: Path, size: int, seed: int) -> list[str]:
    names = every_mutant(mutants)
    return sorted(random.Random(seed).sample(names, min(size, len(names))))


if __name__ == "__main__":
    print("\n".join(sample(Path(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]))))
