"""What may follow a call's body (`shim.parsing.readers.block_end`): a comma before the next call object is the
calls' separator, and a form that opens a line may open the line right after a call, as it may after text."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.parsing.readers.cases import Real, check, tool

TOOLS = [tool("get_weather", city="string"), tool("search", query="string")]
A = json.dumps({"name": "get_weather", "arguments": {"city": "Paris"}})
B = json.dumps({"name": "search", "arguments": {"query": "cats"}})
BOTH = [("get_weather", {"city": "Paris"}), ("search", {"query": "cats"})]


@pytest.mark.parametrize(
    ("text", "visible"),
    [
        (f"{A},\n{B}", "\n"),
        (f"{A}, {B}", " "),
        (f"Both:\n{A} ,\n\n{B}\n", "Both:\n\n\n\n"),
        (f"```json\n{A},\n{B}\n```", ""),
    ],
)
def test_a_comma_between_two_call_objects_is_their_separator(text: str, visible: str) -> None:
    check(Real("written: a list of calls with its brackets left out", text, BOTH, visible=visible, tools=TOOLS))


@pytest.mark.parametrize(
    ("text", "visible"),
    [
        (f'{A}, {{"note": "x"}}', ', {"note": "x"}'),  # the object after the comma is no call: both are text
        (f"{A}, and that is all.", ", and that is all."),
    ],
)
def test_a_comma_after_a_call_before_anything_but_a_call_stays_text(text: str, visible: str) -> None:
    check(Real("written", text, [BOTH[0]], visible=visible, tools=TOOLS))


@pytest.mark.parametrize(
    ("text", "visible"),
    [
        (f'{A}\nsearch {{"query": "cats"}}', "\n"),  # a name opening its line, its object after it
        (f"{A}\nAction: search\nAction Input: cats", "\n"),  # ReAct's labels
        (f"<tool_call>{A}</tool_call>\n- {B}", "\n"),  # a bulleted call after a tagged one
        (f'{A}\r\n\r\n@search {{"query": "cats"}}', "\r\n\r\n"),  # gptme's form without its id
        (f'<tool_call>\n{A}\n</tool_call>\n\nTool: search\nInput: {{"query": "cats"}}\n', "\n\n\n"),
    ],
)
def test_a_form_that_opens_a_line_is_read_on_the_line_after_a_call(text: str, visible: str) -> None:
    check(Real("written: two calls in two forms", text, BOTH, visible=visible, tools=TOOLS))


@pytest.mark.parametrize(
    ("text", "visible"),
    [
        (f"{A}\nsearch is what I use next.", "\nsearch is what I use next."),
        (f"<tool_call>{A}</tool_call>\n\n- item one\n- item two", "\n\n- item one\n- item two"),
        (f"{A}\n   \nDone.", "\n   \nDone."),
    ],
)
def test_the_lines_after_a_call_that_open_no_form_stay_text_every_character(text: str, visible: str) -> None:
    calls: list[tuple[str, dict[str, Any]]] = [BOTH[0]]
    check(Real("written", text, calls, visible=visible, tools=TOOLS))
