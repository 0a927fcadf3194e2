"""A Python-style call list's tail opening the message, its opener cut off (`shim.parsing.readers.pythonic_calls`):
``Read(path='x')]<|tool_call_end|>``, as llama-server's parse error quotes LFM2.5's output from inside the list
(little-coder issue 42). The ``]`` is markup only right before the list's closing token."""

from __future__ import annotations

import pytest

from tests.parsing.readers.cases import Real, check, tool

TOOLS = [tool("Read", path="string"), tool("get_weather", city="string")]


@pytest.mark.parametrize(
    ("text", "calls"),
    [
        ("Read(path='/home/user/foo.c')]<|tool_call_end|><|im_end|>", [("Read", {"path": "/home/user/foo.c"})]),
        ("Read(path='a.c')]<|tool_call_end|>", [("Read", {"path": "a.c"})]),
        ('get_weather(city="Oslo") ]<|tool_call_end|>\n', [("get_weather", {"city": "Oslo"})]),
        (
            "Read(path='a.c'), get_weather(city='Oslo')]<|tool_call_end|>",
            [("Read", {"path": "a.c"}), ("get_weather", {"city": "Oslo"})],
        ),
    ],
)
def test_a_call_lists_tail_opening_the_message_before_its_closing_token_is_a_call(
    text: str, calls: list[tuple[str, dict[str, str]]]
) -> None:
    check(
        Real(
            "written: LFM2 call list, its opener cut off", text, calls, visible=text[len(text.rstrip()) :], tools=TOOLS
        )
    )


@pytest.mark.parametrize(
    ("text", "visible"),
    [
        ("Read(path='a.c')]", "Read(path='a.c')]"),  # no closing token after the bracket
        ("Read(path='a.c')] and then the rest", "Read(path='a.c')] and then the rest"),
        # something between the bracket and the token (the stray token itself is markup, as anywhere)
        ("Read(path='a.c')]x<|tool_call_end|>", "Read(path='a.c')]x"),
        ("I will read it.\nRead(path='a.c')]<|tool_call_end|>", "I will read it.\nRead(path='a.c')]"),  # not opening
    ],
)
def test_a_bracket_after_a_bare_call_not_opening_the_message_or_before_no_closing_token_stays_text(
    text: str, visible: str
) -> None:
    check(Real("written", text, [], visible=visible, tools=TOOLS))
