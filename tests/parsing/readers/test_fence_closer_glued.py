"""A ```` ```json ```` fence folded onto one line with its closer glued to the value (```` ```json{…}``` ````:
jarvis' Markdown log format, agent-bench's tests): the closer is the fence's, so the value is read as any fenced
call is. Outside a fence, a value glued to a backtick is inline code and stays text."""

from __future__ import annotations

from typing import Any

import pytest

from tests.parsing.readers.cases import Real, check, tool

_BENCH = "agent-bench tool-parser tests (jarvis Markdown)"
_TOOLS = [tool("open_app", app_name="string"), tool("get_weather", city="string"), tool("noop")]


@pytest.mark.parametrize(
    ("text", "calls", "visible"),
    [
        (
            '```json{"name": "open_app", "arguments": {"app_name": "Weather"}}```',
            [("open_app", {"app_name": "Weather"})],
            "",
        ),
        (  # the opener on its own line, the closer glued; prose around
            'Sure.\n```json\n{"tool": "get_weather", "arguments": {"city": "Köln"}}```\nDone.',
            [("get_weather", {"city": "Köln"})],
            "Sure. Done.",
        ),
        (  # two one-line fences with a word between
            '```json{"name": "noop", "arguments": {}}```then```json {"name": "open_app", "arguments": {}}```',
            [("noop", {}), ("open_app", {})],
            "then",
        ),
    ],
)
def test_a_fence_closed_right_after_the_value_holds_a_call(
    text: str, calls: list[tuple[str, dict[str, Any]]], visible: str
) -> None:
    check(Real(_BENCH, text, calls, visible=visible, tools=_TOOLS))


@pytest.mark.parametrize(
    "text",
    [
        'Use `{"name": "open_app", "arguments": {}}` to open an app.',  # inline code
        'See ```json{"name": "delete_all", "arguments": {}}``` for the shape.',  # a tool not offered
        '```json{"name": "open_app", "arguments": {}}``\nstill code',  # two backticks close nothing
    ],
)
def test_a_value_glued_to_backticks_outside_a_fence_stays_text(text: str) -> None:
    check(Real("written", text, [], visible=text, tools=_TOOLS))
