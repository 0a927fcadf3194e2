"""Python-style calls between markers: LFM2, Llama 4, OLMo 3 and Gemma's ```tool_code fences.

Quoted outputs: LFM2 and OLMo 3 from ollama/ollama `model/parsers/lfm2_test.go` and `olmo3_test.go`, Llama 4
from sgl-project/sglang `test/srt/test_function_call_parser.py` (as collected in benchmarks/real/lfm2, olmo,
llama4). The tool_code call is the one in Google's Gemma function-calling guide
(ai.google.dev/gemma/docs/capabilities/function-calling), in the ```tool_code fence its meme-generator
guide says Gemma writes.
"""

from __future__ import annotations

from typing import Any

import pytest

from shim.parsing.readers.pycall import parse_arguments
from tests.parsing.chunking import parse_everywhere

REAL: list[tuple[str, list[str], list[tuple[str, dict[str, Any]]], str]] = [
    (
        "Processing data.<|tool_call_start|>[process_data(items=['item1','item2'], config={'enabled': True, "
        "'threshold': 0.95})]<|tool_call_end|>",
        ["process_data"],
        [("process_data", {"items": ["item1", "item2"], "config": {"enabled": True, "threshold": 0.95}})],
        "Processing data.",
    ),
    (
        "<think>Let me check the weather...</think>I'll get that for you.<|tool_call_start|>"
        '[get_weather(location="Paris")]<|tool_call_end|>',
        ["get_weather"],
        [("get_weather", {"location": "Paris"})],
        "I'll get that for you.",
    ),
    (
        'Getting weather for both cities.<|tool_call_start|>[get_weather(location="Paris")]<|tool_call_end|>'
        '<|tool_call_start|>[get_weather(location="London")]<|tool_call_end|>',
        ["get_weather"],
        [("get_weather", {"location": "Paris"}), ("get_weather", {"location": "London"})],
        "Getting weather for both cities.",
    ),
    (
        "User wants to get the weather in Mars. <|python_start|>[get_weather(location='Mars', unit='celsius')]"
        "<|python_end|> In this way we will get the weather in Mars.",
        ["get_weather", "search"],
        [("get_weather", {"location": "Mars", "unit": "celsius"})],
        "User wants to get the weather in Mars.  In this way we will get the weather in Mars.",
    ),
    (
        '<function_calls>get_weather(location="San Francisco")\nget_weather(location="New York")</function_calls>',
        ["get_weather"],
        [("get_weather", {"location": "San Francisco"}), ("get_weather", {"location": "New York"})],
        "",
    ),
    (
        '<function_calls>book_flight(from="SFO", to="NYC", date="2024-01-15")</function_calls>',
        ["book_flight"],
        [("book_flight", {"from": "SFO", "to": "NYC", "date": "2024-01-15"})],
        "",
    ),
    (
        '<function_calls>create_request(data={"user": {"name": "John", "age": 30}, "active": true})</function_calls>',
        ["create_request"],
        [("create_request", {"data": {"user": {"name": "John", "age": 30}, "active": True}})],
        "",
    ),
    (
        "Let me check the weather.<function_calls>clear_value(field=null)</function_calls>",
        ["clear_value"],
        [("clear_value", {"field": None})],
        "Let me check the weather.",
    ),
    (
        '<function_calls>search(query="say \\"hello\\"")</function_calls>',
        ["search"],
        [("search", {"query": 'say "hello"'})],
        "",
    ),
    (
        "<function_calls>get_current_time()</function_calls>",
        ["get_current_time"],
        [("get_current_time", {})],
        "",
    ),
    (
        'I will look it up.\n```tool_code\nget_product_name_by_PID(PID="807ZPKBL9V")\n```\n',
        ["get_product_name_by_PID"],
        [("get_product_name_by_PID", {"PID": "807ZPKBL9V"})],
        "I will look it up.\n\n",
    ),
]


