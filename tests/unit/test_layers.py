"""The house's layers (docs/architecture.md): no module imports from a layer above
its own, no modules import each other in a circle, and no module takes a private
name (`_x`) from another package.

Every `import` of the library is read with `ast`, those inside functions too (a
lazy import is still a dependency); only imports under `if TYPE_CHECKING:`
are left out, since they name a type and run nothing. Imports made by name at
run time (importlib) are not seen: docs/architecture.md lists them.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "balancer"

# Lowest first. A key is a package (it takes every module under it) or a
# module; the longest key that names a module places it. The bare package
# `balancer` (its __init__.py, the library's front door) sits at the top.
LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    (
        "base",
        (
            "balancer._version",
            "balancer.environment",
            "balancer.errors",
            "balancer.escape",
            "balancer.files",
            "balancer.interrupts",
            "balancer.jit",
            "balancer.knobs",
            "balancer.numbers",
            "balancer.rng",
            "balancer.rng_hash",
            "balancer.rng_kernels",
            "balancer.bot",
            "balancer.yamlsafe",
        ),
    ),
    ("games", ("balancer.games", "balancer.i18n", "balancer.table")),
    ("bots", ("balancer.bots",)),
    ("config", ("balancer.config",)),
    ("stats", ("balancer.stats",)),
    ("sim", ("balancer.sim",)),
    ("report", ("balancer.report",)),
    ("analysis", ("balancer.analysis",)),
    ("cli", ("balancer.cli", "balancer.__main__", "balancer")),
)
PLACE = {key: level for level, (_, keys) in enumerate(LAYERS) for key in keys}


def layer_of(module: str, place: Mapping[str, int] = PLACE) -> int | None:
    """The layer (an index into LAYERS) of a dotted module name, or None if unplaced."""
    parts = module.split(".")
    for end in range(len(parts), 1, -1):  # the bare root is a key only for itself
        key = ".".join(parts[:end])
        if key in place:
            return place[key]
    return place.get(module)


def module_name(path: Path, root: Path) -> str:
    """`balancer/sim/runner.py` -> `balancer.sim.runner`; a package's __init__ is the package."""
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _import_nodes(nodes: Iterable[ast.AST]) -> Iterable[ast.Import | ast.ImportFrom]:
    """Every import statement among `nodes`, at any depth, except in the body of
    `if TYPE_CHECKING:` (its else branch runs, and counts)."""
    for node in nodes:
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node
        elif isinstance(node, ast.If) and _type_checking(node):
            yield from _import_nodes(node.orelse)
        else:
            yield from _import_nodes(ast.iter_child_nodes(node))


def _imported(
    node: ast.Import | ast.ImportFrom, module: str, is_package: bool
) -> list[tuple[str, str]]:
    """(module, name) per name an import statement binds: ("a.b", "") for `import a.b`,
    ("a", "b") for `from a import b`, relative imports made absolute."""
    if isinstance(node, ast.Import):
        return [(alias.name, "") for alias in node.names]
    prefix = node.module or ""
    if node.level:
        base = module.split(".") if is_package else module.split(".")[:-1]
        base = base[: len(base) - (node.level - 1)]
        prefix = ".".join([*base, *([node.module] if node.module else [])])
    return [(prefix, alias.name) for alias in node.names]


def imports_of(source: str, module: str, is_package: bool, known: set[str]) -> set[str]:
    """The modules of `known` that `module` (whose text is `source`) imports at run time.

    `from a import b` imports a.b when that is a module, else a (b is a name in it);
    a name that is no known module is traced to the nearest known package above it.
    """
    found = set()
    for node in _import_nodes([ast.parse(source)]):
        for imported, name in _imported(node, module, is_package):
            target = f"{imported}.{name}" if f"{imported}.{name}" in known else imported
            while target not in known and "." in target:
                target = target.rsplit(".", 1)[0]
            if target in known and target != module:
                found.add(target)
    return found


def missing_modules(source: str, module: str, is_package: bool, known: set[str]) -> set[str]:
    """The library's modules that `module` imports from but that do not exist (one that
    moved, say): mypy, told to ignore missing imports for numba's sake, says nothing."""
    return {
        imported
        for node in _import_nodes([ast.parse(source)])
        for imported, _ in _imported(node, module, is_package)
        if imported.split(".")[0] == PACKAGE.name and imported not in known
    }


def import_graph(root: Path = ROOT, package: Path = PACKAGE) -> dict[str, set[str]]:
    """module -> the library's modules it imports at run time, for every module of `package`."""
    paths = {module_name(p, root): p for p in sorted(package.rglob("*.py"))}
    known = set(paths)
    return {
        name: imports_of(path.read_text(encoding="utf-8"), name, path.name == "__init__.py", known)
        for name, path in paths.items()
    }


