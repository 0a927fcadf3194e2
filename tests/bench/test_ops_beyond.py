"""shim.bench.ops_beyond: real output shapes issue 2 does not list, written as their sources write them."""

from __future__ import annotations

import ast
import json

from tests.bench.conftest import mutants


def test_beyond_spec_operators_write_their_formats_around_the_call() -> None:
    for m in mutants("mistral_v11_args"):
        name, args = m.text.removeprefix("[TOOL_CALLS]").split("[ARGS]")
        assert name == m.calls[0].name and json.loads(args) == m.calls[0].arguments
    for m in mutants("llama31_function_equals_json"):
        assert m.text.startswith(f"<function={m.calls[0].name}>") and m.text.endswith("</function>")
    for m in mutants("llama_python_tag"):
        assert json.loads(m.text.removeprefix("<|python_tag|>"))["parameters"] == m.calls[0].arguments


def test_pythonic_call_list_is_python_call_syntax() -> None:
    for m in mutants("pythonic_call_list"):
        (call,) = m.calls
        tree = ast.parse(m.text, mode="eval").body
        assert isinstance(tree, ast.List) and isinstance(tree.elts[0], ast.Call)
        assert {kw.arg: ast.literal_eval(kw.value) for kw in tree.elts[0].keywords} == call.arguments
