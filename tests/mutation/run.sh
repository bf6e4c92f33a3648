#!/usr/bin/env bash
# `make mutate`: mutation testing with mutmut, one folder at a time (stats, roles, bots,
# or those named), each against only its own tests (tests/mutation/<folder>.cfg).
#
# Each folder works in build/mutate/<folder>/, where mutmut copies the code it mutates:
# the working tree is never changed. mutmut keeps every mutant's verdict there, so a run
# may be stopped (Ctrl-C) and started again: it goes on with the mutants not yet checked.
# MUTANTS='balancer.stats.role_impact.*' checks only the mutants whose names match (a
# chunk). SAMPLE=N checks a seeded random sample of N of the folder's mutants instead
# (SEED=41 unless given; tests/mutation/sample.py): an unbiased estimate of the folder's
# score, which score.py gives with its 95% interval. At the end of each folder: its score and its surviving mutants
# (build/mutate/<folder>/survivors.txt); docs/mutation.md says what each survivor means.
# Runs under `nice -n 19`: it is for a quiet machine or the background, never CI.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
bin=${BIN:-$root/.venv/bin}
folders=("$@")
[ ${#folders[@]} -gt 0 ] || folders=(stats roles bots)
read -r -a chunk <<<"${MUTANTS:-}"
for name in "${folders[@]}"; do
    config=$root/tests/mutation/$name.cfg
    [ -f "$config" ] || { echo "mutate: no folder '$name' (tests/mutation/*.cfg)" >&2; exit 2; }
    work=$root/build/mutate/$name
    mkdir -p "$work"
    ln -sfn "$root/balancer" "$work/balancer"
    ln -sfn "$root/tests" "$work/tests"
    cp "$config" "$work/setup.cfg"
    cd "$work"
    names=("${chunk[@]}")
    if [ -n "${SAMPLE:-}" ]; then
        # mutmut makes its mutants as a run starts; make them first to draw from them.
        [ -d mutants ] || env -u PYTHONPATH "$bin/python" -c \
            'from mutmut.__main__ import create_mutants; create_mutants(1)'
        mapfile -t names < <("$bin/python" "$root/tests/mutation/sample.py" mutants "$SAMPLE" "${SEED:-41}")
    fi
    # The mutated copy must be the balancer imported, not the tree's (PYTHONPATH).
    env -u PYTHONPATH nice -n 19 "$bin/mutmut" run --max-children 1 "${names[@]}"
    "$bin/python" "$root/tests/mutation/score.py" "$name" "$work/mutants" ${SAMPLE:+"$SAMPLE" "${SEED:-41}"}
done
