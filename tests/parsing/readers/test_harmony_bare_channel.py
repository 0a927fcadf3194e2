"""gpt-oss harmony with only ``<|start|>assistant<|channel|>`` stripped (`shim.parsing.readers.harmony`,
linzeyan/assistant's gpt-oss test): ``analysis …<|end|>`` opening the message is reasoning, ``commentary
to=functions.NAME <|constrain|>json<|message|>{…}`` an offered tool's call, at every split point; a reply whose first
word is "analysis" with no ``<|end|>`` stays text."""

from __future__ import annotations

from typing import Any

import pytest

from tests.parsing.chunking import parse_everywhere
from tests.parsing.readers.cases import Real, check

SOURCE = "linzeyan/assistant:tests/test_tool_parsing.py@043f3226"
TOOLS = ["Write", "get_weather", "search"]


@pytest.mark.parametrize(
    ("text", "calls", "reasoning"),
    [
        (
            'analysis I\'ll write it.<|end|>commentary to=functions.Write <|constrain|>json<|message|>{"file_path": '
            '"a.md", "content": "hi"}<|call|>',
            [("Write", {"file_path": "a.md", "content": "hi"})],
            "I'll write it.",
        ),
        (
            "analysis<|message|>El usuario pide el clima.<|end|>\ncommentary to=functions.get_weather<|constrain|>json"
            '<|message|>\n{"city": "Lima"}<|call|>',
            [("get_weather", {"city": "Lima"})],
            "El usuario pide el clima.",
        ),
        (
            'analysis  Need a search.\nTwo lines.<|end|>commentary to=search json{"q": "tides"}',
            [("search", {"q": "tides"})],
            "Need a search. Two lines.",
        ),
    ],
)
def test_a_header_stripped_of_its_start_tokens_is_read(
    text: str, calls: list[tuple[str, dict[str, Any]]], reasoning: str
) -> None:
    check(Real(f"written after {SOURCE}", text, calls, tools=TOOLS, reasoning=reasoning))


@pytest.mark.parametrize(
    "text",
    [
        "analysis of the data shows steady growth.",
        "analysis I will write it. Then commentary to=functions.nope json{}",
        "The analysis <|end|> token ends a message.",
        'Use commentary to=functions.unknown <|constrain|>json<|message|>{"a": 1}',
    ],
)
def test_no_stripped_header_stays_text(text: str) -> None:
    result = parse_everywhere(text, TOOLS, every_split=True, seeds=4)
    assert result["calls"] == [] and result["errors"] == [] and result["text"] == text
