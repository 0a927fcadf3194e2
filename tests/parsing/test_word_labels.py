"""A one-word label before a bare Python-style call (`pythonic_calls`' ``word_label_call``), JSON's literals in
such a call (`shim.parsing.pythonic`), and a ``tool_calls:`` label with its call list on the same line
(`labelled`): variants at every split point, and prose that must stay text."""

from __future__ import annotations

from typing import Any

import pytest

from tests.parsing.chunking import parse_everywhere
from tests.parsing.readers.cases import tool

_SEARCH = tool("search_tool", query="string", limit="integer", path="string")
_FLAGS = tool("set_flags", enabled="boolean", verbose="boolean", note="string", parent="string")
_WEATHER = tool("get_weather", city="string", days="integer")
_TOOLS = [_SEARCH, _FLAGS, _WEATHER]


@pytest.mark.parametrize(
    ("text", "calls", "visible"),
    [
        (
            'Path: search_tool(query="a@b.c", path="/usr/local/bin")',
            [("search_tool", {"query": "a@b.c", "path": "/usr/local/bin"})],
            "Path: ",
        ),
        (
            "Weather: get_weather(city='Zürich', days=3)\n",
            [("get_weather", {"city": "Zürich", "days": 3})],
            "Weather: \n",
        ),
        (
            "I will look it up.\nProcessing: search_tool(query=\"it's 'quoted'\", limit=5)",
            [("search_tool", {"query": "it's 'quoted'", "limit": 5})],
            "I will look it up.\nProcessing: ",
        ),
        ('结果如下。\n检索: search_tool(query="天气")', [("search_tool", {"query": "天气"})], "结果如下。\n检索: "),
        ('Step-1:  get_weather(city="Oslo")', [("get_weather", {"city": "Oslo"})], "Step-1:  "),
    ],
)
def test_a_one_word_label_before_a_call_stays_text_and_the_call_is_read(
    text: str, calls: list[tuple[str, dict[str, Any]]], visible: str
) -> None:
    result = parse_everywhere(text, _TOOLS)
    assert [(c["name"], c["arguments"]) for c in result["calls"]] == calls
    assert result["text"] == visible
    assert result["errors"] == []


@pytest.mark.parametrize(
    "text",
    [
        # a sentence mentioning the call, two words before the colon, code going on after the call
        'To search, you could write: search_tool(query="x") and wait.',
        'The command I ran: search_tool(query="x")',
        'Path: search_tool(query="x").json()',
        # an example shown, not made
        'Example: search_tool(query="x")',
        'Usage:\n```\nQuery: search_tool(query="x")\n```',
        # a call of a tool that was not offered, and one with no arguments
        'Path: find_files(pattern="*.py")',
        "Path: search_tool()",
        # a label mid-line
        'See the docs. Path: search_tool(query="x")',
        "x" * 150 + ' Path: search_tool(query="x")',
    ],
)
def test_labels_that_are_prose_or_examples_stay_text(text: str) -> None:
    result = parse_everywhere(text, _TOOLS, every_split=False)
    assert result["calls"] == []
    assert result["text"] == text


@pytest.mark.parametrize(
    ("text", "arguments"),
    [
        ("set_flags(enabled=true, verbose=false)", {"enabled": True, "verbose": False}),
        ("set_flags(enabled=false, verbose=null)", {"enabled": False, "verbose": None}),
        ("Flags: set_flags(verbose=true)", {"verbose": True}),
        ("[set_flags(enabled=True, note='true')]", {"enabled": True, "note": "true"}),
    ],
)
def test_json_literals_in_a_python_style_call_are_their_values(text: str, arguments: dict[str, Any]) -> None:
    result = parse_everywhere(text, _TOOLS)
    assert [(c["name"], c["arguments"]) for c in result["calls"]] == [("set_flags", arguments)]


def test_a_name_that_is_no_json_literal_stays_no_value() -> None:
    text = "set_flags(enabled=yes)"
    result = parse_everywhere(text, _TOOLS, every_split=False)
    assert result["calls"] == []
    assert result["text"] == text


@pytest.mark.parametrize(
    ("text", "calls", "visible"),
    [
        (
            'tool_calls: [{"id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": {"city": "Oslo"}}}]',
            [("get_weather", {"city": "Oslo"})],
            "",
        ),
        (
            'Function calls:  [{"name": "search_tool", "arguments": "{\\"query\\": \\"café\\"}"}]',
            [("search_tool", {"query": "café"})],
            "",
        ),
        (
            'Checking now.\ntool_calls: {"name": "get_weather", "arguments": {"city": "Lima", "days": 2}}',
            [("get_weather", {"city": "Lima", "days": 2})],
            "Checking now.\n",
        ),
    ],
)
def test_a_tool_calls_label_with_its_calls_on_its_line_is_markup(
    text: str, calls: list[tuple[str, dict[str, Any]]], visible: str
) -> None:
    result = parse_everywhere(text, _TOOLS)
    assert [(c["name"], c["arguments"]) for c in result["calls"]] == calls
    assert result["text"] == visible


@pytest.mark.parametrize(
    "text",
    [
        "tool_calls: [] (none were needed)",
        "Tool calls: [1, 2, 3] are the indexes.",
        'tool_calls: [{"name": "delete_everything", "arguments": {}}]',
        'The field `tool_calls: [{"name": "get_weather", "arguments": {"city": "Oslo"}}]` holds them.',
    ],
)
def test_a_tool_calls_label_before_no_offered_call_stays_text(text: str) -> None:
    result = parse_everywhere(text, _TOOLS, every_split=False)
    assert result["calls"] == []
    assert result["text"] == text
