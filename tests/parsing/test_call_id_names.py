"""A call id written in a call's name slot (`shim.parsing.shapes.call_id`): the tool is the one offered tool whose
schema the arguments fit, in every family, at every split point; else the name stays as written."""

from __future__ import annotations

from typing import Any

import pytest

from shim.parsing.shapes import call_id
from tests.parsing.chunking import parse_everywhere

_BASH = {"name": "Bash", "inputSchema": {"type": "object", "properties": {"command": {"type": "string"}}}}
_READ = {
    "name": "Read",
    "inputSchema": {
        "type": "object",
        "properties": {"file_path": {"type": "string"}, "offset": {"type": "integer"}},
        "required": ["file_path"],
    },
}
_WEATHER = {
    "name": "get_weather",
    "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
}
_FORECAST = {
    "name": "get_forecast",
    "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}, "days": {"type": "integer"}}},
}
_TOOLS = [_BASH, _READ, _WEATHER]


@pytest.mark.parametrize(
    "name",
    [
        "chatcmpl-tool-8a08c2282a7e8c5c",
        "chatcmpl-tool-xyz",
        ":call_8e5e3e8e5f3242b8b325b325b325b325:0",
        "functions.chatcmpl-tool-4beb6d33f42a4b72:1",
        "call_abc123XYZdef456",
        "call-9f8e7d6c5b4a",
        "toolu_01A09q90qw90lq917835lq9",
        "fc_68a1b2c3d4e5f6",
        "chatcmpl-AbC123dEf",
    ],
)
def test_call_ids_have_the_shape_of_an_id(name: str) -> None:
    assert call_id(name)


@pytest.mark.parametrize(
    "name",
    [
        "call_weather",
        "call_api",
        "call_v2",
        "Bash",
        "toolu",
        "call",
        "get_weather",
        "call_tool_by_name",
        "fc_test",
        "x",
    ],
)
def test_words_and_names_are_not_call_ids(name: str) -> None:
    assert not call_id(name)


@pytest.mark.parametrize(
    ("text", "calls", "visible"),
    [
        # Kimi K2.6 on NVIDIA NIM: the id where `functions.NAME:0` belongs.
        (
            "<|tool_calls_section_begin|><|tool_call_begin|>chatcmpl-tool-77aa01<|tool_call_argument_begin|>"
            '{"command": "pwd"}<|tool_call_end|><|tool_calls_section_end|>',
            [("Bash", {"command": "pwd"})],
            "",
        ),
        (
            "Let me read it. <|tool_calls_section_begin|>:call_0c1d2e3f4a5b6c7d:0<|tool_call_argument_begin|>"
            '{"file_path": "/etc/hosts", "offset": 3}<|tool_call_end|><|tool_calls_section_end|>',
            [("Read", {"file_path": "/etc/hosts", "offset": 3})],
            "Let me read it. ",
        ),
        # Hermes-style JSON in a tag, an OpenAI id for the name.
        (
            '<tool_call>\n{"name": "call_Xy12ab34cd56", "arguments": {"city": "Oslo"}}\n</tool_call>',
            [("get_weather", {"city": "Oslo"})],
            "",
        ),
        # Mistral's list, an Anthropic id for the name, and a second call named properly.
        (
            '[TOOL_CALLS][{"name": "toolu_01Hq7x2PbA9", "arguments": {"command": "ls -la"}}, '
            '{"name": "Read", "arguments": {"file_path": "a.txt"}}]',
            [("Bash", {"command": "ls -la"}), ("Read", {"file_path": "a.txt"})],
            "",
        ),
        # A Chinese value, the arguments' string an integer the schema types.
        (
            '<tool_call>{"name": "chatcmpl-tool-9", "arguments": {"file_path": "/数据/文件.txt", "offset": "2"}}'
            "</tool_call>",
            [("Read", {"file_path": "/数据/文件.txt", "offset": 2})],
            "",
        ),
    ],
)
def test_a_call_id_for_a_name_is_the_one_offered_tool_its_arguments_fit(
    text: str, calls: list[tuple[str, dict[str, Any]]], visible: str
) -> None:
    result = parse_everywhere(text, _TOOLS, every_split=len(text) < 160, seeds=6)
    assert [(c["name"], c["arguments"]) for c in result["calls"]] == calls
    assert result["text"] == visible
    assert result["errors"] == []


@pytest.mark.parametrize(
    ("text", "tools", "name"),
    [
        # Two tools take the arguments alike (vLLM's case the corpus left out): no guess.
        (
            '<tool_call>{"name": "chatcmpl-tool-abc", "arguments": {"city": "Oslo"}}</tool_call>',
            [_WEATHER, _FORECAST],
            "chatcmpl-tool-abc",
        ),
        # A key no tool declares, or a required key missing: no tool fits.
        (
            '<tool_call>{"name": "call_8e5e3e8e5f32", "arguments": {"town": "Oslo"}}</tool_call>',
            _TOOLS,
            "call_8e5e3e8e5f32",
        ),
        (
            '<tool_call>{"name": "call_8e5e3e8e5f32", "arguments": {"offset": 2}}</tool_call>',
            _TOOLS,
            "call_8e5e3e8e5f32",
        ),
        # No arguments say nothing.
        ('<tool_call>{"name": "chatcmpl-tool-1", "arguments": {}}</tool_call>', _TOOLS, "chatcmpl-tool-1"),
        # A word with an id's prefix is a name as written (a tool that was not offered).
        ('<tool_call>{"name": "call_weather", "arguments": {"city": "Oslo"}}</tool_call>', _TOOLS, "call_weather"),
    ],
)
def test_a_call_id_no_one_tool_fits_stays_as_written(text: str, tools: list[Any], name: str) -> None:
    result = parse_everywhere(text, tools, every_split=False, seeds=6)
    assert [c["name"] for c in result["calls"]] == [name]


@pytest.mark.parametrize(
    "text",
    [
        'The failed request had id chatcmpl-tool-8a08c2282a7e8c5c and returned {"command": "ls"}.',
        'Its log line reads `call_8e5e3e8e5f32({"command": "ls"})`, which I will not repeat.',
        'Use this format:\n```\n<tool_call>{"name": "call_8e5e3e8e5f32", "arguments": {"command": "ls"}}</tool_call>\n```',
    ],
)
def test_an_id_in_prose_or_a_fenced_example_stays_text(text: str) -> None:
    result = parse_everywhere(text, _TOOLS, every_split=False, seeds=6)
    assert result["calls"] == []
    assert result["text"] == text