@pytest.mark.parametrize(("text", "tools", "calls", "visible"), REAL)
def test_python_style_calls_between_markers_are_read_at_every_split_point(
    text: str, tools: list[str], calls: list[tuple[str, dict[str, Any]]], visible: str
) -> None:
    result = parse_everywhere(text, tools)
    assert [(c["name"], c["arguments"]) for c in result["calls"]] == calls
    assert result["text"] == visible
    assert result["errors"] == []


def test_a_tool_code_fence_of_two_lines_gives_two_calls_and_json_inside_it_is_read_too() -> None:
    text = '```tool_code\nget_weather(city="Lima")\nget_time(zone="UTC")\n```'
    result = parse_everywhere(text, ["get_weather", "get_time"])
    assert [c["name"] for c in result["calls"]] == ["get_weather", "get_time"]
    fenced_json = '```tool_code\n{"name": "get_time", "arguments": {"zone": "UTC"}}\n```'
    assert [c["name"] for c in parse_everywhere(fenced_json, ["get_time"])["calls"]] == ["get_time"]


@pytest.mark.parametrize(
    "text",
    [
        "```tool_code\nprint(sum([1, 2]))\n```",  # code in a fence, not an offered tool
        "Wrap calls in <function_calls> and </function_calls> tags.",
        "<function_calls>os.remove(path='x')</function_calls>",
        "from functools import partial; functools[0] is not a thing",
        # code using the tool (a fence holding only the call, opening the message, is the answer: test_code_fence)
        "```python\nresult = get_weather(city='Lima')\n```",
        'START, END = "<|python_start|>", "<|python_end|>"  # Llama 4 markers quoted in code',
        'if "<|tool_call_start|>" in text:',
    ],
)
def test_prose_and_code_around_weak_markers_stay_text_with_zero_errors(text: str) -> None:
    result = parse_everywhere(text, ["get_weather"])
    assert result["calls"] == [] and result["errors"] == []
    assert result["text"].startswith(text.split("<|tool_call_end|>")[0])  # the opener and the name stay text


def test_a_call_after_a_special_token_that_is_not_python_is_one_error() -> None:
    result = parse_everywhere("<|tool_call_start|>[get_weather(city=Lima)]<|tool_call_end|>", ["get_weather"])
    assert result["calls"] == []
    assert len(result["errors"]) == 1 and "'Lima' is not a literal value" in result["errors"][0]["message"]


def test_arguments_take_json_and_python_literals_and_keywords_python_reserves() -> None:
    assert parse_arguments("a=true, b=None, c=[1, -2.5], d={'k': (1, 2)}, from='x', ") == {
        "a": True,
        "b": None,
        "c": [1, -2.5],
        "d": {"k": [1, 2]},
        "from": "x",
    }
    with pytest.raises(ValueError, match="keyword argument"):
        parse_arguments("'positional'")


@pytest.mark.parametrize(
    "text",
    [
        '```tool_code\nprint(get_weather(city="Paris"))\n```',
        '```tool_code\nprint(default_api.get_weather(city="Paris"))\n```',
        '```tool_code\nprint( get_weather(city="Paris") )\n```',
        '```tool_code\nget_weather(city="Paris")\n```',
    ],
)
def test_a_tool_code_call_inside_print_is_the_call(text: str) -> None:
    result = parse_everywhere(text, ["get_weather"])
    assert [(c["name"], c["arguments"]) for c in result["calls"]] == [("get_weather", {"city": "Paris"})]
    assert result["text"] == ""


def test_print_of_two_tool_code_calls_reads_both() -> None:
    text = '```tool_code\nprint(get_weather(city="Paris"))\nprint(get_weather(city="Rome"))\n```'
    result = parse_everywhere(text, ["get_weather"])
    assert [c["arguments"] for c in result["calls"]] == [{"city": "Paris"}, {"city": "Rome"}]


