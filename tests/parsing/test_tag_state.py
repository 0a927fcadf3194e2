"""`StreamParser.state` is the parser's `TagState`, moved by every family's reader through the context.

Each family of the real corpus is fed one character at a time: the state starts in text, passes through an
opener and a body for every call, never reports a finished body before one began, and is back in text after
``close()``. A block that turns out to be prose goes back to text without ever being inside a body.
"""

from __future__ import annotations

import pytest

from shim.bench.corpus import Case
from shim.bench.real import NEGATIVE, load_real
from shim.events import ToolCallEnd
from shim.parsing.stream import StreamParser
from shim.parsing.tags import TagState

_ONE_PER_FAMILY = {c.category: c for c in load_real() if c.calls and c.category != NEGATIVE}


@pytest.mark.parametrize("case", list(_ONE_PER_FAMILY.values()), ids=lambda c: c.category)
def test_every_family_moves_the_tag_state_through_opener_body_and_end(case: Case) -> None:
    parser = StreamParser(list(case.tools) if case.tools else None)
    assert parser.state is TagState.NONE
    seen: list[TagState] = []
    calls = 0
    for char in case.text:
        events = parser.feed(char)
        calls += sum(isinstance(e, ToolCallEnd) for e in events)
        if not seen or seen[-1] is not parser.state:
            seen.append(parser.state)
    calls += sum(isinstance(e, ToolCallEnd) for e in parser.close())
    assert parser.state is TagState.NONE
    assert calls == len(case.calls)
    assert TagState.INSIDE in seen or TagState.END in seen  # a body was read
    first_end = seen.index(TagState.END) if TagState.END in seen else len(seen)
    assert TagState.INSIDE in seen[:first_end] or TagState.START in seen[:first_end]


def test_a_tag_mentioned_in_prose_returns_to_text_without_a_body() -> None:
    parser = StreamParser(["get_weather"])
    states = []
    for char in "Wrap calls in <tool_call> tags, like this.":
        parser.feed(char)
        states.append(parser.state)
    parser.close()
    assert TagState.INSIDE not in states and TagState.END not in states
    assert parser.state is TagState.NONE


def test_a_call_reports_opener_inside_and_end_in_order() -> None:
    parser = StreamParser(["f"])
    states = []
    for char in '<tool_call>{"name": "f", "arguments": {"x": 1}}</tool_call> ok':
        parser.feed(char)
        if not states or states[-1] is not parser.state:
            states.append(parser.state)
    parser.close()
    assert states[:4] == [TagState.NONE, TagState.START, TagState.INSIDE, TagState.END]
    assert states[-1] is TagState.NONE


def test_a_stream_that_starts_inside_reasoning_starts_inside_a_body() -> None:
    parser = StreamParser(in_reasoning=True)
    assert parser.state is TagState.INSIDE
    parser.feed("plan</think>answer")
    assert parser.state is TagState.NONE
