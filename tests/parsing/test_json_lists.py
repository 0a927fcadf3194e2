"""JSON call lists behind a family's marker: Granite ``<|tool_call|>[…]``, Phi-4-mini ``functools[…]``, xLAM.

Outputs quoted from vllm-project/vllm `tests/tool_parsers` (granite, phi4mini, xlam tests; as collected in
benchmarks/real/granite, phi4, xlam).
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.parsing.chunking import parse_everywhere

REAL: list[tuple[str, list[str], list[tuple[str, dict[str, Any]]], str]] = [
    (
        '<|tool_call|> [{"arguments": {"city": "Tokyo"}, "name": "get_weather"}, '
        '{"arguments": {"timezone": "Asia/Tokyo"}, "name": "get_time"}]',
        ["get_weather", "get_time"],
        [("get_weather", {"city": "Tokyo"}), ("get_time", {"timezone": "Asia/Tokyo"})],
        "",
    ),
    (
        'Let me check the weather for you.\n<|tool_call|> [{"name": "get_weather", "arguments": {"city": "Tokyo"}}]\n'
        "I'll get that information.",
        ["get_weather"],
        [("get_weather", {"city": "Tokyo"})],
        "Let me check the weather for you.\n\nI'll get that information.",
    ),
    (
        'functools[\n  {"name": "get_weather", "arguments": {"city": "Tokyo"}},\n'
        '  {"name": "get_time", "arguments": {"timezone": "Asia/Tokyo"}}\n]',
        ["get_weather", "get_time"],
        [("get_weather", {"city": "Tokyo"}), ("get_time", {"timezone": "Asia/Tokyo"})],
        "",
    ),
    (
        'Let me check the weather for you.\nfunctools[{"name": "get_weather", "arguments": {"city": "Tokyo"}}]\n'
        "Would you like to know more?",
        ["get_weather"],
        [("get_weather", {"city": "Tokyo"})],
        "Let me check the weather for you.\nWould you like to know more?",
    ),
    (
        '<think>I\'ll help you with that.</think>[{"name": "get_current_weather", "arguments": {"city": "Dallas", '
        '"state": "TX", "unit": "fahrenheit"}}]',
        ["get_current_weather"],
        [("get_current_weather", {"city": "Dallas", "state": "TX", "unit": "fahrenheit"})],
        "",
    ),
]


@pytest.mark.parametrize(("text", "tools", "calls", "visible"), REAL)
def test_json_call_lists_behind_family_markers_are_read_at_every_split_point(
    text: str, tools: list[str], calls: list[tuple[str, dict[str, Any]]], visible: str
) -> None:
    result = parse_everywhere(text, tools)
    assert [(c["name"], c["arguments"]) for c in result["calls"]] == calls
    assert result["text"] == visible
    assert result["errors"] == []


def test_functools_naming_no_offered_tool_stays_text() -> None:
    text = 'functools[{"name": "reduce", "arguments": {}}] and functools[0]'
    result = parse_everywhere(text, ["get_weather"])
    assert result["calls"] == [] and result["errors"] == [] and result["text"] == text


def test_after_visible_text_a_list_following_reasoning_is_a_call_like_any_json_call_in_a_message() -> None:
    # Bare JSON calls count anywhere in a message (vLLM's Llama 3 JSON tests: "Here is the result: {…} Would
    # you like to know more?"), so a list after reasoning and visible text is one too.
    text = 'Sure. <think>x</think>[{"name": "get_weather", "arguments": {}}]'
    result = parse_everywhere(text, ["get_weather"])
    assert [c["name"] for c in result["calls"]] == ["get_weather"]


_WEATHER = [{"name": "get_weather", "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}}}}]


@pytest.mark.parametrize(
    "text",
    [
        "[[ ## tool_calls ## ]]\n[{'name': 'get_weather', 'args': {'city': 'Paris'}]",  # DSPy's field (c4_dspy_…)
        '[{"name": "get_weather", "arguments": {"city": "Paris"}]',
        '<tool_call>[{"name": "get_weather", "arguments": {"city": "Paris"}]</tool_call>',
        '<|tool_call|>[{"name": "get_weather", "arguments": {"city": "Paris"}]',
        '<tool_call>{"name": "get_weather", "arguments": {"city": "Paris"}, "id": ["a", "b"}</tool_call>',
    ],
)
def test_a_call_list_closed_over_an_object_missing_its_brace_is_read_at_every_split_point(text: str) -> None:
    """A `]` (or `}`) that skips an open bracket closes it too when every value in it is whole."""
    result = parse_everywhere(text, _WEATHER, seeds=5)
    assert [(c["name"], c["arguments"]) for c in result["calls"]] == [("get_weather", {"city": "Paris"})]
    assert result["text"] == ""


@pytest.mark.parametrize(
    "text",
    [
        '[{"name": "get_weather", "arguments": {"city": ]',  # a value missing: never repaired into a call
        "A list such as [{'name': 'weather', 'args': {'city': 'Paris'}] names no offered tool.",
        "```python\n[{'name': 'get_weather', 'args': {'city': 'Paris'}]\n```",  # quoted in a program's fence
    ],
)
def test_a_mismatched_closer_that_makes_no_call_of_an_offered_tool_stays_text(text: str) -> None:
    result = parse_everywhere(text, _WEATHER, seeds=5)
    assert result["calls"] == [] and result["text"] == text


_RUN = '[{"name": "run", "arguments": {"c": "ls"}}]'
_DONE = '[{"name": "done", "arguments": {}}]'


@pytest.mark.parametrize(
    "text",
    [
        f"{_RUN}, {_DONE}",  # Mistral 7B in local-sub-agents' logs: each step's list joined by commas
        f" {_RUN},{_DONE}",
        f"{_RUN},\n{_DONE}",
        f'{_RUN}, [ {{"name": "done", "arguments": {{}}}}]',
    ],
)
def test_lists_of_calls_joined_by_commas_are_each_read_and_the_commas_are_markup(text: str) -> None:
    result = parse_everywhere(text, ["run", "done"])
    assert [(c["name"], c["arguments"]) for c in result["calls"]] == [("run", {"c": "ls"}), ("done", {})]
    assert result["text"].strip() == ""


@pytest.mark.parametrize("tail", [", [1, 2]", ", and [x]", ", then more"])
def test_a_comma_after_a_list_of_calls_not_followed_by_another_stays_text(tail: str) -> None:
    result = parse_everywhere(_RUN + tail, ["run", "done"])
    assert [c["name"] for c in result["calls"]] == ["run"]
    assert result["text"] == tail
