"""Messages addressed by recipient (harmony's structure, as ATEM / Glimmer models write it): ``to=self`` is
reasoning, ``to=user`` text read as written, a message to a tool (or to no one) whose body is a tagged call
form is that call; the headers and end tokens are markup. A stripped header inside a call tag names the tool."""

from __future__ import annotations

import pytest

from shim.events import ReasoningDelta
from shim.parsing.stream import StreamParser
from tests.parsing.readers.cases import Real, check, tool

TOOLS = [tool("get_time", zone="string"), tool("get_weather", city="string")]
CALL = ("get_time", {"zone": "UTC"})
INVOKE = '<invoke name="get_time"><parameter name="zone">UTC</parameter></invoke>'
ATEM = '<atem:function_calls><atem:invoke name="get_time"><atem:parameter name="zone">UTC</atem:parameter></atem:invoke></atem:function_calls>'


@pytest.mark.parametrize(
    ("text", "visible"),
    [
        (f" to=get_time<|message|>{ATEM}<|eot|>", ""),
        (f"to=functions.get_time<|message|>\n<function_calls>{INVOKE}</function_calls><|eom|>", ""),
        (f"<|message|>{ATEM}<|start|>assistant to=user<|message|>Done<|eot|>", "Done"),
        (
            f" to=self<|message|>plan it<|eom|><|start|>assistant to=get_time<|message|>{ATEM}<|eom|>"
            "<|start|>assistant to=user<|message|>It is noon.<|eot|>",
            "It is noon.",
        ),
        (f"to=self<|message|>look<|eom|><|start|>assistant<|message|>{ATEM}<|eom|>", ""),
        ('<|start|>assistant to=functions.get_time<|message|>{"zone": "UTC"}<|call|>', ""),
    ],
)
def test_a_message_to_a_tool_or_to_no_one_holding_a_call_form_is_that_call(text: str, visible: str) -> None:
    check(Real("written: recipient-addressed messages", text, [CALL], visible=visible, tools=TOOLS))


def test_a_message_to_self_is_reasoning() -> None:
    text = f" to=self<|message|>first check the clock<|eom|><|start|>assistant to=get_time<|message|>{ATEM}<|eot|>"
    parser = StreamParser(TOOLS)
    events = parser.feed(text) + parser.close()
    assert "first check the clock" in "".join(e.text for e in events if isinstance(e, ReasoningDelta))
    check(Real("written", text, [CALL], tools=TOOLS))


@pytest.mark.parametrize(
    ("text", "visible"),
    [
        (f" to=user<|message|>example: {ATEM}<|eot|>", f"example: {ATEM}"),
        (f"<|start|>assistant to=all<|message|>write {INVOKE} to call it<|end|>", f"write {INVOKE} to call it"),
        ("to=user is how a header names the reader.", "to=user is how a header names the reader."),
        ("Say <|message|> then text.", "Say <|message|> then text."),
    ],
)
def test_a_message_to_the_user_is_text_even_when_it_shows_a_call(text: str, visible: str) -> None:
    check(Real("written: a call shown to the user", text, [], visible=visible, tools=TOOLS))


@pytest.mark.parametrize(
    "text",
    [
        '<tool_call>to=functions.get_time\n{"zone": "UTC"}\n</tool_call>',
        'Sure.\n<tool_call>assistant to=functions.get_time json\n{"zone": "UTC"}\n</tool_call>',
        '<tool_call>commentary to=get_time {"zone": "UTC"}</tool_call>',
        '<function_call>to=get_time json {"zone": "UTC"}</function_call>',
    ],
)
def test_a_stripped_recipient_header_inside_a_call_tag_names_the_tool(text: str) -> None:
    visible = "Sure." if text.startswith("Sure.") else ""
    check(Real("written: SGLang multi-format recipient in a tag", text, [CALL], visible=visible, tools=TOOLS))
