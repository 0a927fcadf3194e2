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
