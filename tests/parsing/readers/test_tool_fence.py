"""Continue's tool fences (`shim.parsing.readers.tool_fence`): a CallSyntax read by the derived reader."""

from __future__ import annotations

import pytest

from tests.parsing.readers.cases import Real, check, tool

TOOLS = [tool("read_file", filepath="string"), tool("get_weather", city="string", days="integer")]


@pytest.mark.parametrize(
    ("text", "calls", "visible"),
    [
        (
            "```tool\nTOOL_NAME: read_file\nBEGIN_ARG: filepath\nsrc/main.py\nEND_ARG\n```",
            [("read_file", {"filepath": "src/main.py"})],
            "",
        ),
        (
            "I'll check.\n\n```tool\nTOOL_NAME: get_weather\nBEGIN_ARG: city\nParis\nEND_ARG\nBEGIN_ARG: days\n3\nEND_ARG\n```",
            [("get_weather", {"city": "Paris", "days": 3})],
            "I'll check.",
        ),
        (
            "```tool\nTOOL_NAME: read_file\nBEGIN_ARG: filepath\na.py\nEND_ARG\n```\n```tool\nTOOL_NAME: read_file\n"
            "BEGIN_ARG: filepath\nb.py\nEND_ARG\n```",
            [("read_file", {"filepath": "a.py"}), ("read_file", {"filepath": "b.py"})],
            "",
        ),
        (
            "```tool\nTOOL_NAME: read_file\nBEGIN_ARG: filepath\nsrc/main.py\n",
            [("read_file", {"filepath": "src/main.py"})],
            "",
        ),
    ],
)
def test_a_tool_fence_is_read_as_its_calls(text: str, calls: list, visible: str) -> None:
    check(Real("written: Continue's system-message tools", text, calls, visible=visible, tools=TOOLS))


def test_a_tool_fence_without_a_tool_name_stays_text() -> None:
    text = "```tool\nsome output\n```"
    check(Real("written", text, [], visible=text, tools=TOOLS))


@pytest.mark.parametrize(
    ("text", "calls", "visible"),
    [
        (  # continuedev/continue's "processes tool_name without codeblock format" (benchmarks/real/tool_fence)
            "I'll help you with that.\nTOOL_NAME: read_file\nBEGIN_ARG: filepath\nsrc/main.py\nEND_ARG\n",
            [("read_file", {"filepath": "src/main.py"})],
            "I'll help you with that.",
        ),
        (
            "TOOL_NAME: get_weather\nBEGIN_ARG: city\nParis\nEND_ARG\nBEGIN_ARG: days\n3\nEND_ARG",
            [("get_weather", {"city": "Paris", "days": 3})],
            "",
        ),
        (
            "Checking.\n\n  TOOL_NAME: read_file\r\nBEGIN_ARG: filepath\nsrc/a.py\n",
            [("read_file", {"filepath": "src/a.py"})],
            "Checking.",
        ),
    ],
)
def test_a_tool_name_line_without_its_fence_is_the_same_call_for_an_offered_tool(
    text: str, calls: list, visible: str
) -> None:
    check(Real("written: Continue accepts the form without its fence", text, calls, visible=visible, tools=TOOLS))


@pytest.mark.parametrize(
    "text",
    [
        "TOOL_NAME: delete_file\nBEGIN_ARG: filepath\na.py\nEND_ARG\n",  # not an offered tool
        "Write the call as TOOL_NAME: read_file on its own line.",  # not at a line's start
        "For example:\nTOOL_NAME: read_file\nBEGIN_ARG: filepath\na.py\nEND_ARG\n",  # presented as an example
        "```text\nTOOL_NAME: read_file\nBEGIN_ARG: filepath\na.py\nEND_ARG\n```",  # quoted in a plain-text fence
    ],
)
def test_a_tool_name_line_that_is_not_a_call_stays_text(text: str) -> None:
    check(Real("written", text, [], visible=text, tools=TOOLS))


@pytest.mark.parametrize(
    ("text", "calls", "visible"),
    [
        # A line after the name that is no offered tool's name is text, not a second call named by it.
        ("Checking.\nTOOL_NAME: read_file\nDone.", [("read_file", {})], "Checking.\nDone."),
        (
            "TOOL_NAME: read_file\nBEGIN_ARG: filepath\na.py\nEND_ARG\nThat is the file.",
            [("read_file", {"filepath": "a.py"})],
            "\nThat is the file.",
        ),
    ],
)
def test_after_an_unfenced_call_only_an_offered_tools_name_opens_another(text: str, calls: list, visible: str) -> None:
    tools = [tool("read_file", filepath="string"), tool("get_weather", city="string")]
    check(Real("written", text, calls, visible=visible, tools=tools))
