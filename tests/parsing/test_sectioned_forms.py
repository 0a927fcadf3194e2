# ruff: noqa: RUF001  (the full-width bars are the models' real tokens)
"""Between DeepSeek- or Kimi-style call tokens, a call may be any tagged form whose opener names its tool
(Step 3 writes ``<steptml:invoke name=…>`` there): the form is read, the tokens around it are markup."""

from __future__ import annotations

import pytest

from tests.parsing.readers.cases import Real, check, tool

TOOLS = [tool("get_weather", city="string"), tool("get_time", zone="string")]
INVOKE = '<steptml:invoke name="get_weather"><steptml:parameter name="city">Oslo</steptml:parameter></steptml:invoke>'
PLAIN = '<invoke name="get_time"><parameter name="zone">UTC</parameter></invoke>'


@pytest.mark.parametrize(
    ("text", "calls", "visible"),
    [
        (f"<｜tool_calls_begin｜><｜tool_call_begin｜>{INVOKE}<｜tool_call_end｜><｜tool_calls_end｜>", 1, ""),
        (f"<｜tool▁calls▁begin｜>\n<｜tool▁call▁begin｜>\n{PLAIN}\n<｜tool▁call▁end｜>\n<｜tool▁calls▁end｜>", 1, ""),
        (
            f"Checking.\n<|tool_calls_begin|><|tool_call_begin|>{INVOKE}<|tool_call_end|><|tool_calls_end|>Done.",
            1,
            "Checking. Done.",
        ),
        (
            f"<｜tool_calls_begin｜><｜tool_call_begin｜>{INVOKE}<｜tool_call_end｜><｜tool_sep｜>"
            f"<｜tool_call_begin｜>{PLAIN}<｜tool_call_end｜><｜tool_calls_end｜>",
            2,
            "",
        ),
        (f"<｜tool_call_begin｜>{INVOKE}<｜tool_call_end｜>", 1, ""),
    ],
)
def test_a_named_tagged_call_between_call_tokens_is_read_and_the_tokens_are_markup(
    text: str, calls: int, visible: str
) -> None:
    both = [("get_weather", {"city": "Oslo"}), ("get_time", {"zone": "UTC"})]
    expected = both if calls == 2 else [both[0] if "steptml" in text else both[1]]
    check(
        Real(
            "written: Step 3's invoke form between DeepSeek-style tokens", text, expected, visible=visible, tools=TOOLS
        )
    )


@pytest.mark.parametrize(
    "text",
    [
        '<|tool_calls_section_begin|>\n<|tool_call_begin|>\nfunctions.get_time:0<|tool_call_argument_begin|>{"zone": "UTC"}'
        "<|tool_call_end|>\n<|tool_calls_section_end|>",
        '<｜tool▁calls▁begin｜>\n<｜tool▁call▁begin｜>\r\nget_time<｜tool▁sep｜>{"zone": "UTC"}<｜tool▁call▁end｜><｜tool▁calls▁end｜>',
    ],
)
def test_newlines_between_a_sections_call_tokens_and_the_head_are_layout(text: str) -> None:
    check(Real("written: newlines between Kimi's tokens", text, [("get_time", {"zone": "UTC"})], tools=TOOLS))


@pytest.mark.parametrize(
    "text",
    [
        "Kimi opens calls with <|tool_calls_section_begin|> then <b>bold</b> text.",
        "Write <｜tool▁call▁begin｜><em>not a call</em> in the docs.",
    ],
)
def test_section_tokens_before_markup_that_names_no_tool_stay_text(text: str) -> None:
    check(Real("written: the tokens named in prose", text, [], visible=text, tools=TOOLS))
