"""JSON calls between special tokens (`shim.parsing.readers.special_tokens`, the ``<tool_calls>`` /
``<TOOLCALL>`` rows of `tagged_json`), at every split point."""

from __future__ import annotations

import pytest

from tests.parsing.readers.cases import Real, check, tool

LLAMA_CPP = "ggml-org/llama.cpp:tests/test-chat.cpp@0042e2079d3428ba7af410df553202aa7fdf8d7a"
VLLM = "vllm-project/vllm:tests/tool_parsers/test_internlm2_tool_parser.py@0661799351bff0ebe06a5c4799b0be7a96fa6ff0"
LMDEPLOY = "InternLM/lmdeploy:tests/test_lmdeploy/serve/parsers/test_interns1_parser.py@1263d5cd889b7ad500e85b8eb20401327a4516ab"

CASES = [
    Real(  # InternLM: text before, the wrapper tokens are markup
        VLLM,
        'Let me check the weather for you. <|action_start|><|plugin|>{"name": "get_weather", '
        '"parameters": {"city": "Tokyo"}}<|action_end|>',
        [("get_weather", {"city": "Tokyo"})],
        visible="Let me check the weather for you.",
    ),
    Real(  # Intern-S1: a newline between the two opening tokens, pretty-printed
        LMDEPLOY,
        '<|action_start|>\n<|plugin|>\n{\n    "name": "get_weather",\n    "parameters": {"city": "Berlin"}\n}<|action_end|>',
        [("get_weather", {"city": "Berlin"})],
    ),
    Real(  # Command R7B: reasoning, then a list of {tool_call_id, tool_name, parameters}
        LLAMA_CPP,
        "<|START_THINKING|>I'm\nthinking<|END_THINKING|><|START_ACTION|>[\n"
        '    {"tool_call_id": "0", "tool_name": "special_function", "parameters": {"arg1": 1}}\n]<|END_ACTION|>',
        [("special_function", {"arg1": 1})],
        reasoning="I'm\nthinking",
    ),
    Real(  # variant: two actions, and the response tokens around text are markup
        "written: Command R7B's response tokens",
        '<|START_RESPONSE|>On it.<|END_RESPONSE|><|START_ACTION|>[{"tool_name": "a", "parameters": {"x": 1}}, '
        '{"tool_name": "b", "parameters": {}}]<|END_ACTION|>',
        [("a", {"x": 1}), ("b", {})],
        visible="On it.",
    ),
    Real(  # variant: Command A's text frame after the action block (smg's cohere tests) is markup too
        "written: Command A's text tokens",
        '<|START_ACTION|>[{"tool_name": "a", "parameters": {"x": 1}}]<|END_ACTION|>\n<|START_TEXT|>Running.<|END_TEXT|>',
        [("a", {"x": 1})],
        visible="\nRunning.",
    ),
    Real(  # Apertus: each call keyed by its tool's name
        LLAMA_CPP,
        '<|tools_prefix|>[{"special_function": {"arg1": 1}}]<|tools_suffix|>',
        [("special_function", {"arg1": 1})],
        tools=[tool("special_function", arg1="integer")],
    ),
    Real(  # Apriel <tool_calls>: the wrapper leaves nothing visible
        LLAMA_CPP,
        '<tool_calls>[{"name": "special_function", "arguments": {"arg1": 1}}]</tool_calls>',
        [("special_function", {"arg1": 1})],
    ),
    Real(  # Nemotron Nano 2 <TOOLCALL>, after an orphan </think>
        LLAMA_CPP,
        'I\'m thinking\n</think>\n<TOOLCALL>[{"name": "special_function", "arguments": {"arg1": 1}}]</TOOLCALL>\n',
        [("special_function", {"arg1": 1})],
        visible="I'm thinking",
    ),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.text[:40])
def test_a_call_between_special_tokens_is_read_and_the_tokens_are_markup(case: Real) -> None:
    check(case)


def test_a_call_keyed_by_a_name_that_was_not_offered_is_an_error_not_a_call() -> None:
    case = Real("written", '<|tools_prefix|>[{"other": {"x": 1}}]<|tools_suffix|>', [], errors=1)
    check(case, visible=False)


_EDGE_TOOLS = [tool("get_weather", city="string", days="integer")]


@pytest.mark.parametrize(
    ("text", "calls", "visible"),
    [
        ('<|begin_of_text|><tool_call>{"name": "get_weather", "arguments": {"city": "Oslo"}}</tool_call>', 1, ""),
        ('<s> [get_weather(city="Oslo")]</s>', 1, ""),
        ('[/INST] {"name": "get_weather", "parameters": {"city": "Oslo"}}', 1, ""),
        ('<|eot_id|>\n[get_weather(city="Oslo")]', 1, ""),
        ("<bos><|im_end|>\nIt is sunny in Oslo.", 0, "It is sunny in Oslo."),
        ("<\uff5cbegin\u2581of\u2581sentence\uff5c>Sunny, 21 °C.", 0, "Sunny, 21 °C."),  # DeepSeek
    ],
)
def test_a_sequence_or_turn_edge_token_opening_the_message_is_markup(text: str, calls: int, visible: str) -> None:
    expected = [("get_weather", {"city": "Oslo"})] * calls
    check(Real("written", text, expected, visible=visible, tools=_EDGE_TOOLS))


@pytest.mark.parametrize(
    "text",
    [
        "Was <s>$20</s> now $15, a bargain.",  # HTML's strike-through mid-text
        "<s>[INST] What is the weather in Oslo? [/INST]",  # a rendered prompt shown whole
        "<|begin_of_text|><|start_header_id|>user<|end_header_id|>\n\nWeather in Oslo?<|eot_id|>",
        '<s>[AVAILABLE_TOOLS] [{"type": "function", "function": {"name": "get_weather", "parameters": {"type": '
        '"object", "properties": {"city": {"type": "string"}}}}}][/AVAILABLE_TOOLS][INST] Oslo? [/INST]',
    ],
)
def test_the_same_tokens_mid_text_or_before_another_roles_turn_stay_text(text: str) -> None:
    check(Real("written", text, [], visible=text, tools=_EDGE_TOOLS))
