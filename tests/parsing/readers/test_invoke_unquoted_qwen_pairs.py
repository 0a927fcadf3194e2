"""``<invoke name=NAME>`` with its name unquoted, bare (no MiniMax wrapper), its body the arguments as JSON or as
Qwen3-Coder's ``<parameter=K>V</parameter>`` pairs (llm-gateway's tests: the two families' markup mixed, as MiniMax
M2.7 writes ``<parameter name="K">`` inside Qwen's ``<function=NAME>``); closed by ``</invoke>`` or by the next
invoke or the output's end. Values are typed by the schema. The opener named in prose or inline code stays text."""

from __future__ import annotations

from typing import Any

import pytest

from tests.parsing.readers.cases import Real, check, tool

_GATEWAY = "AaronRZH/llm-gateway:internal/toolcall/toolcall_test.go@63f8ce99"
_TOOLS = [
    tool("docker", command="string", timeoutMs="number", description="string"),
    tool("get_weather", location="string", days="integer"),
    tool("search", query="string"),
]


@pytest.mark.parametrize(
    ("text", "calls", "visible"),
    [
        ('<invoke name=get_weather>{"location":"NYC"}</invoke>', [("get_weather", {"location": "NYC"})], ""),
        ('<invoke name=search>{"query": "Rust 1.80"}', [("search", {"query": "Rust 1.80"})], ""),  # no closer
        (  # Qwen3-Coder's pairs inside the invoke, typed by the schema
            "<invoke name=docker><parameter=command>docker run hello</parameter>"
            "<parameter=timeoutMs>30000</parameter></invoke>",
            [("docker", {"command": "docker run hello", "timeoutMs": 30000})],
            "",
        ),
        (  # prose each side, pairs on lines of their own, a value over two lines, blanks around the `=`
            "Je regarde.\n<invoke name=get_weather>\n<parameter = location>\nSão Paulo\n</parameter>\n"
            "<parameter=days>3</parameter>\n</invoke>\nVoilà.",
            [("get_weather", {"location": "São Paulo", "days": 3})],
            "Je regarde. Voilà.",
        ),
        (  # the quoted name with the Qwen pairs, and two unclosed invokes back to back
            '<invoke name="search"><parameter=query>a b</parameter></invoke>'
            '<invoke name=get_weather>{"location": "Oslo"}<invoke name=search>{"query": "c"}',
            [("search", {"query": "a b"}), ("get_weather", {"location": "Oslo"}), ("search", {"query": "c"})],
            "",
        ),
        (  # inside the Claude-style wrapper
            "<function_calls><invoke name=search><parameter=query>x</parameter></invoke></function_calls>",
            [("search", {"query": "x"})],
            "",
        ),
    ],
)
def test_an_invoke_with_an_unquoted_name_or_qwen_pairs_is_a_call(
    text: str, calls: list[tuple[str, dict[str, Any]]], visible: str
) -> None:
    check(Real(_GATEWAY, text, calls, visible=visible, tools=_TOOLS))


@pytest.mark.parametrize(
    "text",
    [
        "Use the <invoke name=search> tag to run a search.",  # the opener named in prose
        'Write `<invoke name=search>{"query": "x"}</invoke>` to search.',  # inline code
        "see <invoke name=search>\nthe query goes here</invoke>",  # a bare invoke holding plain text
    ],
)
def test_the_unquoted_invoke_in_prose_stays_text(text: str) -> None:
    check(Real("written", text, [], visible=text, tools=_TOOLS))
