"""One normaliser reads tool definitions in every dialect: MCP, OpenAI chat and Responses, Anthropic, Gemini."""

from __future__ import annotations

from typing import Any

import pytest

from shim.parsing.stream import StreamParser
from shim.prompting import render_system_prompt
from shim.types import ToolSpec, tool_specs

SCHEMA = {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}
DIALECTS: dict[str, Any] = {
    "mcp": {"name": "get_weather", "description": "Weather.", "inputSchema": SCHEMA},
    "openai chat": {
        "type": "function",
        "function": {"name": "get_weather", "description": "Weather.", "parameters": SCHEMA},
    },
    "openai responses": {"type": "function", "name": "get_weather", "description": "Weather.", "parameters": SCHEMA},
    "anthropic": {"name": "get_weather", "description": "Weather.", "input_schema": SCHEMA},
    "anthropic custom": {"type": "custom", "name": "get_weather", "description": "Weather.", "input_schema": SCHEMA},
    "gemini": {"functionDeclarations": [{"name": "get_weather", "description": "Weather.", "parameters": SCHEMA}]},
    "gemini json schema": {
        "function_declarations": [{"name": "get_weather", "description": "Weather.", "parametersJsonSchema": SCHEMA}]
    },
}


@pytest.mark.parametrize("dialect", sorted(DIALECTS))
def test_every_dialect_reads_as_the_same_tool(dialect: str) -> None:
    assert tool_specs([DIALECTS[dialect]]) == [
        ToolSpec(name="get_weather", description="Weather.", input_schema=SCHEMA)
    ]


def test_a_gemini_tool_object_contributes_each_of_its_declarations() -> None:
    gemini = {"functionDeclarations": [{"name": "a"}, {"name": "b", "parameters": SCHEMA}]}
    assert [t.name for t in tool_specs([gemini, DIALECTS["anthropic"]])] == ["a", "b", "get_weather"]


@pytest.mark.parametrize(
    ("tool", "message"),
    [
        ({"type": "custom", "custom": {"name": "grep"}}, "'custom' tools"),
        ({"type": "web_search_20250305", "name": "web_search"}, "run by their provider"),
        ({"functionDeclarations": [5]}, "functionDeclarations[0] must be an object"),
        ({"description": "nameless"}, "non-empty string 'name'"),
    ],
)
def test_unusable_definitions_say_which_tool_and_why(tool: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match="tool #1") as caught:
        tool_specs([DIALECTS["mcp"], tool])
    assert message in str(caught.value)


def test_the_prompt_and_the_parser_take_gemini_and_anthropic_tools() -> None:
    prompt = render_system_prompt([DIALECTS["gemini"], {"name": "get_time", "input_schema": {"type": "object"}}])
    assert "get_weather" in prompt and "get_time" in prompt
    parser = StreamParser(tools=[DIALECTS["gemini"]])
    events = parser.feed('{"name": "get_weather", "arguments": {"city": "Oslo"}}') + parser.close()
    ends = [e for e in events if e.type == "tool_call_end"]
    assert [(e.name, e.arguments) for e in ends] == [("get_weather", {"city": "Oslo"})]
