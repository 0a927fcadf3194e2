"""Python-style call lists (`shim.parsing.pythonic`): tool names Python cannot spell (``web-search``, MCP's
hyphenated names) and one object literal as the arguments; prose stays text."""

from __future__ import annotations

import pytest

from shim.parsing.pythonic import parse_pythonic
from tests.parsing.readers.cases import Real, check

TOOLS = ["web-search", "fs.read_file", "get_weather"]


@pytest.mark.parametrize(
    ("source", "calls"),
    [
        ('[web-search(query="x")]', [("web-search", {"query": "x"})]),
        (
            '[web-search(query="a-b(c)"), get-weather-now(city="Paris")]',
            [("web-search", {"query": "a-b(c)"}), ("get-weather-now", {"city": "Paris"})],
        ),
        ("[fs.read_file(path='a')]", [("fs.read_file", {"path": "a"})]),
        ('[get_weather({"city": "Paris"})]', [("get_weather", {"city": "Paris"})]),
        ("[get_weather({})]", [("get_weather", {})]),
    ],
)
def test_hyphenated_names_and_an_object_argument_are_read(source: str, calls: list) -> None:
    assert parse_pythonic(source) == calls


@pytest.mark.parametrize(
    "source", ["[a - b(c=1)]", "[get_weather({1: 2})]", "[get_weather({'a': 1}, b=2)]", "[x-(y=1)]"]
)
def test_expressions_that_are_not_one_call_each_are_refused(source: str) -> None:
    assert parse_pythonic(source) is None


@pytest.mark.parametrize(
    ("text", "calls"),
    [
        ('[web-search(query="x")]', [("web-search", {"query": "x"})]),
        ('I will search.\n[web-search(query="x")]', [("web-search", {"query": "x"})]),
        (
            '[web-search(query="x"), get_weather(city="Paris")]',
            [("web-search", {"query": "x"}), ("get_weather", {"city": "Paris"})],
        ),
        ('web-search(query="x")', [("web-search", {"query": "x"})]),
        ('get_weather({"city": "Paris"})', [("get_weather", {"city": "Paris"})]),
    ],
)
def test_untagged_calls_of_hyphenated_tools_are_read_at_every_split(text: str, calls: list) -> None:
    check(Real("written: ToolACE-style lists naming MCP tools", text, calls, tools=TOOLS), visible=False)


@pytest.mark.parametrize(
    "text",
    [
        "x = web-search(query='x')",
        'See [web-search(query="x")](http://example.com)',
        "a-b(c=1) is how you write it",
        '```python\nweb-search(query="x")\n```',
    ],
)
def test_hyphenated_calls_in_prose_stay_text(text: str) -> None:
    check(Real("written", text, [], visible=text, tools=TOOLS))
