"""``tool_call`` / NAME / ``{…}`` lines: the word, an offered tool's name and its arguments object, one a line
(`shim.parsing.readers.word_name_json`)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.parsing.readers.cases import Real, check, tool

DUMA = "ai-security-lab-itmo/duma-benchmark:tests/test_tool_call_parsing.py (legacy newline format)"
TOOLS = [tool("ping", x="integer"), tool("get_weather", city="string", unit="string"), tool("search", query="string")]


@pytest.mark.parametrize(
    ("text", "calls", "visible"),
    [
        ('tool_call\nping\n{"x":1}', [("ping", {"x": 1})], ""),
        (
            'TOOL_CALL\r\nget_weather\r\n{"city": "Zürich", "unit": "C"}\r\n',
            [("get_weather", {"city": "Zürich", "unit": "C"})],
            "",
        ),
        ('function_call\n  search  \n{\n  "query": "東京 天気"\n}', [("search", {"query": "東京 天気"})], ""),
        (
            'I will look it up.\ntool_call\nsearch\n{"query": "llama"}\nThen I answer.',
            [("search", {"query": "llama"})],
            "I will look it up.\nThen I answer.",
        ),
        (
            'tool_call\nping\n{"x": 1}\ntool_call\nping\n{"x": 2}',
            [("ping", {"x": 1}), ("ping", {"x": 2})],
            "",
        ),
    ],
)
def test_the_word_the_name_and_the_object_on_three_lines_are_a_call(
    text: str, calls: list[tuple[str, dict[str, Any]]], visible: str
) -> None:
    check(Real(DUMA, text, calls, visible=visible, tools=TOOLS))


@pytest.mark.parametrize(
    "text",
    [
        'tool_call\ndelete_all\n{"x": 1}',  # no offered tool
        'tool_call\nping\n{"x": 1} is how the legacy format looks.',  # prose after the object
        'Use the tool_call\nping\n{"x": 1}',  # the word inside a sentence
        'my_tool_call\nping\n{"x": 1}',  # another word
        'tool_call\nping\n{"x": 1',  # cut off
        'tool_call\nping\n{"x": one two}',  # not JSON
        '```\ntool_call\nping\n{"x": 1}\n```',  # shown in a code fence
        "tool_call\nping\nthen its arguments",  # no object
    ],
)
def test_the_lines_in_prose_of_no_tool_or_not_closed_stay_text(text: str) -> None:
    check(Real(DUMA, text, [], visible=text, tools=TOOLS))


def test_without_tools_the_lines_stay_text() -> None:
    text = 'tool_call\nping\n{"x": 1}'
    check(Real(DUMA, text, [], visible=text, tools=None))
