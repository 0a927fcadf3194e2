"""An agent's envelope naming the kind of its reply beside the call: ``{"action": "call_tool", "tool": NAME,
"arguments": {…}}`` (datadog-triage-agent), ``{"action": "tool", "tool": NAME, …}`` (a Granite Code agent's legacy
wrapper): ``action`` holding a call word is the envelope's, not an argument (`shim.parsing.shapes`)."""

from __future__ import annotations

from typing import Any

import pytest

from shim.parsing.shapes import to_call
from tests.parsing.readers.cases import Real, check

TOOLS = ["search_logs", "get_incident", "read_file"]
DATADOG = "paffon/datadog-triage-agent:tests/test_tool_parsing.py"


@pytest.mark.parametrize(
    ("text", "calls", "visible"),
    [
        (
            '```json\n{"action": "call_tool", "tool": "search_logs", "arguments": {"query": "x"}}\n```',
            [("search_logs", {"query": "x"})],
            "",
        ),
        (
            'Sure, next step:\n{"action": "call_tool", "tool": "get_incident", "arguments": {}}\nThanks!',
            [("get_incident", {})],
            "Sure, next step: Thanks!",
        ),
        ('{"action":"tool","tool":"read_file","arguments":{"path":"a.py"}}', [("read_file", {"path": "a.py"})], ""),
        # variants: the word in other spellings and cases, other argument keys, the keys in another order
        (
            '{"tool": "read_file", "params": {"path": "b.rs"}, "action": "TOOL_CALL"}',
            [("read_file", {"path": "b.rs"})],
            "",
        ),
        (
            'Voici:\n  {"action": "use_tool", "name": "search_logs", "args": {"query": "erreur 500"}}\nFin.',
            [("search_logs", {"query": "erreur 500"})],
            "Voici: Fin.",
        ),
    ],
)
def test_a_call_word_under_action_beside_a_call_is_the_envelopes(
    text: str, calls: list[tuple[str, dict[str, Any]]], visible: str
) -> None:
    check(Real(DATADOG, text, calls, visible=visible, tools=TOOLS))


@pytest.mark.parametrize(
    "text",
    [
        '{"action": "final", "answer": "done"}',  # the envelope's other kind: an answer
        '{"action": "call_tool", "tool": "delete_all", "arguments": {}}',  # no offered tool
        'For example:\n```json\n{"action": "call_tool", "tool": "search_logs", "arguments": {"query": "x"}}\n```',
        'Write `{"action": "call_tool", "tool": "read_file", "arguments": {"path": "a"}}` to call.',  # inline code
    ],
)
def test_an_action_envelope_of_no_call_stays_text(text: str) -> None:
    check(Real(DATADOG, text, [], visible=text, tools=TOOLS))


def test_an_action_of_another_word_beside_a_call_is_still_an_extra_key() -> None:
    shape = to_call({"tool": "read_file", "arguments": {"path": "a"}, "action": "delete"})
    assert not shape.canonical
    assert to_call({"tool": "read_file", "arguments": {"path": "a"}, "action": "call_tool"}).canonical
