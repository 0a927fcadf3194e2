"""Llama 3.1's ``<|python_tag|>`` (`shim.parsing.readers.llama`): raw code for the code-interpreter tool."""

from __future__ import annotations

import pytest

from tests.parsing.readers.cases import Real, check, tool

TOOLS = [tool("python", code="string"), tool("get_weather", city="string")]


@pytest.mark.parametrize(
    ("text", "code", "visible"),
    [
        # functionary v3.1: text, then the tag and code to the end of the output.
        ("Computing.<|python_tag|>l = [1, 2]\nl.remove(2)", "l = [1, 2]\nl.remove(2)", "Computing."),
        ('<|python_tag|>print("hi")<|eom_id|>', 'print("hi")', ""),
        ("<|python_tag|>import math\nmath.sqrt(2)<|eot_id|>", "import math\nmath.sqrt(2)", ""),
    ],
)
def test_code_after_the_python_tag_is_a_call_of_the_offered_code_interpreter(
    text: str, code: str, visible: str
) -> None:
    check(Real("written", text, [("python", {"code": code})], visible=visible, tools=TOOLS))


@pytest.mark.parametrize(
    "tools",
    [
        [tool("get_weather", city="string")],  # no code interpreter offered
        [tool("python", code="string", timeout="integer")],  # it takes no single string
        [tool("python", code="string"), tool("code_interpreter", code="string")],  # which one is meant
    ],
)
def test_code_after_the_python_tag_without_one_fitting_tool_stays_text(tools: list[dict[str, object]]) -> None:
    text = "Computing.<|python_tag|>x = 1"
    check(Real("written", text, [], visible=text, tools=tools))


def test_a_json_call_or_a_builtin_call_after_the_python_tag_is_still_read_as_such() -> None:
    text = '<|python_tag|>{"name": "get_weather", "parameters": {"city": "Oslo"}}<|eom_id|>'
    check(Real("written", text, [("get_weather", {"city": "Oslo"})], visible="", tools=TOOLS))
    text = "<|python_tag|>get_weather.call(city='Oslo')<|eom_id|>"
    check(Real("written", text, [("get_weather", {"city": "Oslo"})], visible="", tools=TOOLS))
