"""Test-wide settings: every run in the suite checks the engines' invariants,
no test depends on the machine's speed, and the suite comes in two tiers."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

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
# In CI (`.ci/run` sets CI=true) the examples are derived from each test's name, not
# drawn at random: a CI result never depends on the draw, and a red run is the same red
# run again. Local runs keep the random search, which is what finds new cases.
settings.register_profile(
    "ci", parent=settings.get_profile("balancer"), derandomize=True, database=None
)
settings.load_profile("ci" if os.environ.get("CI") else "balancer")


@pytest.fixture()
def processes() -> Iterator[Processes]:
    """Start processes through this; in teardown, pass or fail, each one's whole
    process group (a run and its workers) is killed and reaped."""
    started = Processes()
    try:
        yield started
    finally:
        started.kill_all()


@pytest.fixture(scope="module")
def engine_unchecked() -> Iterator[None]:
    """Runs in this module play the way a user's do, compiled where they can: for modules
    about reports, the command line and diffs, not the engine (`pytestmark =
    pytest.mark.usefixtures("engine_unchecked")`). Module-scoped, so that the module's
    own module fixtures' runs are unchecked too. The rules are checked move by move in
    the engine's own tests, test_check.py and test_paths.py."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(CHECK_ENV, "0")
        yield


# The tests sit in folders by tier: unit/ (fast, no kernel compiled for them),
# kernels/ (compiled kernels against the Python engines, game for game), cli/ (the
# command line, report folders, processes), quality/ (statistical cross-checks and
# calibration runs, minutes in all), reference/ (the rules against independent
# reference engines), golden/ (whole runs against stored outputs).
#
# The quality tier (`-m quality`; `make test-fast` leaves it out): every test in
# quality/, and a few elsewhere kept at the power they need, which carry
# @pytest.mark.quality themselves or are named here.
QUALITY = Path(__file__).parent / "quality"
QUALITY_TESTS = ("test_kk_odds.py::test_the_simulator_breeds_as_the_odds_say",)


@pytest.hookimpl(tryfirst=True)  # before -m picks the tier
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        name = f"{item.path.name}::{getattr(item, 'originalname', item.name)}"
        if name in QUALITY_TESTS or QUALITY in item.path.parents:
            item.add_marker(pytest.mark.quality)
    # The quality tier first (10-30 s a test, about a third of the suite's time), the
    # rest in its usual order: under -n the last tests to start are then short ones, and
    # no worker sits idle while the other finishes a long one. The order is free: each
    # test stands alone.
    items.sort(key=lambda item: item.get_closest_marker("quality") is None)


def pytest_configure(config: pytest.Config) -> None:
    # Under -n, work stealing (pytest-xdist's --dist worksteal) unless --dist was given:
    # `load` hands out fixed batches in order, and a worker whose batch holds the long
    # tests finishes far behind the other; a worker that runs dry here takes half of
    # what the other has not started.
    asked = any(arg.startswith(("--dist", "-d")) for arg in config.invocation_params.args)
    if getattr(config.option, "dist", "no") == "load" and not asked:
        config.option.dist = "worksteal"
