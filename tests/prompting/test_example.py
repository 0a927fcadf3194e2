"""The worked example: a real tool from the list, called with arguments that pass its schema."""

from __future__ import annotations

from typing import Any

import jsonschema
import pytest

from shim.prompting.example import example_arguments, pick_example_tool
from shim.types import ToolSpec

SCHEMAS: list[dict[str, Any]] = [
    {"type": "object", "properties": {"timezone": {"type": "string"}}, "required": ["timezone"]},
    {
        "type": "object",
        "properties": {"n": {"type": "integer", "minimum": 5}, "x": {"type": "number", "maximum": 0}},
        "required": ["n", "x"],
    },
    {
        "type": "object",
        "properties": {"mode": {"enum": ["fast", "slow"]}, "on": {"type": "boolean"}},
        "required": ["mode", "on"],
    },
    {
        "type": "object",
        "properties": {"when": {"type": "string", "format": "date-time"}},
        "required": ["when"],
    },
    {
        "type": "object",
        "properties": {"tags": {"type": "array", "items": {"type": "string"}, "minItems": 2}},
        "required": ["tags"],
    },
    {
        "type": "object",
        "properties": {"opt": {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]}},
        "required": ["opt"],
    },
    {
        "type": "object",
        "properties": {"v": {"anyOf": [{"type": "null"}, {"type": "integer"}]}},
        "required": ["v"],
    },
    {"type": "object", "properties": {"v": {"type": ["null", "string"]}}, "required": ["v"]},
    {
        "type": "object",
        "properties": {"k": {"const": "fixed"}, "d": {"type": "integer", "default": 7}},
        "required": ["k", "d"],
    },
    {
        "type": "object",
        "$defs": {
            "N": {
                "type": "object",
                "properties": {
                    "v": {"type": "string"},
                    "kids": {"type": "array", "items": {"$ref": "#/$defs/N"}},
                },
                "required": ["v", "kids"],
            }
        },
        "properties": {"root": {"$ref": "#/$defs/N"}},
        "required": ["root"],
    },
    {
        "type": "object",
        "properties": {"q": {"type": "string", "examples": ["weather in Oslo"]}},
        "required": ["q"],
    },
    {},
]


@pytest.mark.parametrize("schema", SCHEMAS)
def test_example_arguments_pass_the_schema_they_were_built_from(schema: dict[str, Any]) -> None:
    jsonschema.validate(example_arguments(schema), schema)


def test_example_values_come_from_the_schema_before_the_parameter_name() -> None:
    assert example_arguments(SCHEMAS[10]) == {"q": "weather in Oslo"}
    assert example_arguments(SCHEMAS[8]) == {"k": "fixed", "d": 7}
    assert example_arguments(SCHEMAS[0]) == {"timezone": "Europe/Paris"}


def test_with_nothing_required_the_example_shows_the_first_parameter() -> None:
    schema = {"type": "object", "properties": {"city": {"type": "string"}, "days": {"type": "integer"}}}
    assert example_arguments(schema) == {"city": "Paris"}


def test_a_tool_without_parameters_gets_empty_arguments() -> None:
    assert example_arguments({"type": "object", "properties": {}}) == {}


def test_the_example_tool_is_the_first_with_a_required_parameter() -> None:
    tools = [
        ToolSpec(name="ping"),
        ToolSpec(name="maybe", input_schema={"type": "object", "properties": {"a": {"type": "string"}}}),
        ToolSpec(
            name="get",
            input_schema={"type": "object", "properties": {"id": {"type": "string"}}, "required": ["id"]},
        ),
    ]
    assert pick_example_tool(tools) == (tools[2], {"id": "123"})
    assert pick_example_tool(tools[:2]) == (tools[1], {"a": "example"})
    assert pick_example_tool(tools[:1]) == (tools[0], {})


def test_a_tool_whose_example_would_fail_its_own_schema_is_passed_over() -> None:
    zip_only = {
        "type": "object",
        "properties": {"zip": {"type": "string", "pattern": "^[0-9]{5}$"}},
        "required": ["zip"],
    }
    city = {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}
    tools = [ToolSpec(name="by_zip", input_schema=zip_only), ToolSpec(name="by_city", input_schema=city)]
    assert pick_example_tool(tools) == (tools[1], {"city": "Paris"})
    # With no better choice the guess is still shown: a real tool beats a made-up one.
    assert pick_example_tool(tools[:1]) == (tools[0], {"zip": "example"})


def test_an_example_needs_a_tool() -> None:
    with pytest.raises(ValueError, match="needs at least one tool"):
        pick_example_tool([])
