"""`StreamParser.state` is the parser's `TagState`, moved by every family's reader through the context.

Each family of the real corpus (one output each) is fed one character at a time, with every assignment of the
state recorded: the walk starts and ends in text, makes only the machine's moves (outside -> opener seen ->
inside a body -> body done -> outside, or back to text from an opener that was prose), and ``state`` reports
where the walk is after every feed. A block that turns out to be prose goes back to text without a body.
"""

from __future__ import annotations

import itertools

import pytest

from shim.bench.corpus import Case
from shim.bench.real import NEGATIVE, load_hunts, load_real
from shim.events import ToolCallEnd
from shim.parsing.stream import StreamParser
from shim.parsing.tags import TagState

_HUNTS = load_hunts()
# One output per family that the parser reads: a hunt's case counts if its first look read it (a case that a
# hunt found unread, and that stays a listed failure, would test the failure, not the state machine).
_ONE_PER_FAMILY = {
    c.category: c
    for c in load_real()
    if c.calls and c.category != NEGATIVE and _HUNTS.get(c.id, {}).get("first_look", {}).get("exact_calls", True)
}

_MOVES = {
    (TagState.NONE, TagState.START),  # an opener was seen
    (TagState.START, TagState.INSIDE),  # its body began
    (TagState.START, TagState.NONE),  # the opener was prose after all
    (TagState.INSIDE, TagState.END),  # a call ended or failed
    (TagState.INSIDE, TagState.NONE),  # a reasoning body closed, or a candidate body was text
    (TagState.END, TagState.INSIDE),  # the next call of the same block
    (TagState.END, TagState.NONE),  # the block is over
}
"""Every move of the machine; anything else (text straight into a body, an opener straight to a finished
body, a finished body straight to a new opener) would mean a reader skipped a step."""


class _Traced(StreamParser):
    """The real parser, with every assignment of its state recorded (not only what a feed leaves behind)."""

    @property
    def _state(self) -> TagState:  # pyright: ignore[reportIncompatibleVariableOverride]
        return self.__dict__["_traced"]

    @_state.setter
    def _state(self, value: TagState) -> None:  # pyright: ignore[reportIncompatibleVariableOverride]
        trace: list[TagState] = self.__dict__.setdefault("trace", [])
        if not trace or trace[-1] is not value:
            trace.append(value)
        self.__dict__["_traced"] = value


@pytest.mark.parametrize("case", list(_ONE_PER_FAMILY.values()), ids=lambda c: c.category)
def test_every_family_moves_the_tag_state_outside_opener_inside_done_outside(case: Case) -> None:
    parser = _Traced(list(case.tools) if case.tools else None)
    assert parser.state is TagState.NONE
    calls = 0
    for char in case.text:
        for event in parser.feed(char):
            if isinstance(event, ToolCallEnd):
                calls += 1
        trace: list[TagState] = parser.__dict__["trace"]
        assert parser.state is trace[-1]  # `StreamParser.state` reports where the machine is
    calls += sum(isinstance(e, ToolCallEnd) for e in parser.close())
    trace = parser.__dict__["trace"]
    assert parser.state is TagState.NONE and trace[0] is TagState.NONE and trace[-1] is TagState.NONE
    assert calls == len(case.calls)
    moves = set(itertools.pairwise(trace))
    assert moves <= _MOVES, f"moves outside the machine: {moves - _MOVES}"
    assert trace.count(TagState.END) >= 1  # each call's body was reported done
    first = trace.index(TagState.END)
    assert trace[:first].count(TagState.START) >= 1 and TagState.INSIDE in trace[:first]


@pytest.mark.parametrize(
    "text",
    [
        '<tool_call>{"name": "f", "arguments": {}}</tool_call>',  # closed
        '<tool_call>{"name": "f", "arguments": {}',  # cut off: the body fails at close()
        "<tool_call>\n<function=f>\n<parameter=x>1",  # a value left open at the end
        '<think>plan <tool_call>{"name": "f", "arguments": {}}',  # a call in a think block never closed
    ],
)
def test_a_block_finished_by_close_ends_in_its_own_state_then_outside(text: str) -> None:
    parser = _Traced(["f"])
    parser.feed(text)
    parser.close()
    trace: list[TagState] = parser.__dict__["trace"]
    assert set(itertools.pairwise(trace)) <= _MOVES
    assert TagState.END in trace and trace[-1] is TagState.NONE


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
