"""Test-wide settings: every run in the suite checks the engines' invariants."""

import os

from balancer.sim.runner import CHECK_ENV

# Runs started by tests (in-process or as subprocesses) check conservation of
# cards and chips after every move, as `--check` does.
os.environ[CHECK_ENV] = "1"

from hypothesis import settings  # noqa: E402

# No test may depend on the machine's speed: hypothesis's per-example
# deadline would fail a loaded machine, or the first call of a kernel while it
# compiles.
settings.register_profile("balancer", deadline=None)
settings.load_profile("balancer")
