"""``[NAME, {…}]``: an offered tool's name and its arguments object as a bracketed pair
(`shim.parsing.readers.bracket_name_json`)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.parsing.readers.cases import Real, check, tool

PERSONAL_AGENT = "alextra-lab/personal_agent:tests (test_parse_bracket_fallback_tool_call)"
ASK = [tool("mcp_perplexity_ask", messages="array")]
TOOLS = [tool("search", query="string"), tool("get_weather", city="string", unit="string")]


@pytest.mark.parametrize(
    ("text", "calls", "visible", "tools"),
    [
        (
            '[mcp_perplexity_ask, {"messages":[{"role":"user","content":"What is 2+2?"}]}]',
            [("mcp_perplexity_ask", {"messages": [{"role": "user", "content": "What is 2+2?"}]})],
            "",
            ASK,
        ),
        (  # one `}` too many before the `]`
            '[mcp_perplexity_ask, {"messages":[{"role":"user","content":"OpenAI pricing?"}]}}]',
            [("mcp_perplexity_ask", {"messages": [{"role": "user", "content": "OpenAI pricing?"}]})],
            "",
            ASK,
        ),
        (
            'Let me look.\n[search, {"query": "Ölpreis heute"}]\n',
            [("search", {"query": "Ölpreis heute"})],
            "Let me look.",
            TOOLS,
        ),
        (
            '[ "get_weather" , {"city": "Oslo", "unit": "C"} ]  \nThen I wait.',
            [("get_weather", {"city": "Oslo", "unit": "C"})],
            "Then I wait.",
            TOOLS,
        ),
        ('[get_weather,\r\n  {"city": "Lima"}\r\n]', [("get_weather", {"city": "Lima"})], "", TOOLS),
        (
            'Two:\n  [search, {"query": "a"}]\n  [search, {"query": "b"}]',
            [("search", {"query": "a"}), ("search", {"query": "b"})],
            "Two:",
            TOOLS,
        ),
    ],
)
def test_a_bracketed_name_and_arguments_pair_is_the_tools_call(
    text: str, calls: list[tuple[str, dict[str, Any]]], visible: str, tools: list[dict[str, Any]]
) -> None:
    check(Real(PERSONAL_AGENT, text, calls, visible=visible, tools=tools))


@pytest.mark.parametrize(
    "text",
    [
        '[search, {"query": "x"}] is the notation the prompt uses.',  # prose after the pair
        'Write it as [search, {"query": "x"}] please.',  # inside a sentence
        '[lookup, {"query": "x"}]',  # no offered tool
        '[search, {"query": "x"',  # cut off
        '[search, {"query": x y}]',  # not JSON
        '[search, {"query": "x"}, 3]',  # a third item: a list, not a pair
        '[search, "x"]',  # no arguments object
        '`[search, {"query": "x"}]`',  # inline code
    ],
)
def test_a_pair_in_prose_of_no_tool_or_not_closed_stays_text(text: str) -> None:
    check(Real(PERSONAL_AGENT, text, [], visible=text, tools=TOOLS))


def test_without_tools_a_pair_stays_text() -> None:
    text = '[search, {"query": "x"}]'
    check(Real(PERSONAL_AGENT, text, [], visible=text, tools=None))
