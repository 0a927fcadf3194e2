"""Untagged calls for offered tools (`shim.parsing.readers.untagged`, `pythonic_list`): bare JSON and pythonic lists."""

from __future__ import annotations

import pytest

from tests.parsing.chunking import parse_everywhere
from tests.parsing.readers.cases import Real, check, tool

# Quoted from the peer tests named in each case (corpus: benchmarks/real/llama3_json, llama_pythonic).
# Visible text is not compared for these: separators such as "; " between calls stay visible.
CASES = [
    Real(  # issue_llama32_brace_in_string: a closing brace inside a string value; the response content decoded from the JSON the user pasted
        "https://github.com/ollama/ollama/issues/12017",
        '{"name": "write_log", "parameters": {"message": "}A"}}',
        [("write_log", {"message": "}A"})],
        tools=[
            {
                "name": "write_log",
                "parameters": {
                    "type": "object",
                    "properties": {"message": {"type": "string"}},
                    "required": ["message"],
                },
            }
        ],
    ),
    Real(  # issue_parameters_key_llama31
        "https://github.com/raullenchai/Rapid-MLX/issues/700",
        '{"name": "web_search", "parameters": {"query": "你好"}}',
        [("web_search", {"query": "你好"})],
        tools=[
            {
                "name": "web_search",
                "parameters": {"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"]},
            }
        ],
    ),
    Real(  # issue_two_bare_objects_llama31: the response's text part, decoded from the JSON the user pasted
        "https://github.com/sgomez/ollama-ai-provider/pull/11",
        '{\n  "name": "weather",\n  "arguments": {\n    "location": "San Francisco"\n  }\n} {\n  "name": "cityAttractions",\n  "arguments": {\n    "city": "San Francisco"\n  }\n}',
        [("weather", {"location": "San Francisco"}), ("cityAttractions", {"city": "San Francisco"})],
    ),
    Real(  # mlx_bare_json_numbers
        "ml-explore/mlx-lm:tests/test_tool_parsing.py@d78bf58e217c904ec282ed8da9b947491f78c022",
        '{"name": "multiply", "arguments": {"a": 12234585, "b": 48838483920}}',
        [("multiply", {"a": 12234585, "b": 48838483920})],
        tools=[
            {
                "name": "multiply",
                "parameters": {
                    "type": "object",
                    "required": ["a", "b"],
                    "properties": {"a": {"type": "number"}, "b": {"type": "number"}},
                },
            }
        ],
    ),
    Real(  # ollama_bare_json_streamed
        "ollama/ollama:tools/tools_test.go@fb30760996871fa9460115c753afd2c60d4ab0f7",
        '{"name": "get_temperature","arguments": {"city": "Tokyo"}}',
        [("get_temperature", {"city": "Tokyo"})],
    ),
    Real(  # ollama_bare_json_unoffered_name: `search` is not an offered tool: the JSON stays text
        "ollama/ollama:tools/tools_test.go@fb30760996871fa9460115c753afd2c60d4ab0f7",
        '{"name": "search", "arguments": {"query": "What is the capital of Canada?"}}',
        [],
        visible='{"name": "search", "arguments": {"query": "What is the capital of Canada?"}}',
    ),
    Real(  # ollama_json_list_two_calls
        "ollama/ollama:tools/tools_test.go@fb30760996871fa9460115c753afd2c60d4ab0f7",
        '[{"name": "get_temperature", "arguments": {"city": "London"}},{"name": "get_conditions", "arguments": {"location": "Tokyo"}}]',
        [("get_temperature", {"city": "London"}), ("get_conditions", {"location": "Tokyo"})],
    ),
    Real(  # vllm_brace_in_trailing_text
        "vllm-project/vllm:tests/tool_parsers/test_llama3_json_tool_parser.py@1e499e36c5828a75c6ca8b76631d264be1187005",
        '{"name": "searchTool", "parameters": {"query": "test"}} I used {searchTool} for this.',
        [("searchTool", {"query": "test"})],
        visible="I used {searchTool} for this.",
    ),
    Real(  # vllm_brackets_in_strings
        "vllm-project/vllm:tests/tool_parsers/test_llama3_json_tool_parser.py@1e499e36c5828a75c6ca8b76631d264be1187005",
        '{"name": "searchTool", "parameters": {"query": "test {value} [complex]","nested": {"inner": "more {brackets}"}}}',
        [("searchTool", {"query": "test {value} [complex]", "nested": {"inner": "more {brackets}"}})],
    ),
    Real(  # vllm_deep_nesting
        "vllm-project/vllm:tests/tool_parsers/test_llama3_json_tool_parser.py@1e499e36c5828a75c6ca8b76631d264be1187005",
        '{"name": "complexTool", "parameters": {"level1": {"level2": {"level3": {"level4": {"value": "deep"}}}}}}',
        [("complexTool", {"level1": {"level2": {"level3": {"level4": {"value": "deep"}}}}})],
    ),
    Real(  # vllm_escaped_quotes
        "vllm-project/vllm:tests/tool_parsers/test_llama3_json_tool_parser.py@1e499e36c5828a75c6ca8b76631d264be1187005",
        '{"name": "parserTool", "parameters": {"text": "He said \\"Hello {world}\\""}}',
        [("parserTool", {"text": 'He said "Hello {world}"'})],
    ),
    Real(  # vllm_json_fragment_in_trailing_text
        "vllm-project/vllm:tests/tool_parsers/test_llama3_json_tool_parser.py@1e499e36c5828a75c6ca8b76631d264be1187005",
        '{"name": "searchTool", "parameters": {"query": "test"}} The arguments I passed were {"query": "test"}',
        [("searchTool", {"query": "test"})],
        visible='The arguments I passed were {"query": "test"}',
    ),
    Real(  # vllm_newline_separated: built as the test builds it: two calls joined by the separator "\n"
        "vllm-project/vllm:tests/tool_parsers/test_llama3_json_tool_parser.py@1e499e36c5828a75c6ca8b76631d264be1187005",
        '{"name": "searchTool", "parameters": {"query": "test1"}}\n{"name": "getOpenIncidentsTool", "parameters": {}}',
        [("searchTool", {"query": "test1"}), ("getOpenIncidentsTool", {})],
    ),
    Real(  # vllm_parameters_key
        "vllm-project/vllm:tests/tool_parsers/test_llama3_json_tool_parser.py@1e499e36c5828a75c6ca8b76631d264be1187005",
        '{"name": "searchTool", "parameters": {"query": "test query", "limit": 10}}',
        [("searchTool", {"query": "test query", "limit": 10})],
    ),
    Real(  # vllm_semicolon_separated: the '; ' separators belong to the call list (Llama 3.2's parallel form), not to the visible text
        "vllm-project/vllm:tests/tool_parsers/test_llama3_json_tool_parser.py@1e499e36c5828a75c6ca8b76631d264be1187005",
        '{"name": "searchTool", "parameters": {"query": "test1"}}; {"name": "getOpenIncidentsTool", "parameters": {}}; {"name": "searchTool", "parameters": {"query": "test2"}}',
        [("searchTool", {"query": "test1"}), ("getOpenIncidentsTool", {}), ("searchTool", {"query": "test2"})],
    ),
    Real(  # vllm_semicolons_with_text
        "vllm-project/vllm:tests/tool_parsers/test_llama3_json_tool_parser.py@1e499e36c5828a75c6ca8b76631d264be1187005",
        'Here are the results: {"name": "searchTool", "parameters": {"query": "test1"}}; {"name": "getOpenIncidentsTool", "parameters": {}}; {"name": "searchTool", "parameters": {"query": "test2"}} Would you like to know more?',
        [("searchTool", {"query": "test1"}), ("getOpenIncidentsTool", {}), ("searchTool", {"query": "test2"})],
        visible="Here are the results: Would you like to know more?",
    ),
    Real(  # vllm_text_around_parameters: vLLM drops the surrounding text; a reader keeps it visible
        "vllm-project/vllm:tests/tool_parsers/test_llama3_json_tool_parser.py@1e499e36c5828a75c6ca8b76631d264be1187005",
        'Here is the result: {"name": "getOpenIncidentsTool", "parameters": {}} Would you like to know more?',
        [("getOpenIncidentsTool", {})],
        visible="Here is the result: Would you like to know more?",
    ),
    Real(  # mlx_list_numbers
        "ml-explore/mlx-lm:tests/test_tool_parsing.py@d78bf58e217c904ec282ed8da9b947491f78c022",
        "[multiply(a=12234585, b=48838483920)]",
        [("multiply", {"a": 12234585, "b": 48838483920})],
        tools=[
            {
                "name": "multiply",
                "parameters": {
                    "type": "object",
                    "required": ["a", "b"],
                    "properties": {"a": {"type": "number"}, "b": {"type": "number"}},
                },
            }
        ],
    ),
    Real(  # mlx_list_string
        "ml-explore/mlx-lm:tests/test_tool_parsing.py@d78bf58e217c904ec282ed8da9b947491f78c022",
        '[get_current_temperature(location="London")]',
        [("get_current_temperature", {"location": "London"})],
        tools=[
            {
                "name": "get_current_temperature",
                "parameters": {"type": "object", "required": ["location"], "properties": {"location": {"type": "str"}}},
            }
        ],
    ),
    Real(  # sglang_bare_list
        "sgl-project/sglang:test/srt/test_function_call_parser.py@03400a9e4d955eff2606cfe621c83a710c16cc97",
        "[search(query='python programming')]",
        [("search", {"query": "python programming"})],
        tools=[
            {
                "name": "get_weather",
                "parameters": {
                    "properties": {
                        "location": {"type": "string"},
                        "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]},
                    },
                    "required": ["location"],
                },
            },
            {"name": "search", "parameters": {"properties": {"query": {"type": "string"}}, "required": ["query"]}},
        ],
    ),
    Real(  # sglang_dict_arg
        "sgl-project/sglang:test/srt/test_function_call_parser.py@03400a9e4d955eff2606cfe621c83a710c16cc97",
        "[search(query='test', config={'options': [1, 2], 'nested': {'key': 'value'}})]",
        [("search", {"query": "test", "config": {"options": [1, 2], "nested": {"key": "value"}}})],
        tools=[
            {
                "name": "get_weather",
                "parameters": {
                    "properties": {
                        "location": {"type": "string"},
                        "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]},
                    },
                    "required": ["location"],
                },
            },
            {"name": "search", "parameters": {"properties": {"query": {"type": "string"}}, "required": ["query"]}},
        ],
    ),
    Real(  # sglang_list_arg
        "sgl-project/sglang:test/srt/test_function_call_parser.py@03400a9e4d955eff2606cfe621c83a710c16cc97",
        "[get_weather(location='New York', unit='celsius', data=[1, 2, 3])]",
        [("get_weather", {"location": "New York", "unit": "celsius", "data": [1, 2, 3]})],
        tools=[
            {
                "name": "get_weather",
                "parameters": {
                    "properties": {
                        "location": {"type": "string"},
                        "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]},
                    },
                    "required": ["location"],
                },
            },
            {"name": "search", "parameters": {"properties": {"query": {"type": "string"}}, "required": ["query"]}},
        ],
    ),
    Real(  # sglang_streamed_nested
        "sgl-project/sglang:test/srt/test_function_call_parser.py@03400a9e4d955eff2606cfe621c83a710c16cc97",
        "Here's a call: [get_weather(location='Tokyo', data=[1, 2, 3])]",
        [("get_weather", {"location": "Tokyo", "data": [1, 2, 3]})],
        visible="Here's a call:",
        tools=[
            {
                "name": "get_weather",
                "parameters": {
                    "properties": {
                        "location": {"type": "string"},
                        "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]},
                    },
                    "required": ["location"],
                },
            },
            {"name": "search", "parameters": {"properties": {"query": {"type": "string"}}, "required": ["query"]}},
        ],
    ),
    Real(  # sglang_streamed_partial
        "sgl-project/sglang:test/srt/test_function_call_parser.py@03400a9e4d955eff2606cfe621c83a710c16cc97",
        "Let me check the weather: [get_weather(location='Paris')]",
        [("get_weather", {"location": "Paris"})],
        visible="Let me check the weather:",
        tools=[
            {
                "name": "get_weather",
                "parameters": {
                    "properties": {
                        "location": {"type": "string"},
                        "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]},
                    },
                    "required": ["location"],
                },
            },
            {"name": "search", "parameters": {"properties": {"query": {"type": "string"}}, "required": ["query"]}},
        ],
    ),
    Real(  # sglang_text_after
        "sgl-project/sglang:test/srt/test_function_call_parser.py@03400a9e4d955eff2606cfe621c83a710c16cc97",
        "[get_weather(location='Tokyo')] Here's the forecast:",
        [("get_weather", {"location": "Tokyo"})],
        visible="Here's the forecast:",
        tools=[
            {
                "name": "get_weather",
                "parameters": {
                    "properties": {
                        "location": {"type": "string"},
                        "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]},
                    },
                    "required": ["location"],
                },
            },
            {"name": "search", "parameters": {"properties": {"query": {"type": "string"}}, "required": ["query"]}},
        ],
    ),
    Real(  # sglang_text_before
        "sgl-project/sglang:test/srt/test_function_call_parser.py@03400a9e4d955eff2606cfe621c83a710c16cc97",
        "Here's a tool call: [get_weather(location='New York', unit='celsius')]",
        [("get_weather", {"location": "New York", "unit": "celsius"})],
        visible="Here's a tool call:",
        tools=[
            {
                "name": "get_weather",
                "parameters": {
                    "properties": {
                        "location": {"type": "string"},
                        "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]},
                    },
                    "required": ["location"],
                },
            },
            {"name": "search", "parameters": {"properties": {"query": {"type": "string"}}, "required": ["query"]}},
        ],
    ),
    Real(  # sglang_text_before_short
        "sgl-project/sglang:test/srt/test_function_call_parser.py@03400a9e4d955eff2606cfe621c83a710c16cc97",
        "This is some text before [get_weather(location='London')]",
        [("get_weather", {"location": "London"})],
        visible="This is some text before",
        tools=[
            {
                "name": "get_weather",
                "parameters": {
                    "properties": {
                        "location": {"type": "string"},
                        "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]},
                    },
                    "required": ["location"],
                },
            },
            {"name": "search", "parameters": {"properties": {"query": {"type": "string"}}, "required": ["query"]}},
        ],
    ),
    Real(  # sglang_two_calls_nested
        "sgl-project/sglang:test/srt/test_function_call_parser.py@03400a9e4d955eff2606cfe621c83a710c16cc97",
        "[get_weather(location='Paris', data=[10, 20]), search(query='test', filters=['a', 'b'])]",
        [
            ("get_weather", {"location": "Paris", "data": [10, 20]}),
            ("search", {"query": "test", "filters": ["a", "b"]}),
        ],
        tools=[
            {
                "name": "get_weather",
                "parameters": {
                    "properties": {
                        "location": {"type": "string"},
                        "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]},
                    },
                    "required": ["location"],
                },
            },
            {"name": "search", "parameters": {"properties": {"query": {"type": "string"}}, "required": ["query"]}},
        ],
    ),
    Real(  # sglang_two_lists_with_text
        "sgl-project/sglang:test/srt/test_function_call_parser.py@03400a9e4d955eff2606cfe621c83a710c16cc97",
        "[get_weather(location='Berlin')] and [search(query='restaurants')]",
        [("get_weather", {"location": "Berlin"}), ("search", {"query": "restaurants"})],
        visible="and",
        tools=[
            {
                "name": "get_weather",
                "parameters": {
                    "properties": {
                        "location": {"type": "string"},
                        "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]},
                    },
                    "required": ["location"],
                },
            },
            {"name": "search", "parameters": {"properties": {"query": {"type": "string"}}, "required": ["query"]}},
        ],
    ),
    Real(  # vllm_llama4_empty_dict
        "vllm-project/vllm:tests/tool_parsers/test_llama4_pythonic_tool_parser.py@0716d268c7d81e445bd9ae30205f7bf4cfacd7d5",
        "[do_something_cool(additional_data={})]",
        [("do_something_cool", {"additional_data": {}})],
    ),
    Real(  # vllm_llama4_escaped_quotes
        "vllm-project/vllm:tests/tool_parsers/test_llama4_pythonic_tool_parser.py@0716d268c7d81e445bd9ae30205f7bf4cfacd7d5",
        "[get_weather(city='Martha\\'s Vineyard', metric='\\\"cool units\\\"')]",
        [("get_weather", {"city": "Martha's Vineyard", "metric": '"cool units"'})],
    ),
    Real(  # vllm_llama4_more_types
        "vllm-project/vllm:tests/tool_parsers/test_llama4_pythonic_tool_parser.py@0716d268c7d81e445bd9ae30205f7bf4cfacd7d5",
        "[register_user(name='Doe', age=9, address={'city': 'LA', 'state': 'CA'}, role=None, passed_test=True, aliases=['John', 'Johnny'])]",
        [
            (
                "register_user",
                {
                    "name": "Doe",
                    "age": 9,
                    "address": {"city": "LA", "state": "CA"},
                    "role": None,
                    "passed_test": True,
                    "aliases": ["John", "Johnny"],
                },
            )
        ],
    ),
    Real(  # vllm_llama4_parallel_no_spaces
        "vllm-project/vllm:tests/tool_parsers/test_llama4_pythonic_tool_parser.py@0716d268c7d81e445bd9ae30205f7bf4cfacd7d5",
        "[get_weather(city='LA',metric='C'),register_user(name='Doe',age=9)]",
        [("get_weather", {"city": "LA", "metric": "C"}), ("register_user", {"name": "Doe", "age": 9})],
    ),
]


