"""Two damages of Llama's ``<function=NAME>{…}`` (llm-gateway's toolcall tests), read by
`shim.parsing.readers.qwen_xml`, at every split point: an opener left empty right before another call
(``<function=a> <function=b>{…}``: only ``b`` is a call, the empty opener its markup), and the JSON body closed by a
tag named for the tool (``<function=foo>{…}</foo>``)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.parsing.readers.cases import Real, check, tool

SOURCE = "AaronRZH/llm-gateway:internal/toolcall/toolcall_test.go@63f8ce99eda7e0d0375c6fcdec00b78fbf8f2407"
TOOLS = [tool("a"), tool("b", x="integer"), tool("get_weather", city="string", days="integer"), tool("web_search")]


@pytest.mark.parametrize(
    ("text", "visible", "calls"),
    [
        ('hi <function=a> <function=b>{"x":1}', "hi", [("b", {"x": 1})]),
        # A line break between them, the next one's body a list of one, or Qwen3-Coder's parameters.
        (
            'Checking.\n<function=web_search>\n<function=get_weather>{"city": "Oslo", "days": 2}</function>\nDone.',
            "Checking. Done.",
            [("get_weather", {"city": "Oslo", "days": 2})],
        ),
        ('<function=a><function=get_weather>[{"city": "Rome"}]</function>', "", [("get_weather", {"city": "Rome"})]),
        (
            "<function=a>\n<function=get_weather>\n<parameter=city>\nLima\n</parameter>\n</function>",
            "",
            [("get_weather", {"city": "Lima"})],
        ),
        # The same opener twice.
        ('<function=b> <function=b>{"x": 5}</function>', "", [("b", {"x": 5})]),
    ],
)
def test_an_opener_left_empty_before_another_call_is_its_markup(
    text: str, visible: str, calls: list[tuple[str, dict[str, Any]]]
) -> None:
    check(Real(SOURCE, text, calls, visible=visible, tools=TOOLS))


@pytest.mark.parametrize(
    ("text", "visible", "calls"),
    [
        ('prefix <function=b>{"x":1}</b> suffix', "prefix suffix", [("b", {"x": 1})]),
        # Blanks, another case, the list of one, inside Hermes' tag, two calls in turn.
        ('<function=get_weather>{"city": "Rome"} </GET_WEATHER>\nDone.', "Done.", [("get_weather", {"city": "Rome"})]),
        ('<function=get_weather>[{"city": "Rome"}]</get_weather> ok', "ok", [("get_weather", {"city": "Rome"})]),
        (
            '<tool_call><function=get_weather>{"city": "Oslo"}</get_weather></tool_call>',
            "",
            [("get_weather", {"city": "Oslo"})],
        ),
        (
            '<function=b>{"x": 1}</b>\n<function=get_weather>{"city": "Oslo", "days": 1}</get_weather>',
            "",
            [("b", {"x": 1}), ("get_weather", {"city": "Oslo", "days": 1})],
        ),
    ],
)
def test_a_json_body_closed_by_a_tag_named_for_its_tool(
    text: str, visible: str, calls: list[tuple[str, dict[str, Any]]]
) -> None:
    check(Real(SOURCE, text, calls, visible=visible, tools=TOOLS))


@pytest.mark.parametrize(
    ("text", "visible", "calls"),
    [
        # Another tag after the body is text.
        ('<function=b>{"x": 1}</a> after', "</a> after", [("b", {"x": 1})]),
        (
            '<function=get_weather>{"city": "Rome"}</weather> after',
            "</weather> after",
            [("get_weather", {"city": "Rome"})],
        ),
        # An empty opener before prose, before an opener with no body, or of a tool that was not offered: text.
        ("hi <function=a> <function=b> hello", "hi <function=a> <function=b> hello", []),
        (
            "The tags <function=a> and <function=b> are examples.",
            "The tags <function=a> and <function=b> are examples.",
            [],
        ),
        ('see <function=rm> <function=b>{"x": 1}', "see <function=rm>", [("b", {"x": 1})]),
    ],
)
def test_other_tags_and_empty_openers_in_prose_stay_text(
    text: str, visible: str, calls: list[tuple[str, dict[str, Any]]]
) -> None:
    check(Real("written", text, calls, visible=visible, tools=TOOLS))
