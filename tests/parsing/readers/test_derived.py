"""The reader of a template-derived call syntax (`shim.parsing.readers.derived`), at every split point.

The syntaxes come from real templates through `from_template`; the outputs vary what the templates render
the way models do (whitespace, a missing closer, an unknown id), and each is read the same under every
chunking, with nothing lost.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

import pytest

from shim.events import ToolCallChunk, ToolCallEnd, ToolCallStart
from shim.parsing.stream import StreamParser
from shim.profiles import ModelProfile, from_template
from tests.parsing.chunking import parse_everywhere

TEMPLATES = Path(__file__).parent.parent.parent / "profiles" / "templates"
TOOLS = [
    {
        "name": "get_weather",
        "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}, "days": {"type": "integer"}}},
    },
    {"name": "search", "inputSchema": {"type": "object", "properties": {"q": {"type": "string"}}}},
]


@cache
def profile(file: str) -> ModelProfile:
    return from_template((TEMPLATES / file).read_text(encoding="utf-8"))


def read(file: str, text: str) -> dict[str, Any]:
    return parse_everywhere(text, TOOLS, seeds=5, profile=profile(file))


def calls(result: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    return [(c["name"], c["arguments"]) for c in result["calls"]]


@pytest.mark.parametrize(
    ("file", "text", "expected"),
    [
        (  # Seed-OSS's parameters, the last </parameter> and the block's closer left out
            "llama.cpp/ByteDance-Seed-OSS.jinja",
            "<seed:tool_call><function=get_weather><parameter=city>Paris</parameter><parameter=days>3",
            [("get_weather", {"city": "Paris", "days": 3})],
        ),
        (  # Solar's markers with an id the template never wrote, and two calls
            "llama.cpp/upstage-Solar-Open-100B.jinja",
            '<|tool_calls|><|tool_call:begin|>x9<|tool_call:name|>search<|tool_call:args|>{"q": "a"}'
            '<|tool_call:end|><|tool_call:begin|>y7<|tool_call:name|>search<|tool_call:args|>{"q": "b"}'
            "<|tool_call:end|><|calls|>",
            [("search", {"q": "a"}), ("search", {"q": "b"})],
        ),
        (  # Apertus: {NAME: arguments} in a list, spaced differently from the template
            "llama.cpp/Apertus-8B-Instruct.jinja",
            '<|tools_prefix|>[ {"get_weather": {"city": "Oslo"}} ,\n{"search": {"q": "x"}} ]<|tools_suffix|>',
            [("get_weather", {"city": "Oslo"}), ("search", {"q": "x"})],
        ),
        (  # LFM2.5: pythonic calls between special tokens
            "llama.cpp/LFM2.5-8B-A1B.jinja",
            "<|tool_call_start|>[get_weather(city='Rome', days=2), search(q=\"x, y\")]<|tool_call_end|>",
            [("get_weather", {"city": "Rome", "days": 2}), ("search", {"q": "x, y"})],
        ),
        (  # DeepSeek V3.2: a parameter's string="…" attribute varies with its type
            "llama.cpp/deepseek-ai-DeepSeek-V3.2.jinja",
            '<｜DSML｜function_calls><｜DSML｜invoke name="get_weather"><｜DSML｜parameter name="days" string="false">4'  # noqa: RUF001 (DeepSeek's full-width bars)
            "</｜DSML｜parameter></｜DSML｜invoke></｜DSML｜function_calls>",  # noqa: RUF001
            [("get_weather", {"days": 4})],
        ),
    ],
)
def test_a_derived_syntax_reads_its_calls_under_every_chunking(
    file: str, text: str, expected: list[tuple[str, dict[str, Any]]]
) -> None:
    assert calls(read(file, text)) == expected


def test_prose_around_a_block_stays_text() -> None:
    text = (
        "Let me check. <seed:tool_call><function=search><parameter=q>news</parameter></function></seed:tool_call> Done."
    )
    result = read("llama.cpp/ByteDance-Seed-OSS.jinja", text)
    assert calls(result) == [("search", {"q": "news"})]
    assert result["text"] == "Let me check.  Done."


def test_an_opener_not_followed_by_a_call_is_text() -> None:
    text = "The token <|tool_calls|> starts a call block."
    result = read("llama.cpp/upstage-Solar-Open-100B.jinja", text)
    assert (calls(result), result["text"]) == ([], text)


def test_a_plain_opener_counts_only_at_the_message_start_and_for_an_offered_tool() -> None:
    # Functionary v3.2 writes NAME\n{…} with no marker before the first call.
    file = "llama.cpp/meetkai-functionary-medium-v3.2.jinja"
    assert calls(read(file, 'search\n{"q": "tea"}')) == [("search", {"q": "tea"})]
    unknown = 'weather\n{"q": "tea"}'
    assert read(file, unknown)["calls"] == [] and read(file, unknown)["text"] == unknown


@pytest.mark.parametrize(
    ("file", "head", "tail"),
    [
        (
            "llama.cpp/upstage-Solar-Open-100B.jinja",
            "<|tool_calls|><|tool_call:begin|>x<|tool_call:name|>search<|tool_call:args|>",
            "<|tool_call:end|><|calls|>",
        ),
        ("llama.cpp/meetkai-functionary-medium-v3.2.jinja", "search\n", ""),
        (
            "llama.cpp/Kimi-K2-Instruct.jinja",
            "<|tool_calls_section_begin|><|tool_call_begin|>functions.search:0<|tool_call_argument_begin|>",
            "<|tool_call_end|><|tool_calls_section_end|>",
        ),
    ],
)
def test_json_arguments_of_a_derived_syntax_stream_before_the_call_ends(file: str, head: str, tail: str) -> None:
    parser = StreamParser(TOOLS, profile=profile(file))
    events = parser.feed(head + '{"q": "a long query that is still being written')
    assert [type(e) for e in events if not hasattr(e, "text")][:2] == [ToolCallStart, ToolCallChunk]
    assert not any(isinstance(e, ToolCallEnd) for e in events)
    events += parser.feed('"}' + tail) + parser.close()
    assert [(e.name, e.arguments) for e in events if isinstance(e, ToolCallEnd)] == [
        ("search", {"q": "a long query that is still being written"})
    ]
    assert calls(read(file, head + '{"q": "a"}' + tail)) == [("search", {"q": "a"})]
