"""A closed call written twice, identical, is two calls in every family: a model may call a tool twice with the
same arguments (a retry, a poll). Only the same call written again under a second opener before the first one's
block closed (``<tool_call>A<tool_call>A</tool_call>``: two openers, one closer; Laguna in Ollama's tests) is the
call once (`shim.parsing.readers.block_end`). Each is read at every split point."""

from __future__ import annotations

import json

import pytest

from tests.parsing.readers.cases import Real, check, tool

TOOLS = [tool("get_weather", city="string", days="integer"), tool("Read", file_path="string")]
A = {"city": "Paris", "days": 2}
J = json.dumps({"name": "get_weather", "arguments": A})

CALLS = {
    "minicpm": '<function name="get_weather"><param name="city">Paris</param><param name="days">2</param></function>',
    "hermes": f"<tool_call>\n{J}\n</tool_call>",
    "qwen3_coder": (
        "<tool_call>\n<function=get_weather>\n<parameter=city>\nParis\n</parameter>\n<parameter=days>\n2\n"
        "</parameter>\n</function>\n</tool_call>"
    ),
    "qwen3_coder_bare": "<function=get_weather>\n<parameter=city>\nParis\n</parameter>\n<parameter=days>\n2\n"
    "</parameter>\n</function>",
    "invoke": (
        '<function_calls>\n<invoke name="get_weather">\n<parameter name="city">Paris</parameter>\n'
        '<parameter name="days">2</parameter>\n</invoke>\n</function_calls>'
    ),
    "glm": "<tool_call>get_weather\n<arg_key>city</arg_key>\n<arg_value>Paris</arg_value>\n<arg_key>days</arg_key>\n"
    "<arg_value>2</arg_value>\n</tool_call>",
    "llama_function": '<function=get_weather>{"city": "Paris", "days": 2}</function>',
    "tool_name_xml": "<get_weather>\n<city>Paris</city>\n<days>2</days>\n</get_weather>",
    "name_lines": "<tool_use>\nget_weather\ncity: Paris\ndays: 2\n</tool_use>",
}


@pytest.mark.parametrize("separator", ["\n\n", "\n", ""], ids=["blank_line", "line_break", "glued"])
@pytest.mark.parametrize("form", sorted(CALLS))
def test_a_closed_call_written_twice_identical_is_two_calls(form: str, separator: str) -> None:
    text = CALLS[form] + separator + CALLS[form]
    check(Real(f"written: {form} twice", text, [("get_weather", A)] * 2, visible="", tools=TOOLS))


@pytest.mark.parametrize("form", ["minicpm", "hermes", "qwen3_coder_bare"])
def test_a_call_written_twice_after_prose_is_two_calls_and_the_prose_stays(form: str) -> None:
    text = f"Checking twice.\n{CALLS[form]}\nAgain:\n{CALLS[form]}"
    check(Real(f"written: {form} twice", text, [("get_weather", A)] * 2, visible="Checking twice. Again:", tools=TOOLS))


@pytest.mark.parametrize(
    "text",
    [
        f"<tool_call>\n{J}\n<tool_call>\n{J}\n</tool_call>",  # two openers, one closer: the call once
        f"<tool_call>{J}<tool_call>{J}",  # no closer at all: the second opener repeats the open block
    ],
)
def test_the_same_call_under_a_second_opener_before_the_block_closed_is_the_call_once(text: str) -> None:
    check(Real("written: Laguna's duplicated nested call", text, [("get_weather", A)], visible="", tools=TOOLS))
