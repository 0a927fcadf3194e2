"""GLM's pairs with the tool's name written before ``<tool_call>`` (`shim.parsing.readers.glm`, Finabot's tests:
``market_analyst<tool_call><arg_key>…``), or inside it as ``<function>NAME</function>``, at every split point; a
name of no offered tool, a name mid-sentence or no pairs after the tag stay text."""

from __future__ import annotations

from typing import Any

import pytest

from tests.parsing.chunking import parse_everywhere
from tests.parsing.readers.cases import Real, check

FINABOT = "huangyj-a/Finabot:tests/test_tool_call_parser.py@cc1880da"
TOOLS = ["market_analyst", "news_analyst", "get_weather", "run-command"]


@pytest.mark.parametrize(
    ("text", "calls", "visible"),
    [
        (
            "market_analyst<tool_call><arg_key>expression</arg_key><arg_value>贵州茅台</arg_value></tool_call>",
            [("market_analyst", {"expression": "贵州茅台"})],
            "",
        ),
        (
            "get_weather <tool_call>\n<arg_key>city</arg_key>\n<arg_value>Lisboa</arg_value>\n<arg_key>unit</arg_key>"
            "\n<arg_value>celsius</arg_value>\n</tool_call>",
            [("get_weather", {"city": "Lisboa", "unit": "celsius"})],
            "",
        ),
        (
            "market_analyst<tool_call><arg_key>expression</arg_key><arg_value>茅台</arg_value></tool_call>"
            "news_analyst<tool_call><arg_key>expression</arg_key><arg_value>平安</arg_value></tool_call>",
            [("market_analyst", {"expression": "茅台"}), ("news_analyst", {"expression": "平安"})],
            "",
        ),
        (
            "Checking both.\nget_weather<tool_call><arg_key>city</arg_key><arg_value>Oslo</arg_value></tool_call>\n"
            "run_command<tool_call><arg_key>cmd</arg_key><arg_value>ls</arg_value></tool_call>\nDone.",
            [("get_weather", {"city": "Oslo"}), ("run-command", {"cmd": "ls"})],
            "Checking both. Done.",
        ),
        (
            "<tool_call><function>news_analyst</function><arg_key>expression</arg_key><arg_value>新闻</arg_value>"
            "</tool_call>",
            [("news_analyst", {"expression": "新闻"})],
            "",
        ),
        (
            "Voy.\n<tool_call>\n<function>get_weather</function>\n<arg_key>city</arg_key>\n<arg_value>Quito"
            "</arg_value>\n</tool_call>",
            [("get_weather", {"city": "Quito"})],
            "Voy.",
        ),
    ],
)
def test_the_name_before_the_tag_names_the_call(
    text: str, calls: list[tuple[str, dict[str, Any]]], visible: str
) -> None:
    check(Real(f"written after {FINABOT}", text, calls, visible=visible, tools=TOOLS))


@pytest.mark.parametrize(
    "text",
    [
        "unknown_tool<tool_call><arg_key>k</arg_key><arg_value>v</arg_value></tool_call>",
        "I would call market_analyst<tool_call><arg_key>expression</arg_key><arg_value>x</arg_value></tool_call> now.",
        "market_analyst<tool_call> is the tag to use.",
        "market_analyst <tool_call> then pairs",
        "```xml\nmarket_analyst<tool_call><arg_key>expression</arg_key><arg_value>x</arg_value></tool_call>\n```",
    ],
)
def test_no_offered_name_before_the_pairs_stays_text(text: str) -> None:
    result = parse_everywhere(text, TOOLS, every_split=True, seeds=4)
    assert result["calls"] == [] and result["errors"] == [] and result["text"] == text
