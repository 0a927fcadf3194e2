"""Imports run one way: the import graph of ``shim/``, read from the ``ast`` of every module, has no cycle, no
import up a floor, and no import of a concrete backend outside ``shim/backends`` and the CLI.

Every import counts, wherever it stands: at module level, inside a function (a lazy import is still a
dependency), and under ``if TYPE_CHECKING:`` (a type that names a higher floor ties the two together all the
same). An import of a package (``from shim.prompting import render_messages``) is an edge to the package's
``__init__``; ``from shim.backends import base`` is an edge to the submodule.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1] / "shim"

FLOORS: tuple[tuple[str, ...], ...] = (
    # 0. Data and leaf services: what everything else is made of. `ids` is the one source of call ids (the parser,
    #    the Ollama backend and the server all draw from it); `choice` reduces a tool choice's forms to one;
    #    `config` reads the MCP config file; `trace` writes JSONL through `redact`; `notices` carries what a lower layer changed to the response headers; `resources` finds the packaged
    #    data files; `relevance` says whether a request's words match a tool, `request_values` which values it names.
    (
        "shim.__about__",
        "shim.resources",
        "shim.redact",
        "shim.errors",
        "shim.types",
        "shim.validation",
        "shim.ids",
        "shim.choice",
        "shim.config",
        "shim.trace",
        "shim.notices",
        "shim.relevance",
        "shim.request_values",
    ),
    # 1. Text for the model: the prompt, and the constraint (grammar) that keeps its calls well formed.
    ("shim.prompting", "shim.constrain"),
    # 2. How to reach an engine.
    ("shim.backends",),
    # 3. The other outside system: MCP servers.
    ("shim.mcp_client",),
    # 4. The model's text read into events, and the closed event vocabulary itself (the parser emits it).
    ("shim.parsing", "shim.events"),
    # 5. Decisions of one turn: where a call goes, which tool choice holds, which family the model is.
    ("shim.routing", "shim.tool_choice", "shim.profiles"),
    # 6. The loop.
    ("shim.agent", "shim.agent_types"),
    # 7. The provider surfaces.
    ("shim.server",),
    # 8. Programs built on all of it: the CLI and its settings, the demo, the benchmark harness (`shim bench` is a
    #    shipped command that reads the fixtures the wheel carries, so it stays in the package, up here where
    #    nothing at run time can depend on it), and the package's public facade (``shim/__init__.py``).
    ("shim.cli", "shim.settings", "shim.demo", "shim.bench", "shim"),
)
"""Lowest first. A module is on the floor of its longest listed prefix; it may import its own floor or below."""

BACKEND_SEAM = ("shim.backends", "shim.backends.base", "shim.backends.model_info", "shim.backends.messages")
"""What is not a concrete backend: the registry (`get_backend`), the protocol, the model facts and the message
helpers every backend shares. Every other module of ``shim/backends`` is one engine (``scripted`` included: the
tests and benchmarks construct it, nothing in shim but ``replay`` does)."""
MAY_NAME_BACKENDS = ("shim.backends", "shim.cli")


@dataclass(frozen=True)
class Edge:
    source: str
    target: str
    line: int
    where: str
    """``module``, ``function`` or ``type-checking``."""

    def __str__(self) -> str:
        return f"{self.source} -> {self.target} (line {self.line}, {self.where} level)"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(p): p for p in sorted(ROOT.rglob("*.py"))}


def _owner(name: str) -> str | None:
    """The module ``name`` denotes, or its nearest enclosing package or module in shim."""
    while name:
        if name in MODULES:
            return name
        name = name.rpartition(".")[0]
    return None


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def targets(package: str, node: ast.Import | ast.ImportFrom) -> list[str]:
    """The shim modules an import statement in ``package`` loads."""
    if isinstance(node, ast.Import):
        return [t for alias in node.names if (t := _owner(alias.name)) is not None]
    if node.level:
        parts = package.split(".")
        source = ".".join([*parts[: len(parts) - node.level + 1], *([node.module] if node.module else [])])
    else:
        source = node.module or ""
    found = [
        _owner(f"{source}.{alias.name}") if f"{source}.{alias.name}" in MODULES else _owner(source)
        for alias in node.names
    ]
    return [t for t in found if t is not None]


def imports(module: str) -> Iterator[Edge]:
    path = MODULES[module]
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]

    def walk(node: ast.AST, where: str) -> Iterator[Edge]:
        for child in ast.iter_child_nodes(node):
            inner = where
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)) and where == "module":
                inner = "function"
            elif isinstance(child, ast.If) and _is_type_checking(child):
                inner = "type-checking"
            if isinstance(child, (ast.Import, ast.ImportFrom)):
                yield from (Edge(module, t, child.lineno, where) for t in targets(package, child))
            yield from walk(child, inner)

    yield from (e for e in walk(ast.parse(path.read_text(encoding="utf-8")), "module") if e.target != module)


EDGES = list({(e.source, e.target, e.line): e for module in MODULES for e in imports(module)}.values())


def floor_of(module: str) -> int:
    best, floor = -1, -1
    for n, prefixes in enumerate(FLOORS):
        for prefix in prefixes:
            if (module == prefix or module.startswith(prefix + ".")) and len(prefix) > best:
                best, floor = len(prefix), n
    return floor


def _within(module: str, prefixes: tuple[str, ...]) -> bool:
    return any(module == p or module.startswith(p + ".") for p in prefixes)


def cycles(edges: list[Edge]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm, iteratively)."""
    graph: dict[str, set[str]] = {m: set() for edge in edges for m in (edge.source, edge.target)}
    for edge in edges:
        graph[edge.source].add(edge.target)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in graph:
        if root in index:
            continue
        work: list[tuple[str, Iterator[str]]] = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component: list[str] = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_every_module_of_shim_is_on_a_floor() -> None:
    assert [m for m in MODULES if floor_of(m) < 0] == []


def test_the_import_graph_has_no_cycle_even_counting_imports_inside_functions() -> None:
    assert cycles(EDGES) == []


def test_no_module_imports_a_module_on_a_higher_floor() -> None:
    upward = [str(e) for e in EDGES if floor_of(e.target) > floor_of(e.source)]
    assert upward == []


def test_only_the_backends_package_and_the_cli_import_a_concrete_backend() -> None:
    concrete = [
        str(e)
        for e in EDGES
        if _within(e.target, ("shim.backends",))
        and e.target not in BACKEND_SEAM
        and not _within(e.source, MAY_NAME_BACKENDS)
    ]
    assert concrete == []


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("from shim.prompting import render_messages", "shim.prompting"),
        ("from shim.backends import base", "shim.backends.base"),
        ("import shim.parsing.stream", "shim.parsing.stream"),
        ("from .base import Backend", "shim.backends.base"),
    ],
)
def test_the_graph_reader_resolves_each_form_of_import_to_the_module_it_loads(source: str, expected: str) -> None:
    statement = ast.parse(source).body[0]
    assert isinstance(statement, (ast.Import, ast.ImportFrom))
    assert targets("shim.backends", statement) == [expected]


def test_the_cycle_finder_reports_a_cycle_through_a_function_level_import_and_nothing_else() -> None:
    edges = [
        Edge("a", "b", 1, "module"),
        Edge("b", "c", 1, "module"),
        Edge("c", "a", 9, "function"),
        Edge("c", "d", 2, "module"),
    ]
    assert cycles(edges) == [["a", "b", "c"]]
    assert cycles(edges[:2] + edges[3:]) == []
