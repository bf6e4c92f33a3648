"""Test-wide settings: every run in the suite checks the engines' invariants,
no test depends on the machine's speed, and the suite comes in two tiers."""

from __future__ import annotations

import os
from collections.abc import Iterator
from fnmatch import fnmatch

import pytest

from balancer.sim.runner import CHECK_ENV
from tests.helpers import Processes

# Runs started by tests (in-process or as subprocesses) check conservation of
# cards and chips after every move, as `--check` does.
os.environ[CHECK_ENV] = "1"

from hypothesis import HealthCheck, settings

# No test may depend on the machine's speed: hypothesis's per-example
# deadline would fail a loaded machine, or the first call of a kernel while it
# compiles, and so would its too_slow health check on data generation.
settings.register_profile("balancer", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("balancer")


@pytest.fixture()
def processes() -> Iterator[Processes]:
    """Start processes through this; in teardown, pass or fail, each one's whole
    process group (a run and its workers) is killed and reaped."""
    started = Processes()
    try:
        yield started
    finally:
        started.kill_all()


# The quality tier (`-m quality`; `make test-fast` leaves it out): the statistical
# cross-checks against tests/reference/ and the calibration runs, kept at the
# power they need. Files other engineers own are marked here, by name; the rest
# carry @pytest.mark.quality themselves.
QUALITY_FILES = ("test_*_crosscheck.py",)
QUALITY_TESTS = ("test_kk_odds.py::test_the_simulator_breeds_as_the_odds_say",)


@pytest.hookimpl(tryfirst=True)  # before -m picks the tier
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        name = f"{item.path.name}::{getattr(item, 'originalname', item.name)}"
        if name in QUALITY_TESTS or any(fnmatch(item.path.name, p) for p in QUALITY_FILES):
            item.add_marker(pytest.mark.quality)
