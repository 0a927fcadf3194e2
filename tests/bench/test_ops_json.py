"""shim.bench.ops_json: each operator writes the defect or shape it is named after, and nothing else."""

from __future__ import annotations

import ast
import json

import json_repair

from shim.bench.mutations import TITLES
from tests.bench.conftest import body, mutants


def _expected(m) -> dict:  # type: ignore[no-untyped-def]
    (call,) = m.calls
    return call.to_dict()


def test_clean_operators_write_strict_json_in_the_primary_tag() -> None:
    for name in ("clean_compact", "clean_pretty", "clean_alone"):
        for m in mutants(name):
            assert json.loads(body(m.text)) == _expected(m)


def test_single_quotes_is_python_syntax_but_not_json() -> None:
    for m in mutants("single_quotes"):
        b = body(m.text)
        assert b.startswith("{'name': '") and '"' not in b
        json_names = {"__builtins__": {}, "true": True, "false": False, "null": None}
        assert eval(b, json_names) == _expected(m)  # the generator's own output, not untrusted input


def test_python_literals_parse_as_python_and_hold_a_boolean_and_none() -> None:
    for m in mutants("python_literals"):
        b = body(m.text)
        assert "None" in b and ("True" in b or "False" in b) and "null" not in b
        assert ast.literal_eval(b.replace('"', "'")) == _expected(m)


def test_trailing_commas_and_comments_are_the_only_defects() -> None:
    for name, marker in (("trailing_commas", ",\n"), ("line_comment", "//"), ("hash_comment", "#")):
        for m in mutants(name):
            b = body(m.text)
            assert marker in b
            cleaned = "\n".join(line.split(" #")[0] for line in b.split("\n") if "//" not in line)
            assert json_repair.loads(cleaned) == _expected(m)


def test_unquoted_keys_leave_no_quoted_key() -> None:
    for m in mutants("unquoted_keys"):
        assert body(m.text).startswith("{name: ") and '"name"' not in m.text


def test_raw_newlines_put_a_real_line_break_inside_a_string() -> None:
    for m in mutants("raw_newlines_in_string"):
        b = body(m.text)
        assert "\n" in b and json.loads(b, strict=False) == _expected(m)


def test_missing_closing_brackets_complete_with_closers_only() -> None:
    for m in mutants("missing_closing_brackets", 10):
        b = body(m.text)
        missing = next(k for k in (1, 2) if _parses(b + "}" * k))
        assert json.loads(b + "}" * missing) == _expected(m)


def test_stray_extra_closer_is_one_brace_too_many() -> None:
    for m in mutants("stray_extra_closer"):
        b = body(m.text)
        assert not _parses(b) and json.loads(b[:-1]) == _expected(m)


def test_leading_word_and_fence_wrap_strict_json() -> None:
    for m in mutants("leading_json_word"):
        assert body(m.text).startswith("json\n") and json.loads(body(m.text)[5:]) == _expected(m)
    for m in mutants("fence_inside_tags"):
        inner = body(m.text).strip()
        assert inner.startswith("```json\n") and inner.endswith("\n```")
        assert json.loads(inner[8:-4]) == _expected(m)


def test_shape_operators_rename_or_wrap_the_arguments() -> None:
    for name, key in (
        ("key_parameters", "parameters"),
        ("key_args", "args"),
        ("key_input", "input"),
        ("key_tool_input", "tool_input"),
    ):
        for m in mutants(name):
            data = json.loads(body(m.text))
            assert data == {"name": m.calls[0].name, key: m.calls[0].arguments}
    for m in mutants("typed_function_wrapper"):
        assert json.loads(body(m.text)) == {"type": "function", "function": _expected(m)}
    for m in mutants("jsonrpc_method_params"):
        assert json.loads(body(m.text)) == {"method": m.calls[0].name, "params": m.calls[0].arguments}


def test_arguments_as_string_encode_the_object_once_more() -> None:
    for m in mutants("arguments_as_string"):
        data = json.loads(body(m.text))
        assert isinstance(data["arguments"], str) and json.loads(data["arguments"]) == m.calls[0].arguments


def test_missing_arguments_expect_an_empty_object() -> None:
    for m in mutants("missing_arguments"):
        assert "arguments" not in m.text and m.calls[0].arguments == {}


def _parses(text: str) -> bool:
    try:
        json.loads(text)
    except ValueError:
        return False
    return True


def test_name_variants_write_a_prefixed_name_or_the_title_and_expect_the_tool_name() -> None:
    for m in mutants("name_functions_prefix"):
        assert json.loads(body(m.text))["name"] == "functions." + m.calls[0].name
    for m in mutants("name_is_tool_title"):
        written = json.loads(body(m.text))["name"]
        assert written == TITLES[m.calls[0].name] and written != m.calls[0].name
