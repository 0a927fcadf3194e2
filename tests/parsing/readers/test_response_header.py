"""A template's header of the model's own turn before a call where the message begins
(`shim.parsing.readers.response_header`): markup before a call, text before anything else, at every split point."""

from __future__ import annotations

import pytest

from tests.parsing.readers.cases import Real, check

W = ("get_weather", {"city": "Paris"})


@pytest.mark.parametrize(
    "text",
    [
        # xLAM in Ollama's v0.5 tests: the envelope of calls after its template's header.
        '### Response:\n{"tool_calls": [{"name": "get_weather", "arguments": {"city": "Paris"}}]}',
        '### Response:\n[{"name": "get_weather", "arguments": {"city": "Paris"}}]\n',
        '## Assistant:\r\n{"name": "get_weather", "arguments": {"city": "Paris"}}',
        '### response:\n\n<tool_call>{"name": "get_weather", "arguments": {"city": "Paris"}}</tool_call>',
    ],
)
def test_the_models_turn_header_before_a_call_is_markup(text: str) -> None:
    check(Real("written: xLAM's Alpaca-style header", text, [W], visible=""))


@pytest.mark.parametrize(
    "text",
    [
        "### Response:\nIt is sunny in Paris.",
        '### Response:\n{"answer": "sunny"}',  # JSON, no call
        '### Response:\n{"name": "unknown_tool", "arguments": {}}',
        "### Response:\n",
    ],
)
def test_the_header_before_anything_but_a_call_stays_text(text: str) -> None:
    check(Real("written", text, [], visible=text, tools=["get_weather"]))


def test_the_header_after_prose_is_a_documents_heading() -> None:
    text = 'Notes.\n### Response:\n{"name": "get_weather", "arguments": {"city": "Paris"}}'
    result = check(Real("written", text, [W], visible="Notes.\n### Response:", tools=["get_weather"]))
    assert "### Response:" in result["text"]


@pytest.mark.parametrize(
    ("text", "visible"),
    [
        # xLLM's DeepSeek V3.2 tests: a fence's info string left without its backticks before the call block.
        (
            'Some text before\njson\n<function_call>{"name": "get_weather", "arguments": {"city": "Paris"}}'
            "</function_call>",
            "Some text before",
        ),
        ("Checking.\n  xml  \n  <function=get_weather><parameter=city>Paris</parameter></function>", "Checking."),
    ],
)
def test_a_format_words_line_right_before_a_tagged_call_is_markup(text: str, visible: str) -> None:
    check(Real("written: xLLM's DSML tests", text, [W], visible=visible))


@pytest.mark.parametrize(
    "text",
    [
        "The reply is\njson\n<b>bold</b> text.",
        "Pick one:\njson\nor xml.",
    ],
)
def test_a_format_words_line_before_anything_but_a_call_stays_text(text: str) -> None:
    check(Real("written", text, [], visible=text, tools=["get_weather"]))
