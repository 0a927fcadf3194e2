"""A call tag's closer opening the message with no block open (`orphan_closer`'s ``stray_closer_first`` row):
markup before a call or a tag, text before words; at every split point."""

from __future__ import annotations

import pytest

from tests.parsing.readers.cases import Real, check

AST = "kot0fey/Asterisk-AI-Voice-Agent:tests/test_tool_parser.py@5005670ae79df53e062953f17c63ab635dbf4318"
AGENTPROXY = "CodigoCrafter/agentproxy:src/tools/parser.test.ts@4f569e93210eecb191aba333aff96572cf411f55"

CASES = [
    Real(  # the closer first, then bare JSON and a word
        AST,
        '</tool_call> {"name":"hangup_call","arguments":{"farewell_message":"Bye"}} Bye',
        [("hangup_call", {"farewell_message": "Bye"})],
        visible="Bye",
    ),
    Real(  # a closer cut to `</`, on its line before a wrapper of a call list
        AGENTPROXY,
        '</\n\n<tool_calls>\n[{"id":"toolu_123","name":"terminal","arguments":{"command":"pwd"}}]\n</tool_calls>',
        [("terminal", {"command": "pwd"})],
    ),
    Real(  # variant: another call tag's closer, then a whole tagged call and text
        "written: a previous turn's closer left over",
        '</function_call>\n<tool_call>\n{"name": "read_file", "arguments": {"path": "a.py"}}\n</tool_call>\nReading.',
        [("read_file", {"path": "a.py"})],
        visible="Reading.",
    ),
    Real(  # variant: spaces inside the closer, a list of calls after it
        "written: a spaced closer before a list",
        '</ tool_calls >\n[{"name": "search", "arguments": {"q": "rust"}}, {"name": "search", "arguments": {"q": "go"}}]',
        [("search", {"q": "rust"}), ("search", {"q": "go"})],
    ),
    Real(  # variant: `</` before a special-token call
        "written: a cut closer before Granite's token",
        '</\n<|tool_call|>[{"name": "get_weather", "arguments": {"city": "Oslo"}}]',
        [("get_weather", {"city": "Oslo"})],
    ),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_a_call_closer_opening_the_message_before_a_call_is_markup(case: Real) -> None:
    check(case)


@pytest.mark.parametrize(
    "text",
    [
        "</tool_call> is the tag that closes a call.",  # named first in a sentence
        'Close it: </tool_call> {"name": "search", "arguments": {}}',  # mid-text: the opener left out, no call
        "</\n<div>hello</div>",  # a cut tag before HTML
        "</tool_call>",  # the closer alone
    ],
)
def test_a_closer_before_words_or_mid_text_stays_text(text: str) -> None:
    check(Real("written", text, [], visible=text, tools=["get_weather"]))