@pytest.mark.parametrize("case", CASES, ids=[f"{i}" for i in range(len(CASES))])
def test_a_real_untagged_output_is_read_at_every_split_point(case: Real) -> None:
    check(case, visible=False)


def test_json_after_prose_is_a_call_only_with_a_call_shape_and_an_offered_tool() -> None:
    text = 'Here: {"name": "get_weather", "arguments": {"city": "Paris"}} and {"name": "rm_rf", "arguments": {}}.'
    result = check(Real("variant", text, [("get_weather", {"city": "Paris"})], tools=["get_weather"]), visible=False)
    assert '{"name": "rm_rf", "arguments": {}}' in result["text"]


def test_json_data_mid_prose_stays_text() -> None:
    for text in ['The config is {"name": "get_weather", "version": 2} here.', "Lists like [1, 2, 3] and [a(b)] stay."]:
        check(Real("variant", text, [], visible=text, tools=["get_weather", "a"]))


ENVELOPE_TOOLS = [tool("file_view", path="string", view_range="array"), tool("get_weather", city="string")]


@pytest.mark.parametrize(
    ("text", "calls"),
    [
        (  # Devstral on llama.cpp, quoted in https://github.com/ggml-org/llama.cpp/issues/14697
            '{\n  "tool_calls": [\n    {\n      "name": "file_view",\n      "arguments": {\n        "path": "src/util.rs",\n        "view_range": [\n          20,\n          40\n        ]\n      },\n      "id": "162875335"\n    }\n  ]\n}',
            [("file_view", {"path": "src/util.rs", "view_range": [20, 40]})],
        ),
        (  # the OpenAI wire shape of each call, two calls
            '{"tool_calls": [{"id": "a", "type": "function", "function": {"name": "get_weather", "arguments": "{\\"city\\": \\"Paris\\"}"}}, {"type": "function", "function": {"name": "get_weather", "arguments": {"city": "Lima"}}}]}',
            [("get_weather", {"city": "Paris"}), ("get_weather", {"city": "Lima"})],
        ),
        (  # a whole assistant message with empty content, after an empty think block
            '<think>\n\n</think>\n\n{"role": "assistant", "content": null, "tool_calls": [{"name": "get_weather", "arguments": {"city": "Oslo"}}]}',
            [("get_weather", {"city": "Oslo"})],
        ),
        (  # one call object instead of a list, in a ```json fence
            'Checking.\n```json\n{"tool_calls": {"name": "get_weather", "arguments": {"city": "Rome"}}}\n```',
            [("get_weather", {"city": "Rome"})],
        ),
    ],
)
def test_calls_in_a_tool_calls_envelope_are_read(text: str, calls: list[tuple[str, dict[str, object]]]) -> None:
    check(Real("variant", text, calls, tools=ENVELOPE_TOOLS), visible=False)


