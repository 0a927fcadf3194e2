"""The suite itself: habits that make tests fail on a busy machine, caught by reading the test files' code."""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).parent
_SCOPES = {"fail_after", "move_on_after", "CancelScope"}


def _is_fixture(function: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    return any("fixture" in ast.unparse(decorator) for decorator in function.decorator_list)


def _opens_a_scope(node: ast.With | ast.AsyncWith) -> bool:
    for item in node.items:
        call = item.context_expr
        if isinstance(call, ast.Call):
            name = call.func.attr if isinstance(call.func, ast.Attribute) else getattr(call.func, "id", "")
            if name in _SCOPES:
                return True
    return False


def _yields_inside(node: ast.AST) -> bool:
    return any(isinstance(inner, (ast.Yield, ast.YieldFrom)) for inner in ast.walk(node))


def test_no_fixture_holds_a_timeout_scope_open_across_its_yield() -> None:
    # A fixture's `with anyio.fail_after(30): ... yield` keeps the scope open while the tests that use it run:
    # once a busy machine makes them outlast it, it cancels the running test and tears the fixture down under
    # the rest (ClosedResourceError in every later test, "coroutine ... was never awaited" after the summary).
    # Bound the setup alone (a startup timeout of the thing itself) and leave hangs to pytest-timeout.
    found: list[str] = []
    for path in sorted(TESTS.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for function in ast.walk(tree):
            if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)) or not _is_fixture(function):
                continue
            for node in ast.walk(function):
                if isinstance(node, (ast.With, ast.AsyncWith)) and _opens_a_scope(node) and _yields_inside(node):
                    found.append(f"{path.relative_to(TESTS.parent)}:{node.lineno} ({function.name})")
    assert not found, found
