"""The quick commands start quickly: they import no numerical library.

`balancer --version`, `--help`, `validate` and `knobs` must each take at most
0.3 s of CPU. Timing a command in a test would fail on a busy machine, so
this checks the cause instead: numpy, numba, scipy and polars
cost 0.1-1.2 s each to import, and none of them is imported by these
commands (their measured CPU times are in docs/performance.md). And the table of
commands the command line loads lazily names every command there is.
"""

from __future__ import annotations

import importlib
import json
import pkgutil
import subprocess
import sys
from pathlib import Path

import pytest

import balancer.cli
from balancer import games
from balancer.cli import COMMANDS
from balancer.cli.base import Command

ROOT = Path(__file__).resolve().parents[2]
HEAVY = ("numpy", "numba", "llvmlite", "scipy", "polars", "pyarrow")

QUICK = [
    ["--version"],
    ["--help"],
    ["validate", "variants/fdc-5p.yaml"],
    ["validate", "variants/kk-4p.yaml"],
    ["validate", "variants/dqz-4p.yaml"],
    ["validate", "examples/fdc-5p-balance.yaml"],  # with expect: targets to check
    ["knobs", "fdc"],
    ["knobs", "kk"],
    ["knobs", "dqz"],
]

PROBE = """
import json, sys
from balancer.cli import main
code = main(json.loads(sys.argv[1]))
loaded = sorted({name.split(".")[0] for name in sys.modules})
print(json.dumps({"code": code, "loaded": loaded}), file=sys.stderr)
"""


def probe(args: list[str]) -> list[str]:
    """The top-level modules `balancer ARGS` loaded, in a fresh interpreter (it must succeed)."""
    done = subprocess.run(
        [sys.executable, "-c", PROBE, json.dumps(args)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    seen = json.loads(done.stderr.strip().splitlines()[-1])
    assert seen["code"] == 0, done.stderr
    return list(seen["loaded"])


@pytest.mark.parametrize("args", QUICK, ids=" ".join)
def test_a_quick_command_imports_no_numerical_library(args: list[str]) -> None:
    loaded = probe(args)
    assert [name for name in HEAVY if name in loaded] == []


def test_the_command_table_names_every_command() -> None:
    """Every click command in balancer/cli is in COMMANDS or contributed by a game's
    definition, under its own name."""
    found = {}
    for info in pkgutil.iter_modules(balancer.cli.__path__):
        module = importlib.import_module(f"balancer.cli.{info.name}")
        for attr, value in vars(module).items():
            # Defined here, not imported from another command's module.
            if isinstance(value, Command) and value.callback.__module__ == module.__name__:
                found[value.name] = (module.__name__, attr)
    contributed = {}
    for command, game in games.contributed_commands().items():
        module, _, attr = games.definition(game).commands[command].partition(":")
        contributed[command] = (module, attr)
    assert found == {**COMMANDS, **contributed}
    assert "kk-odds" in contributed  # Kimekimera's own command comes from its definition
