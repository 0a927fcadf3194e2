"""What a call list may hold besides calls (`shim.parsing.shapes.call_items`): calls encoded as JSON strings, a
message's text part in an envelope, and a ``tools`` list that calls tools (not one declaring them); at every split
point, with values that must stay text."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.parsing.chunking import parse_everywhere
from tests.parsing.readers.cases import tool

_TOOLS = [
    tool("get_weather", location="string"),
    tool("get_time", location="string"),
    tool("list_files", path="string"),
]


def _encoded(*calls: dict[str, Any]) -> str:
    return json.dumps([json.dumps(c, ensure_ascii=False) for c in calls], ensure_ascii=False)


@pytest.mark.parametrize(
    ("text", "calls"),
    [
        (
            _encoded(
                {"type": "function", "name": "get_weather", "parameters": {"location": "Paris"}},
                {"type": "function", "name": "get_time", "parameters": {"location": "London"}},
            ),
            [("get_weather", {"location": "Paris"}), ("get_time", {"location": "London"})],
        ),
        (
            "[ "
            + json.dumps(json.dumps({"name": "list_files", "arguments": {"path": "./数据"}}, ensure_ascii=False))
            + " ]",
            [("list_files", {"path": "./数据"})],
        ),
        (
            '{"tools": [{"list_files": {"path": "."}}, {"get_time": {"location": "Tokyo"}}]}',
            [("list_files", {"path": "."}), ("get_time", {"location": "Tokyo"})],
        ),
        (
            '{"tools": [{"name": "get_weather", "arguments": {"location": "Oslo"}}]}',
            [("get_weather", {"location": "Oslo"})],
        ),
        (
            '{"tool_calls":[{"type":"text","text":"skip"},{"function":{"name":"get_time","arguments":{"location":"Lima"}}}]}',
            [("get_time", {"location": "Lima"})],
        ),
        (
            '{"tool_calls": [{"name": "list_files", "arguments": {"path": "/"}}, {"type": "text", "text": ""}]}',
            [("list_files", {"path": "/"})],
        ),
    ],
)
def test_calls_in_a_list_are_read_past_what_is_no_call(text: str, calls: list[tuple[str, dict[str, Any]]]) -> None:
    result = parse_everywhere(text, _TOOLS, every_split=len(text) < 200, seeds=6)
    assert [(c["name"], c["arguments"]) for c in result["calls"]] == calls
    assert result["text"] == ""
    assert result["errors"] == []


@pytest.mark.parametrize(
    "text",
    [
        # a list of strings that are no calls, or of a call of no offered tool
        '["{not json}", "{\\"a\\": 1}"]',
        _encoded({"name": "delete_all", "arguments": {}}),
        # tools declared, not called: a prompt's tool list echoed
        '{"tools": [{"name": "get_weather", "description": "Weather for a place", "parameters": {"location": "string"}}]}',
        '{"tools": [{"type": "function", "function": {"name": "get_time", "parameters": '
        '{"type": "object", "properties": {"location": {"type": "string"}}}}}]}',
        # only text parts, and a text part with more than text
        '{"tool_calls": [{"type": "text", "text": "nothing to call"}]}',
        '{"tool_calls": [{"type": "text", "text": "x", "name": "get_time"}]}',
        # a sentence quoting such a list
        'The model replied `["{\\"name\\": \\"get_time\\", \\"arguments\\": {}}"]` which is odd.',
    ],
)
def test_lists_of_no_offered_calls_stay_text(text: str) -> None:
    result = parse_everywhere(text, _TOOLS, every_split=False, seeds=6)
    assert result["calls"] == []
    assert result["text"] == text
