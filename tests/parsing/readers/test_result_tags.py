"""A tag whose name says it holds a call's result (``<tool_result name="bash">output</tool_result>``, amplifier's
Copilot provider tests) opens no call, whatever its attributes name (`shim.parsing.readers.base.RESULT_TAG`); the
call-word tags beside it still do."""

from __future__ import annotations

from typing import Any

import pytest

from tests.parsing.readers.cases import Real, check, tool

TOOLS = [tool("bash", command="string"), tool("read_file", path="string")]


@pytest.mark.parametrize(
    "text",
    [
        '<tool_result name="bash">output here</tool_result>',
        '<tool_response name="bash">total 0</tool_response>',
        '<function_result name="read_file">hello</function_result>',
        "<tool_output tool='bash'>ok</tool_output>",
        '<toolResult type="bash">x</toolResult>',
        '<ToolCallResponse name="bash">\r\ndone\r\n</ToolCallResponse>',
        '<action_output type="bash">ls</action_output>',
        '<tool_result name="bash"><command>ls</command></tool_result>',
        '<tool_response name="bash"><parameter name="command">ls</parameter></tool_response>',
        'The run gave:\n<tool_result name="read_file">line 1\nline 2</tool_result>\nAll good.',
    ],
)
def test_a_tag_naming_a_result_stays_text(text: str) -> None:
    check(Real("written: results echoed by a model", text, [], visible=text, tools=TOOLS))


@pytest.mark.parametrize(
    ("text", "calls"),
    [
        ('<tool_used name="bash"><command>ls -la</command></tool_used>', [("bash", {"command": "ls -la"})]),
        ('<boltAction type="bash">ls</boltAction>', [("bash", {"command": "ls"})]),
        ('<runCommand tool="bash">ls</runCommand>', [("bash", {"command": "ls"})]),
        (
            '<call_record tool="bash"><parameter name="command">pwd</parameter></call_record>',
            [("bash", {"command": "pwd"})],
        ),
    ],
)
def test_a_call_word_tag_with_no_result_word_is_still_a_call(
    text: str, calls: list[tuple[str, dict[str, Any]]]
) -> None:
    check(Real("written", text, calls, tools=TOOLS))
