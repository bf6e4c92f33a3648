"""The report's modules are imported on a thread while the games play (cli/simulate.py)."""

from __future__ import annotations

import importlib.util
import sys

import pytest

from balancer.cli import simulate


def test_the_report_modules_are_importable_names() -> None:
    for name in simulate.REPORT_MODULES:
        assert importlib.util.find_spec(name) is not None, name


def test_preload_imports_until_a_module_fails_and_leaves_the_failure_to_the_report(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delitem(sys.modules, "colorsys", raising=False)
    monkeypatch.delitem(sys.modules, "netrc", raising=False)
    monkeypatch.setattr(
        simulate, "REPORT_MODULES", ("colorsys", "balancer.no_such_module", "netrc")
    )
    preload = simulate._Preload()
    preload.join()  # never started: nothing to wait for
    preload.start()
    preload.start()  # once only
    preload.join()
    assert "colorsys" in sys.modules
    assert "netrc" not in sys.modules  # stopped at the failing one, raising nothing
