"""The package's layers, read from the source: which layer may import which, and no cycles.

Every module under ``src/pinochlekit`` is parsed (not imported) and every ``import`` in
it is collected, at module level, under ``try``/``if`` and inside functions, since an
import deferred into a function is still a dependency. The layers, lowest first:

- ``native``: the C accelerators and their loader; the standard library and itself.
- ``engine``: the game itself; the standard library, ``native`` and itself.
- ``players``: the computer players; the standard library, ``engine``, ``native``,
  itself.
- ``text``: narration; ``engine`` and itself (never the players).
- ``match``: matches between players; ``engine``, ``native``, ``players``, itself.
- ``tui``, ``web``: the two interfaces; anything below, never each other nor ``cli``.
- ``cli``: the command line; anything.
- ``usage`` and ``private`` are leaves every interface may use; they import nothing of
  the package. The top-level ``pinochlekit`` is the public face of the engine: it
  imports the engine only, and inside the package only the interfaces import it.

Import cycles are looked for in the graph of the imports that run (an import inside
``if TYPE_CHECKING:`` never runs: it names a type for the checker and joins no cycle).
"""

from __future__ import annotations

import ast
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parent.parent / "src"
PACKAGE = "pinochlekit"

#: What each layer may import from the package (its own layer is always allowed).
ALLOWED: dict[str, frozenset[str]] = {
    "native": frozenset(),
    "engine": frozenset({"native"}),
    "players": frozenset({"engine", "native"}),
    "text": frozenset({"engine"}),
    "match": frozenset({"engine", "native", "players"}),
    "review": frozenset({"engine", "native", "players"}),
    "tui": frozenset({"engine", "native", "players", "text", "match", "review", "usage",
                      "private", PACKAGE}),
    "web": frozenset({"engine", "native", "players", "text", "match", "review", "usage",
                      "private", PACKAGE}),
    "cli": frozenset({"engine", "native", "players", "text", "match", "review", "tui", "web",
                      "usage", "private", PACKAGE}),
    "usage": frozenset(),
    "private": frozenset(),
    PACKAGE: frozenset({"engine"}),
    "__main__": frozenset({"cli"}),
}

#: Layers that use the standard library only (no third-party package).
STDLIB_ONLY = frozenset({"native", "engine", "players", "text", "match", "review", "usage",
                         "private"})
#: Optional third-party packages a layer may import where it is asked for them (an extra
#: of pyproject.toml; the layer works without it): Ray for ``pinochle match --ray``.
OPTIONAL = {"match": frozenset({"ray"})}


@dataclass(frozen=True)
class Import:
    """One imported name: the module that imports, what it imports, where."""

    source: str
    target: str
    line: int
    runs: bool  # False inside ``if TYPE_CHECKING:``