@pytest.mark.parametrize(
    "text",
    [
        '<tool_code>get_weather(city="Paris")</tool_code>',
        '<tool_code>\nprint(get_weather(city="Paris"))\n</tool_code>',
    ],
)
def test_tool_code_tags_read_like_the_tool_code_fence(text: str) -> None:
    result = parse_everywhere(text, ["get_weather"])
    assert [(c["name"], c["arguments"]) for c in result["calls"]] == [("get_weather", {"city": "Paris"})]


def test_tool_code_tags_around_an_unoffered_call_stay_text() -> None:
    text = '<tool_code>os.remove(path="x")</tool_code>'
    result = parse_everywhere(text, ["get_weather"])
    assert result["calls"] == [] and result["text"] == text


def _tool(name: str, **types: str) -> dict[str, Any]:
    return {"name": name, "inputSchema": {"type": "object", "properties": {k: {"type": t} for k, t in types.items()}}}


_SCHEMAS = [
    _tool("search_files", pattern="string", limit="integer"),
    _tool("get_weather", city="string"),
    _tool("configure", key="object"),
    {
        "name": "wrap",
        "inputSchema": {"type": "object", "properties": {"wrap": {"type": "object", "properties": {"wrap": {}}}}},
    },
]


@pytest.mark.parametrize(
    ("text", "call"),
    [
        # Gemma 3 in a <tool_call> block, as small models write Python calls when the schema is offered.
        ("<tool_call>search_files('*.py')</tool_call>", ("search_files", {"pattern": "*.py"})),
        ("<tool_call>search_files('*.py', 5)</tool_call>", ("search_files", {"pattern": "*.py", "limit": 5})),
        ("<tool_call>search_files('*.py', limit=5)</tool_call>", ("search_files", {"pattern": "*.py", "limit": 5})),
        ('<tool_call>search_files(pattern: "*.py")</tool_call>', ("search_files", {"pattern": "*.py"})),
        ('<tool_call>get_weather({city: "London"})</tool_call>', ("get_weather", {"city": "London"})),
        ('```tool_code\nsearch_files({pattern: "a", limit: 2})\n```', ("search_files", {"pattern": "a", "limit": 2})),
        ("<tool_call>get_weather(city: Antwerp)</tool_call>", ("get_weather", {"city": "Antwerp"})),
        ("<tool_call>get_weather(city=New York)</tool_call>", ("get_weather", {"city": "New York"})),
        # One parameter taking an object, and the object names it: the arguments, not a value holding a `key`.
        ('<tool_call>configure({"key": {"nested": true}})</tool_call>', ("configure", {"key": {"nested": True}})),
        ('<tool_call>configure({"depth": 2})</tool_call>', ("configure", {"key": {"depth": 2}})),
        ('<tool_call>wrap({"wrap": {"wrap": 1}})</tool_call>', ("wrap", {"wrap": {"wrap": {"wrap": 1}}})),
    ],
)
def test_positional_object_literal_and_bare_word_arguments_bind_to_the_offered_schema(
    text: str, call: tuple[str, dict[str, Any]]
) -> None:
    result = parse_everywhere(text, _SCHEMAS)
    assert [(c["name"], c["arguments"]) for c in result["calls"]] == [call]
    assert result["text"] == "" and result["errors"] == []


@pytest.mark.parametrize(
    "source",
    [
        "'a', 'b', 'c'",  # more positional arguments than parameters
        "pattern='a', 'b'",  # a positional after a keyword
        "limit=five",  # a bare word where the schema wants an integer
    ],
)
def test_arguments_the_schema_cannot_bind_are_refused(source: str) -> None:
    with pytest.raises(ValueError):
        parse_arguments(source, {"pattern": {"type": "string"}, "limit": {"type": "integer"}})


def test_without_a_schema_a_positional_or_bare_word_is_still_refused() -> None:
    with pytest.raises(ValueError, match="keyword argument"):
        parse_arguments("'*.py'")
    with pytest.raises(ValueError, match="not a literal"):
        parse_arguments("city=Antwerp")


