"""A harness's decision object around its calls (`shim.parsing.shapes`): the model's notes on why and how sure it is
beside a call or a list of calls (``reasoning_summary``, ``reason``, ``confidence``), arguments under a declaration's
``input_schema`` key, a flat call whose declared parameters include an arguments key's word (``{"tool", "action",
"args"}``), and a call named under ``tool_call_name`` with its ``tool_call_arguments``; at every split point, with
texts that must stay text (a final answer beside the calls, a tool that is not offered, a declaration echoed, a
sentence or an inline-code example)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.parsing.chunking import parse_everywhere
from tests.parsing.readers.cases import tool

_TOOLS = [
    tool("calc", expression="string"),
    tool("get_weather", city="string"),
    tool("lookup", q="string"),
    tool("file", operation="string", path="string", content="string"),
    tool("service", action="string", args="object"),
    tool("git", action="string", params="object"),
    tool("refund", amount="integer"),
]


_CALLS: list[tuple[str, list[tuple[str, dict[str, Any]]]]] = [
    # minimal-agent-runtime's decision: its kind, a reasoning summary, the list of calls, no answer
    (
        '{"type": "tool_call", "reasoning_summary": "需要进行计算。", "tool_calls": [{"id": "call_1", "name": "calc", '
        '"arguments": {"expression": "12 * (3 + 2)"}}]}',
        [("calc", {"expression": "12 * (3 + 2)"})],
    ),
    (
        '{"thought": "the weather first", "tool_calls": [{"name": "get_weather", "arguments": {"city": "Oslo"}}], '
        '"answer": null}',
        [("get_weather", {"city": "Oslo"})],
    ),
    (
        '```json\n{"reason": "two lookups", "confidence": 0.8, "calls": [{"name": "calc", "arguments": '
        '{"expression": "2"}}, {"name": "lookup", "arguments": {"q": "x"}}]}\n```',
        [("calc", {"expression": "2"}), ("lookup", {"q": "x"})],
    ),
    # wechat-AIagent's call with the model's confidence and reason beside its arguments
    (
        '{"tool":"lookup","arguments":{"q":"veneers"},"confidence":0.92,"reason":"match"}',
        [("lookup", {"q": "veneers"})],
    ),
    (
        '{"name": "get_weather", "parameters": {"city": "Lima"}, "reason": "asked"}',
        [("get_weather", {"city": "Lima"})],
    ),
    # agent_tools' calls: the values under the declaration's own `input_schema` key, after a sentinel or fenced
    (
        'Tool Call: {"tool": "file", "input_schema": {"operation": "write", "path": "a.txt"}}',
        [("file", {"operation": "write", "path": "a.txt"})],
    ),
    (
        'TOOL_CALL: ```json\n{"tool":"file","input_schema":{"operation":"read","path":"数据.txt"}}\n```',
        [("file", {"operation": "read", "path": "数据.txt"})],
    ),
    (
        '```\n{"tool": "file", "input_schema": {"operation": "write", "path": "d.txt", "content": "ok"}}\n```',
        [("file", {"operation": "write", "path": "d.txt", "content": "ok"})],
    ),
    # ubuntu-ai-agent's {tool, action, args}: the tool declares `action` and `args`, the call is as written
    (
        '```tool\n{"tool":"service","action":"status","args":{"name":"docker"}}\n```',
        [("service", {"action": "status", "args": {"name": "docker"}})],
    ),
    ('{"tool": "service", "action": "restart", "args": {}}', [("service", {"action": "restart", "args": {}})]),
    (
        '```json\n{"name": "git", "action": "commit", "params": {"message": "fix"}}\n```',
        [("git", {"action": "commit", "params": {"message": "fix"}})],
    ),
    # duma's flat object with prefixed name and arguments keys
    ('{"tool_call_name":"refund","tool_call_arguments":{"amount":5}}', [("refund", {"amount": 5})]),
    (
        '```json\n{"tool_call_name": "get_weather", "tool_call_arguments": {"city": "Roma"}}\n```',
        [("get_weather", {"city": "Roma"})],
    ),
]


@pytest.mark.parametrize(("text", "calls"), _CALLS)
def test_a_decision_s_call_is_read_past_its_notes(text: str, calls: list[tuple[str, dict[str, Any]]]) -> None:
    result = parse_everywhere(text, _TOOLS, every_split=len(text) < 160, seeds=6)
    assert [(c["name"], c["arguments"]) for c in result["calls"]] == calls
    assert result["text"] == ""
    assert result["errors"] == []


@pytest.mark.parametrize(
    "text",
    [
        # a final answer beside the calls, or no calls: the reply's text, not a call list
        '{"type": "final", "reasoning_summary": "done", "tool_calls": [], "answer": "42"}',
        '{"reasoning": "x", "tool_calls": [{"name": "calc", "arguments": {"expression": "1"}}], "answer": "Here it is"}',
        '{"tool": "lookup", "arguments": {"q": "x"}, "confidence": 0.9, "answer": "it is x"}',
        # a tool that is not offered
        '{"reasoning_summary": "x", "tool_calls": [{"name": "delete_all", "arguments": {}}]}',
        '{"tool": "delete_all", "arguments": {}, "confidence": 0.9, "reason": "fits"}',
        '{"tool_call_name":"drop_db","tool_call_arguments":{}}',
        # `action` beside arguments where the tool does not declare it
        '{"tool": "lookup", "action": "x", "args": {"q": "y"}}',
        # a tool's declaration echoed, its schema under `input_schema`
        '{"name": "file", "description": "File ops", "input_schema": {"type": "object", "properties": '
        '{"path": {"type": "string"}}}}',
        # sentences and an inline-code example
        "The decision has a `reasoning_summary`, a `confidence` and a `tool_calls` list.",
        'Example: `{"reasoning_summary": "why", "tool_calls": [{"name": "calc", "arguments": {"expression": "1"}}]}`.',
        "Set tool_call_name to the tool and tool_call_arguments to its arguments.",
    ],
)
def test_what_only_looks_like_a_decision_stays_text(text: str) -> None:
    result = parse_everywhere(text, _TOOLS, every_split=len(text) < 160, seeds=6)
    assert result["calls"] == []
    assert result["text"] == text
