# ruff: noqa: RUF001  (the full-width bars are DeepSeek's real tokens)
"""Calls between special tokens (`shim.parsing.readers.sectioned`, DeepSeek and Kimi K2): token spellings
engines and fine-tunes mix, read by one rule: bars full-width or ASCII, ``▁`` or ``_``, either family's
separator after the head, and layout between the head and its separator."""

from __future__ import annotations

import pytest

from tests.parsing.readers.cases import Real, check

W = ("get_weather", {"city": "Paris"})


@pytest.mark.parametrize(
    "text",
    [
        '<|tool_calls_begin|><|tool_call_begin|>get_weather<|tool_sep|>{"city": "Paris"}<|tool_call_end|><|tool_calls_end|>',
        '<｜tool_calls_begin｜><｜tool_call_begin｜>get_weather<｜tool_sep｜>{"city": "Paris"}<｜tool_call_end｜><｜tool_calls_end｜>',
        '<｜tool▁call▁begin｜>functions.get_weather:0<|tool_call_argument_begin|>{"city": "Paris"}<｜tool▁call▁end｜>',
        '<|tool_calls_section_begin|><|tool_call_begin|>get_weather<|tool_sep|>{"city": "Paris"}<|tool_call_end|>'
        "<|tool_calls_section_end|>",
        "<|tool_calls_section_begin|>\n<|tool_call_begin|>functions.get_weather:0\n<|tool_call_argument_begin|>"
        '{"city": "Paris"}<|tool_call_end|>\n<|tool_calls_section_end|>',
        '<｜tool▁calls▁begin｜>\n<｜tool▁call▁begin｜>get_weather <｜tool▁sep｜>{"city": "Paris"}<｜tool▁call▁end｜>\n'
        "<｜tool▁calls▁end｜>",
    ],
)
def test_token_spellings_and_layout_of_either_family_are_read(text: str) -> None:
    check(Real("written: DeepSeek/Kimi token spellings seen across engines", text, [W]))


def test_two_calls_with_mixed_separators_are_both_read() -> None:
    text = (
        '<|tool_calls_begin|><|tool_call_begin|>get_weather<|tool_sep|>{"city": "Paris"}<|tool_call_end|>'
        '<|tool_call_begin|>functions.get_weather:1<|tool_call_argument_begin|>{"city": "Rome"}<|tool_call_end|>'
        "<|tool_calls_end|>"
    )
    check(Real("written", text, [W, ("get_weather", {"city": "Rome"})]))


@pytest.mark.parametrize(
    "text",
    [
        "The tokens <|tool_call_begin|> and <|tool_call_end|> delimit calls.",
        "DeepSeek opens a call with <｜tool▁call▁begin｜> and nothing else here.",
    ],
)
def test_call_tokens_named_in_prose_stay_text(text: str) -> None:
    check(Real("written", text, [], visible=text, tools=["get_weather"]))
