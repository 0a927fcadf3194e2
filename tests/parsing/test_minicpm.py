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