@pytest.mark.parametrize(
    "text",
    [
        '{"tool_calls": []}',  # nothing called
        # a message of another role than the model's saying something (the model's own: its text shown, its calls
        # made, `tests/parsing/test_message_envelope_text.py`)
        '{"role": "tool", "content": "It is sunny.", "tool_calls": [{"name": "get_weather", "arguments": {"city": "Oslo"}}]}',
        '{"tool_calls": [{"name": "get_weather", "arguments": {"city": "Oslo"}}], "usage": {"total_tokens": 9}}',  # a response, not a message
        '{"tool_calls": [{"name": "lookup", "arguments": {"city": "Oslo"}}]}',  # not an offered tool
    ],
)
def test_an_envelope_that_is_not_only_calls_to_offered_tools_stays_text(text: str) -> None:
    result = check(Real("variant", text, [], tools=ENVELOPE_TOOLS), visible=False)
    assert result["text"] == text


TAGGED_TOOLS = [tool("get_info", query="string"), tool("read", file_path="string")]


@pytest.mark.parametrize(
    ("text", "calls"),
    [
        (  # Llama 3 on Groq, its failed_generation quoted in https://github.com/groq/groq-typescript/issues/103
            '<tool-use>\n{\n  "tool_calls": [\n    {\n      "id": "pending",\n      "type": "function",\n      "function": {\n        "name": "get_info"\n      },\n      "parameters": {\n        "query": "current president of the US"\n      }\n    }\n  ]\n}\n</tool-use>',
            [("get_info", {"query": "current president of the US"})],
        ),
        (  # the envelope inside Hermes' tag, two calls
            '<tool_call>{"tool_calls": [{"name": "get_info", "arguments": {"query": "a"}}, {"name": "read", "arguments": {"file_path": "b"}}]}</tool_call>',
            [("get_info", {"query": "a"}), ("read", {"file_path": "b"})],
        ),
        (  # <tool_use> with an underscore and a plain call object
            '<tool_use>{"name": "read", "arguments": {"file_path": "notes.md"}}</tool_use>',
            [("read", {"file_path": "notes.md"})],
        ),
    ],
)
def test_a_tagged_tool_calls_envelope_and_the_tool_use_tag_are_read(
    text: str, calls: list[tuple[str, dict[str, object]]]
) -> None:
    check(Real("variant", text, calls, tools=TAGGED_TOOLS))


