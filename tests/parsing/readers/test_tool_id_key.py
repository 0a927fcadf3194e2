"""A call named under a tool id key (VaniScope's ``{"call_id": …, "tool_id": NAME, "arguments": {…}}``) where the
id is an offered tool's name, alone, in a list or in a ``tool_calls`` envelope (`shim.parsing.shapes`)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.parsing.readers.cases import Real, check, tool

TOOLS = [tool("read_files", paths="array"), tool("write_file", path="string", content="string"), tool("list_dir")]


@pytest.mark.parametrize(
    ("text", "visible", "calls"),
    [
        # VaniScope's reply: the envelope, a call id, the tool's id, the arguments and a reason beside them.
        (
            '{"tool_calls": [{"call_id": "call_001", "tool_id": "read_files", "arguments": {"paths": ["a"]},'
            ' "reason": "Read it first."}]}',
            "",
            [("read_files", {"paths": ["a"]})],
        ),
        # A bare list, camelCase, two calls.
        (
            '[{"toolId": "list_dir", "arguments": {}}, {"toolId": "read_files", "arguments": {"paths": ["x"]}}]',
            "",
            [("list_dir", {}), ("read_files", {"paths": ["x"]})],
        ),
        # In a JSON fence after a sentence, `function_id`, pretty-printed with CRLF line ends.
        (
            'Sure.\r\n```json\r\n{\r\n  "function_id": "write_file",\r\n  "arguments": {"path": "a", "content": "b"}\r\n}'
            "\r\n```",
            "Sure.",
            [("write_file", {"path": "a", "content": "b"})],
        ),
        # No arguments, no call id; inside Hermes' tag.
        ('{"tool_calls": [{"tool_id": "list_dir"}]}', "", [("list_dir", {})]),
        (
            '<tool_call>{"tool_id": "read_files", "arguments": {"paths": []}}</tool_call>',
            "",
            [("read_files", {"paths": []})],
        ),
    ],
)
def test_a_tool_id_naming_an_offered_tool_names_the_call(
    text: str, visible: str, calls: list[tuple[str, dict[str, Any]]]
) -> None:
    check(Real("written: VaniScope-style tool ids", text, calls, visible=visible, tools=TOOLS))


@pytest.mark.parametrize(
    "text",
    [
        # An opaque id, a tool not offered, prose naming the key, a record with a field no tool declares.
        '{"tool_id": "T-1234", "arguments": {"path": "a"}}',
        '{"tool_calls": [{"tool_id": "rm", "arguments": {}}]}',
        'Set "tool_id": "list_dir" in your reply.',
        'The record {"tool_id": "read_files", "enabled": true} is stored.',
    ],
)
def test_a_tool_id_of_no_offered_tool_or_in_prose_stays_text(text: str) -> None:
    check(Real("written", text, [], visible=text, tools=TOOLS))
