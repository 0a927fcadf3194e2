"""Placeholders of unrendered special tokens around a JSON call (`shim.parsing.readers.unused_tokens`)."""

from __future__ import annotations

import pytest

from tests.parsing.chunking import parse_everywhere
from tests.parsing.readers.cases import Real, check

OLLAMA = "https://github.com/ollama/ollama/issues/5761"


@pytest.mark.parametrize(
    ("text", "calls", "visible"),
    [
        # InternLM2 in Ollama: <|action_start|><|plugin|> … <|action_end|> printed as placeholders
        (
            "I need to search.[UNUSED_TOKEN_144][UNUSED_TOKEN_141]\n"
            '{"name":"duckduckgo-search","parameters":{"input":"news"}}[UNUSED_TOKEN_143]',
            [("duckduckgo-search", {"input": "news"})],
            "I need to search.",
        ),
        # variants: spaces between them, no text before, another tool, a list, the end of turn after the closer
        (
            '[UNUSED_TOKEN_144] [UNUSED_TOKEN_141] {"name": "get_weather", "parameters": {"city": "Köln"}}\n'
            "[UNUSED_TOKEN_143][UNUSED_TOKEN_145]",
            [("get_weather", {"city": "Köln"})],
            "",
        ),
        (
            'Checking.\n[UNUSED_TOKEN_7]\n[{"name": "get_weather", "arguments": {"city": "Lima"}}]\nDone.',
            [("get_weather", {"city": "Lima"})],
            "Checking. Done.",
        ),
        # only a closer: a turn-end token after the call
        (
            '{"name": "get_weather", "arguments": {"city": "Oslo"}}[UNUSED_TOKEN_143]',
            [("get_weather", {"city": "Oslo"})],
            "",
        ),
    ],
)
def test_placeholders_right_around_a_call_are_its_markup(
    text: str, calls: list[tuple[str, dict[str, str]]], visible: str
) -> None:
    check(Real(OLLAMA, text, calls, visible=visible, tools=["duckduckgo-search", "get_weather"]))


@pytest.mark.parametrize(
    "text",
    [
        "The log shows [UNUSED_TOKEN_144] where the tag was.",
        '[UNUSED_TOKEN_144]{"city": "Oslo"} is not a call.',
        '[UNUSED_TOKEN_144]{"name": "search", "arguments": {}}',  # a tool that was not offered
        '`[UNUSED_TOKEN_144]{"name": "get_weather", "arguments": {}}`',  # inline code
    ],
)
def test_placeholders_before_anything_but_a_call_stay_text(text: str) -> None:
    result = parse_everywhere(text, ["get_weather"])
    assert result["calls"] == [] and result["text"] == text
