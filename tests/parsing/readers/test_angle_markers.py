"""``<<<TOOL_CALLS>>>[…]<<<END_TOOL_CALLS>>>`` (`shim.parsing.readers.angle_markers`), at every split point."""

from __future__ import annotations

from typing import Any

import pytest

from tests.parsing.readers.cases import Real, check, tool

M365 = "Theprosonce/m365-copilot-proxy:tests/test_tool_call_extraction.py@24b5d23b095fe0551881ccd83a76ced37e042af8"
NO_ARGUMENTS: dict[str, Any] = {}
TOOLS = [tool("glob", pattern="string"), tool("get_weather", location="string", filter="object"), tool("ping")]


@pytest.mark.parametrize(
    ("text", "calls", "visible"),
    [
        (
            '<<<TOOL_CALLS>>>\n[{"name": "glob", "arguments": {"pattern": "*.py"}}, '
            '{"name": "glob", "arguments": {"pattern": "*.md"}}]\n<<<END_TOOL_CALLS>>>',
            [("glob", {"pattern": "*.py"}), ("glob", {"pattern": "*.md"})],
            "",
        ),
        (  # a brace inside a string value; prose around the block
            'Checking.\n<<<TOOL_CALLS>>>\n[{"name": "get_weather", "arguments": {"location": "London", '
            '"filter": {"city": "London}"}}}]\n<<<END_TOOL_CALLS>>>\nOne moment.',
            [("get_weather", {"location": "London", "filter": {"city": "London}"}})],
            "Checking. One moment.",
        ),
        (  # two brackets, one object, a slash closer, another language
            'Je vérifie. <<TOOL_CALL>>{"name": "ping", "arguments": {}}<</TOOL_CALL>> Voilà.',
            [("ping", NO_ARGUMENTS)],
            "Je vérifie. Voilà.",
        ),
        (  # other words; the closer with END after them; blanks inside the brackets
            '<<< FUNCTION_CALLS >>>{"name": "glob", "arguments": {"pattern": "src/**"}}<<<FUNCTION_CALLS_END>>>',
            [("glob", {"pattern": "src/**"})],
            "",
        ),
        (  # the closer left out at the output's end
            '<<<TOOL_CALLS>>>\n[{"name": "ping", "arguments": {}}]',
            [("ping", NO_ARGUMENTS)],
            "",
        ),
    ],
)
def test_a_call_list_between_the_markers_is_read_and_the_markers_are_markup(
    text: str, calls: list[tuple[str, dict[str, Any]]], visible: str
) -> None:
    check(Real(M365, text, calls, visible=visible, tools=TOOLS))


@pytest.mark.parametrize(
    "text",
    [
        "Wrap the calls in <<<TOOL_CALLS>>> and <<<END_TOOL_CALLS>>> markers.",  # named in a sentence
        'Write `<<<TOOL_CALLS>>>[{"name": "ping", "arguments": {}}]<<<END_TOOL_CALLS>>>` to call it.',  # inline code
        # an example in a text fence (a bare fence holding only a call is the call, as for `<tool_call>`)
        'Example:\n```text\n<<<TOOL_CALLS>>>\n[{"name": "ping", "arguments": {}}]\n<<<END_TOOL_CALLS>>>\n```',
        "x <<<TOOL_CALLS>> y",  # brackets that do not pair
        "<<<<TOOL_CALLS>>>> nested",
    ],
)
def test_the_markers_without_a_call_stay_text(text: str) -> None:
    check(Real(M365, text, [], visible=text, tools=TOOLS))
