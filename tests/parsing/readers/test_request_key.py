"""A tool message labelled ``TOOL: NAME`` then a JSON object naming the tool under ``request``
(`shim.parsing.readers.request_key`, langroid's LLM messages), and the ``request`` shape alone."""

from __future__ import annotations

import pytest

from shim.parsing.shapes import ToolIndex, to_call
from tests.parsing.readers.cases import Real, check, tool

TOOLS = [
    tool("get_weather", city="string", days="integer"),
    {"name": "create_user", "inputSchema": {"type": "object", "properties": {"name": {"type": "string"}}}},
]


@pytest.mark.parametrize(
    ("text", "visible", "calls"),
    [
        # langroid's tests/main/llm_msgs.txt: the label, then the tool message with its empty routing field.
        (
            'TOOL: get_weather\n{\n    "request": "get_weather",\n    "recipient": "",\n    "city": "Paris"\n}',
            "",
            [("get_weather", {"city": "Paris"})],
        ),
        # After a sentence; the routing field first; spaces around the colon; CRLF line ends.
        (
            'Checking.\nTOOL: get_weather\n{"recipient": "", "request": "get_weather", "days": 2}',
            "Checking.\n",
            [("get_weather", {"days": 2})],
        ),
        (
            'TOOL : get_weather \r\n{"request": "get_weather", "purpose": "to know", "city": "Oslo"}',
            "",
            [("get_weather", {"city": "Oslo"})],
        ),
        # Only the arguments after the label: the label names the tool.
        ('TOOL: get_weather\n{"city": "Lima"}', "", [("get_weather", {"city": "Lima"})]),
    ],
)
def test_a_labelled_tool_message_is_a_call(text: str, visible: str, calls: list) -> None:
    check(Real("written: langroid tool messages", text, calls, visible=visible, tools=TOOLS))


@pytest.mark.parametrize(
    ("text", "calls"),
    [
        # The object alone, as langroid asks for it.
        ('{"request": "get_weather", "city": "Paris"}', [("get_weather", {"city": "Paris"})]),
        # Pretty-printed, with langroid's `purpose` field (no argument of the tool).
        ('{\n  "request": "get_weather",\n  "purpose": "weather",\n  "days": 3\n}', [("get_weather", {"days": 3})]),
    ],
)
def test_a_request_key_naming_an_offered_tool_names_the_call(text: str, calls: list) -> None:
    check(Real("written: langroid's request key", text, calls, tools=TOOLS))


@pytest.mark.parametrize(
    "text",
    [
        # A tool not offered; a label with no object after it; a request that is data, not a tool's name.
        'TOOL: rm\n{"request": "rm", "path": "/"}',
        "TOOL: get_weather is the one I would use.",
        "TOOL: get_weather\nThen I check it.",
        '{"request": "GET /weather", "status": 200}',
    ],
)
def test_a_label_or_request_of_no_offered_tool_or_with_no_object_stays_text(text: str) -> None:
    check(Real("written", text, [], visible=text, tools=TOOLS))


def test_a_name_argument_beside_request_stays_an_argument_of_the_requested_tool() -> None:
    tools = ToolIndex(TOOLS)
    shape = to_call({"request": "create_user", "name": "Bob", "recipient": ""}, tools)
    assert (shape.name, shape.arguments, shape.canonical) == ("create_user", {"name": "Bob"}, True)
    assert to_call({"request": "unknown", "name": "get_weather"}, tools).name == "get_weather"
