# ruff: noqa: RUF001  (the full-width bars are DeepSeek's real tokens)
"""DeepSeek V3 / V3.1 / R1 special-token calls (`shim.parsing.readers.deepseek`), at every split point."""

from __future__ import annotations

import pytest

from tests.parsing.readers.cases import Real, check, tool

# Quoted from the peer tests named in each case (corpus: benchmarks/real/deepseek).
CASES = [
    Real(  # ollama_cogito_fenced
        "ollama/ollama:model/parsers/cogito_test.go@fb30760996871fa9460115c753afd2c60d4ab0f7",
        '<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>get_weather\n```json\n{"location":"Paris"}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>',
        [("get_weather", {"location": "Paris"})],
    ),
    Real(  # ollama_cogito_fenced_nested
        "ollama/ollama:model/parsers/cogito_test.go@fb30760996871fa9460115c753afd2c60d4ab0f7",
        '<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>process_data\n```json\n{"items":["item1","item2"],"config":{"enabled":true,"threshold":0.95},"count":42}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>',
        [("process_data", {"items": ["item1", "item2"], "config": {"enabled": True, "threshold": 0.95}, "count": 42})],
    ),
    Real(  # ollama_cogito_two_fenced
        "ollama/ollama:model/parsers/cogito_test.go@fb30760996871fa9460115c753afd2c60d4ab0f7",
        '<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>get_weather\n```json\n{"location":"Paris"}\n```<｜tool▁call▁end｜>\n<｜tool▁call▁begin｜>function<｜tool▁sep｜>get_weather\n```json\n{"location":"London"}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>',
        [("get_weather", {"location": "Paris"}), ("get_weather", {"location": "London"})],
    ),
    Real(  # ollama_deepseek_r1_fenced_ascii_bars: ASCII bars instead of full-width; `function<|tool▁sep|>NAME` then a ```json fence (DeepSeek V3/R1 form); <|end▁of▁sentence|> is the EOS token, not text
        "ollama/ollama:tools/tools_test.go@fb30760996871fa9460115c753afd2c60d4ab0f7",
        '<think>Wait, I need to call a tool</think><|tool▁calls▁begin|><|tool▁call▁begin|>function<|tool▁sep|>get_temperature\n```json\n{"city": "Tokyo"}\n```<|tool▁call▁end|><|tool▁calls▁end|><|end▁of▁sentence|>',
        [("get_temperature", {"city": "Tokyo"})],
        reasoning="Wait, I need to call a tool",
    ),
    Real(  # ollama_deepseek_r1_streamed_split_tokens
        "ollama/ollama:tools/tools_test.go@fb30760996871fa9460115c753afd2c60d4ab0f7",
        '<think>Wait, I need to call a tool</think><|tool▁calls▁begin|><|tool▁call▁begin|>function<|tool▁sep|>get_temperature\n```json\n{"city": "Tokyo"}\n```<|tool▁call▁end|><|tool▁calls▁end|><|end▁of▁sentence|>',
        [("get_temperature", {"city": "Tokyo"})],
        reasoning="Wait, I need to call a tool",
    ),
    Real(  # ollama_v31_empty_args
        "ollama/ollama:model/parsers/deepseek3_test.go@fb30760996871fa9460115c753afd2c60d4ab0f7",
        "Pinging server.<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>ping<｜tool▁sep｜>{}<｜tool▁call▁end｜><｜tool▁calls▁end｜>",
        [("ping", {})],
        visible="Pinging server.",
    ),
    Real(  # ollama_v31_escaped_quotes
        "ollama/ollama:model/parsers/deepseek3_test.go@fb30760996871fa9460115c753afd2c60d4ab0f7",
        'Processing data.<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>execute_command<｜tool▁sep｜>{"command":"ls && echo \\"done\\"","path":"/home/user"}<｜tool▁call▁end｜><｜tool▁calls▁end｜>',
        [("execute_command", {"command": 'ls && echo "done"', "path": "/home/user"})],
        visible="Processing data.",
    ),
    Real(  # ollama_v31_nested_args
        "ollama/ollama:model/parsers/deepseek3_test.go@fb30760996871fa9460115c753afd2c60d4ab0f7",
        'Processing data.<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>process_data<｜tool▁sep｜>{"items":["item1","item2"],"config":{"enabled":true,"threshold":0.95}}<｜tool▁call▁end｜><｜tool▁calls▁end｜>',
        [("process_data", {"items": ["item1", "item2"], "config": {"enabled": True, "threshold": 0.95}})],
        visible="Processing data.",
    ),
    Real(  # ollama_v31_simple
        "ollama/ollama:model/parsers/deepseek3_test.go@fb30760996871fa9460115c753afd2c60d4ab0f7",
        'I\'ll check the weather.<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>get_weather<｜tool▁sep｜>{"location":"Paris"}<｜tool▁call▁end｜><｜tool▁calls▁end｜>',
        [("get_weather", {"location": "Paris"})],
        visible="I'll check the weather.",
    ),
    Real(  # ollama_v31_text_after
        "ollama/ollama:model/parsers/deepseek3_test.go@fb30760996871fa9460115c753afd2c60d4ab0f7",
        'I\'ll help you.<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>get_weather<｜tool▁sep｜>{"location":"Tokyo"}<｜tool▁call▁end｜><｜tool▁calls▁end｜>完成 ✅',
        [("get_weather", {"location": "Tokyo"})],
        visible="I'll help you.完成 ✅",
    ),
    Real(  # ollama_v31_two_calls
        "ollama/ollama:model/parsers/deepseek3_test.go@fb30760996871fa9460115c753afd2c60d4ab0f7",
        'Getting weather for both cities.<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>get_weather<｜tool▁sep｜>{"location":"Paris"}<｜tool▁call▁end｜><｜tool▁call▁begin｜>get_weather<｜tool▁sep｜>{"location":"London"}<｜tool▁call▁end｜><｜tool▁calls▁end｜>',
        [("get_weather", {"location": "Paris"}), ("get_weather", {"location": "London"})],
        visible="Getting weather for both cities.",
    ),
    Real(  # ollama_v31_unicode_args
        "ollama/ollama:model/parsers/deepseek3_test.go@fb30760996871fa9460115c753afd2c60d4ab0f7",
        'Searching for information.<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>search<｜tool▁sep｜>{"query":"北京天气","language":"中文"}<｜tool▁call▁end｜><｜tool▁calls▁end｜>',
        [("search", {"query": "北京天气", "language": "中文"})],
        visible="Searching for information.",
    ),
]