@pytest.mark.parametrize(
    ("text", "calls"),
    [
        (  # llama-3.3-70b-versatile on Groq, quoted in https://github.com/tashfeenahmed/freellmapi/pull/291
            '<function=read={"file_path": "sample.txt"}</function>',
            [("read", {"file_path": "sample.txt"})],
        ),
        ('<function=read= {"file_path": "a.md"}</function>', [("read", {"file_path": "a.md"})]),
        ('Reading it. <function=read={"file_path": "b.md"}</function>', [("read", {"file_path": "b.md"})]),
    ],
)
def test_an_equals_sign_where_the_function_tag_closes_still_opens_a_json_call(
    text: str, calls: list[tuple[str, dict[str, object]]]
) -> None:
    check(Real("variant", text, calls, tools=TAGGED_TOOLS), visible=False)


def test_the_tool_use_tag_and_function_equals_in_prose_stay_text() -> None:
    for text in ("Wrap each call in <tool-use> tags, then wait.", "Write <function=read=PATH> to read a file."):
        result = check(Real("variant", text, [], tools=TAGGED_TOOLS), visible=False)
        assert result["text"] == text


@pytest.mark.parametrize(
    ("text", "visible"),
    [
        # Laguna, quoted by ollama/ollama's laguna parser tests (benchmarks/real/laguna)
        (
            'I\'ll run git diff for you.<user>\n{"name":"get_weather","arguments":{"city":"Paris"}}\n</user>',
            "I'll run git diff for you.",
        ),
        ('<answer>{"name": "get_weather", "arguments": {"city": "Paris"}}</answer> Done.', "Done."),
        ('<call>\n  {"name": "get_weather", "arguments": {"city": "Paris"}}\n</call>', ""),
        # supercoder's prompt asks for <@TOOL>; qwen3.5-4b leaves a stray `>` before the closer, or no closer
        ('Some text <@TOOL>{"name": "get_weather", "arguments": {"city": "Paris"}}</@TOOL> more', "Some text more"),
        ('<@TOOL>{"name": "get_weather", "arguments": {"city": "Paris"}}></@TOOL>', ""),
        ('<result>\n{"name": "get_weather", "arguments": {"city": "Paris"}} >\n</result>', ""),
        ('<@tool>{"name": "get_weather", "arguments": {"city": "Paris"}}', ""),
    ],
)
def test_a_tag_that_is_no_call_tag_around_a_json_call_is_the_calls_markup(text: str, visible: str) -> None:
    check(Real("variant", text, [("get_weather", {"city": "Paris"})], visible=visible, tools=["get_weather"]))


