"""VCPToolBox's ``<<<[TOOL_REQUEST]>>>`` blocks of ``key:「始」value「末」`` pairs (`shim.parsing.readers.vcp`), at every
split point (so the markers and the ``「始」``/``「末」`` delimiters are seen split in every place)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.parsing.readers.cases import Real, check, tool

TOOLS = [tool("SciCalculator", expression="string", precision="integer"), tool("FileReader", path="string")]


@pytest.mark.parametrize(
    ("text", "calls", "visible"),
    [
        (
            "<<<[TOOL_REQUEST]>>>\ntool_name:「始」SciCalculator「末」,\nexpression:「始」2+2「末」\n<<<[END_TOOL_REQUEST]>>>",
            [("SciCalculator", {"expression": "2+2"})],
            "",
        ),
        (
            "好的。<<<[TOOL_REQUEST]>>>\ntool_name:『始』FileReader『末』,\npath:『始』/tmp/a, b.txt『末』\n"
            "<<<[END_TOOL_REQUEST]>>>\n读取完毕。",
            [("FileReader", {"path": "/tmp/a, b.txt"})],
            "好的。\n读取完毕。",
        ),
        (
            "Let me compute.\n<<<[TOOL_REQUEST]>>>\n  tool_name: 「始」SciCalculator「末」,\n"
            "  expression: 「始」integral('x^2',\n 0, 1)「末」,\n  precision: 「始」4「末」,\n<<<[END_TOOL_REQUEST]>>>",
            [("SciCalculator", {"expression": "integral('x^2',\n 0, 1)", "precision": 4})],
            "Let me compute.",
        ),
        (
            "<<<[TOOL_REQUEST]>>>\ntool_name:「始」FileReader「末」,\npath:「始」a.md「末」\n<<<[END_TOOL_REQUEST]>>>"
            "<<<[TOOL_REQUEST]>>>\ntool_name:「始」FileReader「末」,\npath:「始」b.md「末」\n<<<[END_TOOL_REQUEST]>>>",
            [("FileReader", {"path": "a.md"}), ("FileReader", {"path": "b.md"})],
            "",
        ),
        (  # a full-width colon after the key
            "<<<[TOOL_REQUEST]>>>\ntool_name\uff1a「始」FileReader「末」,\npath\uff1a「始」c.md「末」\n<<<[END_TOOL_REQUEST]>>>",
            [("FileReader", {"path": "c.md"})],
            "",
        ),
        (  # the closer left out where the output ends (a stop sequence)
            "<<<[TOOL_REQUEST]>>>\ntool_name:「始」SciCalculator「末」,\nexpression:「始」2+2「末」\n",
            [("SciCalculator", {"expression": "2+2"})],
            "",
        ),
    ],
)
def test_a_tool_request_block_of_corner_bracket_pairs_is_a_call(
    text: str, calls: list[tuple[str, dict[str, Any]]], visible: str
) -> None:
    check(Real("written", text, calls, visible=visible, tools=TOOLS))


@pytest.mark.parametrize(
    "text",
    [
        "VCP opens a request with <<<[TOOL_REQUEST]>>> and closes it with <<<[END_TOOL_REQUEST]>>>.",
        "<<<[TOOL_REQUEST]>>>\nexpression:「始」2+2「末」\n<<<[END_TOOL_REQUEST]>>>",  # no tool_name
        "<<<[TOOL_REQUEST]>>>\ntool_name: SciCalculator\nexpression: 2+2\n<<<[END_TOOL_REQUEST]>>>",  # no delimiters
        "<<<[TOOL_REQUEST]>>>\ntool_name:「始」SciCalculator「末」,\nthen compute it\n<<<[END_TOOL_REQUEST]>>>",
    ],
)
def test_markers_without_a_block_of_pairs_stay_text(text: str) -> None:
    check(Real("written", text, [], visible=text, tools=TOOLS))
