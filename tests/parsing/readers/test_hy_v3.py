"""Tencent Hunyuan 3 (HY V3) calls (`shim.parsing.readers.hy_v3`), at every split point."""

from __future__ import annotations

from typing import Any

import pytest

from tests.parsing.readers.cases import Real, check, tool

_RAPID = "raullenchai/Rapid-MLX:tests/test_hy_v3_tool_parser.py@7222ca776c029b045cba424e7b2e942c5073529f"

# Quoted from Rapid-MLX's HY V3 parser tests (corpus: benchmarks/real/hy_v3, benchmarks/real/damaged).
CASES = [
    Real(  # json_body_suffixed_tokens: the chat template's own emission
        _RAPID,
        '<tool_call:opensource>get_weather<tool_sep:opensource>{"city": "Paris"}<end_of_tool_call:opensource>',
        [("get_weather", {"city": "Paris"})],
    ),
    Real(  # pairs_typed_values: the schema types each value; a quoted string is the string
        _RAPID,
        '<tool_call>lookup<tool_sep><arg_key>a</arg_key><arg_value>1</arg_value><arg_key>b</arg_key><arg_value>"two"'
        "</arg_value><arg_key>flag</arg_key><arg_value>true</arg_value><end_of_tool_call>",
        [("lookup", {"a": 1, "b": "two", "flag": True})],
        tools=[tool("lookup", a="integer", b="string", flag="boolean")],
    ),
    Real(  # value_holds_end_tag: a token inside a JSON string is data
        _RAPID,
        '<tool_call:opensource>log<tool_sep:opensource>{"m": "contains <end_of_tool_call:opensource> inside"}'
        "<end_of_tool_call:opensource>",
        [("log", {"m": "contains <end_of_tool_call:opensource> inside"})],
    ),
    Real(  # 4bit_stray_arg_value_before_close
        _RAPID,
        '<tool_call:opensource>calculate_circle_area<tool_sep:opensource>{"radius": 5}<arg_value:opensource>'
        "<end_of_tool_call:opensource>",
        [("calculate_circle_area", {"radius": 5})],
        tools=[tool("calculate_circle_area", radius="integer")],
    ),
    Real(  # 4bit_name_then_arg_value_closer: Rapid-MLX's salvage, a call with no arguments
        _RAPID,
        "<tool_call:opensource>get_weather</arg_value:opensource>",
        [("get_weather", {})],
    ),
]


@pytest.mark.parametrize("case", CASES, ids=[f"{i}" for i in range(len(CASES))])
def test_a_real_hy_v3_output_is_read_at_every_split_point(case: Real) -> None:
    check(case)


@pytest.mark.parametrize("label", ["", ":opensource", ":6124c78e"])
@pytest.mark.parametrize(
    ("body", "arguments"),
    [
        ('{"city": "Oslo"}', {"city": "Oslo"}),
        ('\n{"city": "Oslo", "days": 2}\n', {"city": "Oslo", "days": 2}),
        ("<arg_key{L}>city</arg_key{L}><arg_value{L}>Oslo</arg_value{L}>", {"city": "Oslo"}),
        ("\n<arg_key{L}>city</arg_key{L}>\n<arg_value{L}>Oslo</arg_value{L}>\n", {"city": "Oslo"}),
        ("", {}),
    ],
)
@pytest.mark.parametrize("end", ["<end_of_tool_call{L}>", "</tool_call{L}>"])
def test_the_name_a_separator_and_json_or_pairs_are_a_call_whatever_the_label_and_the_end(
    label: str, body: str, arguments: dict[str, Any], end: str
) -> None:
    text = f"Checking. <tool_call{label}>get_weather<tool_sep{label}>{body}{end}".replace("{L}", label)
    check(
        Real(
            "variant",
            text,
            [("get_weather", arguments)],
            visible="Checking.",
            tools=[tool("get_weather", days="integer")],
        )
    )


def test_two_calls_each_ended_by_its_token_are_two_calls() -> None:
    text = (
        '<tool_call>get_weather<tool_sep>{"city": "Oslo"}<end_of_tool_call>\n'
        "<tool_call>get_time<arg_key>zone</arg_key><arg_value>UTC</arg_value><end_of_tool_call> done"
    )
    check(Real("variant", text, [("get_weather", {"city": "Oslo"}), ("get_time", {"zone": "UTC"})], visible="done"))


@pytest.mark.parametrize(
    "stray",
    ["<arg_value>", "</arg_value>", "<arg_key>", "<tool_sep>", "<arg_value>\n</arg_value>", "\n<arg_value> "],
)
def test_stray_pair_tokens_before_the_end_of_call_are_markup(stray: str) -> None:
    text = f'<tool_call>get_weather<tool_sep>{{"city": "Oslo"}}{stray}<end_of_tool_call>'
    check(Real("variant", text, [("get_weather", {"city": "Oslo"})]))


@pytest.mark.parametrize("closer", ["</arg_value>", "</arg_value:opensource>", "<end_of_tool_call>"])
def test_a_name_then_the_end_or_a_stray_value_closer_is_a_call_with_no_arguments(closer: str) -> None:
    check(Real("variant", f"<tool_call>get_time{closer} ok", [("get_time", {})], visible="ok", tools=["get_time"]))


@pytest.mark.parametrize(
    "text",
    [
        "Models in this family end a call with <end_of_tool_call> and separate the name with <tool_sep>.",
        '<tool_call>not_offered<tool_sep>{"x": 1}<end_of_tool_call>',
        'The token <tool_sep> goes between the name and {"city": "Oslo"}, then <end_of_tool_call>.',
        "<tool_call>weather report</arg_value> is how the template looks",
    ],
)
def test_the_family_s_tokens_in_prose_or_around_a_tool_not_offered_stay_text(text: str) -> None:
    check(Real("variant", text, [], visible=text, tools=["get_weather"]))