@pytest.mark.parametrize(
    ("text", "calls", "visible"),
    [
        (  # Gemma 3 4B in google-gemini/gemma-cookbook (benchmarks/real/gemma_tool_code)
            "I will read it.\n\n```tool_code\nsummary = read_file(filename='notes.txt')\nprint(summary)\n```",
            [("read_file", {"filename": "notes.txt"})],
            "I will read it.",
        ),
        (
            '```tool_code\na = get_weather(city="Lima")\nb = get_time(zone="UTC")\nprint(a)\nprint(b)\n```\nDone.',
            [("get_weather", {"city": "Lima"}), ("get_time", {"zone": "UTC"})],
            "Done.",
        ),
        ('<tool_code>\nresult=get_time(zone="UTC")\n</tool_code>', [("get_time", {"zone": "UTC"})], ""),
        # Gemma 4 E2B under load, vllm-mlx's tests: no fence, the block's word as the variable
        ('tool_code = get_weather(city="Dune")\nprint(tool_code)', [("get_weather", {"city": "Dune"})], ""),
        (
            'Checking.\ntool_code = get_time(zone="UTC")\nprint(tool_code)\n',
            [("get_time", {"zone": "UTC"})],
            "Checking.",
        ),
    ],
)
def test_a_tool_code_call_may_be_assigned_and_its_result_printed(
    text: str, calls: list[tuple[str, dict[str, Any]]], visible: str
) -> None:
    result = parse_everywhere(text, ["read_file", "get_weather", "get_time"])
    assert ([(c["name"], c["arguments"]) for c in result["calls"]], " ".join(result["text"].split())) == (
        calls,
        visible,
    )


@pytest.mark.parametrize(
    "text",
    [
        "```tool_code\nx = compute(3)\nprint(x)\n```",  # not an offered tool
        "```python\nsummary = read_file(filename='notes.txt')\nprint(summary)\n```",  # a Python fence shows code
        "Then tool_code = read_file(filename='a') runs.",  # mid-sentence
        "tool_code = other(filename='a')\nprint(tool_code)",  # not an offered tool
        "print(summary)",
    ],
)
def test_an_assignment_or_print_without_that_evidence_stays_text(text: str) -> None:
    result = parse_everywhere(text, ["read_file"])
    assert (result["calls"], result["text"]) == ([], text)


@pytest.mark.parametrize(
    ("text", "visible"),
    [
        # LocalCowork's LFM tests (Liquid4All/cookbook): the tool's name alone between the tokens
        ("<|tool_call_start|>system.get_system_info<|tool_call_end|>", ""),
        ("Checking.<|tool_call_start|> system.get_system_info \n<|tool_call_end|>", "Checking."),
        ("<|tool_call_start|>get_time<|tool_call_end|> Done.", "Done."),
        ("<|python_start|>get_time<|python_end|>", ""),
    ],
)
def test_an_offered_tools_name_alone_between_call_tokens_is_a_call_without_arguments(text: str, visible: str) -> None:
    result = parse_everywhere(text, ["system.get_system_info", "get_time", "get_weather"])
    assert [(c["name"], c["arguments"]) for c in result["calls"]] == [
        ("system.get_system_info" if "system" in text else "get_time", {})
    ]
    assert result["text"].strip() == visible and result["errors"] == []


@pytest.mark.parametrize(
    "text",
    [
        "<|tool_call_start|>delete_everything<|tool_call_end|>",  # no offered tool
        "<|tool_call_start|>get_time please<|tool_call_end|>",  # more than a name
        "The <|tool_call_start|>get_time token",  # no closing token after the name
    ],
)
def test_a_name_alone_between_call_tokens_without_that_evidence_is_no_call(text: str) -> None:
    result = parse_everywhere(text, ["get_time"])
    assert result["calls"] == [] and result["errors"] == []
    assert result["text"].startswith(text.split("<|tool_call_end|>")[0])  # the opener and the name stay text