def upward_imports(
    graph: Mapping[str, set[str]], place: Mapping[str, int] = PLACE
) -> list[tuple[str, str]]:
    """Every import from a module to one in a higher layer, as (importer, imported)."""
    return sorted(
        (a, b)
        for a, targets in graph.items()
        for b in targets
        if (la := layer_of(a, place)) is not None
        and (lb := layer_of(b, place)) is not None
        and lb > la
    )


def import_cycles(graph: Mapping[str, set[str]]) -> list[list[str]]:
    """Every set of modules that import each other in a circle (a strongly connected
    component of two or more), each sorted; Tarjan's algorithm, iteratively."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    circles = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph.get(start, ()))))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    circles.append(sorted(component))
    return sorted(circles)


def package_of(module: str, packages: set[str]) -> str:
    """The package a module belongs to: a package's __init__ is the package itself."""
    return module if module in packages else module.rsplit(".", 1)[0]


def _dotted(node: ast.expr) -> str | None:
    """`a.b.c` of a chain of names and attributes, else None."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        head = _dotted(node.value)
        return None if head is None else f"{head}.{node.attr}"
    return None


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def private_names_taken(
    source: str, module: str, is_package: bool, known: set[str], packages: set[str]
) -> set[tuple[str, str]]:
    """(module, name) of each private name `module` takes from a module of another
    package: `from m import _x`, or `m._x` read off a module it imported (as `m`, under
    an alias, or by its dotted name). A private name is `_x`, not a dunder; a package
    is the folder a module sits in, so a game's kernel/ is a package apart from the
    game's engine."""
    home = package_of(module, packages)
    tree = ast.parse(source)
    taken = set()
    modules: dict[str, str] = {}  # a name bound to one of the library's modules -> it
    for node in _import_nodes([tree]):
        if isinstance(node, ast.Import):  # `import a.b` is read as `a.b._x`, below
            for alias in node.names:
                if alias.asname is not None and alias.name in known:
                    modules[alias.asname] = alias.name
            continue
        named = zip(_imported(node, module, is_package), node.names, strict=True)
        for (imported, name), alias in named:
            if f"{imported}.{name}" in known:  # a module, named from its package
                modules[alias.asname or name] = f"{imported}.{name}"
            elif _private(name) and imported in known and package_of(imported, packages) != home:
                taken.add((imported, name))
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and _private(node.attr):
            bound = _dotted(node.value)
            owner = None if bound is None else modules.get(bound, bound if bound in known else None)
            if owner is not None and package_of(owner, packages) != home:
                taken.add((owner, node.attr))
    return taken


def private_names_across_packages(
    root: Path = ROOT, package: Path = PACKAGE
) -> dict[str, set[tuple[str, str]]]:
    """module -> the private names it takes from other packages, for every module of
    `package` that takes any."""
    paths = {module_name(p, root): p for p in sorted(package.rglob("*.py"))}
    known = set(paths)
    packages = {name for name, path in paths.items() if path.name == "__init__.py"}
    found = {
        name: private_names_taken(
            path.read_text(encoding="utf-8"), name, path.name == "__init__.py", known, packages
        )
        for name, path in paths.items()
    }
    return {name: taken for name, taken in found.items() if taken}


# --- the library ------------------------------------------------------------------


@pytest.fixture(scope="module")
def graph() -> dict[str, set[str]]:
    return import_graph()


def test_every_module_has_a_layer(graph: dict[str, set[str]]) -> None:
    assert [m for m in graph if layer_of(m) is None] == []


def test_no_module_imports_from_a_layer_above_its_own(graph: dict[str, set[str]]) -> None:
    named = [
        f"{a} ({LAYERS[layer_of(a) or 0][0]}) -> {b} ({LAYERS[layer_of(b) or 0][0]})"
        for a, b in upward_imports(graph)
    ]
    assert named == []


def test_no_modules_import_each_other_in_a_circle(graph: dict[str, set[str]]) -> None:
    assert import_cycles(graph) == []


