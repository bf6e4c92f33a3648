"""Test-wide settings: every run in the suite checks the engines' invariants."""

import os

from balancer.runner import CHECK_ENV

# Runs started by tests (in-process or as subprocesses) check conservation of
# cards and chips after every move, as `--check` does.
os.environ[CHECK_ENV] = "1"
