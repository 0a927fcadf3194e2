"""A call tag's opener with a stray quote before its ``>`` (``<function_calls">``: Claude Sonnet 4.6 writing its legacy
call form as text, in rig's recordings) is still the opener, in every family whose tags `tagged_json.tag` builds."""

from __future__ import annotations

from typing import Any

import pytest

from tests.parsing.chunking import parse_everywhere

TOOLS = [{"name": "get_weather", "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}}}}]


def _calls(result: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    return [(c["name"], c["arguments"]) for c in result["calls"]]


@pytest.mark.parametrize(
    "text",
    [
        '<function_calls">\n<invoke name="get_weather">\n<parameter name="city">Paris</parameter>\n</invoke>\n</function_calls>',
        '<function_calls\'>\n<invoke name="get_weather"><parameter name="city">Paris</parameter></invoke></function_calls>',
        '<tool_call">{"name": "get_weather", "arguments": {"city": "Paris"}}</tool_call>',
        '<tool_call " >{"name": "get_weather", "arguments": {"city": "Paris"}}</tool_call>',
    ],
)
def test_a_stray_quote_before_an_openers_bracket_leaves_it_the_opener(text: str) -> None:
    result = parse_everywhere(text, TOOLS, seeds=5)
    assert _calls(result) == [("get_weather", {"city": "Paris"})]
    assert result["text"].strip() == ""


def test_a_call_cut_before_its_value_under_such_an_opener_is_no_call_and_no_visible_markup() -> None:
    text = '\n<function_calls">\n<invoke name="get_weather">\n<parameter name="city'
    result = parse_everywhere(text, TOOLS, seeds=5)
    assert result["calls"] == []
    assert result["text"].strip() == ""


@pytest.mark.parametrize(
    "text",
    [
        'The tag <tool_call"> is malformed, he said.',
        'Write "<function_calls">" and nothing else.',
    ],
)
def test_such_an_opener_named_in_prose_stays_text(text: str) -> None:
    result = parse_everywhere(text, TOOLS, seeds=5)
    assert (result["calls"], result["text"]) == ([], text)