@pytest.mark.parametrize(
    "text",
    [
        '<data>{"name": "lookup", "arguments": {"city": "Paris"}}</data>',  # not an offered tool
        '<data>{"city": "Paris", "days": 2}</data>',  # no call's shape
        'Write `<user>{"name": "get_weather", "arguments": {"city": "Paris"}}</user>` to call it.',  # code span
        'Mail <@bob>{"name": "lookup", "arguments": {}}</@bob>',
        '<@TOOL>{"city": "Paris"}></@TOOL>',
    ],
)
def test_a_tag_around_json_that_is_no_offered_call_stays_text(text: str) -> None:
    check(Real("variant", text, [], visible=text, tools=["get_weather"]))


def test_a_tag_around_a_call_whose_closer_does_not_follow_gives_its_opener_back_as_text() -> None:
    text = '<note>{"name": "get_weather", "arguments": {"city": "Paris"}} and more</note>'
    result = check(Real("variant", text, [("get_weather", {"city": "Paris"})], tools=["get_weather"]), visible=False)
    assert result["text"] == "<note> and more</note>"


@pytest.mark.parametrize(
    ("text", "visible"),
    [
        ('<functioncall {"name": "get_weather", "arguments": {"city": "Oslo"}}>', ""),
        ('Turning it on.\n<functioncall {"name": "get_weather", "arguments": {"city": "Oslo"}} >', "Turning it on.\n"),
        ('<call  {"name": "get_weather", "arguments": {"city": "Oslo"}}/>', ""),
    ],
)
def test_a_json_call_inside_a_tags_brackets_is_read_and_the_brackets_are_markup(text: str, visible: str) -> None:
    result = parse_everywhere(text, ["get_weather"])
    assert [(c["name"], c["arguments"]) for c in result["calls"]] == [("get_weather", {"city": "Oslo"})]
    assert result["text"] == visible


@pytest.mark.parametrize(
    "text",
    [
        '<div {"name": "format_disk", "arguments": {}}>',  # not an offered tool
        '<div {"city": "Oslo"}>',  # no call's shape
    ],
)
def test_json_inside_a_tags_brackets_that_is_no_offered_call_stays_text(text: str) -> None:
    result = parse_everywhere(text, ["get_weather"])
    assert (result["calls"], result["errors"], result["text"]) == ([], [], text)


FENCED = '{"name": "get_weather", "arguments": {"city": "Boston"}}'


@pytest.mark.parametrize(
    ("text", "visible"),
    [
        # Qwen2 in mlx-omni-server#4: the model's own ```xml fence around its call
        (f"```xml\n<function_call>\n    {FENCED}\n</function_call>\n```", ""),
        (f"Checking.\n\n```xml\n{FENCED}\n```", "Checking."),
        (f"```\n<tool_call>{FENCED}</tool_call>\n```\nDone.", "Done."),
        (f"```html\n<tool_call>\n{FENCED}\n</tool_call>\n```", ""),
        (f"```xml\n<tool_call>{FENCED}</tool_call>", ""),  # never closed
    ],
)
def test_a_fence_the_model_put_around_its_call_is_markup(text: str, visible: str) -> None:
    check(Real("written", text, [("get_weather", {"city": "Boston"})], visible=visible, tools=["get_weather"]))


@pytest.mark.parametrize(
    "text",
    [
        f"For example:\n```xml\n<tool_call>{FENCED}</tool_call>\n```",  # presented: an example
        "```xml\n<config><city>Boston</city></config>\n```",  # no call in it
        f"```python\n<tool_call>{FENCED}</tool_call>\n```",  # code
    ],
)
def test_a_fence_around_an_example_or_no_call_stays_text(text: str) -> None:
    check(Real("written", text, [], visible=text, tools=["get_weather"]))


@pytest.mark.parametrize(
    ("text", "visible"),
    [
        # shadowhound's docs page: Qwen2.5-Coder's fence folded onto one line, the JSON on the opener's line.
        (f"```json {FENCED} ```", ""),
        (f"```json{FENCED} ```", ""),
        (f"Reversing now.\n```json [{FENCED}] ```\nDone.", "Reversing now.\nDone."),
        (f"``` tool_call {FENCED}\n```", ""),
    ],
)
def test_a_fence_folded_onto_one_line_around_a_call_is_markup(text: str, visible: str) -> None:
    check(Real("written", text, [("get_weather", {"city": "Boston"})], visible=visible, tools=["get_weather"]))


@pytest.mark.parametrize(
    "text",
    [
        f"```python {FENCED} ```",  # code
        f"For example: ```json {FENCED} ```",  # presented
        '```json {"city": "Boston"} ```',  # data, no call
        f"```json {{'name': 'weather'}} {FENCED}```",  # not a call alone
    ],
)
def test_a_one_line_fence_of_code_an_example_or_no_call_stays_text(text: str) -> None:
    check(Real("written", text, [], visible=text, tools=["get_weather"]))


@pytest.mark.parametrize(
    ("text", "visible"),
    [
        # Qwen2 in mlx-omni-server#4: a <response> element around a <tools> call
        (f"<response>\n  <tools>\n    {FENCED}\n  </tools>\n</response>", ""),
        (f"<answer><tool_call>{FENCED}</tool_call></answer> Done.", "Done."),
        (f"Sure.\n<output>\n<function_call>{FENCED}</function_call>\n</output>", "Sure."),
    ],
)
def test_a_tag_of_no_call_family_right_around_a_call_is_markup(text: str, visible: str) -> None:
    check(Real("written", text, [("get_weather", {"city": "Boston"})], visible=visible, tools=["get_weather"]))


@pytest.mark.parametrize(
    ("text", "calls", "visible"),
    [
        ("<div>\n<p>Hello</p>\n</div>", [], "<div>\n<p>Hello</p>\n</div>"),  # no call inside
        (  # the tag holds more than the call: its opener and closer stay text (<answer> ending the message is the
            # reply's wrapper, `reasoning.ANSWER`, so another tag here)
            f"<output><tool_call>{FENCED}</tool_call> and more</output>",
            [("get_weather", {"city": "Boston"})],
            "<output> and more</output>",
        ),
    ],
)
def test_a_tag_around_no_call_or_more_than_a_call_stays_text(text: str, calls: list, visible: str) -> None:
    check(Real("written", text, calls, visible=visible, tools=["get_weather"]))


_WEATHER = '{"name": "get_weather", "arguments": {"city": "Oslo"}}'
_TIME = '{"name": "get_time", "arguments": {"zone": "UTC"}}'
_TWO = [("get_weather", {"city": "Oslo"}), ("get_time", {"zone": "UTC"})]


