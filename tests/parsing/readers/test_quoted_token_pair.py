"""A closer spelled as its opener mirrored (Gemma 4's ``<NAME|>`` for ``<|NAME>``, ``<|/NAME|>`` for ``<|NAME|>``)
ending the output, whose opener went out as visible text just before it: the pair is the text's own (local-lizard's
tests: a tool's answer block quoted whole), never the engine's stop token. A closer after a call, or with no opener
shown, is still markup."""

from __future__ import annotations

from typing import Any

import pytest

from tests.parsing.readers.cases import Real, check, tool

_LIZARD = "sharpdaddy59/local-lizard (Gemma 4 tool-response block)"
_TOOLS = [tool("search_web", query="string")]


@pytest.mark.parametrize(
    "text",
    [
        "<|tool_response>response:search_web{value:some result}<tool_response|>",
        "Here is what came back: <|tool_response>response:search_web{value:42}<tool_response|>",
        "Tokens: <|tool_call|> opens a call and <|/tool_call|>",
        "<|tool_response>ok<tool_response|>\nThen more text.",
    ],
)
def test_a_quoted_token_pair_stays_text(text: str) -> None:
    check(Real(_LIZARD, text, [], visible=text, tools=_TOOLS))


@pytest.mark.parametrize(
    ("text", "calls", "visible"),
    [
        ("All done.<turn|>", [], "All done."),  # no opener shown: the engine's stop, markup
        (
            '<|tool_call>call:search_web{query:<|"|>weather<|"|>}<tool_call|><|tool_response>',
            [("search_web", {"query": "weather"})],
            "",
        ),
    ],
)
def test_a_closer_with_no_opener_shown_is_markup(
    text: str, calls: list[tuple[str, dict[str, Any]]], visible: str
) -> None:
    check(Real(_LIZARD, text, calls, visible=visible, tools=_TOOLS))
