"""A kernel package's cached code goes stale when any module of the package changes.

numba stamps a cached function with its own source file only; a kernel split
into a package (games/fdc/kernel/) inlines its rules from a sibling module, so
balancer.jit stamps such functions with every module of their package.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from balancer import jit


def test_the_stamp_changes_with_any_module_of_the_package(tmp_path: Path) -> None:
    (tmp_path / "__init__.py").write_text("")
    (tmp_path / "chunk.py").write_text("def loop(): pass\n")
    (tmp_path / "resolution.py").write_text("RULE = 1\n")
    before = jit.package_stamp(str(tmp_path))
    assert jit.package_stamp(str(tmp_path)) == before
    (tmp_path / "notes.txt").write_text("not a module")
    assert jit.package_stamp(str(tmp_path)) == before
    (tmp_path / "resolution.py").write_text("RULE = 2\n")  # the sibling, not chunk.py
    assert jit.package_stamp(str(tmp_path)) != before


@pytest.mark.skipif(not jit.ENABLED, reason="numba is off: nothing is cached")
def test_kernel_package_functions_are_stamped_by_their_package() -> None:
    from balancer.games.fdc.kernel import chunk

    locator = chunk._play_games._cache._impl.locator
    folder = os.path.dirname(chunk.__file__)
    assert locator.get_source_stamp() == jit.package_stamp(folder)
    # A module outside a kernel package keeps numba's own stamp (its one file).
    from balancer import rng_kernels

    other = rng_kernels.next_u64._cache._impl.locator
    assert other.get_source_stamp() != jit.package_stamp(os.path.dirname(rng_kernels.__file__))


def test_a_package_stamped_with_another_goes_stale_with_it(tmp_path: Path) -> None:
    """The role kernel inlines the trick procedure's kernels: an edit to that package
    must make the role kernel's cached code stale too (jit.stamp_with)."""
    ours, theirs = tmp_path / "roles", tmp_path / "fdc"
    for folder in (ours, theirs):
        folder.mkdir()
        (folder / "__init__.py").write_text("")
    (theirs / "resolution.py").write_text("RULE = 1\n")
    alone = jit.package_stamp(str(ours))
    jit.stamp_with(str(ours), str(theirs))
    before = jit.package_stamp(str(ours))
    assert before != alone
    (theirs / "resolution.py").write_text("RULE = 2\n")
    assert jit.package_stamp(str(ours)) != before
    # The other package's own stamp is not widened.
    assert jit.package_stamp(str(theirs)) != jit.package_stamp(str(ours))


def test_stamps_add_up_in_any_order(tmp_path: Path) -> None:
    """Each module names the package it inlines (the role kernel's layout the trick's,
    its fdc bridge fdc's): the second call adds to the first, whatever their order."""
    ours, trick, fdc = tmp_path / "roles", tmp_path / "trick", tmp_path / "fdc"
    for folder in (ours, trick, fdc):
        folder.mkdir()
        (folder / "__init__.py").write_text("")
    jit.stamp_with(str(ours), str(trick))
    jit.stamp_with(str(ours), str(fdc))
    jit.stamp_with(str(ours), str(trick))  # again: no second copy
    both = jit.package_stamp(str(ours))
    assert jit.stamped_with(str(ours)) == tuple(sorted((str(trick), str(fdc))))
    (fdc / "heuristic.py").write_text("X = 1\n")
    assert jit.package_stamp(str(ours)) != both
    (trick / "procedure.py").write_text("X = 1\n")
    changed = jit.package_stamp(str(ours))
    other = tmp_path / "other"
    other.mkdir()
    jit.stamp_with(str(other), str(fdc), str(trick))  # the other order
    assert jit.package_stamp(str(other)) != changed  # its own files differ (none)
    (other / "__init__.py").write_text("")
    assert jit.package_stamp(str(other)) == changed


def test_both_kernels_are_stamped_with_the_trick_procedure() -> None:
    """fdc's kernel and the role kernel inline games/trick/kernel/: an edit there
    recompiles both; the role kernel's fdc bridge inlines fdc's heuristic too, and
    its interpreter the primitives' compiled acts, the target kinds' seats and the
    score terms' values (games/roles/primitives/, targets/, scores/)."""
    from balancer.games.fdc import kernel as fdc_kernel
    from balancer.games.roles import kernel as roles_kernel
    from balancer.games.roles import primitives, scores, targets
    from balancer.games.trick import kernel as trick_kernel

    fdc, roles, trick, acts, seats, terms = (
        os.path.dirname(os.path.abspath(k.__file__))
        for k in (fdc_kernel, roles_kernel, trick_kernel, primitives, targets, scores)
    )
    assert jit.stamped_with(fdc) == (trick,)
    assert jit.stamped_with(roles) == tuple(sorted((acts, fdc, seats, terms, trick)))
    assert jit.stamped_with(trick) == ()