@pytest.mark.parametrize("case", CASES, ids=[f"{i}" for i in range(len(CASES))])
def test_a_real_deepseek_output_is_read_at_every_split_point(case: Real) -> None:
    check(case)


def test_a_call_whose_section_opener_is_missing_is_still_read() -> None:
    text = 'Sure.<｜tool▁call▁begin｜>get_weather<｜tool▁sep｜>{"location": "Paris"}<｜tool▁call▁end｜>'
    check(Real("variant", text, [("get_weather", {"location": "Paris"})], visible="Sure."))


def test_a_section_cut_before_its_end_tokens_still_gives_the_whole_call() -> None:
    text = '<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>get_weather<｜tool▁sep｜>{"location": "Paris"}'
    check(Real("variant", text, [("get_weather", {"location": "Paris"})]))


def test_arguments_cut_off_are_an_error_not_a_call() -> None:
    text = '<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>get_weather<｜tool▁sep｜>{"location": "Par'
    check(Real("variant", text, [], errors=1, tools=["get_weather"]))


def test_the_tokens_mentioned_in_prose_without_a_call_shape_stay_visible() -> None:
    text = "DeepSeek opens calls with <｜tool▁calls▁begin｜> and then writes a call."
    result = check(Real("variant", text, [], visible=text, tools=["get_weather"]), every_split=False)
    assert result["errors"] == []


_HEAD = "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>"
_TAIL = "<｜tool▁call▁end｜><｜tool▁calls▁end｜>"


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ("python\n```python\nx = 1\nprint(x)\n```", "x = 1\nprint(x)"),  # DeepSeek-R1 (functionary's r1 template)
        ("python\n```\nimport math\n```", "import math"),  # a fence with no language
        ("python\n```py\ny = {'a': 1}\n```", "y = {'a': 1}"),  # a dict inside the code: still code
    ],
)
def test_a_fenced_body_that_is_no_json_is_the_value_of_the_tools_one_string_parameter(body: str, code: str) -> None:
    tools = [tool("python", code="string"), tool("get_weather", city="string")]
    check(
        Real(
            "written",
            f"Running it.{_HEAD}{body}{_TAIL}",
            [("python", {"code": code})],
            visible="Running it.",
            tools=tools,
        )
    )


def test_a_fenced_body_that_is_no_json_for_a_tool_without_one_string_parameter_is_an_error() -> None:
    text = f"{_HEAD}get_weather\n```python\nx = 1\n```{_TAIL}"
    tools = [tool("get_weather", city="string", days="integer")]
    check(Real("written", text, [], visible="", tools=tools, errors=1), visible=False)


