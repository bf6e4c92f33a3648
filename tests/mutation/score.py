"""A folder's mutation score from mutmut's verdicts (tests/mutation/run.sh runs it).

mutmut keeps each source file's verdicts in mutants/<file>.meta (JSON: mutant name ->
exit code of its tests). Killed: the tests failed, ran out of their CPU time or the
mutant could not be type-checked. Survived: the tests passed, or no test reaches the
mutant at all (that is a gap too). Not yet checked: left for the next run. The score is
killed / (killed + survived), over the mutants checked so far.
"""

from __future__ import annotations

import json
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


def main(folder: str, mutants: Path) -> None:
    found = verdicts(mutants)
    tally = Counter(found.values())
    killed = sum(tally[s] for s in KILLED)
    survived = sorted(name for name, status in found.items() if status in SURVIVED)
    checked = killed + len(survived)
    (mutants.parent / "survivors.txt").write_text(
        "".join(f"{name}\t{found[name]}\n" for name in survived), encoding="utf-8"
    )
    score = f"{100 * killed / checked:.1f}%" if checked else "n/a"
    print(
        f"mutate {folder}: {checked} of {len(found)} mutants checked, {killed} killed, "
        f"{len(survived)} survived: score {score} (survivors in {mutants.parent}/survivors.txt)"
    )


if __name__ == "__main__":
    main(sys.argv[1], Path(sys.argv[2]))
