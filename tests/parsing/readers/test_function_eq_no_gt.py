"""Llama 3.3's ``<function=NAME {…}</function>`` with the opener's ``>`` left out (real Groq outputs in Choir.chat's
test reports), and the arguments object in a list of one (``[{…}]``, its ``]`` maybe left out), read by
`shim.parsing.readers.qwen_xml`."""

from __future__ import annotations

from typing import Any

import pytest

from tests.parsing.readers.cases import Real, check, tool

TOOLS = [tool("web_search", query="string"), tool("get_weather", city="string", days="integer")]


@pytest.mark.parametrize(
    ("text", "visible", "calls"),
    [
        # Groq's Llama 3.3 70B: the `>` left out, one blank before the JSON.
        (
            '<function=web_search {"query": "Super Bowl LIX winner"}</function>',
            "",
            [("web_search", {"query": "Super Bowl LIX winner"})],
        ),
        # The arguments in a list whose `]` was left out; then closed; after `>` too.
        ('<function=web_search [{"query": "a b"} </function>', "", [("web_search", {"query": "a b"})]),
        (
            'Searching.\n<function=web_search [{"query": "x"}]</function>',
            "Searching.",
            [("web_search", {"query": "x"})],
        ),
        ('<function=get_weather>[ {"city": "Oslo"} ]</function>', "", [("get_weather", {"city": "Oslo"})]),
        # Two blanks, a line break before the closer, CRLF, text after; two calls.
        (
            '<function=get_weather  {"city": "Oslo", "days": 2}\r\n</function>\r\nDone.',
            "Done.",
            [("get_weather", {"city": "Oslo", "days": 2})],
        ),
        (
            '<function=web_search {"query": "a"}</function><function=get_weather {"city": "Rome"}</function>',
            "",
            [("web_search", {"query": "a"}), ("get_weather", {"city": "Rome"})],
        ),
        # Inside Hermes' tag, the wrapper vouches for the opener.
        (
            '<tool_call><function=get_weather {"city": "Lima"}</function></tool_call>',
            "",
            [("get_weather", {"city": "Lima"})],
        ),
    ],
)
def test_a_function_opener_without_its_gt_before_json_is_a_call(
    text: str, visible: str, calls: list[tuple[str, dict[str, Any]]]
) -> None:
    check(Real("written: Llama 3.3 on Groq", text, calls, visible=visible, tools=TOOLS))


@pytest.mark.parametrize(
    "text",
    [
        # The syntax named in prose, code, a tool not offered, a bracket of words, an inline quote.
        "The syntax is <function=name {args}</function>.",
        "x = <function=foo {a: 1} and more",
        '<function=rm {"path": "/"}</function>',
        "see <function=web_search [the docs]",
        'Call `<function=web_search {"query": "x"}</function>` to search.',
    ],
)
def test_an_opener_without_its_gt_naming_no_offered_tool_or_in_prose_stays_text(text: str) -> None:
    check(Real("written", text, [], visible=text, tools=TOOLS))
