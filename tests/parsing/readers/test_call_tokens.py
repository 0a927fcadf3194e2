"""Calls between special tokens whose words say "call" (`shim.parsing.readers.call_tokens`), and the other
general rules of the hunt-4 pass: a family prefix joined by a bar (``<ifm|tool_call>``), reasoning tokens of any
bracket style, elements named by the parameters inside ``<invoke>``, PLaMo's format word, Kimi's separator left out,
and Cohere's citation tags. Each variant is checked at every split point, beside a counterpart that stays text.

The variants are written for these tests (other names, values, spellings) after the grammars of the engines'
parsers: vLLM ``gigachat3_tool_parser.py`` and ``solar_open_tool_parser.py``, SGLang ``kimik3_detector.py`` and
``k2v3_detector.py``, Xinference ``minimax_m3_tool_parser.py``, vLLM ``plamo3_tool_parser.py``.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from tests.parsing.chunking import parse_everywhere
from tests.parsing.readers.cases import Real, check, tool

LOOKUP = {
    "name": "lookup",
    "inputSchema": {
        "type": "object",
        "properties": {"term": {"type": "string"}, "limit": {"type": "integer"}, "opts": {"type": "object"}},
    },
}
CLOCK = {"name": "clock", "inputSchema": {"type": "object", "properties": {}}}
TOOLS = [LOOKUP, CLOCK]

Calls = list[tuple[str, dict[str, Any]]]

CALL_TOKENS: list[tuple[str, Calls, str, str]] = [
    # GigaChat 3.1: a call token, then a JSON call.
    ('<|function_call|>{"name": "lookup", "arguments": {"term": "owl"}}', [("lookup", {"term": "owl"})], "", ""),
    ('Sure.<|tool_call|>{"name": "clock", "arguments": {}}', [("clock", {})], "Sure.", ""),
    (
        '<\uff5cfunction_calls\uff5c>[{"name": "lookup", "arguments": {"term": "a"}}]',
        [("lookup", {"term": "a"})],
        "",
        "",
    ),
    ('<|function call start|> {"name": "clock", "arguments": {}}<|function call end|>', [("clock", {})], "", ""),
    # GigaChat 3: a role header addressing a function.
    (
        '<|message_sep|>\n\nfunction call<|role_sep|>\n{"name": "lookup", "arguments": {"limit": 2}}</s>',
        [("lookup", {"limit": 2})],
        "",
        "",
    ),
    ('Ok<|sep|>tool_call<|sep|>{"name": "clock", "arguments": {}}', [("clock", {})], "Ok", ""),
    # Solar Open: a start token, the name, argument tokens; reasoning tokens of the same style.
    (
        "<|tool_call:start|>lookup\n<|tool_arg:start|>term<|tool_arg:value|>a b<|tool_arg:end|>\n"
        "<|tool_arg:start|>limit<|tool_arg:value|>7<|tool_arg:end|>\n<|tool_call:end|>",
        [("lookup", {"term": "a b", "limit": 7})],
        "",
        "",
    ),
    (
        "<|think:start|>plan<|think:end|>Now.<|tool_call:begin|>clock\n<|tool_call:end|>"
        "<|tool_call:begin|>lookup<|tool_arg_begin|>term<|tool_arg_value|>x<|tool_arg_end|><|tool_call:end|>",
        [("clock", {}), ("lookup", {"term": "x"})],
        "Now.",
        "plan",
    ),
    # Kimi K3's open / close grammar; a response section is visible text.
    (
        "<|open|>response<|sep|>Hi.<|close|>response<|sep|><|open|>tools<|sep|>"
        '<|open|>call tool="lookup" index="0"<|sep|><|open|>argument key="term" type="string"<|sep|>z'
        '<|close|>argument<|sep|><|open|>argument key="opts" type="object"<|sep|>{"k": [1]}<|close|>argument<|sep|>'
        '<|close|>call<|sep|><|open|>call tool="clock" index="1"<|sep|><|close|>call<|sep|><|close|>tools<|sep|>',
        [("lookup", {"term": "z", "opts": {"k": [1]}}), ("clock", {})],
        "Hi.",
        "",
    ),
    # A fence whose language is a call word.
    ('```tool_call\n{"name": "lookup", "term": "q"}\n```', [("lookup", {"term": "q"})], "", ""),
]


@pytest.mark.parametrize(("text", "calls", "visible", "reasoning"), CALL_TOKENS)
def test_calls_between_tokens_that_say_call_are_read_at_every_split_point(
    text: str, calls: Calls, visible: str, reasoning: str
) -> None:
    result = parse_everywhere(text, TOOLS)
    assert [(c["name"], c["arguments"]) for c in result["calls"]] == calls
    assert result["text"].strip() == visible
    assert result["reasoning"] == reasoning
    assert result["errors"] == []


PROSE = [
    "The <|function_call|> token starts a call in GigaChat.",
    "Write <|tool_call:start|> then the name.",
    "A header such as <|message_sep|>function call<|role_sep|> opens the call turn.",
    "Use ```tool_call fences\nfor calls.",
    "<|open|>call is how Kimi K3 spells it.",
    "A <co>citation</co> tag without its spans.",
]


@pytest.mark.parametrize("text", PROSE)
def test_call_tokens_named_in_prose_stay_text(text: str) -> None:
    result = parse_everywhere(text, TOOLS)
    assert result["calls"] == []
    assert result["text"] == text


@pytest.mark.parametrize(
    ("text", "calls", "reasoning"),
    [
        (
            "<abc|think>r</abc|think><abc|tool_calls>\n<abc|tool_call>lookup<abc|arg_key>term</abc|arg_key>"
            "<abc|arg_value>v</abc|arg_value></abc|tool_call>\n</abc|tool_calls>",
            [("lookup", {"term": "v"})],
            "r",
        ),
        (
            "<ifm|think_slow>s</ifm|think_slow><ifm|tool_call>lookup<ifm|arg_key>limit</ifm|arg_key>"
            "<ifm|arg_type>integer</ifm|arg_type><ifm|arg_value>4</ifm|arg_value></ifm|tool_call>",
            [("lookup", {"limit": 4})],
            "s",
        ),
        (
            '<ifm|tool_call>{"name": "lookup", "arguments": "{\\"term\\": \\"t\\"}"}</ifm|tool_call>',
            [("lookup", {"term": "t"})],
            "",
        ),
    ],
)
def test_a_family_prefix_joined_by_a_bar_reads_like_any_prefix(text: str, calls: Calls, reasoning: str) -> None:
    result = parse_everywhere(text, TOOLS)
    assert [(c["name"], c["arguments"]) for c in result["calls"]] == calls
    assert result["text"].strip() == ""
    assert result["reasoning"] == reasoning


SEARCH = {
    "name": "search",
    "inputSchema": {
        "type": "object",
        "properties": {
            "q": {"type": "string"},
            "tags": {"type": "array", "items": {"type": "string"}},
            "box": {"type": "object", "properties": {"lo": {"type": "number"}, "on": {"type": "boolean"}}},
        },
    },
}


@pytest.mark.parametrize(
    ("text", "arguments"),
    [
        ('<invoke name="search"><q>a &amp; b &lt;c&gt;</q></invoke>', {"q": "a & b <c>"}),
        ('<invoke name="search"><tags><item>x</item><item>y</item></tags></invoke>', {"tags": ["x", "y"]}),
        ('<invoke name="search"><tags>x</tags><tags>y</tags></invoke>', {"tags": ["x", "y"]}),
        ('<invoke name="search"><tags>solo</tags></invoke>', {"tags": ["solo"]}),
        ('<invoke name="search"><box><lo>-1.5</lo><on>true</on></box></invoke>', {"box": {"lo": -1.5, "on": True}}),
        ('<invoke name="search"></invoke>', {}),
    ],
)
def test_invoke_arguments_as_elements_named_by_the_parameters(text: str, arguments: dict[str, Any]) -> None:
    for wrapped in (text, f"<minimax:tool_call>{text}</minimax:tool_call>", f"<mm:think>r</mm:think>{text}"):
        result = parse_everywhere(wrapped, [SEARCH])
        assert [(c["name"], c["arguments"]) for c in result["calls"]] == [("search", arguments)]
        assert result["text"] == ""


def test_invoke_elements_of_a_tool_not_offered_stay_a_call_of_that_name() -> None:
    result = parse_everywhere('<invoke name="other"><q>1</q></invoke>', [SEARCH])
    assert [(c["name"], c["arguments"]) for c in result["calls"]] == [("other", {"q": "1"})]


@pytest.mark.parametrize(
    "text",
    [
        "<|p:begin_tool_requests:p|><|p:begin_tool_request:p|><|p:begin_tool_name:p|>lookup<|p:end_tool_name:p|>"
        '<|p:begin_tool_arguments:p|><|p:constrain|>json<|p:msg|>{"term": "m"}<|p:end_tool_arguments:p|>'
        "<|p:end_tool_request:p|><|p:begin_tool_request:p|><|p:begin_tool_name:p|>clock<|p:end_tool_name:p|>"
        "<|p:begin_tool_arguments:p|><|p:constrain|>json<|p:msg|>{}<|p:end_tool_arguments:p|>"
        "<|p:end_tool_request:p|><|p:end_tool_requests:p|>",
        '<|calls|><|call_start|>lookup<|args|>json<|msg|>{"term": "m"}<|call_end|><|call_start|>clock<|args|>{}'
        "<|call_end|>",
    ],
)
def test_a_format_word_between_tokens_and_a_second_call_after_the_first(text: str) -> None:
    result = parse_everywhere(text, TOOLS)
    assert [(c["name"], c["arguments"]) for c in result["calls"]] == [("lookup", {"term": "m"}), ("clock", {})]
    assert result["text"] == ""


def test_a_kimi_call_without_its_argument_token_reads_the_json_after_the_name() -> None:
    text = (
        '<|tool_calls_section_begin|> <|tool_call_begin|> functions.ext.lookup:3  {"term": "k"} <|tool_call_end|>'
        " <|tool_calls_section_end|>"
    )
    result = parse_everywhere(text, [{"name": "ext__lookup", "inputSchema": LOOKUP["inputSchema"]}])
    assert [(c["name"], c["arguments"]) for c in result["calls"]] == [("ext__lookup", {"term": "k"})]
    assert result["text"].strip() == ""


@pytest.mark.parametrize(
    ("text", "visible"),
    [
        ("<|START_RESPONSE|>a <co>b</co: 0:[1,2],1:[3]> c<|END_RESPONSE|>", "a b c"),
        ("x <co>y z</co: 2:[0]>.", "x y z."),
    ],
)
def test_cohere_citation_tags_are_markup_and_the_cited_text_stays(text: str, visible: str) -> None:
    result = parse_everywhere(text, TOOLS)
    assert result["calls"] == []
    assert result["text"] == visible


K3_TOOLS = [tool("exec", input="string"), {"name": "plan", "inputSchema": {"type": "object", "properties": {"p": {}}}}]
_K3_CALL = (
    '<|open|>tools<|sep|><|open|>call tool="exec" index="1"<|sep|><|open|>argument key="input" type="string"<|sep|>'
    "ls<|close|>argument<|sep|><|close|>call<|sep|><|close|>tools<|sep|>"
)


@pytest.mark.parametrize(
    ("text", "calls", "visible", "reasoning"),
    [
        # The think channel, the response channel, the section, the message's end: all markup around the text.
        (
            f"<|open|>think<|sep|>plan<|close|>think<|sep|><|open|>response<|sep|>Hi.<|close|>response<|sep|>{_K3_CALL}"
            "<|close|>message<|sep|><|end_of_msg|>",
            [("exec", {"input": "ls"})],
            "Hi.",
            "plan",
        ),
        # Tokens on lines of their own; the message's closer then the end token on the next line.
        (
            "<|open|>response<|sep|>Hi.<|close|>response<|sep|>\n"
            + _K3_CALL.replace("<|sep|><|open|>", "<|sep|>\n<|open|>")
            + "\n<|close|>message<|sep|>\n<|end_of_msg|>",
            [("exec", {"input": "ls"})],
            "Hi.",
            "",
        ),
        # The call's closer left out: the section's closer ends it.
        (_K3_CALL.replace("<|close|>call<|sep|>", ""), [("exec", {"input": "ls"})], "", ""),
        # A key escaped as an XML attribute; a value typed by the markup where the schema gives no type.
        (
            '<|open|>call tool="exec"<|sep|><|open|>argument key="in&quot;put" type="string"<|sep|>x'
            '<|close|>argument<|sep|><|close|>call<|sep|><|open|>call tool="plan"<|sep|><|open|>argument key="p" '
            'type="array"<|sep|>[{"s": 1}]<|close|>argument<|sep|><|close|>call<|sep|>',
            [("exec", {'in"put': "x"}), ("plan", {"p": [{"s": 1}]})],
            "",
            "",
        ),
    ],
)
def test_kimi_k3_channels_sections_and_message_end_are_markup(
    text: str, calls: Calls, visible: str, reasoning: str
) -> None:
    check(
        Real(
            "written: Kimi K3 (TensorRT-LLM corpus shapes)",
            text,
            calls,
            visible=visible,
            tools=K3_TOOLS,
            reasoning=reasoning,
        )
    )


@pytest.mark.parametrize(
    "text",
    [
        "K3 calls start with <|open|>tools<|sep|> and end with <|close|>tools<|sep|>; that is all.",
        "Messages end with <|close|>message<|sep|> and then more.",
        "The stop token is <|end_of_msg|> and after it comes more text.",
    ],
)
def test_kimi_k3_section_and_message_tokens_named_in_prose_stay_text(text: str) -> None:
    check(Real("written: K3 tokens in prose", text, [], visible=text, tools=K3_TOOLS))


def test_a_prompt_opened_k3_think_channel_closes_at_its_own_closer() -> None:
    text = f"I will list.<|close|>think<|sep|><|open|>response<|sep|>Listing.<|close|>response<|sep|>{_K3_CALL}"
    case = Real(
        "written: generation starts in K3's think channel", text, [("exec", {"input": "ls"})], visible="Listing."
    )
    check(replace(case, tools=K3_TOOLS, in_reasoning=True, reasoning="I will list."))


@pytest.mark.parametrize(
    ("text", "calls"),
    [
        # TensorRT-LLM's Kimi K3 corpus: all arguments in one JSON block instead of argument pairs.
        (
            '<|open|>tools<|sep|><|open|>call tool="plan" index="1"<|sep|><|open|>json type="object"<|sep|>'
            '{"p": "a \\"q\\" plan"}<|close|>json<|sep|><|close|>call<|sep|><|close|>tools<|sep|>',
            [("plan", {"p": 'a "q" plan'})],
        ),
        (
            '<|open|>call tool="exec"<|sep|>\n<|open|>json<|sep|>\n{"input": "ls"}\n<|close|>json<|sep|>\n'
            '<|close|>call<|sep|><|open|>call tool="plan"<|sep|><|open|>json<|sep|>{"p": [1]}<|close|>json<|sep|>'
            "<|close|>call<|sep|>",
            [("exec", {"input": "ls"}), ("plan", {"p": [1]})],
        ),
    ],
)
def test_a_kimi_k3_call_with_its_arguments_in_one_json_block_is_read(text: str, calls: Calls) -> None:
    result = parse_everywhere(text, K3_TOOLS, every_split=False, seeds=12)
    assert [(c["name"], c["arguments"]) for c in result["calls"]] == calls
    assert result["text"].strip() == "" and result["errors"] == []


def test_a_kimi_k3_json_block_named_in_prose_stays_text() -> None:
    text = 'The <|open|>json<|sep|> token opens a block of {"input": "ls"} arguments.'
    result = parse_everywhere(text, K3_TOOLS, every_split=False, seeds=6)
    assert result["calls"] == [] and result["text"] == text


@pytest.mark.parametrize(
    ("text", "reasoning"),
    [
        (
            '<|FunctionCallBegin|>User needs the weather in Paris.[{"name": "get_weather", "parameters": {"city": "Paris"}}]'
            "<|FunctionCallEnd|>",
            "User needs the weather in Paris.",
        ),
        (
            '<mcp_env>\n<|FunctionCallBegin|>I look it up</think>\n[{"name":"get_weather","parameters":{"city":"Paris"}}]'
            "\n</mcp_env>",
            "I look it up",
        ),
        (
            '<|function_call:start|> checking the weather {"name": "get_weather", "arguments": {"city": "Paris"}}<|function_call:end|>',
            "checking the weather",
        ),
    ],
)
def test_a_thought_inside_a_call_token_before_its_json_is_reasoning(text: str, reasoning: str) -> None:
    check(
        Real(
            "written: Seed in UI-TARS' MCP environment thinks inside the call token",
            text,
            [("get_weather", {"city": "Paris"})],
            reasoning=reasoning,
        )
    )


@pytest.mark.parametrize(
    "text",
    [
        "<|FunctionCallBegin|>I could not find a tool for that.<|FunctionCallEnd|>",  # no JSON after the words
        '<|FunctionCallBegin|>See <a href="x">the docs</a> [{"name": "other", "arguments": {}}]',  # markup
    ],
)
def test_words_in_a_call_token_with_no_json_call_after_them_are_not_reasoning(text: str) -> None:
    result = check(Real("written: counterparts", text, [], visible=text, tools=["get_weather"]), visible=False)
    assert result["reasoning"] == ""