def test_the_trick_procedure_imports_neither_game_and_the_role_games_reach_fdc_by_bridges(
    graph: dict[str, set[str]],
) -> None:
    """Fish! Dash! Cash! and the role games both stand on games/trick/ (issue 38):
    trick imports neither; of the role games, only the two declared bridges seat
    fdc's heuristic (the Python one and the compiled one); fdc imports no role game."""
    games = ("balancer.games.fdc", "balancer.games.roles")
    trick = {m: t for m, t in graph.items() if m.startswith("balancer.games.trick")}
    assert "balancer.games.trick.kernel.procedure" in trick  # the graph holds the package
    assert sorted((m, t) for m, ts in trick.items() for t in ts if t.startswith(games)) == []
    into_fdc = [
        m
        for m, ts in sorted(graph.items())
        if m.startswith("balancer.games.roles") and any(t.startswith(games[0]) for t in ts)
    ]
    assert into_fdc == [
        "balancer.games.roles.fdc_heuristic",
        "balancer.games.roles.kernel.fdc_bridge",
    ]
    into_roles = [
        m
        for m, ts in graph.items()
        if m.startswith(games[0]) and any(t.startswith(games[1]) for t in ts)
    ]
    assert into_roles == []


# Private names still taken across packages, each with why; a new one fails the test
# below, and so does one declared here that is gone (keep the list true).
DECLARED_PRIVATE: dict[tuple[str, str, str], str] = {
    # A game's kernel/ builds the engine's views from its arrays, with the engine's
    # private view maker and deck tables: the kernel is the engine compiled.
    ("balancer.games.fdc.kernel.stepping", "balancer.games.fdc.engine", "_new_view"): "view",
    ("balancer.games.fdc.kernel.stepping", "balancer.games.fdc.engine", "_tables"): "view",
    ("balancer.games.daqizi.kernel.stepping", "balancer.games.daqizi.engine", "_new_view"): "view",
    (
        "balancer.games.kimekimera.kernel.stepping",
        "balancer.games.kimekimera.engine",
        "_new_view",
    ): ("view"),
    (
        "balancer.games.kimekimera.kernel.stepping",
        "balancer.games.kimekimera.engine",
        "_complete",
    ): ("view"),
    (
        "balancer.games.kimekimera.kernel.stepping",
        "balancer.games.kimekimera.engine",
        "_check_colour_bonus",
    ): "the knob's check, run where the engine runs it",
    (
        "balancer.games.kimekimera.kernel.layout",
        "balancer.games.kimekimera.engine",
        "_check_colour_bonus",
    ): "the knob's check, run where the engine runs it",
    # sim's stepped kernel draws a plugin's numbers as rng.Stream does (2**64 as a float).
    ("balancer.sim.kernel_step", "balancer.rng", "_TWO_64"): "rng's constant",
}


def test_no_module_takes_a_private_name_from_another_package() -> None:
    found = {
        (module, owner, name)
        for module, taken in private_names_across_packages().items()
        for owner, name in taken
    }
    assert sorted(found - set(DECLARED_PRIVATE)) == []
    assert sorted(set(DECLARED_PRIVATE) - found) == []


def test_a_private_name_taken_across_packages_is_caught_and_only_it() -> None:
    """The check above, on a throwaway module of the role kernel: what it takes from
    fdc's kernel and from rng is caught, what it takes from its own package is not."""
    known = {
        "balancer",
        "balancer.rng",
        "balancer.games",
        "balancer.games.fdc",
        "balancer.games.fdc.kernel",
        "balancer.games.fdc.kernel.layout",
        "balancer.games.fdc.kernel.resolution",
        "balancer.games.roles",
        "balancer.games.roles.kernel",
        "balancer.games.roles.kernel.regions",
        "balancer.games.roles.kernel.interpreter",
    }
    packages = known - {
        "balancer.rng",
        "balancer.games.fdc.kernel.layout",
        "balancer.games.fdc.kernel.resolution",
        "balancer.games.roles.kernel.regions",
        "balancer.games.roles.kernel.interpreter",
    }
    source = (
        "from balancer.games.fdc.kernel.resolution import _seat_after, apply\n"  # caught
        "from balancer.games.roles.kernel.regions import _rb\n"  # its own package
        "from . import regions\n"
        "from balancer.games.fdc.kernel import layout as fdc\n"
        "import balancer.rng\n"
        "def late():\n"
        "    from balancer.games.fdc.kernel import resolution\n"
        "    return resolution._in_plays, fdc.__file__, fdc.PLAY\n"  # the first caught
        "x = fdc._FAST, regions._x, balancer.rng._TWO_64\n"  # the first and last caught
    )
    found = private_names_taken(
        source, "balancer.games.roles.kernel.interpreter", False, known, packages
    )
    assert found == {
        ("balancer.games.fdc.kernel.resolution", "_seat_after"),
        ("balancer.games.fdc.kernel.resolution", "_in_plays"),
        ("balancer.games.fdc.kernel.layout", "_FAST"),
        ("balancer.rng", "_TWO_64"),
    }
    # The same module inside fdc's kernel package takes nothing across packages there.
    inside = private_names_taken(
        "from balancer.games.fdc.kernel.resolution import _seat_after\n",
        "balancer.games.fdc.kernel.bots",
        False,
        known,
        packages,
    )
    assert inside == set()


