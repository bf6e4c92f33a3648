"""One primitive, one module (games/roles/primitives/): outside its own module a
primitive is named only by the registry (primitives/__init__.py, its op number)
and by the compiled dispatch (roles/kernel/acts.py, one line per op).

"Named" is read from the syntax of every module of the library: a string equal
to the primitive's name (`kind == "guard"`), an op number `OP_GUARD`, or an
import of its module. So a string chain put back into the engine, narrate or
validate fails here (docs/new-game.md, "Adding a primitive", lists the lines a
new primitive adds). Two other places name some primitives, each for a reason
of its own, listed below.
"""

from __future__ import annotations

import ast
from pathlib import Path

from balancer.games.roles import primitives
from balancer.games.roles.primitives import PRIMITIVES

ROOT = Path(__file__).resolve().parents[2] / "balancer"
REGISTRY = "games/roles/primitives/__init__.py"
DISPATCH = "games/roles/kernel/acts.py"
# (module, the function or assignment the name sits in, primitive): why it may.
ALLOWED = {
    # The place score term ({place: G, ...}) shares the word: its key, not the primitive.
    ("games/roles/validate.py", "term", "place"): "the place term's key",
    ("games/roles/validate.py", "place_term", "place"): "the place term's key",
    ("games/roles/vocabulary.py", "PLACE_TERM_KEYS", "place"): "the place term's key",
    # The declared bridge to fdc's heuristic reads fdc's game file's ops as fdc's effects.
    ("games/roles/kernel/fdc_bridge.py", "", "place"): "fdc's territory cards",
    ("games/roles/kernel/fdc_bridge.py", "_write_tables", "place"): "fdc's territory cards",
    ("games/roles/kernel/fdc_bridge.py", "", "move_all"): "fdc's cash cards",
    ("games/roles/kernel/fdc_bridge.py", "_write_tables", "move_all"): "fdc's cash cards",
}


def _named(node: ast.AST) -> str | None:
    """The primitive `node` names, if any."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value if node.value in PRIMITIVES else None
    word = None
    if isinstance(node, ast.Name):
        word = node.id
    elif isinstance(node, ast.Attribute):
        word = node.attr
    elif isinstance(node, ast.alias):
        word = node.name.rsplit(".", 1)[-1]
        if word in PRIMITIVES:
            return word  # its module, imported
    if word is not None and word.startswith("OP_") and word[3:].lower() in PRIMITIVES:
        return word[3:].lower()
    return None


def mentions(source: str) -> set[tuple[str, str]]:
    """(where, primitive) of each primitive `source` names; `where` is the innermost
    function, else the class or module-level assignment ('' elsewhere)."""
    found = set()

    def visit(node: ast.AST, where: str) -> None:
        function = isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        if function or (isinstance(node, ast.ClassDef) and not where):
            where = node.name
        elif isinstance(node, ast.Assign) and not where:
            targets = [t.id for t in node.targets if isinstance(t, ast.Name)]
            where = targets[0] if targets else where
        primitive = _named(node)
        if primitive is not None:
            found.add((where, primitive))
        for child in ast.iter_child_nodes(node):
            visit(child, where)

    visit(ast.parse(source), "")
    return found


def library_mentions() -> dict[tuple[str, str, str], None]:
    """(module, where, primitive) of each naming outside the primitive's own module,
    the registry and the dispatch."""
    out: dict[tuple[str, str, str], None] = {}
    for path in sorted(ROOT.rglob("*.py")):
        module = path.relative_to(ROOT).as_posix()
        if module in (REGISTRY, DISPATCH):
            continue
        for where, primitive in mentions(path.read_text(encoding="utf-8")):
            if module != f"games/roles/primitives/{primitive}.py":
                out[(module, where, primitive)] = None
    return out


def test_a_primitive_is_named_only_in_its_module_the_registry_and_the_dispatch() -> None:
    assert sorted(set(library_mentions()) - set(ALLOWED)) == []


def test_the_scan_sees_a_string_chain_an_op_number_and_an_import() -> None:
    """The control: each way of naming a primitive the scan reads is seen."""
    chain = "def act(kind):\n    if kind == 'guard':\n        return 1\n"
    assert mentions(chain) == {("act", "guard")}
    assert mentions("from x import OP_STEAL\n") == {("", "steal")}
    assert mentions("def f(op):\n    return op == layout.OP_ADD_GLOBAL\n") == {("f", "add_global")}
    assert mentions("from balancer.games.roles.primitives import catch_up\n") == {("", "catch_up")}
    assert mentions("KEYS = ('place', 'counter')\n") == {("KEYS", "place")}
    assert mentions("def f(kind):\n    return kind == 'guarded'\n") == set()


def test_every_exception_is_still_needed() -> None:
    """An allowance nothing uses any more goes, so it cannot hide a new naming."""
    assert sorted(set(ALLOWED) - set(library_mentions())) == []


def test_the_registry_and_the_dispatch_name_each_primitive() -> None:
    """Every primitive has its op number and its dispatch line: each is named in both."""
    registry = {p for _, p in mentions((ROOT / REGISTRY).read_text(encoding="utf-8"))}
    dispatch = {p for _, p in mentions((ROOT / DISPATCH).read_text(encoding="utf-8"))}
    assert registry == dispatch == set(PRIMITIVES)


def test_each_module_is_its_primitive() -> None:
    """A module's SPEC carries the module's own name, and the op numbers are the
    registry's order, each primitive's once."""
    for op, module in enumerate(primitives.ORDER):
        assert module.SPEC.name == module.__name__.rsplit(".", 1)[-1]
        assert primitives.OPS[module.SPEC.name] == op
        assert getattr(primitives, f"OP_{module.SPEC.name.upper()}") == op
    assert (
        sum(1 << op for op, m in enumerate(primitives.ORDER) if m.SPEC.targeted)
        == primitives.TARGETED
    )
