"""``[NAME]{…}`` (closed by ``</NAME>`` or not) and ``[NAME]FUNC()``: an offered tool's name in square brackets, then
its arguments (`shim.parsing.readers.bracket_name_args`)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.parsing.readers.cases import Real, check, tool

TINKERBOX = "lorcan35/TinkerBox:tests/test_tool_parser.py@96f31a77 (ToolRegistry.parse_tool_calls, dialect 3)"
NO_ARGUMENTS: dict[str, Any] = {}
TOOLS = [
    tool("recall", query="string"),
    tool("calculator", expression="string"),
    tool("datetime"),
    tool("get-weather", city="string", days="integer"),
    {
        "name": "set_timer",
        "inputSchema": {"type": "object", "properties": {"minutes": {"type": "integer"}}, "required": ["minutes"]},
    },
]


@pytest.mark.parametrize(
    ("text", "calls", "visible"),
    [
        (
            '[recall]{"query": "How much disk space is left?"}</recall>',
            [("recall", {"query": "How much disk space is left?"})],
            "",
        ),
        ('[calculator]{"expression": "2+2"}', [("calculator", {"expression": "2+2"})], ""),
        ("[datetime]GETCURRENTDATEANDTIME()", [("datetime", NO_ARGUMENTS)], ""),
        (  # prose each side on one line, the closer with blanks inside
            'Let me check. [calculator]{"expression": "3*7"}< / calculator > Done.',
            [("calculator", {"expression": "3*7"})],
            "Let me check. Done.",
        ),
        (  # blanks in the brackets and before the object; an integer; a name spelled with `_` for `-`; French
            'Je regarde : [ get_weather ] {"city": "Lyon", "days": 2}</get_weather> voilà.',
            [("get-weather", {"city": "Lyon", "days": 2})],
            "Je regarde : voilà.",
        ),
        (  # several in one message: glued, on their own lines, the noise form with blanks in its parentheses
            '[recall]{"query": "a"}</recall>[recall]{"query": "b"}\n[datetime]now( )\nok',
            [("recall", {"query": "a"}), ("recall", {"query": "b"}), ("datetime", NO_ARGUMENTS)],
            "ok",
        ),
        (  # the object over several indented lines, a value holding brackets and a closer-like string
            '  [recall]{\n      "query": "[x] </recall> y"\n  }\n  after',
            [("recall", {"query": "[x] </recall> y"})],
            "after",
        ),
    ],
)
def test_a_bracketed_name_of_an_offered_tool_then_its_arguments_is_its_call(
    text: str, calls: list[tuple[str, dict[str, Any]]], visible: str
) -> None:
    check(Real(TINKERBOX, text, calls, visible=visible, tools=TOOLS))


@pytest.mark.parametrize(
    "text",
    [
        "The user mentioned [recall] earlier but didn't ask for it.",  # a bracketed name, no arguments after it
        'I want to add [note]{"text": "x"} for later.',  # no offered tool of that name
        'Write `[recall]{"query": "x"}</recall>` to search your notes.',  # inline code
        'For example: [recall]{"query": "x"}',  # presented as an example
        '```\n[calculator]{"expression": "1+1"}\n```',  # in a code fence
        'rows[recall]{"query": "x"}',  # the bracket indexes a word
        "[recall]{query: x y}",  # not JSON
        '[recall]{"query": "x"',  # the object left open
        "[datetime]GETTIME(now)",  # the noise form with something in its parentheses
        "[set_timer]START()",  # the noise form of a tool that requires an argument
        "[datetime] GETTIME()",  # a blank between the brackets and the noise form
        "See [recall](https://example.com/recall) for details.",  # a Markdown link
    ],
)
def test_a_bracketed_name_in_prose_or_of_no_tool_stays_text(text: str) -> None:
    check(Real(TINKERBOX, text, [], visible=text, tools=TOOLS))


def test_without_tools_the_form_stays_text() -> None:
    text = '[recall]{"query": "x"}</recall>'
    check(Real(TINKERBOX, text, [], visible=text, tools=None))
