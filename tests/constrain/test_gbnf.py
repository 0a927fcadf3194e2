"""Constraints as GBNF grammars: checked by llama.cpp's own grammar parser, cached, loosened rather than refused."""

from __future__ import annotations

from typing import Any

import pytest

from shim.backends.llamacpp_grammar import grammar_parses
from shim.constrain.gbnf import call_grammar, schema_grammar
from shim.constrain.schema import build_constraint
from shim.types import ToolSpec

TIME = ToolSpec(
    name="get_time",
    input_schema={"type": "object", "properties": {"tz": {"type": "string"}}, "required": ["tz"]},
)
REMOTE_REF = ToolSpec(
    name="fetch_doc",
    input_schema={"type": "object", "properties": {"doc": {"$ref": "https://example.com/schemas/doc.json"}}},
)


def test_a_lazy_grammar_starts_after_the_opener_and_ends_with_the_closer(tiny_llm: Any) -> None:
    constraint = build_constraint([TIME], "function_call")
    assert constraint is not None
    grammar = call_grammar(constraint)
    assert grammar.trigger == "<function_call>"
    root = next(line for line in grammar.text.splitlines() if line.startswith("root ::="))
    assert root == 'root ::= shimgap shimbody shimgap "</function_call>"'
    assert '"\\"get_time\\""' in grammar.text
    assert grammar_parses(tiny_llm, grammar.text)


def test_a_forced_grammar_is_one_or_more_whole_calls(tiny_llm: Any) -> None:
    constraint = build_constraint([TIME], "tool_call", mode="required")
    assert constraint is not None
    text = call_grammar(constraint).text
    # It may end after the whitespace behind a call: a newline there must not commit the model to another call.
    assert text.startswith("root ::= shimcall (shimgap shimcall)* shimgap\n")
    assert 'shimcall ::= "<tool_call>" shimgap shimbody shimgap "</tool_call>"' in text
    assert grammar_parses(tiny_llm, text)


def test_a_forced_grammar_with_a_bound_allows_at_most_that_many_calls(tiny_llm: Any) -> None:
    one = build_constraint([TIME], "function_call", mode="required", max_calls=1)
    four = build_constraint([TIME], "function_call", mode="required", max_calls=4)
    free = build_constraint([TIME], "function_call", max_calls=4)
    assert one is not None and four is not None and free is not None
    assert call_grammar(one).text.startswith("root ::= shimcall shimgap\n")
    assert call_grammar(four).text.startswith("root ::= shimcall (shimgap shimcall){0,3} shimgap\n")
    assert free.max_calls is None  # text may follow a call the model chose: the loop counts those
    assert grammar_parses(tiny_llm, call_grammar(four).text) and grammar_parses(tiny_llm, call_grammar(one).text)


def test_the_grammar_is_built_once_per_tool_set() -> None:
    first = build_constraint([TIME], "function_call")
    again = build_constraint(
        [ToolSpec.from_any({"name": "get_time", "inputSchema": dict(TIME.input_schema)})], "function_call"
    )
    assert first is not None and again is not None
    assert call_grammar(first) is call_grammar(again)


def test_a_schema_the_converter_cannot_express_degrades_to_any_object_for_that_tool_only(tiny_llm: Any) -> None:
    constraint = build_constraint([TIME, REMOTE_REF], "function_call")
    assert constraint is not None
    grammar = call_grammar(constraint)
    assert grammar.loose == frozenset({"fetch_doc"})
    assert '"\\"tz\\""' in grammar.text  # get_time keeps its exact arguments
    assert grammar_parses(tiny_llm, grammar.text)


def test_all_loose_keeps_only_the_tool_names() -> None:
    constraint = build_constraint([TIME], "function_call")
    assert constraint is not None
    grammar = call_grammar(constraint, all_loose=True)
    assert grammar.loose == frozenset({"get_time"})
    assert '"\\"tz\\""' not in grammar.text


@pytest.mark.parametrize(
    ("schema", "convertible"),
    [({"type": "object", "properties": {"n": {"type": "integer"}}}, True), ({"$ref": "https://x.test/s.json"}, False)],
)
def test_a_structured_output_schema_becomes_a_grammar_or_none(
    schema: dict[str, Any], convertible: bool, tiny_llm: Any
) -> None:
    text = schema_grammar(schema)
    assert (text is not None) is convertible
    if text is not None:
        assert grammar_parses(tiny_llm, text)


def test_llama_cpp_s_parser_rejects_a_broken_grammar(tiny_llm: Any) -> None:
    assert not grammar_parses(tiny_llm, 'root ::= "unterminated')


def test_for_an_engine_that_starts_the_grammar_at_the_trigger_the_grammar_spells_the_opener(tiny_llm: Any) -> None:
    constraint = build_constraint([TIME], "function_call")
    assert constraint is not None
    text = call_grammar(constraint, include_opener=True).text
    assert text.startswith("root ::= shimcall\n")
    assert call_grammar(constraint).text != text  # cached apart from the embedded form
    assert grammar_parses(tiny_llm, text)


def test_a_bounded_string_or_array_becomes_a_bounded_repetition_llama_cpp_accepts(tiny_llm: Any) -> None:
    tool = ToolSpec(
        name="shows",
        input_schema={
            "type": "object",
            "properties": {"names": {"type": "array", "items": {"type": "string", "maxLength": 3}, "maxItems": 2}},
        },
    )
    constraint = build_constraint([tool], "function_call", mode="required")
    assert constraint is not None
    text = call_grammar(constraint).text
    # At most three characters between the quotes, and a second item at most: the call cannot run on in a value.
    assert 'shimbody-arguments-names-item ::= "\\"" (char (char (char)?)?)? "\\"" space' in text
    assert '(shimbody-arguments-names-item ("," space shimbody-arguments-names-item)?)?' in text
    assert grammar_parses(tiny_llm, text)