@pytest.mark.parametrize(
    ("text", "calls", "visible"),
    [
        # LFM2 in mlx-swift-lm's tests: a tag between two call blocks, no closer
        (
            "<|tool_call_start|>[get_weather(city='Oslo')]<|tool_call_end|> <text> "
            "<|tool_call_start|>[get_time(zone='UTC')]<|tool_call_end|>",
            _TWO,
            "<text>",
        ),
        (f"<tool_call>{_WEATHER}</tool_call>\n<step-2>\n<tool_call>{_TIME}</tool_call>", _TWO, "<step-2>"),
        (f"<function_call>{_WEATHER}</function_call><备注>\t<function_call>{_TIME}</function_call>", _TWO, "<备注>"),
        (f"<note>{_WEATHER}\n<note>{_TIME}", _TWO, "<note>"),  # the first opens the message: its closer may be left out
        # text before the closer: the opener was text, where it stood
        (
            f"<output>\n<tool_call>{_WEATHER}</tool_call>\nDone, checking.</output>",
            _TWO[:1],
            "<output> Done, checking.</output>",
        ),
        (f"Sure.\n<reply><tool_call>{_WEATHER}</tool_call> Then the time.", _TWO[:1], "Sure. <reply> Then the time."),
    ],
)
def test_a_tag_right_before_a_call_whose_closer_does_not_come_is_text(text: str, calls: list, visible: str) -> None:
    """The tag's opener is markup until its closer comes; text first (or the output's end, after a call) gives it
    back, nothing lost."""
    check(Real("variant", text, calls, visible=visible, tools=["get_weather", "get_time"]))


@pytest.mark.parametrize(
    "text",
    [
        f"<response>\n<tool_call>{_WEATHER}</tool_call>\n<tool_call>{_TIME}</tool_call>\n</response>",
        f"<calls><tool_call>{_WEATHER}</tool_call><tool_call>{_TIME}</tool_call></calls>",
        f"<code_env>\n<tool_call>{_WEATHER}</tool_call>\n<tool_call>{_TIME}</tool_call>",  # UI-TARS: closer left out
    ],
)
def test_a_wrapper_around_several_calls_is_markup_to_its_closer(text: str) -> None:
    check(Real("variant", text, _TWO, visible="", tools=["get_weather", "get_time"]))


@pytest.mark.parametrize(
    "text",
    [
        "Put the answer in a <text> tag, then call the tool.",
        "Use <output> and </output> around the reply.",
        f"The format is:\n```\n<output><tool_call>{_WEATHER}</tool_call></output>\n```",  # an example: text
        '<output>{"name": "delete_all", "arguments": {}}</output>',  # JSON in it, of no offered tool
        "<div>\n<span>Oslo</span>\n</div>",  # a document's tags
    ],
)
def test_a_tag_mentioned_shown_or_around_no_offered_call_stays_text(text: str) -> None:
    check(Real("variant", text, [], visible=text, tools=["get_weather", "get_time"]))


_FENCED = '```json\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n```'


