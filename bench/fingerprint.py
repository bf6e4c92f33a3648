"""`python -m bench.fingerprint`: every shipped variant's report at a fixed seed, as
hashes, so two commits can be held to "nothing a user sees changed" (issue 38 item 7).

    python -m bench.fingerprint --out A.json [-n 500] [--seed 7] [--only GLOB]  # one commit
    python -m bench.fingerprint --compare A.json B.json            # what differs

Each variant of variants/ (but the `-base` ones, which only hold shared settings)
is run once with `balancer run` in a child process, `-w 1`, into a temporary
folder. Its fingerprint is the SHA-256 of report.json (and of each of its
top-level keys, so a difference is named), of each CSV, of summary.md, and of
games.parquet's rows (read back and written as CSV: the parquet file's own bytes
carry the writer's version). report.html is left out: its chart markup is not a
figure. A run that fails is recorded with its exit code and the last line it
printed, and counts as a difference.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import polars as pl

ROOT = Path(__file__).resolve().parent.parent
CSVS = ("seats.csv", "scores.csv", "events.csv", "cards.csv")


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _folder_fingerprint(folder: Path) -> dict[str, Any]:
    # A game file's report names its file by path: the checkout's own place is no figure.
    text = (folder / "report.json").read_text(encoding="utf-8").replace(str(ROOT), "<root>")
    report = json.loads(text)
    hashes = {"report.json": _sha(text.encode())}
    for key, value in report.items():
        hashes[f"report.json:{key}"] = _sha(json.dumps(value, sort_keys=True).encode())
    for name in (*CSVS, "summary.md"):
        if (folder / name).exists():
            hashes[name] = _sha((folder / name).read_bytes())
    games = pl.read_parquet(folder / "games.parquet")
    hashes["games.parquet"] = _sha(games.write_csv().encode())
    return hashes


def fingerprint(variant: Path, games: int, seed: int) -> dict[str, Any]:
    """The fingerprint of one variant's report (module docstring)."""
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch) / "report"
        command = [sys.executable, "-m", "balancer", "run", str(variant)]
        command += ["-n", str(games), "-s", str(seed), "-w", "1", "-q", "-o", str(folder)]
        done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            last = (done.stderr.strip().splitlines() or [""])[-1]
            return {"failed": f"exit {done.returncode}: {last}"}
        return _folder_fingerprint(folder)


def _shipped_variants(only: str) -> list[Path]:
    found = (ROOT / "variants").glob(f"{only}.yaml")
    return sorted(p for p in found if not p.stem.endswith("-base"))


def record(out: Path, games: int, seed: int, only: str = "*") -> None:
    prints: dict[str, Any] = {"games": games, "seed": seed, "variants": {}}
    for variant in _shipped_variants(only):
        prints["variants"][variant.stem] = fingerprint(variant, games, seed)
        state = "failed" if "failed" in prints["variants"][variant.stem] else "ok"
        print(f"{variant.stem}: {state}", file=sys.stderr)
    out.write_text(json.dumps(prints, indent=1, sort_keys=True), encoding="utf-8")


def compare(a: Path, b: Path) -> int:
    """Print what differs between two recorded fingerprints; 0 when nothing does."""
    left, right = (json.loads(p.read_text(encoding="utf-8")) for p in (a, b))
    if (left["games"], left["seed"]) != (right["games"], right["seed"]):
        print("the two were recorded at different games or seeds")
        return 1
    differ = 0
    for name in sorted(set(left["variants"]) | set(right["variants"])):
        one, two = left["variants"].get(name), right["variants"].get(name)
        if one is None or two is None:
            print(f"{name}: only in {'B' if one is None else 'A'}")
            differ += 1
            continue
        keys = sorted(k for k in set(one) | set(two) if one.get(k) != two.get(k))
        if keys:
            print(f"{name}: differs in {', '.join(keys)}")
            differ += 1
    total = len(set(left["variants"]) | set(right["variants"]))
    print(f"{total - differ} of {total} variants identical")
    return 1 if differ else 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path)
    parser.add_argument("--compare", type=Path, nargs=2)
    parser.add_argument("-n", "--games", type=int, default=500)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--only", default="*", help="the variants whose names match this glob")
    args = parser.parse_args()
    if args.compare:
        sys.exit(compare(*args.compare))
    if not args.out:
        parser.error("--out FILE or --compare A B")
    record(args.out, args.games, args.seed, args.only)


if __name__ == "__main__":
    main()
