"""A call of no tool (`ToolIndex.declines`): ``none``, ``null``, ``no_tool`` named where a tool's name belongs, with no
tool of that name offered, is the model's choice of no call: no call, no error, the block markup. One decision in
the core (`StreamParser.start_call`), so it holds for every family; an offered tool of that name is called."""

from __future__ import annotations

import pytest

from tests.parsing.chunking import parse_everywhere
from tests.parsing.readers.cases import Real, check

KOOG = "monday8am/koogagent:agent/src/test/java/com/monday8am/agent/local/GemmaLLMClientTest.kt"


@pytest.mark.parametrize(
    ("text", "visible"),
    [
        # koogagent's simplified JSON protocol: the marker opening the reply, then the answer
        ('{"tool":"none"}\nHello! How can I help you?', "Hello! How can I help you?"),
        # variants: the name key, case and separators, a synonym, spaces, no answer after it
        ('{"name": "None", "arguments": {}}\nIt is 4.', "It is 4."),
        ('  {"tool": "NO-TOOL"}\n\nParis is in France.', "Paris is in France."),
        ('{"tool_name": "null", "parameters": {}}', ""),
        # every call family: a tagged block, Mistral's list, Llama's function tag, Qwen3-Coder's XML, a labelled list
        ('<tool_call>{"name": "none", "arguments": {}}</tool_call>\nBonjour.', "Bonjour."),
        ('<function_call>{"name": "NoTool"}</function_call>', ""),
        ('[TOOL_CALLS][{"name": "null", "arguments": {}}]Sure.', "Sure."),
        ("<function=no_tool>{}</function>\nHi", "Hi"),
        ("<tool_call>\n<function=None>\n</function>\n</tool_call>\nOk", "Ok"),
        ('Action: [{"tool_name": "none", "parameters": {}}]\nIt is 4.', "It is 4."),
        # Command R's pseudo-tool, one of the same words
        ('<tool_call>{"name": "directly_answer"}</tool_call>Hi', "Hi"),
        # koogagent's SLIM protocol: the name tag alone holding the word, opening the reply (any case, blanks)
        ("<function>none</function>\nHello! How can I help you?", "Hello! How can I help you?"),
        ("<function>NoNe</function>", ""),
        ("  <function> No_Tool </function>  \n\nParis is in France.", "Paris is in France."),
        ("<tool>null</tool>\r\nEs ist 4.", "Es ist 4."),
        ("<function>directly-answer</function>", ""),
    ],
)
def test_a_call_of_no_tool_is_no_call_and_its_block_is_markup(text: str, visible: str) -> None:
    check(Real(KOOG, text, [], visible=visible, tools=["GetWeather"]))


def test_beside_a_real_call_only_the_real_call_is_read() -> None:
    text = (
        '<tool_call>{"name": "none"}</tool_call>\n'
        '<tool_call>{"name": "get_weather", "arguments": {"city": "Oslo"}}</tool_call>'
    )
    check(Real("written", text, [("get_weather", {"city": "Oslo"})], tools=["get_weather"]))


@pytest.mark.parametrize(
    "text",
    ['{"tool": "none"}', '<tool_call>{"name": "None", "arguments": {}}</tool_call>', "<function=null>{}</function>"],
)
def test_an_offered_tool_named_none_is_called(text: str) -> None:
    result = parse_everywhere(text, ["none", "null", "search"])
    assert len(result["calls"]) == 1 and result["calls"][0]["name"] in ("none", "null")


@pytest.mark.parametrize(
    "text",
    [
        # a sentence naming the marker, a fenced example after prose, a quoted one
        'Answer with {"tool": "none"} when no tool fits.',
        'Write this when no tool fits:\n```json\n{"tool": "none"}\n```',
        '> {"tool": "none"}\nis what the model replied.',
        # a word that only begins like one, and an object of more than a call's keys
        '{"tool": "nonesuch"}',
        '{"tool": "none", "reason": "no tool fits"}',
        # the SLIM marker in a sentence, after prose, with words after it on its line, or of another word
        "Write <function>none</function> when no tool fits.",
        "Sure.\n<function>none</function>",
        "<function>none</function> if nothing fits",
        "<function>nothing</function>",
        # an empty list in prose, after prose, or with words after it on its line
        "Here: []",
        "Nothing matched.\n[]",
        "[] is an empty list.",
        "```json\n[]\n```",  # a fence shows data
        "tool_calls: [] (none were needed)",
    ],
)
def test_the_no_tool_marker_in_prose_stays_text(text: str) -> None:
    result = parse_everywhere(text, ["GetWeather"])
    assert result["calls"] == [] and result["errors"] == [] and result["text"] == text


def test_a_cut_call_of_no_tool_is_an_error_of_no_call() -> None:
    result = parse_everywhere('<tool_call>{"name": "none", "arguments": {"a": ', ["GetWeather"])
    assert result["calls"] == [] and len(result["errors"]) == 1


@pytest.mark.parametrize(
    ("text", "visible"),
    [
        ("[]", ""),  # the whole output: the pythonic prompt's answer when no tool fits ("[] for none")
        ("  [ ]  \n", ""),
        ("[]\nNo tool fits that request.", "No tool fits that request."),
    ],
)
def test_an_empty_call_list_opening_the_message_is_no_call(text: str, visible: str) -> None:
    check(
        Real(
            "gorilla-llm/berkeley-function-call-leaderboard: hindi_13 (gpt-4o-mini)",
            text,
            [],
            visible=visible,
            tools=["get_weather_today", "set_reminder"],
        )
    )


def test_an_empty_list_with_no_tools_offered_is_text() -> None:
    result = parse_everywhere("[]", None)
    assert result["text"] == "[]"
