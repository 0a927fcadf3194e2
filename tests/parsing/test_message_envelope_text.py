"""A whole message printed as JSON: its ``text`` (or ``content``) beside a list of calls under an envelope key is the
visible reply, the calls are its calls, and a ``mode`` key is the message's metadata (LlamaSharp.ToolCallEnvelopes'
``{"mode", "text", "calls"}``, benchmarks/real/message_envelope ``a30_ls_*``; `shim.parsing.readers.untagged`'s
`message_of`; ContinueHFBridge's ``{"assistant_message", "tool_calls"}`` and a ``message`` key too). A message with
no call keeps its JSON as text, as every JSON reply with no call does."""

from __future__ import annotations

from typing import Any

import pytest

from tests.parsing.chunking import parse_everywhere

NO_ARGUMENTS: dict[str, Any] = {}
TOOLS: list[dict[str, Any]] = [
    {"name": "lookup", "inputSchema": {"type": "object", "properties": {}}},
    {"name": "get_weather", "inputSchema": {"type": "object", "properties": {"location": {"type": "string"}}}},
    {"name": "search", "inputSchema": {"type": "object", "properties": {"query": {"type": "string"}}}},
]


def _calls(result: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    return [(c["name"], c["arguments"]) for c in result["calls"]]


@pytest.mark.parametrize(
    ("text", "calls", "visible"),
    [
        (  # the mode says "message", the calls are calls all the same
            '{\n  "mode": "message",\n  "text": "The model mislabeled this call.",\n'
            '  "calls": [{ "id": "call_1", "name": "lookup", "args": {} }]\n}',
            [("lookup", NO_ARGUMENTS)],
            "The model mislabeled this call.",
        ),
        (  # tool_calls mode, an empty text, two calls
            '{"mode":"tool_calls","text":"","calls":[{"id":"a","name":"get_weather","args":{"location":"London"}},'
            '{"id":"b","name":"search","args":{"query":"rain"}}]}',
            [("get_weather", {"location": "London"}), ("search", {"query": "rain"})],
            "",
        ),
        (  # another language, the OpenAI key and shape, no role
            '{"text": "Je regarde la météo.", "tool_calls": [{"type": "function", "function": {"name": "get_weather", '
            '"arguments": "{\\"location\\": \\"Lyon\\"}"}}]}',
            [("get_weather", {"location": "Lyon"})],
            "Je regarde la météo.",
        ),
        (  # `content` beside the calls, no role; in a json fence
            '```json\n{"content": "Searching.", "calls": [{"name": "search", "arguments": {"query": "rain"}}]}\n```',
            [("search", {"query": "rain"})],
            "Searching.",
        ),
        (  # ContinueHFBridge's envelope: `assistant_message` beside `tool_calls`
            '{"assistant_message": "Hello", "tool_calls": [{"name": "search", "arguments": {"query": "x"}}]}',
            [("search", {"query": "x"})],
            "Hello",
        ),
        (  # `message` beside the calls, pretty-printed, another language
            '{\n  "message": "天気を調べます。",\n  "tool_calls": [\n    {"name": "get_weather", "arguments": '
            '{"location": "東京"}}\n  ]\n}',
            [("get_weather", {"location": "東京"})],
            "天気を調べます。",
        ),
    ],
)
def test_a_messages_text_beside_its_calls_is_the_visible_reply(
    text: str, calls: list[tuple[str, dict[str, Any]]], visible: str
) -> None:
    result = parse_everywhere(text, TOOLS)
    assert _calls(result) == calls
    assert result["text"].split() == visible.split()


@pytest.mark.parametrize(
    "text",
    [
        '{"text":"こんにちは"}',  # a reply envelope with no call: its JSON is the text
        '{"mode":"message","text":"Hello","calls":[]}',
        '{"mode":"refusal","text":"Not available","calls":[]}',
        '{"text": "Done.", "calls": [{"name": "deploy", "args": {}}]}',  # no offered tool of that name
        '{"role": "user", "text": "Call it.", "calls": [{"name": "lookup", "args": {}}]}',  # not the model's message
        '{"text": "x", "content": "y", "calls": [{"name": "lookup", "args": {}}]}',  # two texts: which is the reply?
        '{"assistant_message": "Hello", "tool_calls": []}',  # ContinueHFBridge's envelope with no call
        '{"message": "x", "content": "y", "tool_calls": [{"name": "lookup", "arguments": {}}]}',
        '{"assistant_message": "Sure.", "tool_calls": [{"name": "deploy", "arguments": {}}]}',
        'The envelope is `{"text": "Hi", "calls": [{"name": "lookup", "args": {}}]}` in message mode.',
    ],
)
def test_a_message_with_no_call_of_an_offered_tool_stays_text(text: str) -> None:
    result = parse_everywhere(text, TOOLS)
    assert (result["calls"], result["errors"], result["text"]) == ([], [], text)
