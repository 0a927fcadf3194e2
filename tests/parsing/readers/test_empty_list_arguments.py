"""Arguments written as an empty list (``"arguments": []``, a serializer's empty map: PHP's ``json_encode([])``,
Xerxes' Mistral tests) are no arguments, ``{}``, in every family (`shim.parsing.shapes`); a list holding values is
still no arguments object."""

from __future__ import annotations

from typing import Any

import pytest

from tests.parsing.readers.cases import Real, check, tool

TOOLS = [tool("read_file", path="string"), tool("skip")]


@pytest.mark.parametrize(
    ("text", "calls"),
    [
        (
            '[TOOL_CALLS][{"id":"provider-1","name":"read_file","arguments":{"path":"a.txt"}},'
            '{"name":"skip","arguments":[]}]',
            [("read_file", {"path": "a.txt"}), ("skip", {})],
        ),
        ('<tool_call>\n{"name": "skip", "arguments": [ ]}\n</tool_call>', [("skip", {})]),
        ('```json\n{"tool": "skip", "parameters": []}\n```', [("skip", {})]),
        ('{"tool_calls": [{"function": {"name": "skip", "arguments": []}}]}', [("skip", {})]),
    ],
)
def test_an_empty_list_of_arguments_is_no_arguments(text: str, calls: list[tuple[str, dict[str, Any]]]) -> None:
    check(Real("written: empty arguments serialized as a list", text, calls, tools=TOOLS))


def test_a_list_of_values_for_arguments_is_still_an_error() -> None:
    check(
        Real(
            "written", '<tool_call>{"name": "read_file", "arguments": ["a.txt"]}</tool_call>', [], errors=1, tools=TOOLS
        )
    )


@pytest.mark.parametrize(
    "text",
    ['Send {"name": "rm", "arguments": []} to delete.', 'The field "arguments": [] means none.'],
)
def test_an_empty_list_in_prose_or_for_no_offered_tool_stays_text(text: str) -> None:
    check(Real("written", text, [], visible=text, tools=TOOLS))