def _modules() -> dict[str, Path]:
    modules: dict[str, Path] = {}
    for path in sorted((SRC / PACKAGE).rglob("*.py")):
        parts = list(path.relative_to(SRC).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        modules[".".join(parts)] = path
    return modules


MODULES = _modules()


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _targets(module: str, node: ast.Import | ast.ImportFrom) -> list[str]:
    """The modules an import statement names; ``from P import x`` names ``P.x`` when
    that is a module of the package, else ``P``."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    if node.level:
        is_package = MODULES[module].name == "__init__.py"
        base = module.split(".") if is_package else module.split(".")[:-1]
        base = base[:len(base) - node.level + 1]
        prefix = ".".join([*base, *([node.module] if node.module else [])])
    else:
        prefix = node.module or ""
    return [f"{prefix}.{alias.name}" if f"{prefix}.{alias.name}" in MODULES else prefix
            for alias in node.names]


def _imports(module: str) -> list[Import]:
    tree = ast.parse(MODULES[module].read_text(encoding="utf-8"))
    found: list[Import] = []

    def visit(node: ast.AST, runs: bool) -> None:
        if isinstance(node, ast.Import | ast.ImportFrom):
            found.extend(Import(module, target, node.lineno, runs)
                         for target in _targets(module, node))
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            for statement in node.body:
                visit(statement, False)
            for statement in node.orelse:
                visit(statement, runs)
            return
        for child in ast.iter_child_nodes(node):
            visit(child, runs)

    visit(tree, True)
    return found


IMPORTS = [found for module in MODULES for found in _imports(module)]


def layer(module: str) -> str:
    """The layer of a module of the package: its first name below ``pinochlekit``."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else PACKAGE


def _where(found: Import) -> str:
    return f"{MODULES[found.source].relative_to(SRC)}:{found.line} imports {found.target}"


def test_the_walk_sees_the_package() -> None:
    # The walk must find the layers and their imports, or the tests below prove nothing.
    # Every module belongs to a layer this test knows.
    assert {layer(m) for m in MODULES} == set(ALLOWED)
    assert any(f.source == "pinochlekit.engine.game" and f.target == "pinochlekit.engine.tricks"
               for f in IMPORTS)
    deferred = [f for f in IMPORTS if f.source == "pinochlekit.cli.main"
                and f.target.startswith("pinochlekit.web")]
    assert deferred, "imports inside functions are walked too"


@pytest.mark.parametrize("name", sorted(ALLOWED))
def test_each_layer_imports_only_the_layers_below_it(name: str) -> None:
    wrong = [_where(f) for f in IMPORTS
             if layer(f.source) == name and f.target.split(".")[0] == PACKAGE
             and layer(f.target) != name and layer(f.target) not in ALLOWED[name]]
    assert not wrong, f"{name} may import only {sorted(ALLOWED[name])}:\n" + "\n".join(wrong)


@pytest.mark.parametrize("name", sorted(STDLIB_ONLY))
def test_lower_layers_use_the_standard_library_only(name: str) -> None:
    outside = [_where(f) for f in IMPORTS
               if layer(f.source) == name and f.target.split(".")[0] != PACKAGE
               and f.target.split(".")[0] not in sys.stdlib_module_names
               and f.target.split(".")[0] not in OPTIONAL.get(name, frozenset())
               and f.target != "__future__"]
    assert not outside, "\n".join(outside)


def _graph() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {module: set() for module in MODULES}
    for found in IMPORTS:
        if found.runs and found.target in MODULES and found.target != found.source:
            graph[found.source].add(found.target)
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle of ``graph`` as a path that ends where it starts, or ``None``."""
    state: dict[str, int] = {}  # 1 on the current path, 2 done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                return [*path[path.index(nxt):], nxt]
            if nxt not in state and (cycle := visit(nxt)):
                return cycle
        path.pop()
        state[node] = 2
        return None

    for start in sorted(graph):
        if start not in state and (cycle := visit(start)):
            return cycle
    return None


def test_find_cycle_reports_a_cycle() -> None:
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set(), "c": {"a", "b"}}) is None


def test_no_import_cycles() -> None:
    cycle = find_cycle(_graph())
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


#: Layers that read the engine (and one another) through public names only: every
#: layer above the engine.
PUBLIC_ONLY = frozenset({"players", "text", "match", "review", "cli", "tui", "web"})

#: The private names read from outside, each with why: Textual has no public way to
#: render a screen to text (the terminal's snapshot, ``TableApp.screen_text``).
PRIVATE_READS = frozenset({"self.screen._compositor"})


def _own(tree: ast.Module) -> set[str]:
    """Names whose private attributes a module may read: its own classes."""
    return {node.name for node in ast.walk(tree) if isinstance(node, ast.ClassDef)}


def _built_by_cls(function: ast.AST) -> set[str]:
    """Local names a (class) method binds to ``cls(...)``: an object of its own class."""
    return {target.id for node in ast.walk(function) if isinstance(node, ast.Assign)
            and isinstance(node.value, ast.Call) and isinstance(node.value.func, ast.Name)
            and node.value.func.id == "cls"
            for target in node.targets if isinstance(target, ast.Name)}


def _private_reads(tree: ast.Module) -> list[ast.Attribute]:
    """Every ``x._name`` in ``tree`` (class bodies, defaults and decorators included)
    but on ``self``, ``cls``, a class of the same module or an object the enclosing
    function has built with ``cls(...)``."""
    own = _own(tree) | {"self", "cls"}
    found: list[ast.Attribute] = []
    seen: set[int] = set()

    def visit(node: ast.AST, mine: set[str]) -> None:
        if id(node) in seen:  # a default is seen first in the enclosing scope
            return
        seen.add(id(node))
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            inner = mine | _built_by_cls(node)
            # decorators and defaults belong to the enclosing scope
            outer: list[ast.AST] = [*getattr(node, "decorator_list", []),
                                    *node.args.defaults,
                                    *(d for d in node.args.kw_defaults if d is not None)]
            for child in outer:
                visit(child, mine)
            for child in ast.iter_child_nodes(node):
                if child not in outer:
                    visit(child, inner)
            return
        if (isinstance(node, ast.Attribute) and node.attr.startswith("_")
                and not node.attr.startswith("__")
                and not (isinstance(node.value, ast.Name) and node.value.id in mine)):
            found.append(node)
        for child in ast.iter_child_nodes(node):
            visit(child, mine)

    visit(tree, own)
    return found


def test_the_private_read_check_sees_class_bodies_defaults_and_decorators() -> None:
    tree = ast.parse("class F:\n    x = Game._table\n"
                     "def f(x=Game._d):\n    return x._y\n"
                     "@reg(Game._hook)\ndef g(self):\n    return self._z\n"
                     "class H:\n    @classmethod\n    def new(cls):\n"
                     "        made = cls()\n        made._n = 1\n        return made\n")
    assert sorted(ast.unparse(n) for n in _private_reads(tree)) == [
        "Game._d", "Game._hook", "Game._table", "x._y"]


@pytest.mark.parametrize("name", sorted(PUBLIC_ONLY))
def test_layers_above_the_engine_read_no_private_attribute(name: str) -> None:
    # ``x._name`` on anything but the module's own objects (see _private_reads): the
    # engine's state (and another module's) is read through public accessors (hidden
    # fields may change with no notice).
    private = []
    for module, path in MODULES.items():
        if layer(module) != name:
            continue
        for node in _private_reads(ast.parse(path.read_text(encoding="utf-8"))):
            if ast.unparse(node) not in PRIVATE_READS:
                private.append(f"{path.relative_to(SRC)}:{node.lineno} {ast.unparse(node)}")
    assert not private, "\n".join(sorted(set(private)))