@pytest.mark.parametrize(
    "after",
    [
        '\n```json\n{"name": "unknown_weather", "arguments": {"city": "Berlin"}}\n```',  # vLLM's RWKV test
        "\n```python\nprint('hi')\n```",
        '\n\n```\n{"note": 1}\n```',
    ],
)
def test_a_fence_right_after_a_fenced_call_keeps_its_opener_visible(after: str) -> None:
    """The call's closing fence closes its fence: the next fence's ``` is the next block's, never markup."""
    tools = [{"name": "get_weather", "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}}}}]
    result = parse_everywhere(_FENCED + after, tools, seeds=5)
    assert [(c["name"], c["arguments"]) for c in result["calls"]] == [("get_weather", {"city": "Paris"})]
    assert result["text"] == after


@pytest.mark.parametrize(
    ("text", "visible"),
    [
        # Llama 4 (benchmarks/real/damaged): a fenced call one `}` short, the closing fence right after it.
        (
            'Step 1.\n\n```json\n{\n  "function_call": {\n  "name": "get_weather",\n  "arguments": {"city": "Oslo"}\n}\n```',
            "Step 1.",
        ),
        ('```json\n{"name": "get_weather", "arguments": {"city": "Oslo"}\n```\nDone.', "Done."),
        ('```\n[{"name": "get_weather", "arguments": {"city": "Oslo"}}\n```', ""),
    ],
)
def test_a_fenced_call_short_of_its_closing_brackets_is_completed_by_the_fence(text: str, visible: str) -> None:
    check(
        Real(
            "variant",
            text,
            [("get_weather", {"city": "Oslo"})],
            tools=[tool("get_weather", city="string")],
            visible=visible,
        )
    )


@pytest.mark.parametrize(
    "text",
    [
        '```json\n{"name": "get_weather", "arguments": {"city": \n```',  # a value missing, not only brackets
        '```json\n{"name": "lookup", "arguments": {"city": "Oslo"}\n```',  # no offered tool
        '```json\n{"name": "get_weather", "arguments": {"city": "Oslo"} ``` inline\n',  # no fence of its own line
    ],
)
def test_a_fenced_value_short_of_more_than_brackets_or_of_no_offered_tool_stays_text(text: str) -> None:
    check(Real("variant", text, [], tools=[tool("get_weather", city="string")], visible=text))


LETTA288 = "https://github.com/letta-ai/letta/pull/288 (benchmarks/real memgpt_json/b27_letta288_*)"
_SHORT_TOOLS = [tool("send_message", inner_thought="string", message="string"), tool("get_weather", city="string")]


@pytest.mark.parametrize(
    ("text", "calls", "visible"),
    [
        (  # MemGPT's local model: the outer brace never closes, an invented function return follows
            '{\n"function": "send_message",\n"params": {\n    "inner_thought": "Welcome.",\n    "message": "Hello!"\n}\n'
            'FUNCTION RETURN {"status": "OK", "message": null", "time": "2023-13-13"}',
            [("send_message", {"inner_thought": "Welcome.", "message": "Hello!"})],
            'FUNCTION RETURN {"status": "OK", "message": null", "time": "2023-13-13"}',
        ),
        (  # variant: another shape, one line, prose after it on the next line, CRLF
            '{"name": "get_weather", "arguments": {"city": "Lima"}\r\nI will wait for the result.',
            [("get_weather", {"city": "Lima"})],
            "I will wait for the result.",
        ),
        (  # variant: two brackets missing (a list of calls and its object), a blank line, then an invented turn
            '[{"name": "get_weather", "arguments": {"city": "Oslo"}\n\nUser: thanks',
            [("get_weather", {"city": "Oslo"})],
            "User: thanks",
        ),
    ],
)
def test_a_value_opening_the_message_short_of_its_outer_brackets_ends_with_its_line(
    text: str, calls: list[tuple[str, dict[str, str]]], visible: str
) -> None:
    check(Real(LETTA288, text, calls, tools=_SHORT_TOOLS, visible=visible))


@pytest.mark.parametrize(
    "text",
    [
        # after prose, the value is an example
        'The shape is\n{"name": "get_weather", "arguments": {"city": "Lima"}\nand then you close it.',
        '{"name": "get_weather", "arguments": {"city": "Lima"},\nthen more keys',  # a comma: more was coming
        '{"name": "get_weather", "arguments": {"city": "Lima",\nthen more',  # the inner value is open
        '{"name": "lookup", "arguments": {"city": "Lima"}\nDone.',  # no offered tool
        '{"name": "get_weather", "arguments": {"city": "Lima"} and more words',  # not at a line's start
        '{"name": "get_weather", "arguments": {"city": "Lima\nDone.',  # a string open
    ],
)
def test_a_value_short_of_more_than_its_outer_brackets_or_not_opening_the_message_stays_text(text: str) -> None:
    check(Real("variant", text, [], tools=_SHORT_TOOLS, visible=text))


@pytest.mark.parametrize(
    ("text", "visible"),
    [
        # Llama 3.2 3B in BFCL's result files: its call list fenced with no language.
        ("```\n[get_weather(city='Oslo')]\n```", ""),
        ("Here:\n```json\n  [get_weather(city='Oslo')]  \n```\nDone.", "Here: Done."),
        ("```\n[get_weather(city='Oslo', opts={'a': 1})]\n```", ""),
        # deepseek-coder 6.7B in BFCL's results: a Python fence opening the message, holding only the calls.
        ("```python\n[get_weather(city='Oslo')]\n```", ""),
    ],
)
def test_a_call_list_alone_in_a_fence_with_no_language_or_a_python_fence_opening_the_message_is_a_call(
    text: str, visible: str
) -> None:
    tools = [tool("get_weather", city="string", opts="object")]
    arguments = {"city": "Oslo", **({"opts": {"a": 1}} if "opts" in text else {})}
    check(Real("variant", text, [("get_weather", arguments)], tools=tools, visible=visible))


@pytest.mark.parametrize(
    "text",
    [
        "Run:\n```python\n[get_weather(city='Oslo')]\n```",  # after prose, a programming language's fence shows code
        "```\n[get_weather(city='Oslo')] + more\n```",  # code around the list
        "```\n[lookup(city='Oslo')]\n```",  # no offered tool
    ],
)
def test_a_fenced_call_list_in_code_or_of_no_offered_tool_stays_text(text: str) -> None:
    check(Real("variant", text, [], tools=[tool("get_weather", city="string")], visible=text))


@pytest.mark.parametrize(
    ("text", "visible"),
    [
        # Ollama's Command R test: the model chose to answer without tools
        (
            'Action: ```json\n[\n    {\n        "tool_name": "directly-answer",\n        "parameters": {}\n    }\n]\n```',
            "",
        ),
        # variants: the underscore spelling, one object, no fence, an answer after it
        ('Action: [{"tool_name": "directly_answer", "parameters": {}}]\nIt is 4.', "It is 4."),
        ('Action:\n{"tool_name": "Directly Answer", "parameters": {}}', ""),
    ],
)
def test_the_directly_answer_pseudo_tool_is_no_call_and_its_block_is_markup(text: str, visible: str) -> None:
    check(Real("ollama/ollama:model/parsers/commandr_test.go", text, [], visible=visible, tools=["search"]))


@pytest.mark.parametrize(
    ("text", "calls"),
    [
        # offered as a real tool, it is called
        ('Action: [{"tool_name": "directly_answer", "parameters": {}}]', [("directly_answer", {})]),
        # beside a real call, the list is no "answer directly" choice: the real call is read only if all are offered
        ('Action: [{"tool_name": "search", "parameters": {"q": "x"}}]', [("search", {"q": "x"})]),
    ],
)
def test_a_directly_answer_tool_that_was_offered_is_a_call(text: str, calls: list[tuple[str, dict[str, str]]]) -> None:
    check(Real("written", text, calls, tools=["directly_answer", "search"]))


def test_the_directly_answer_call_named_in_prose_stays_text() -> None:
    text = 'The model may write {"tool_name": "directly_answer"} to answer without tools.'
    check(Real("written", text, [], visible=text, tools=["search"]))


@pytest.mark.parametrize(
    "text",
    [
        # rnj-1 on LM Studio (workunit-benchmarks): the schema's `additionalProperties` copied beside the arguments,
        # one brace too many, then an orphan closer.
        '{"name": "update_task", "arguments": {"id": "t1"}, "additionalProperties": false}}\n</tool_call>\n',
        '{"name": "update_task", "arguments": {"id": "t1"}, "additionalProperties": false}',
        'Marking it done.\n{"additionalProperties": false, "name": "update_task", "arguments": {"id": "t1"}}',
    ],
)
def test_a_call_with_schema_keywords_copied_beside_its_arguments_is_a_call(text: str) -> None:
    result = parse_everywhere(text, ["update_task"], seeds=6)
    assert [(c["name"], c["arguments"]) for c in result["calls"]] == [("update_task", {"id": "t1"})]


def test_a_tool_definition_with_schema_keywords_stays_text() -> None:
    text = '{"name": "update_task", "description": "Update.", "parameters": {"type": "object"}, "additionalProperties": false}'
    result = parse_everywhere(text, ["update_task"], seeds=6)
    assert result["calls"] == [] and result["text"] == text


def test_a_json_message_whose_values_keep_gemma_4_delimiter_tokens_reads_the_plain_values() -> None:
    # flutter_gemma's LiteRT-LM SDK (DenisovAV/flutter_gemma): Gemma 4's call decoded to a JSON message, each
    # string still wrapped in `<|"|>`; a second message glued on
    text = (
        '{"role":"assistant","tool_calls":[{"type":"function","function":{"name":"paint",'
        '"arguments":{"color":"<|\\"|>blue<|\\"|>"}}}]}'
        '{"role":"assistant","tool_calls":[{"type":"function","function":{"name":"volume","arguments":{"level":30}}}]}'
    )
    check(
        Real(
            "DenisovAV/flutter_gemma (written variant)", text, [("paint", {"color": "blue"}), ("volume", {"level": 30})]
        )
    )


@pytest.mark.parametrize(
    "text",
    [
        # Qwen3.5-Plus in iwaitu/vllmchatclient (ToolcallParserTests.cs): the whole reply one JSON object
        '{"tool_call":[{"name":"search","arguments":{"question":"南宁火车站在哪里"}}]}',
        '{"function_call": [\n  {"name": "search", "arguments": {"question": "南宁火车站在哪里"}}\n]}',  # variant
        '<tool_call>{"tool_call": [{"name": "search", "arguments": {"question": "南宁火车站在哪里"}}]}</tool_call>',
    ],
)
def test_a_list_of_calls_under_a_singular_call_key_is_read(text: str) -> None:
    check(Real("iwaitu/vllmchatclient (and variants)", text, [("search", {"question": "南宁火车站在哪里"})]))


@pytest.mark.parametrize(
    ("text", "visible"),
    [
        # mlx-omni-server's tests: a wrapper indented as a triple-quoted literal leaves it
        (f"<function-calls>\n          {FENCED}\n        </function-calls>", ""),
        (f"<calls>\t\t\t\t\t\t\t\t\t\t{FENCED}</calls> ok", "ok"),
        # ...and an XML declaration before the call, its tag, or a tag around it: the document's prolog
        (f'<?xml version="1.0" encoding="UTF-8"?>\n        <json>\n        {FENCED}\n        </json>', ""),
        (f'Sure.\n<?xml version="1.0"?><tool_call>{FENCED}</tool_call>', "Sure."),
        (f"<?xml version='1.0'?>\n<result>{FENCED}</result>", ""),
    ],
)
def test_an_indented_wrapper_or_an_xml_declaration_around_a_call_is_markup(text: str, visible: str) -> None:
    check(Real("written", text, [("get_weather", {"city": "Boston"})], visible=visible, tools=["get_weather"]))


@pytest.mark.parametrize(
    "text",
    [
        '{"name": get_weather, "arguments": {"city": "Paris"}}',
        'Sure.\n```json\n[{"name": get_weather, "arguments": {"city": "Paris"}}]\n```',
    ],
)
def test_an_untagged_call_may_leave_the_quotes_off_an_offered_tools_name(text: str) -> None:
    result = check(
        Real(
            "written: llamadart's fallback parser tests, an unquoted name", text, [("get_weather", {"city": "Paris"})]
        ),
        visible=False,
    )
    assert "get_weather" not in result["text"]


@pytest.mark.parametrize(
    "text",
    [
        '{"name": get_weather, "arguments": {"city": Paris}}',  # a bare value: untagged, never read
        '{"name": Get-Weather, "arguments": {"city": "Paris"}}',  # not the tool's own spelling
        '{"name": function_name, "arguments": {}}',  # a stand-in
        '{\n "name": "date_difference",\n "parameters": {"first": get_current_date ()}\n}',
    ],
)
def test_other_bare_words_in_untagged_json_leave_it_text(text: str) -> None:
    check(
        Real(
            "written: prose counterparts of bare words",
            text,
            [],
            visible=text,
            tools=["get_weather", "date_difference"],
        )
    )


@pytest.mark.parametrize(
    "text",
    [
        "```\nxml\n<command>\n  <get_weather>\n    <city>Paris</city>\n  </get_weather>\n</command>\n```",
        '```\nxml\n<tool_call>{"name": "get_weather", "arguments": {"city": "Paris"}}</tool_call>\n```',
        '```\ntool_call\n\n<function_call>{"name": "get_weather", "arguments": {"city": "Paris"}}</function_call>\n```',
    ],
)
def test_a_fence_whose_language_stands_on_its_own_line_around_a_tagged_call_is_markup(text: str) -> None:
    tools = [tool("get_weather", city="string")]
    check(
        Real(
            "written: Qwen2.5-Coder 7B fences its XML call (an ask-openai log)",
            text,
            [("get_weather", {"city": "Paris"})],
            tools=tools,
        )
    )


@pytest.mark.parametrize(
    "text",
    [
        '<?xml version="1.0"?>\n<note><to>Tove</to></note>',
        '<?xml version="1.0"?>\n<data>{"name": "lookup", "arguments": {"city": "Paris"}}</data>',
        'Start the file with <?xml version="1.0"?> and then <root/>.',
    ],
)
def test_an_xml_declaration_before_no_offered_call_stays_text(text: str) -> None:
    check(Real("written", text, [], visible=text, tools=["get_weather"]))


@pytest.mark.parametrize(
    "text",
    [
        "```\nxml\n<note>\n  <city>Paris</city>\n</note>\n```",
        "```\nxml\n<command>\n  <other>x</other>\n</command>\n```",
    ],
)
def test_a_fence_of_xml_holding_no_call_is_text(text: str) -> None:
    check(Real("written: XML shown in a fence", text, [], visible=text, tools=[tool("get_weather", city="string")]))


@pytest.mark.parametrize(
    ("text", "visible"),
    [
        (
            '- {"name": "get_weather", "arguments": {"city": "Paris"}}\n- {"name": "get_weather", "arguments": {"city": "Oslo"}}',
            "\n",
        ),
        (
            'Two calls:\n1. {"name": "get_weather", "arguments": {"city": "Paris"}}\n2) {"name": "get_weather", '
            '"arguments": {"city": "Oslo"}}',
            "Two calls:\n\n",
        ),
        (
            '  * {"name": "get_weather", "arguments": {"city": "Paris"}}\n  \u2022 {"name": "get_weather", "arguments": {"city": "Oslo"}}',
            "\n",
        ),
    ],
)
def test_call_objects_as_a_lists_items_are_calls_their_bullets_markup(text: str, visible: str) -> None:
    calls = [("get_weather", {"city": "Paris"}), ("get_weather", {"city": "Oslo"})]
    check(
        Real(
            "written: calls written as a Markdown list",
            text,
            calls,
            visible=visible,
            tools=[tool("get_weather", city="string")],
        )
    )


@pytest.mark.parametrize(
    "text",
    [
        '- {"name": "lookup", "arguments": {"city": "Paris"}}',  # no offered tool
        '- {"city": "Paris"}\n- {"city": "Oslo"}',  # data, no call
        'For example:\n- {"name": "get_weather", "arguments": {"city": "Paris"}}',  # presented
    ],
)
def test_a_bulleted_object_that_is_no_call_stays_text(text: str) -> None:
    check(Real("written", text, [], visible=text, tools=[tool("get_weather", city="string")]))
