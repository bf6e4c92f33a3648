"""One primitive, one module (games/roles/primitives/); one target kind, one module
(games/roles/targets/); one score term kind, one module (games/roles/scores/).
Outside its own module each is named only by its registry (the package's
__init__.py, its number) and by the compiled dispatch (roles/kernel/acts.py for the
first two, roles/kernel/scoring.py `_terms` for score terms, one line each).

"Named" is read from the syntax of the library's modules: a string equal to the
primitive's name or the target's word (`kind == "guard"`), its number (`OP_GUARD`,
`TGT_NEXT_SEAT`), or an import of its module. So a string chain put back into the
engine, narrate or validate fails here (docs/new-game.md, "Adding a primitive",
lists the lines a new one adds). A few other places use the same words for other
things, each listed below with what it is.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

import pytest

from balancer.games.roles import primitives, scores, targets
from balancer.games.roles.model import Term

ROOT = Path(__file__).resolve().parents[2] / "balancer"


def _python_only(spec: object) -> bool:
    """A score term the kernel does not play has no compiled value (none today: a kind
    may leave it out, and then needs no dispatch line)."""
    return isinstance(spec, scores.base.ScoreTerm) and spec.kernel_value is None


@dataclass(frozen=True)
class Registry:
    """One registry of modules: where it is, each module's word, its numbers' prefix,
    which modules of the library are scanned, and the namings allowed elsewhere."""

    package: ModuleType
    prefix: str  # its numbers: prefix + MODULE (OP_GUARD, TGT_NEXT_SEAT)
    scope: str  # the library's folder scanned (its words are common outside it)
    # (module, the function or assignment the naming sits in, module named): why.
    allowed: dict[tuple[str, str, str], str]
    dispatch: str = "games/roles/kernel/acts.py"  # the compiled dispatch, one line each
    dispatcher: str = "_apply"  # the function there holding the dispatch lines
    # Words too common to read as a naming when a string (`"counter"` is a parameter
    # kind, an amount's and a condition's too): their numbers and imports still are.
    plain: tuple[str, ...] = ()

    @property
    def path(self) -> str:
        return self.package.__name__.replace("balancer.", "").replace(".", "/")

    @property
    def compiled(self) -> set[str]:
        """The modules the kernel plays: each has its dispatch line."""
        kinds = self.package.ORDER
        return {m.__name__.rsplit(".", 1)[-1] for m in kinds if not _python_only(m.SPEC)}

    @property
    def words(self) -> dict[str, str]:
        """Module name -> the word a game file writes for it."""
        return {m.__name__.rsplit(".", 1)[-1]: m.SPEC.name for m in self.package.ORDER}


PRIMITIVES = Registry(
    primitives,
    "OP_",
    "",
    {
        # The place score term ({place: G, ...}) shares the word: its key.
        ("games/roles/scores/place.py", "read", "place"): "the place term's key",
        ("games/roles/scores/place.py", "SPEC", "place"): "the place term's key",
        ("games/roles/vocabulary.py", "PLACE_TERM_KEYS", "place"): "the place term's key",
        # The declared bridge to fdc's heuristic reads fdc's file's ops as fdc's effects.
        ("games/roles/kernel/fdc_bridge.py", "", "place"): "fdc's territory cards",
        ("games/roles/kernel/fdc_bridge.py", "_write_tables", "place"): "fdc's territory",
        ("games/roles/kernel/fdc_bridge.py", "", "move_all"): "fdc's cash cards",
        ("games/roles/kernel/fdc_bridge.py", "_write_tables", "move_all"): "fdc's cash",
        # "discard" is also the discard pile's name (a state's slot, a View's recall
        # field), a value of a Kimekimera knob and Da Qi Zi's discard move.
        ("games/trick/state.py", "TrickState", "discard"): "the discard pile's slot",
        ("games/roles/engine.py", "View", "discard"): "the discard pile's recall field",
        ("games/fdc/engine.py", "View", "discard"): "the discard pile's recall field",
        ("games/kimekimera/state.py", "View", "discard"): "the discard pile's recall field",
        ("games/kimekimera/state.py", "State", "discard"): "Kimekimera's discard slot",
        ("games/kimekimera/state.py", "arranged", "discard"): "Kimekimera's discard pile",
        ("games/kimekimera/knobs.py", "KNOBS", "discard"): "a Kimekimera knob's value",
        ("games/daqizi/engine.py", "State", "discard"): "Da Qi Zi's discard slot",
        ("games/daqizi/combos.py", "describe_move", "discard"): "Da Qi Zi's discard move",
        ("games/daqizi/narrate.py", "", "discard"): "Da Qi Zi's discard move, in English",
    },
)
TARGETS = Registry(
    targets,
    "TGT_",
    "games/roles",
    {
        # A targeted primitive's default target: its owner.
        ("games/roles/primitives/add.py", "SPEC", "owner"): "add's default target",
        ("games/roles/primitives/catch_up.py", "SPEC", "owner"): "catch_up's default",
        ("games/roles/primitives/guard.py", "SPEC", "owner"): "guard's default target",
        ("games/roles/primitives/clear.py", "SPEC", "owner"): "clear's default target",
        ("games/roles/primitives/draw.py", "SPEC", "owner"): "draw's default target",
        ("games/roles/primitives/discard.py", "SPEC", "owner"): "discard's default target",
        # The trick's knob leader_if_nothing_resolves: same or next.
        ("games/roles/kernel/tables.py", "make_tables", "next_seat"): "a trick knob's value",
        ("games/roles/validate.py", "IF_NOTHING_RESOLVES", "next_seat"): "a trick knob's value",
    },
    dispatcher="_target",
)
SCORES = Registry(
    scores,
    "TERM_",
    "games/roles",
    {
        # The replay's secret goals event, its teller, and the file's `goals:` block.
        ("games/roles/engine.py", "_game_over", "goals"): "the replay's goals event",
        ("games/roles/narrate.py", "", "goals"): "the goals event's teller",
        ("games/roles/goals.py", "read", "goals"): "the file's goals: block",
        ("games/roles/goals.py", "written", "goals"): "the file's goals: block",
        ("games/roles/vocabulary.py", "TOP_KEYS", "goals"): "the file's goals: block",
        ("games/roles/vocabulary.py", "PLACE_TERM_KEYS", "place"): "the place term's key",
        # The place primitive shares the word (its name, its trace event).
        ("games/roles/primitives/place.py", "", "place"): "the place primitive",
        ("games/roles/primitives/place.py", "SPEC", "place"): "the place primitive",
        ("games/roles/primitives/place.py", "act", "place"): "the place primitive",
        ("games/roles/primitives/place.py", "tell", "place"): "the place primitive",
        # Compiled readers of a term's row besides its value: fdc's heuristic reads
        # its bank's zone term (the declared bridge), the lookahead's goal pull the
        # place terms' gates.
        ("games/roles/kernel/fdc_bridge.py", "", "zone"): "fdc's bank term",
        ("games/roles/kernel/fdc_bridge.py", "_write_tables", "zone"): "fdc's bank term",
        ("games/roles/kernel/lookahead.py", "", "place"): "the goal pull's gates",
        ("games/roles/kernel/lookahead.py", "_goal_progress", "place"): "the goal pull",
    },
    dispatch="games/roles/kernel/scoring.py",
    dispatcher="_terms",
    plain=("zone", "counter"),
)
REGISTRIES = {"primitives": PRIMITIVES, "targets": TARGETS, "scores": SCORES}


def mentions(source: str, registry: Registry) -> set[tuple[str, str]]:
    """(where, module) of each of `registry`'s modules `source` names; `where` is the
    innermost function, else the class or module-level assignment ('' elsewhere)."""
    by_word = {w: m for m, w in registry.words.items() if w not in registry.plain}
    numbers = {registry.prefix + module.upper(): module for module in registry.words}
    package = registry.package.__name__
    modules = set(registry.words)  # a module is imported by its name, not its word
    found = set()

    def named(node: ast.AST) -> list[str]:
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return [by_word[node.value]] if node.value in by_word else []
        if isinstance(node, ast.Name) and node.id in numbers:
            return [numbers[node.id]]
        if isinstance(node, ast.Attribute) and node.attr in numbers:
            return [numbers[node.attr]]
        if isinstance(node, ast.ImportFrom) and node.module is not None:
            if node.module.startswith(package + "."):  # from <package>.<module> import x
                module = node.module.removeprefix(package + ".")
                return [module] if module in registry.words else []
            listed = [alias.name for alias in node.names]
            if node.module == package:  # from <package> import <module>, OP_X
                return [numbers.get(n) or n for n in listed if n in numbers or n in modules]
            return [numbers[n] for n in listed if n in numbers]
        return []

    def visit(node: ast.AST, where: str) -> None:
        function = isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        if function or (isinstance(node, ast.ClassDef) and not where):
            where = node.name  # type: ignore[attr-defined]
        elif isinstance(node, ast.Assign) and not where:
            names = [t.id for t in node.targets if isinstance(t, ast.Name)]
            where = names[0] if names else where
        found.update((where, module) for module in named(node))
        for child in ast.iter_child_nodes(node):
            visit(child, where)

    visit(ast.parse(source), "")
    return found


def library_mentions(registry: Registry) -> set[tuple[str, str, str]]:
    """(module, where, named) of each naming outside the named module, its registry
    and the dispatch."""
    out = set()
    for path in sorted((ROOT / registry.scope).rglob("*.py")):
        module = path.relative_to(ROOT).as_posix()
        if module in (f"{registry.path}/__init__.py", registry.dispatch):
            continue
        for where, named in mentions(path.read_text(encoding="utf-8"), registry):
            if module != f"{registry.path}/{named}.py":
                out.add((module, where, named))
    return out


@pytest.mark.parametrize("name", REGISTRIES)
def test_each_is_named_only_in_its_module_its_registry_and_the_dispatch(name: str) -> None:
    registry = REGISTRIES[name]
    assert sorted(library_mentions(registry) - set(registry.allowed)) == []


@pytest.mark.parametrize("name", REGISTRIES)
def test_every_allowance_is_still_needed(name: str) -> None:
    """An allowance nothing uses any more goes, so it cannot hide a new naming."""
    registry = REGISTRIES[name]
    assert sorted(set(registry.allowed) - library_mentions(registry)) == []


def test_the_scan_sees_a_string_chain_a_number_and_an_import() -> None:
    """The control: each way of naming the scan reads is seen, and a near word is not."""
    chain = "def act(kind):\n    if kind == 'guard':\n        return 1\n"
    assert mentions(chain, PRIMITIVES) == {("act", "guard")}
    assert mentions("from x import OP_STEAL\n", PRIMITIVES) == {("", "steal")}
    compare = "def f(op):\n    return op == layout.OP_ADD_GLOBAL\n"
    assert mentions(compare, PRIMITIVES) == {("f", "add_global")}
    imported = "from balancer.games.roles.primitives import catch_up\n"
    assert mentions(imported, PRIMITIVES) == {("", "catch_up")}
    assert mentions("KEYS = ('place', 'counter')\n", PRIMITIVES) == {("KEYS", "place")}
    assert mentions("def f(kind):\n    return kind == 'guarded'\n", PRIMITIVES) == set()
    word = "def seats(word):\n    if word == 'next':\n        return 1\n"
    assert mentions(word, TARGETS) == {("seats", "next_seat")}
    assert mentions("x = TGT_TOP\n", TARGETS) == {("x", "top")}
    assert mentions("from balancer.games.roles.targets.top import seats\n", TARGETS) == {
        ("", "top")
    }
    assert mentions("top = 3\nowner = top\n", TARGETS) == set()  # a variable's name
    imported = "from balancer.games.roles.targets import next_seat\n"  # not its word
    assert mentions(imported, TARGETS) == {("", "next_seat")}
    ranked = "def value(term):\n    if term.kind == 'rank':\n        return 1\n"
    assert mentions(ranked, SCORES) == {("value", "rank")}
    assert mentions("x = layout.TERM_PLACE\n", SCORES) == {("x", "place")}
    assert mentions("from balancer.games.roles.scores.goals import TERM\n", SCORES) == {
        ("", "goals")
    }
    # A plain word is not seen as a string, but its number and import are.
    assert mentions("KEYS = ('zone', 'counter')\n", SCORES) == set()
    assert mentions("x = TERM_COUNTER\n", SCORES) == {("x", "counter")}
    assert mentions("from balancer.games.roles.scores import zone\n", SCORES) == {("", "zone")}


@pytest.mark.parametrize("name", REGISTRIES)
def test_the_registry_and_the_dispatch_name_each_module(name: str) -> None:
    """Each has its number in the registry and its line in the dispatch's function
    (each the kernel plays): named in both."""
    registry = REGISTRIES[name]
    here = (ROOT / f"{registry.path}/__init__.py").read_text(encoding="utf-8")
    dispatch = (ROOT / registry.dispatch).read_text(encoding="utf-8")
    assert {m for _, m in mentions(here, registry)} == set(registry.words)
    lines = {m for where, m in mentions(dispatch, registry) if where == registry.dispatcher}
    assert lines == registry.compiled


def test_each_primitive_module_is_its_primitive() -> None:
    """A primitive's SPEC carries its module's name, and the op numbers are the
    registry's order, each primitive's once."""
    for op, module in enumerate(primitives.ORDER):
        assert module.SPEC.name == module.__name__.rsplit(".", 1)[-1]
        assert primitives.OPS[module.SPEC.name] == op
        assert getattr(primitives, f"OP_{module.SPEC.name.upper()}") == op
    assert (
        sum(1 << op for op, m in enumerate(primitives.ORDER) if m.SPEC.targeted)
        == primitives.TARGETED
    )


def test_each_score_term_has_its_number() -> None:
    """A kind's TERM number is 1 + its place in the registry's order (the old numbers:
    zone 1, counter 2, place 3, rank 4), and each read Term is one kind's."""
    for code, module in enumerate(scores.ORDER, start=1):
        assert scores.TERMS[module.SPEC.name] == code
        assert getattr(scores, "TERM_" + module.__name__.rsplit(".", 1)[-1].upper()) == code
    assert (scores.TERM_ZONE, scores.TERM_COUNTER, scores.TERM_PLACE, scores.TERM_RANK) == (
        1, 2, 3, 4,
    )  # fmt: skip
    made = {
        "zone": Term(zone="bank"),
        "counter": Term(counter="position"),
        "place": Term(place="finishers", counter="position"),  # a counter, yet a place
        "rank": Term(rank="position", points=(("int", 5),)),
        "goals": Term(goals=True),
    }
    for word, term in made.items():
        assert [m.SPEC.name for m in scores.ORDER if m.SPEC.holds(term)] == [word]
        assert scores.kind_of(term).name == word


def test_each_target_kind_has_its_number() -> None:
    """A kind's TGT number is its place in the registry's order; the bits say which
    kinds the owner picks and which name every rival."""
    for code, module in enumerate(targets.ORDER):
        assert targets.TGTS[module.SPEC.name] == code
        assert getattr(targets, "TGT_" + module.__name__.rsplit(".", 1)[-1].upper()) == code
    assert targets.CHOSEN == 1 << targets.TGT_RIVAL
    assert targets.EVERY_RIVAL == 1 << targets.TGT_ALL_RIVALS
    assert targets.EVERY_SEAT == 1 << targets.TGT_EVERY_SEAT
