"""``TOOL_REQUEST[NAME:{…}]``: a request word, an offered tool's name and its arguments object in square brackets
(`shim.parsing.readers.tool_request_bracket`)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.parsing.readers.cases import Real, check, tool

ADA = "luna-system/ada:tests/test_tool_parser.py (ToolRequestParser)"
NO_ARGUMENTS: dict[str, Any] = {}
TOOLS = [
    tool("ada_search", query="string", scope="string", limit="integer"),
    tool("ada_read_file", path="string"),
    tool("get-weather", city="string", days="integer"),
]


@pytest.mark.parametrize(
    ("text", "calls", "visible"),
    [
        ('TOOL_REQUEST[ada_search:{"query":"test"}]', [("ada_search", {"query": "test"})], ""),
        ("TOOL_REQUEST[ada_search:{}]", [("ada_search", NO_ARGUMENTS)], ""),
        (  # prose each side, on one line
            'Before TOOL_REQUEST[ada_read_file:{"path": "src/app.py"}] after.',
            [("ada_read_file", {"path": "src/app.py"})],
            "Before after.",
        ),
        (  # blanks around the name, the colon and the brackets; an integer; another language around it
            'Je cherche : TOOL_REQUEST [ ada_search : { "query": "café", "limit": 3 } ] puis je lis.',
            [("ada_search", {"query": "café", "limit": 3})],
            "Je cherche : puis je lis.",
        ),
        (  # the object over several indented lines
            '  Let me look:\n  TOOL_REQUEST[get_weather:{\n      "city": "Lima",\n      "days": 2\n  }]\n  Done.',
            [("get-weather", {"city": "Lima", "days": 2})],
            "Let me look: Done.",
        ),
        (  # several in one message, glued and on their own lines
            'A: TOOL_REQUEST[ada_search:{"query":"a"}]TOOL_REQUEST[ada_search:{"query":"b"}]\n'
            'B: TOOL_REQUEST[ada_read_file:{"path":"b.ts"}]',
            [("ada_search", {"query": "a"}), ("ada_search", {"query": "b"}), ("ada_read_file", {"path": "b.ts"})],
            "A: B:",
        ),
        (  # a value holding brackets and a colon
            'TOOL_REQUEST[ada_search:{"query": "a[0]: ] } x"}] ok',
            [("ada_search", {"query": "a[0]: ] } x"})],
            "ok",
        ),
    ],
)
def test_a_bracketed_request_of_an_offered_tool_is_its_call(
    text: str, calls: list[tuple[str, dict[str, Any]]], visible: str
) -> None:
    check(Real(ADA, text, calls, visible=visible, tools=TOOLS))


@pytest.mark.parametrize(
    "text",
    [
        'Use TOOL_REQUEST[lookup:{"query": "x"}] for lookups.',  # no offered tool of that name
        'Ask with `TOOL_REQUEST[ada_search:{"query": "x"}]` in your reply.',  # inline code
        'For example: TOOL_REQUEST[ada_search:{"query": "x"}]',  # presented as an example
        '```python\nprint("TOOL_REQUEST[ada_search:{\\"query\\": \\"x\\"}]")\n```',  # in a code fence
        "The syntax is TOOL_REQUEST[name:{json}] and nothing else.",  # the form named, no object
        'TOOL_REQUEST[ada_search:{"query": "x"}',  # the bracket left open
        'TOOL_REQUEST[ada_search:{"query": "x"} and more]',  # prose before the `]`
        'TOOL_REQUEST[ada_search:{"query": x y}]',  # not JSON
        'MY_TOOL_REQUEST[ada_search:{"query": "x"}]',  # part of a longer word
        "TOOL_REQUEST[ada_search]: find the login code",  # a name and a description, no arguments object
        "The TOOL_REQUEST notation is how the agent asks for tools.",  # the word in a sentence
    ],
)
def test_a_request_in_prose_of_no_tool_or_not_closed_stays_text(text: str) -> None:
    check(Real(ADA, text, [], visible=text, tools=TOOLS))


def test_without_tools_a_request_stays_text() -> None:
    text = 'TOOL_REQUEST[ada_search:{"query": "x"}]'
    check(Real(ADA, text, [], visible=text, tools=None))
