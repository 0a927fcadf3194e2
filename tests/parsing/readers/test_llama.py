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


BUILT_INS = [tool("brave_search", query="string"), tool("wolfram_alpha", query="string")]


@pytest.mark.parametrize(
    ("text", "name", "query", "visible"),
    [
        # DeepLearning.AI's Llama 3.1 lesson on Together AI: the API drops `<|python_tag|>`, the call stays
        (
            '\n\nbrave_search.call(query="Menlo Park California weather")',
            "brave_search",
            "Menlo Park California weather",
            "",
        ),
        (
            'wolfram_alpha.call(query="solve x^3 - 2x^2 - x + 2 = 0")',
            "wolfram_alpha",
            "solve x^3 - 2x^2 - x + 2 = 0",
            "",
        ),
        ("Buscando.\nbrave_search.call(query='clima en Lima')", "brave_search", "clima en Lima", "Buscando."),
        ('wolfram_alpha.call(query="2+2")<|eom_id|>', "wolfram_alpha", "2+2", ""),
    ],
)
def test_a_builtin_call_with_its_python_tag_dropped_is_still_the_call(
    text: str, name: str, query: str, visible: str
) -> None:
    check(Real("written", text, [(name, {"query": query})], visible=visible, tools=BUILT_INS))


@pytest.mark.parametrize(
    "text",
    [
        'You would write brave_search.call(query="x") to search.',  # inside a sentence
        'photo_search.call(query="cats")',  # not an offered tool
        'brave_search.call(query="x").json()',  # code going on after the call
        '```python\nbrave_search.call(query="x")\n```',  # shown in a fence
    ],
)
def test_a_builtin_call_without_its_tag_in_prose_or_code_stays_text(text: str) -> None:
    check(Real("written", text, [], visible=text, tools=BUILT_INS))


LLAMA_STACK = (
    "llamastack/llama-stack:tests/integration/tool_runtime/recordings@d1b6632946ca1bb953d47ea3317b8f3c30771d88"
)
"""Llama 3.2 3B on Ollama, second turn after a tool's result (the corpus's `a16_llama32_3b_python_tag_*`)."""
OFFERED = [tool("get_boiling_point", liquid_name="string", celsius="boolean"), tool("greet_everyone", url="string")]


@pytest.mark.parametrize(
    "text",
    [
        # a JSON object of no call shape: a restated result, an invented error object, with prose after it
        '<|python_tag|>{"message": "Hello, World!", "type": "greeting"}',
        '<|python_tag|>{"status":400,"error_messages":[{"target": "/location"}]}\n\nSorry, I could not do it.',
        'Voilà :<|python_tag|>{"résultat": "bonjour", "langue": "fr"}<|eom_id|>',
        '<|python_tag|>{"temperature": 100, "unit": "C"}\nThe boiling point is 100°C.',
        # a call of a tool that was not offered, JSON or Python
        '<|python_tag|>{"name": "get_language_info", "parameters": {"lang": "python"}}',
        '<|python_tag|>{"type": "function", "name": "print_hello_world", "parameters": {}}',
        '<|python_tag|>robot.parse("hello, world!", lang="python")',
        "<|python_tag|>photo_search.call(query='cats')<|eom_id|>",
    ],
)
def test_a_python_tag_body_naming_no_offered_tool_is_text_tag_and_all(text: str) -> None:
    result = check(Real(LLAMA_STACK, text, [], visible=text.replace("<|eom_id|>", ""), tools=OFFERED))
    assert "<|python_tag|>" in result["text"]


BOILING = [("get_boiling_point", {"liquid_name": "water"})]


@pytest.mark.parametrize(
    ("text", "calls", "errors"),
    [
        ('<|python_tag|>{"name": "get_boiling_point", "parameters": {"liquid_name": "water"}}', BOILING, 0),
        (
            '<|python_tag|>{"function": {"name": "get_boiling_point", "arguments": {"liquid_name": "water"}}}',
            BOILING,
            0,
        ),
        ('<|python_tag|>{"liquid_name": "water"}<|eom_id|>', BOILING, 0),  # the arguments alone, of one offered tool
        ('<|python_tag|>get_boiling_point(liquid_name="water")', BOILING, 0),
        ('<|python_tag|>{"name": "get_boiling_point", "parameters": {"liquid_name": }', [], 1),  # damaged: its error
        ('<|python_tag|>{"name": "none", "parameters": {}}', [], 0),  # "no tool": markup, as in every family
    ],
)
def test_a_python_tag_body_naming_an_offered_tool_is_still_its_call(
    text: str, calls: list[tuple[str, dict[str, object]]], errors: int
) -> None:
    check(Real(LLAMA_STACK, text, calls, visible="", tools=OFFERED, errors=errors))


def test_with_no_tools_offered_a_python_tag_body_of_any_name_is_still_read() -> None:
    text = '<|python_tag|>{"name": "get_language_info", "parameters": {"lang": "python"}}'
    check(Real("written", text, [("get_language_info", {"lang": "python"})], visible="", tools=[]))