@pytest.mark.parametrize(
    ("text", "calls"),
    [
        # olmlx's tests: the type word's line break in place of the separator token
        (
            '<|tool_calls_begin|><|tool_call_begin|>function\nget_weather\n{"city": "Berlin"}<|tool_call_end|>'
            "<|tool_calls_end|>",
            [("get_weather", {"city": "Berlin"})],
        ),
        (
            "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function\nlist_items\n<｜tool▁call▁end｜><｜tool▁calls▁end｜>",
            [("list_items", {})],
        ),
        (  # no arguments after the separator either
            "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>list_items<｜tool▁sep｜><｜tool▁call▁end｜><｜tool▁calls▁end｜>",
            [("list_items", {})],
        ),
        (
            "<|tool_calls_begin|><|tool_call_begin|>function\nlist_items\n<|tool_call_end|>"
            '<|tool_call_begin|>function\nget_weather\n```json\n{"city": "Oslo"}\n```<|tool_call_end|><|tool_calls_end|>',
            [("list_items", {}), ("get_weather", {"city": "Oslo"})],
        ),
    ],
)
def test_a_type_word_on_its_own_line_or_a_call_with_no_arguments_is_read(
    text: str, calls: list[tuple[str, dict[str, object]]]
) -> None:
    check(Real("written: olmlx's DeepSeek variants", text, calls, tools=["get_weather", "list_items"]))


def test_a_type_word_line_with_no_tool_name_after_it_is_an_error_not_a_call() -> None:
    text = "<|tool_calls_begin|><|tool_call_begin|>function\n<|tool_call_end|><|tool_calls_end|>"
    result = check(Real("written", text, [], errors=1, tools=["list_items"]), visible=False)
    assert result["calls"] == []


@pytest.mark.parametrize(
    "text",
    [
        # The type word and its separator left out, the name alone before the fence (rLLM's R1 parser tests).
        '<｜tool▁call▁begin｜>get_weather\n```json\n{"location": "Paris"}\n```\n<｜tool▁call▁end｜>',
        '  <｜tool▁call▁begin｜>get_weather\n        ```json\n        {"location": "Paris"}\n        ```\n'
        "        <｜tool▁call▁end｜>\n",
        # The name in angle brackets after the type word (ik_llama.cpp's R1 tests).
        '<｜tool▁calls▁begin｜>\n<｜tool▁call▁begin｜>\nfunction<get_weather>\n```json\n{"location": "Paris"}\n```\n'
        "<｜tool▁call▁end｜>\n<｜tool▁calls▁end｜>",
        '<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<get_weather>\n```\n{"location": "Paris"}```<｜tool▁call▁end｜>',
    ],
)
def test_a_name_with_no_separator_before_a_fenced_object_is_read(text: str) -> None:
    check(Real("written: rLLM's and ik_llama.cpp's R1 tests", text, [("get_weather", {"location": "Paris"})]))


@pytest.mark.parametrize(
    "text",
    [
        "The <｜tool▁call▁begin｜> token\n```json\nis shown here\n```",
        "Write <｜tool▁call▁begin｜>get_weather\nthen the arguments.",
    ],
)
def test_a_call_token_before_prose_or_a_fence_of_no_object_stays_text(text: str) -> None:
    check(Real("written", text, [], visible=text, tools=["get_weather"]), visible=False)


ODS = "ollama/ollama:model/parsers/deepseek3_test.go (tool_output cases)"


@pytest.mark.parametrize(
    ("text", "visible"),
    [
        (
            "Here's the weather: <｜tool▁output▁begin｜>Temperature: 22°C, Sunny<｜tool▁output▁end｜> Hope that helps!",
            "Here's the weather: Temperature: 22°C, Sunny Hope that helps!",
        ),
        (
            "Results: <｜tool▁output▁begin｜>Paris: 22°C<｜tool▁output▁end｜> and <｜tool▁output▁begin｜>London: 18°C<｜tool▁output▁end｜>",
            "Results: Paris: 22°C and London: 18°C",
        ),
        (
            "<|tool_outputs_begin|><|tool_output_begin|>42<|tool_output_end|><|tool_outputs_end|>Das ist 42.",
            "42Das ist 42.",
        ),
    ],
)
def test_deepseeks_tool_output_tokens_in_an_answer_are_markup_and_their_content_stays_text(
    text: str, visible: str
) -> None:
    result = check(Real(ODS, text, [], visible=visible, tools=[tool("get_weather", city="string")]))
    assert "tool" not in result["text"]


def test_tool_output_words_in_prose_stay_text() -> None:
    text = "DeepSeek frames a result in tool output begin / tool output end tokens, <tool_output> here."
    check(Real(ODS, text, [], visible=text, tools=[tool("get_weather", city="string")]))
