"""A folder's mutation score from mutmut's verdicts (tests/mutation/run.sh runs it).

mutmut keeps each source file's verdicts in mutants/<file>.meta (JSON: mutant name ->
exit code of its tests). Killed: the tests failed, ran out of their CPU time or the
mutant could not be type-checked. Survived: the tests passed, or no test reaches the
mutant at all (that is a gap too). Not yet checked: left for the next run. The score is
killed / (killed + survived), over the mutants checked so far. With a sample (SAMPLE=N,
sample.py), the score is over the sample's mutants only, and its 95% Wilson interval is
the folder's score as the sample estimates it.
"""

from __future__ import annotations

import json
import math
import sys
from collections import Counter
from pathlib import Path

from mutmut.stats import status_by_exit_code

KILLED = {"killed", "timeout", "caught by type check", "segfault"}
SURVIVED = {"survived", "no tests"}


def verdicts(mutants: Path) -> dict[str, str]:
    """Every mutant's status, by name."""
    found: dict[str, str] = {}
    for meta in sorted(mutants.rglob("*.meta")):
        codes = json.loads(meta.read_text(encoding="utf-8"))["exit_code_by_key"]
        for name, code in codes.items():
            found[name] = status_by_exit_code[code]
    return found


def wilson(killed: int, checked: int) -> tuple[float, float]:
    """The 95% Wilson interval of a share (a sample's score as an estimate of the folder's)."""
    z = 1.959963984540054
    p = killed / checked
    centre = (p + z * z / (2 * checked)) / (1 + z * z / checked)
    half = z * math.sqrt(p * (1 - p) / checked + z * z / (4 * checked * checked))
    return centre - half / (1 + z * z / checked), centre + half / (1 + z * z / checked)


def main(folder: str, mutants: Path, sampled: list[str] | None = None) -> None:
    found = verdicts(mutants)
    if sampled is not None:
        found = {name: found[name] for name in sampled}
    tally = Counter(found.values())
    killed = sum(tally[s] for s in KILLED)
    survived = sorted(name for name, status in found.items() if status in SURVIVED)
    checked = killed + len(survived)
    (mutants.parent / "survivors.txt").write_text(
        "".join(f"{name}\t{found[name]}\n" for name in survived), encoding="utf-8"
    )
    score = f"{100 * killed / checked:.1f}%" if checked else "n/a"
    if sampled is not None and checked:
        low, high = wilson(killed, checked)
        score += f" (a sample: the folder's score 95% in [{100 * low:.1f}%, {100 * high:.1f}%])"
    print(
        f"mutate {folder}: {checked} of {len(found)} mutants checked, {killed} killed, "
        f"{len(survived)} survived: score {score} (survivors in {mutants.parent}/survivors.txt)"
    )


if __name__ == "__main__":
    if len(sys.argv) == 5:  # folder, mutants, sample size, seed
        from sample import sample

        main(
            sys.argv[1],
            Path(sys.argv[2]),
            sample(Path(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])),
        )
    else:
        main(sys.argv[1], Path(sys.argv[2]))
