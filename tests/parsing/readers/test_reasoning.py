"""Think blocks (`shim.parsing.readers.reasoning`): a call drafted inside a closed block is reasoning; a call
that opens inside a block the model never closed is the model's own; each at every split point."""

from __future__ import annotations

import pytest

from tests.parsing.readers.cases import Real, check

LLAMA_CPP = "ggml-org/llama.cpp:tests/test-chat.cpp@0042e2079d3428ba7af410df553202aa7fdf8d7a"
LMDEPLOY = (
    "InternLM/lmdeploy:tests/test_lmdeploy/serve/parsers/test_glm47_parser.py@1263d5cd889b7ad500e85b8eb20401327a4516ab"
)

CASES = [
    Real(  # the call opener ends a think block that was never closed (GLM-4.7)
        LMDEPLOY,
        "<think>first reason<tool_call>get_weather<arg_key>location</arg_key><arg_value>Beijing</arg_value></tool_call>",
        [("get_weather", {"location": "Beijing"})],
        reasoning="first reason",
    ),
    Real(  # Kimi: two calls inside an unclosed think, without section or end markers
        LLAMA_CPP,
        "<think>I need to call two functions<|tool_call_begin|>functions.special_function:0<|tool_call_argument_begin|>"
        '{"arg1": 1}<|tool_call_begin|>functions.python:1<|tool_call_argument_begin|>{"code": "print(\'hey\')"}',
        [("special_function", {"arg1": 1}), ("python", {"code": "print('hey')"})],
        reasoning="I need to call two functions",
    ),
    Real(  # LFM2.5: a call marker inside a closed think is a draft; the one after it is the call
        LLAMA_CPP,
        "<think>Let me think about <|tool_call_start|>[special_function(arg1=1)]<|tool_call_end|> hmm</think>"
        "<|tool_call_start|>[special_function(arg1=1)]<|tool_call_end|>",
        [("special_function", {"arg1": 1})],
        reasoning="Let me think about <|tool_call_start|>[special_function(arg1=1)]<|tool_call_end|> hmm",
    ),
    Real(  # variant: a drafted call in a closed think, then an answer and no call
        "written",
        '<think>maybe <tool_call>{"name": "f", "arguments": {}}</tool_call>? no.</think>The answer is 4.',
        [],
        visible="The answer is 4.",
        tools=["f"],
        reasoning='maybe <tool_call>{"name": "f", "arguments": {}}</tool_call>? no.',
    ),
    Real(  # variant: the template opened the block; the model calls without closing it
        "written: a template that opens <think> in the prompt",
        'Let me check.\n\n<tool_call>{"name": "f", "arguments": {"x": 1}}</tool_call>',
        [("f", {"x": 1})],
        in_reasoning=True,
        reasoning="Let me check.",
    ),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.text[:40])
def test_a_call_in_a_think_block_is_reasoning_only_if_the_block_closes(case: Real) -> None:
    check(case)
