"""A call tag's opener with a stray quote before its ``>`` (``<function_calls">``: Claude Sonnet 4.6 writing its legacy
call form as text, in rig's recordings) is still the opener, in every family whose tags `tagged_json.tag` builds; and
one that lost its ``<`` where the message begins, or has backticks in its place (Gemma in LM-Studio's notes), opens
its family's block with the same evidence."""

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


@pytest.mark.parametrize(
    "text",
    [
        '``tool_call>read_file(path="C:\\1_Git\\LocaLLM\\dios.txt")</tool_call>',
        '`tool_call>read_file(path="C:\\1_Git\\LocaLLM\\dios.txt")</tool_call>',
        'tool_call>{"name": "read_file", "arguments": {"path": "C:\\\\1_Git\\\\LocaLLM\\\\dios.txt"}}</tool_call>',
        'function_call>{"name": "read_file", "arguments": {"path": "C:\\\\1_Git\\\\LocaLLM\\\\dios.txt"}}</function_call>',
    ],
)
def test_an_opener_that_lost_its_bracket_where_the_message_begins_opens_its_familys_block(text: str) -> None:
    tools = [{"name": "read_file", "inputSchema": {"type": "object", "properties": {"path": {"type": "string"}}}}]
    result = parse_everywhere(text, tools, seeds=5)
    assert _calls(result) == [("read_file", {"path": "C:\\1_Git\\LocaLLM\\dios.txt"})]
    assert result["text"] == ""


@pytest.mark.parametrize(
    "text",
    [
        "note> this is a quoted note",  # no call tag
        "tool> a bare tool tag is no generic call tag",
        "tool_call> is the tag the prompt asks for.",  # the tag named, no call in it
        "`tool_call>` opens a call.",
        'Then: ``tool_call>get_weather(city="Paris")</tool_call>',  # mid-message: not where the message begins
        "think> let me see",  # a reasoning tag, not a call's
    ],
)
def test_a_word_before_a_bracket_that_opens_no_call_stays_text(text: str) -> None:
    result = parse_everywhere(text, TOOLS, seeds=5)
    assert (result["calls"], result["text"]) == ([], text)
