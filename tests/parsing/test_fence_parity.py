"""The closing fence of a Markdown fence no row claimed (```` ```text ````, ```` ```src/main.py ````, a bare fence of
prose) is that fence's closer, never a row's fenced opener (gptme's fenced example, a fenced call list): the call on
the line after it is read as it would be after any text (`StreamParser._closes_fence`). Each is read at every split
point."""

from __future__ import annotations

import pytest

from tests.parsing.readers.cases import Real, check, tool

TOOLS = [tool("shell", command="string"), tool("get_weather", city="string")]
FENCES = {
    "text": "```text\nhello world\n```",
    "path": "```src/main.py\nprint(1)\n```",
    "bare": "```\nprint(1)\n```",
    "tilde": "~~~\nplain\n~~~",
    "indented": "  ```\n  x = 1\n  ```",
}
CALLS = {
    "at_call": ('@shell(call_1): {"command": "ls"}', ("shell", {"command": "ls"})),
    "pythonic": ('[get_weather(city="Paris")]', ("get_weather", {"city": "Paris"})),
    "name_first": ('get_weather {"city": "Paris"}', ("get_weather", {"city": "Paris"})),
    "bare_json": ('{"name": "get_weather", "arguments": {"city": "Paris"}}', ("get_weather", {"city": "Paris"})),
}


@pytest.mark.parametrize("call", sorted(CALLS))
@pytest.mark.parametrize("fence", sorted(FENCES))
def test_a_call_on_the_line_after_a_closed_fence_of_prose_is_a_call(fence: str, call: str) -> None:
    written, expected = CALLS[call]
    text = f"The file:\n{FENCES[fence]}\n{written}"
    check(
        Real(
            f"written: {fence} fence, then {call}",
            text,
            [expected],
            visible=f"The file:\n{FENCES[fence]}\n",
            tools=TOOLS,
        )
    )


@pytest.mark.parametrize(
    "text",
    [
        # a fence of prose, closed, then gptme's fenced example: its fence is an opener again, the example text
        'Done:\n```text\nok\n```\n\nFor reference:\n```\n@shell(call_1): {"command": "ls"}\n```',
        # two fences of prose, then a fenced example
        'A:\n```\na\n```\nB:\n```text\nb\n```\n```\n@shell(call_1): {"command": "ls"}\n```',
        # after the closed fence, a name and its object inside a sentence: a mention
        'Output:\n```text\nok\n```\nThen I would run get_weather {"city": "Paris"} again.',
        # a closed fence of prose presenting the form, then the same form presented again
        'The format:\n```\nexample\n```\nFor example:\n[get_weather(city="Paris")]',
    ],
)
def test_a_fenced_example_after_fences_of_prose_stays_text(text: str) -> None:
    check(Real("written: fences of prose around an example", text, [], visible=text, tools=TOOLS))
