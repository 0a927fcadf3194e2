"""From the offered tools to one call schema and a constraint per turn."""

from __future__ import annotations

import pytest
from jsonschema import Draft202012Validator

from shim.constrain.schema import build_constraint, call_schema, loose_arguments
from shim.types import ToolSpec

TIME = ToolSpec(
    name="get_time",
    input_schema={"type": "object", "properties": {"tz": {"type": "string"}}, "required": ["tz"]},
)
ADD = ToolSpec(
    name="add",
    input_schema={"type": "object", "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}}},
)


def test_the_call_schema_accepts_a_call_of_any_offered_tool_with_valid_arguments() -> None:
    validator = Draft202012Validator(call_schema([TIME, ADD]))
    assert validator.is_valid({"name": "get_time", "arguments": {"tz": "Asia/Seoul"}})
    assert validator.is_valid({"name": "add", "arguments": {"a": 1, "b": 2}})


@pytest.mark.parametrize(
    "call",
    [
        {"name": "get_weather", "arguments": {}},  # a tool that is not offered
        {"name": "get_time", "arguments": {}},  # a required argument missing
        {"name": "add", "arguments": {"a": "one"}},  # a wrong type
        {"name": "add"},  # no arguments
        {"name": "add", "arguments": {}, "extra": 1},  # a key besides name and arguments
    ],
)
def test_the_call_schema_rejects_calls_the_tools_do_not_allow(call: dict[str, object]) -> None:
    assert not Draft202012Validator(call_schema([TIME, ADD])).is_valid(call)


def test_a_loosened_tool_takes_any_arguments_object() -> None:
    schema = call_schema([TIME], loose=frozenset({"get_time"}))
    assert schema["properties"]["arguments"] == loose_arguments
    assert Draft202012Validator(schema).is_valid({"name": "get_time", "arguments": {"anything": [1]}})


def test_a_constraint_carries_the_dialect_s_markers() -> None:
    constraint = build_constraint([TIME, ADD], "tool_call")
    assert constraint is not None
    assert (constraint.open, constraint.close) == ("<tool_call>\n", "\n</tool_call>")
    assert (constraint.trigger, constraint.closer) == ("<tool_call>", "</tool_call>")
    assert not constraint.forced


def test_a_named_tool_choice_leaves_only_that_tool_and_forces_a_call() -> None:
    constraint = build_constraint([TIME, ADD], "function_call", mode="named", named="add")
    assert constraint is not None
    assert [t.name for t in constraint.tools] == ["add"]
    assert constraint.forced


def test_required_forces_a_call_of_any_tool() -> None:
    constraint = build_constraint([TIME, ADD], "function_call", mode="required")
    assert constraint is not None and constraint.forced and len(constraint.tools) == 2


def test_no_constraint_without_tools_or_with_tool_choice_none() -> None:
    assert build_constraint([], "function_call") is None
    assert build_constraint([TIME], "function_call", mode="none") is None


def test_equal_constraints_share_a_key_and_different_ones_do_not() -> None:
    first = build_constraint([TIME, ADD], "function_call")
    again = build_constraint([TIME, ADD], "function_call")
    other = build_constraint([TIME], "function_call")
    assert first is not None and again is not None and other is not None
    assert first.key() == again.key() != other.key()
