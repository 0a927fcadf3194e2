"""A Kimi K2 call whose head comes right before its end token, with no argument token and no arguments (otterbot's
Kimi K2.5 tests: ``<|tool_call_begin|>functions.get_time\\n<|tool_call_end|>``): a call with ``{}`` where the head
names an offered tool that requires no argument (`shim.parsing.readers.sectioned`)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.parsing.readers.cases import Real, check, tool

TOOLS = [
    tool("get_time"),
    tool("list_dir", path="string"),
    {
        "name": "read_file",
        "inputSchema": {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]},
    },
]


@pytest.mark.parametrize(
    ("text", "visible", "calls"),
    [
        # otterbot's layout: each token on its line, after a sentence.
        (
            "Calling tool.\n<|tool_calls_section_begin|>\n<|tool_call_begin|>functions.get_time\n<|tool_call_end|>\n"
            "<|tool_calls_section_end|>",
            "Calling tool.",
            [("get_time", {})],
        ),
        # On one line with the call's index; a tool whose one parameter is optional; CRLF and trailing blanks.
        (
            "<|tool_calls_section_begin|><|tool_call_begin|>functions.list_dir:0<|tool_call_end|>"
            "<|tool_calls_section_end|>",
            "",
            [("list_dir", {})],
        ),
        (
            "Now.  \r\n<|tool_calls_section_begin|>\r\n<|tool_call_begin|>get_time  \r\n<|tool_call_end|>\r\n"
            "<|tool_calls_section_end|>",
            "Now.",
            [("get_time", {})],
        ),
        # The section tokens left out; then a call with arguments after it.
        ("<|tool_call_begin|>functions.get_time:3<|tool_call_end|>", "", [("get_time", {})]),
        (
            "<|tool_calls_section_begin|><|tool_call_begin|>functions.get_time:0<|tool_call_end|>"
            '<|tool_call_begin|>functions.read_file:1<|tool_call_argument_begin|>{"path": "a"}<|tool_call_end|>'
            "<|tool_calls_section_end|>",
            "",
            [("get_time", {}), ("read_file", {"path": "a"})],
        ),
    ],
)
def test_a_head_right_before_the_end_token_calls_a_tool_that_needs_no_argument(
    text: str, visible: str, calls: list[tuple[str, dict[str, Any]]]
) -> None:
    check(Real("written: otterbot-style Kimi K2.5 calls with no arguments", text, calls, visible=visible, tools=TOOLS))


def test_the_tokens_named_in_prose_stay_text() -> None:
    text = "The tokens <|tool_call_begin|>NAME<|tool_call_end|> wrap a call."
    check(Real("written", text, [], visible=text, tools=TOOLS))


@pytest.mark.parametrize(
    "text",
    [
        # A tool not offered, a tool that requires an argument (the leaked end token is dropped, as ever).
        "<|tool_call_begin|>functions.rm<|tool_call_end|>",
        "<|tool_call_begin|>functions.read_file<|tool_call_end|>",
    ],
)
def test_a_bare_head_of_no_offered_tool_or_of_one_needing_arguments_is_no_call(text: str) -> None:
    result = check(Real("written", text, [], tools=TOOLS), visible=False)
    assert result["text"].startswith("<|tool_call_begin|>functions.")
