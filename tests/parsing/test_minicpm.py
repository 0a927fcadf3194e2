"""MiniCPM ``<function name="NAME"><param name="K">V</param></function>``, with CDATA and schema-typed values.

Outputs quoted from sgl-project/sglang's MiniCPM function-call parser tests (as collected in
benchmarks/real/minicpm).
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.parsing.chunking import parse_everywhere

WEATHER = {
    "name": "get_weather",
    "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}, "date": {"type": "string"}}},
}
SUM = {
    "name": "sum_values",
    "inputSchema": {"type": "object", "properties": {"nums": {"type": "array"}, "exact": {"type": "boolean"}}},
}

REAL: list[tuple[str, list[tuple[str, dict[str, Any]]], str]] = [
    (
        '<function name="get_weather"><param name="city"><![CDATA[北\n京]]></param>'
        '<param name="date">2024-06-27</param></function>\n',
        [("get_weather", {"city": "北\n京", "date": "2024-06-27"})],
        "\n",
    ),
    (
        'Hello\n<function name="get_weather">\n  <param name="city">北京</param>\n'
        '  <param name="date">2024-06-27</param>\n</function>\n',
        [("get_weather", {"city": "北京", "date": "2024-06-27"})],
        "Hello\n\n",
    ),
    (
        'Head\n<function name="get_weather"><param name="city">北京</param></function>\nTXT\n'
        '<function name="sum_values"><param name="nums">[7,8,9]</param><param name="exact">false</param>'
        "</function>\nTail\n",
        [("get_weather", {"city": "北京"}), ("sum_values", {"nums": [7, 8, 9], "exact": False})],
        "Head\n\nTXT\n\nTail\n",
    ),
    ('<function name="noop"></function>\n', [("noop", {})], "\n"),
]


@pytest.mark.parametrize(("text", "calls", "visible"), REAL)
def test_minicpm_calls_are_read_at_every_split_point(
    text: str, calls: list[tuple[str, dict[str, Any]]], visible: str
) -> None:
    result = parse_everywhere(text, [WEATHER, SUM, "noop"])
    assert [(c["name"], c["arguments"]) for c in result["calls"]] == calls
    assert result["text"] == visible
    assert result["errors"] == []


def test_a_closing_tag_inside_cdata_is_value_text() -> None:
    text = '<function name="get_weather"><param name="city"><![CDATA[a</param></function>b]]></param></function>'
    result = parse_everywhere(text, [WEATHER])
    assert result["calls"][0]["arguments"] == {"city": "a</param></function>b"}


def test_a_call_cut_before_its_closer_is_an_error() -> None:
    result = parse_everywhere('<function name="get_weather"><param name="city">Lima', [WEATHER])
    assert result["calls"] == [] and len(result["errors"]) == 1
    assert "ends before </function>" in result["errors"][0]["message"]


# BFCL's XML return formats (bfcl_eval/constants/default_prompts.py, OUTPUT_FORMAT_MAPPING): `concise_xml` puts
# the value in the element, `verbose_xml` in a `value` attribute, both beside a `type` attribute, optionally in
# `<functions>` and `<TOOLCALL>`. Written variants of what Llama 3.1 8B and Qwen3 8B printed for them.
BOOK = {
    "name": "book",
    "inputSchema": {
        "type": "object",
        "properties": {"city": {"type": "string"}, "seats": {"type": "integer"}, "vip": {"type": "boolean"}},
    },
}
BOOKED = [("book", {"city": "Lima, PE", "seats": 2, "vip": True})]


@pytest.mark.parametrize(
    "text",
    [
        '<function name="book"><params><param name="city" value="Lima, PE" type="string"/>'
        '<param name="seats" value="2" type="integer"/><param name="vip" value="True" type="boolean"/>'
        "</params></function>",
        # the attributes in another order, single-quoted, unquoted, spaced out over lines
        "<function name='book'><params>\n  <param type='string' value='Lima, PE' name='city' />\n"
        '  <param name=seats value=2 type=integer/>\n  <param\n name="vip"\n value=true type="boolean"/>\n'
        "</params>\n</function>",
        # `<params>` closed by its singular, or left open
        '<function name="book"><params><param name="city" value="Lima, PE"/><param name="seats" value="2"/>'
        '<param name="vip" value="True"/></param></function>',
        '<function name="book"><params><param name="city" value="Lima, PE"/><param name="seats" value="2"/>'
        '<param name="vip" value="True"/></function>',
        # a value attribute on an element closed by </param>
        '<function name="book"><param name="city" value="Lima, PE"></param><param name="seats" value="2"></param>'
        '<param name="vip" value="True"></param></function>',
        # concise: the value is the element's text, `type` before or after the name
        '<function name="book"><param name="city" type="string">Lima, PE</param>'
        '<param type="integer" name="seats">2</param><param name="vip" type="boolean"> True </param></function>',
    ],
)
def test_params_with_value_and_type_attributes_are_read_at_every_split_point(text: str) -> None:
    for wrapped in (text, f"<functions>{text}</functions>", f"<TOOLCALL>{text}</TOOLCALL>"):
        result = parse_everywhere(wrapped, [BOOK], seeds=4)
        assert [(c["name"], c["arguments"]) for c in result["calls"]] == BOOKED
        assert result["text"] == "" and result["errors"] == []


def test_a_functions_list_inside_a_call_tag_is_markup_around_every_call() -> None:
    text = (
        '<TOOLCALL><functions><function name="book"><params><param name="city" value="Lima, PE"/></params></function>'
        '<function name="book"><param name="city" type="string">Cusco</param></function></functions></TOOLCALL>\n'
    )
    result = parse_everywhere(text, [BOOK], seeds=4)
    assert [(c["name"], c["arguments"]) for c in result["calls"]] == [
        ("book", {"city": "Lima, PE"}),
        ("book", {"city": "Cusco"}),
    ]
    assert result["text"] == "\n"


@pytest.mark.parametrize(
    ("declared", "raw", "value"),
    [
        ("integer", "5", 5),
        ("float", "2.5", 2.5),
        ("boolean", "False", False),
        ("array", "['a', 'b']", ["a", "b"]),
        ("tuple", "[1, 2]", [1, 2]),
        ("dict", "{'k': 1}", {"k": 1}),
        ("string", "5", "5"),
        ("integer", "five", "five"),  # not a value of the declared type: the text
    ],
)
def test_a_declared_type_types_the_value_when_the_schema_gives_none(declared: str, raw: str, value: object) -> None:
    for param in (
        f'<param name="v" value="{raw}" type="{declared}"/>',
        f'<param name="v" type="{declared}">{raw}</param>',
    ):
        result = parse_everywhere(f'<function name="set">{param}</function>', ["set"], every_split=False, seeds=2)
        assert [(c["name"], c["arguments"]) for c in result["calls"]] == [("set", {"v": value})]


def test_the_schema_wins_over_a_declared_type() -> None:
    text = '<function name="book"><param name="city" value="5" type="integer"/><param name="seats" value="x" type="integer"/></function>'
    result = parse_everywhere(text, [BOOK], every_split=False, seeds=2)
    assert result["calls"][0]["arguments"] == {"city": "5", "seats": "x"}


@pytest.mark.parametrize(
    "text",
    [
        'Set it with <param name="city" value="Lima"/> in the config.',
        "See <TOOLCALL><functions><b>bold</b></functions></TOOLCALL> here.",
        "See <tool_call><b><i>hi</i></b></tool_call> ok",
        '<TOOLCALL><functions><function name="func_name1"><params><param name="param1" value="value1" type="type1"/>'
        "</params></function></functions></TOOLCALL> is the format.",
    ],
)
def test_params_and_wrappers_outside_a_call_stay_text(text: str) -> None:
    result = parse_everywhere(text, [BOOK], seeds=4)
    assert result["calls"] == [] and result["text"] == text


@pytest.mark.parametrize(
    "text",
    [
        # Qwen3.8-27B (q27's captures): this opener with Qwen3-Coder's parameters, or MiniMax's spelling of them.
        '<function name="book">\n<parameter=city>\nLima, PE\n</parameter>\n<parameter=seats>\n2\n</parameter>\n'
        "<parameter=vip>\ntrue\n</parameter>\n</function>",
        '<function name="book"><parameter name="city">Lima, PE</parameter><parameter name="seats">2</parameter>'
        '<param name="vip">true</param></function>',
    ],
)
def test_qwen3_coder_or_minimax_parameters_under_this_opener_are_read(text: str) -> None:
    result = parse_everywhere(text, [BOOK], seeds=4)
    assert [(c["name"], c["arguments"]) for c in result["calls"]] == BOOKED
    assert result["text"] == "" and result["errors"] == []