def test_every_import_of_the_library_names_a_module_that_exists() -> None:
    paths = {module_name(p, ROOT): p for p in sorted(PACKAGE.rglob("*.py"))}
    missing = {
        name: found
        for name, path in paths.items()
        if (
            found := missing_modules(path.read_text(), name, path.name == "__init__.py", set(paths))
        )
    }
    assert missing == {}


def test_the_graph_is_read_at_all(graph: dict[str, set[str]]) -> None:
    """The checks above pass on an empty graph too: a few imports every reader can see."""
    assert "balancer.table" in graph["balancer.stats.describe"]
    assert "balancer.bot" in graph["balancer.games.fdc.bots"]
    assert "balancer.report.html" in graph["balancer.report.model"]  # lazy, in Report.save


# --- the checker, on houses made by hand ----------------------------------------------


def _package(tmp_path: Path, files: Mapping[str, str]) -> dict[str, set[str]]:
    for relative, text in files.items():
        path = tmp_path / "balancer" / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return import_graph(tmp_path, tmp_path / "balancer")


def test_the_reader_counts_lazy_and_relative_imports_but_not_type_only_ones(
    tmp_path: Path,
) -> None:
    graph = _package(
        tmp_path,
        {
            "__init__.py": "",
            "errors.py": "",
            "stats/__init__.py": "",
            "stats/figures.py": (
                "from typing import TYPE_CHECKING\n"
                "from balancer import errors\n"  # a module, named from its package
                "if TYPE_CHECKING:\n"
                "    from balancer.sim.runner import Result\n"  # a type: left out
                "else:\n"
                "    import balancer.sim.play\n"  # the else branch runs: counted
                "def late():\n"
                "    from ..sim import runner\n"  # lazy and relative: counted
                "    from .describe import mean\n"  # a name in a module: the module
            ),
            "stats/describe.py": "import numpy\nimport json\n",  # not the library's
            "sim/__init__.py": "",
            "sim/runner.py": "",
            "sim/play.py": "",
        },
    )
    assert graph["balancer.stats.figures"] == {
        "balancer.errors",
        "balancer.sim.play",
        "balancer.sim.runner",
        "balancer.stats.describe",
    }
    assert graph["balancer.stats.describe"] == set()


def test_an_import_of_a_module_that_moved_away_is_caught() -> None:
    known = {"balancer", "balancer.bot", "balancer.bots", "balancer.bots.registry"}
    source = (
        "from balancer.bot import BotSpec\n"  # where it lives
        "from balancer.bots import registry\n"
        "from balancer.bots.api import RANDOM\n"  # where it was
        "import balancer.table\n"  # never was
        "import numpy\n"
    )
    found = missing_modules(source, "balancer.bots.search", False, known)
    assert found == {"balancer.bots.api", "balancer.table"}


def test_a_planted_upward_import_is_caught_and_only_it() -> None:
    place = {"balancer.errors": 0, "balancer.stats": 1, "balancer.sim": 2, "balancer": 3}
    graph = {
        "balancer": {"balancer.sim.runner"},
        "balancer.errors": set(),
        "balancer.stats.figures": {"balancer.errors", "balancer.sim.runner"},  # planted
        "balancer.sim.runner": {"balancer.stats.figures", "balancer.errors"},
    }
    assert upward_imports(graph, place) == [("balancer.stats.figures", "balancer.sim.runner")]
    graph["balancer.stats.figures"].discard("balancer.sim.runner")
    assert upward_imports(graph, place) == []


def test_the_root_package_places_only_itself() -> None:
    place = {"balancer": 3, "balancer.sim": 2}
    assert layer_of("balancer", place) == 3
    assert layer_of("balancer.sim.runner", place) == 2
    assert layer_of("balancer.newcomer", place) is None  # not silently at the top


def test_a_planted_cycle_is_caught_with_every_member() -> None:
    graph = {
        "a": {"b"},
        "b": {"c", "d"},
        "c": {"a"},  # a -> b -> c -> a
        "d": {"e"},
        "e": {"d"},  # d <-> e
        "f": {"a"},  # above the circle, not in it
    }
    assert import_cycles(graph) == [["a", "b", "c"], ["d", "e"]]
    graph["c"] = set()
    graph["e"] = set()
    assert import_cycles(graph) == []
