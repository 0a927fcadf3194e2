"""ReAct: ``Action: NAME`` + ``Action Input: …``, and LangChain's ``{"action", "action_input"}`` blob in a fence.

Outputs quoted from langchain-ai/langchain@25ef4afbc413de905bf8fe5519b8e873881c7321,
libs/langchain/tests/unit_tests/agents/output_parsers/test_react_single_input.py and
test_react_json_single_input.py.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.parsing.chunking import parse_everywhere

SEARCH = {
    "name": "search",
    "inputSchema": {"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"]},
}
WEATHER = {
    "name": "get_weather",
    "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}, "days": {"type": "integer"}}},
}


def _calls(result: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    return [(c["name"], c["arguments"]) for c in result["calls"]]


def test_a_string_action_input_is_the_value_of_the_tools_one_parameter() -> None:
    text = "Thought: agent thought here\nAction: search\nAction Input: what is the temperature in SF?"
    result = parse_everywhere(text, [SEARCH])
    assert _calls(result) == [("search", {"query": "what is the temperature in SF?"})]
    assert result["text"] == "Thought: agent thought here\n"


def test_langchains_json_blob_in_a_bare_fence_is_a_call() -> None:
    text = 'Thought: agent thought here\n```\n{\n    "action": "search",\n    "action_input": "what is the temperature in SF?"\n}\n```\n'
    result = parse_everywhere(text, [SEARCH])
    assert _calls(result) == [("search", {"query": "what is the temperature in SF?"})]
    assert result["text"].strip() == "Thought: agent thought here"


def test_a_json_action_input_is_the_arguments_and_what_follows_its_line_stays_text() -> None:
    text = 'Action: get_weather\nAction Input: {"city": "Paris", "days": 2}\nObservation:'
    result = parse_everywhere(text, [WEATHER])
    assert _calls(result) == [("get_weather", {"city": "Paris", "days": 2})]
    assert result["text"] == "\nObservation:"


@pytest.mark.parametrize(
    "text",
    [
        "Action: lookup\nAction Input: Paris",  # not an offered tool
        "Action: get_weather\nAction Input: Paris",  # a string, but the tool has two parameters
        "The next Action: search\nAction Input: x",  # `Action:` inside a line
        "Action: search\nThen I will type the input.",  # no Action Input
    ],
)
def test_react_words_without_the_whole_shape_stay_text_without_an_error(text: str) -> None:
    result = parse_everywhere(text, [SEARCH, WEATHER])
    assert (result["calls"], result["errors"], result["text"]) == ([], [], text)


@pytest.mark.parametrize(
    "text",
    [
        '✿FUNCTION✿: get_weather\n✿ARGS✿: {"city": "Paris"}',
        'Let me look.\n✿FUNCTION✿: get_weather\n✿ARGS✿: {"city": "Paris"}\n✿RESULT✿',
        '<|from|>assistant\n<|recipient|>get_weather\n<|content|>{"city": "Paris"}',
        '<|recipient|>get_weather<|content|>{"city": "Paris"}',
        'Thought: I need it.\nAction: get_weather\nAction Input:\n{"city": "Paris"}',
        'Action: get_weather\nAction Input:\n  {"city": "Paris"}\nObservation:',
    ],
)
def test_other_label_pairs_and_an_input_on_the_next_line_are_read(text: str) -> None:
    result = parse_everywhere(text, ["get_weather"])
    assert [(c["name"], c["arguments"]) for c in result["calls"]] == [("get_weather", {"city": "Paris"})]


@pytest.mark.parametrize(
    "text",
    [
        '✿FUNCTION✿: unknown\n✿ARGS✿: {"city": "Paris"}',
        "The format is:\n✿FUNCTION✿: get_weather\n✿ARGS✿: {...}",
    ],
)
def test_label_pairs_of_no_offered_tool_or_no_object_stay_text(text: str) -> None:
    result = parse_everywhere(text, ["get_weather"])
    assert result["calls"] == [] and result["text"] == text


@pytest.mark.parametrize(
    "text",
    [
        'Action: get_weather\nAction Input: ```json\n{"city": "Paris"}\n```',
        'Action: get_weather\nAction Input:\n```\n{"city": "Paris"}\n```\nObservation:',
    ],
)
def test_an_action_input_in_a_json_fence_is_read_with_its_fence(text: str) -> None:
    result = parse_everywhere(text, ["get_weather"])
    assert [(c["name"], c["arguments"]) for c in result["calls"]] == [("get_weather", {"city": "Paris"})]
    assert "```" not in result["text"]


ADD = {"name": "加法", "inputSchema": {"type": "object", "properties": {"a": {"type": "integer"}}}}


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ('Thought: weather.\n\nAction: get_weather\n\n\n\nAction Input: {"city": "Oslo"}\n', "get_weather"),
        ('Action: get_weather\n\nAction Input: {"city": "Oslo"}', "get_weather"),
        ('Action: get_weather (looks up the weather)\nAction Input: {"city": "Oslo"}', "get_weather"),
        ('Thought: t\nAction: 加法\n\nAction Input: {"city": "Oslo"}', "加法"),
        ('Action: 加法 (两数相加)\r\nAction Input: {"city": "Oslo"}', "加法"),
    ],
)
def test_blank_lines_a_described_name_and_names_in_any_script_are_read(text: str, name: str) -> None:
    result = parse_everywhere(text, [WEATHER, ADD])
    assert _calls(result) == [(name, {"city": "Oslo"})]


@pytest.mark.parametrize(
    "text",
    [
        'Action: get_weather\n\nThe input would be\nAction Input: {"city": "Oslo"}',  # a line of prose between
        "Action: 加法 (两数相加) is the tool to use.",
        'Action: lookup (a tool)\n\nAction Input: {"city": "Oslo"}',  # not an offered tool
    ],
)
def test_a_name_line_without_its_input_label_next_stays_text(text: str) -> None:
    result = parse_everywhere(text, [WEATHER, ADD])
    assert result["calls"] == [] and result["text"] == text


@pytest.mark.parametrize(
    ("text", "visible"),
    [
        ('Action:\n{\n  "tool_name": "get_weather",\n  "tool_arguments": {"city": "Oslo"}\n}', ""),
        ('Action: {"name": "get_weather", "arguments": {"city": "Oslo"}}\nThat gets it.', "That gets it."),
        ('Thought: go.\nAction:\n\n{"action": "get_weather", "action_input": {"city": "Oslo"}}', "Thought: go."),
    ],
)
def test_an_action_label_before_a_json_call_is_the_calls_markup(text: str, visible: str) -> None:
    result = parse_everywhere(text, [WEATHER])
    assert _calls(result) == [("get_weather", {"city": "Oslo"})]
    assert result["text"].split() == visible.split()


@pytest.mark.parametrize(
    ("text", "visible"),
    [
        # the agents course's ReAct prompt asks for `Action:` then a fence holding $JSON_BLOB (benchmarks/real/react)
        (
            'Thought: go.\n\nAction:\n\n```json\n{"action": "get_weather", "action_input": {"city": "Oslo"}}\n```\n\nObservation:',
            "Thought: go. Observation:",
        ),
        (
            'Thought: go.\nAction:\n```\n{ "action": "get_weather", "action_input": {"city": "Oslo"} }\n```\n',
            "Thought: go.",
        ),
        ('Action: ```json\n{"name": "get_weather", "arguments": {"city": "Oslo"}}\n```\nDone.', "Done."),
        (
            'Thought: go.\n\n${\n  "action": "get_weather",\n  "action_input": {"city": "Oslo"}\n}\n\nObservation: sunny',
            "Thought: go. Observation: sunny",
        ),
        ('${"action": "get_weather", "action_input": {"city": "Oslo"}}', ""),
        ('Action:\n${"action": "get_weather", "action_input": {"city": "Oslo"}}\nObservation:', "Observation:"),
    ],
)
def test_a_json_call_in_place_of_the_prompts_blob_fenced_or_with_its_sigil_is_a_call(text: str, visible: str) -> None:
    result = parse_everywhere(text, [WEATHER])
    assert _calls(result) == [("get_weather", {"city": "Oslo"})]
    assert result["text"].split() == visible.split()


@pytest.mark.parametrize(
    "text",
    [
        "The price is ${amount} and `${x}` in a template literal.\n${ not json",
        'Costs:\n${"verb": "read", "object": "book"}',  # no call shape
        'Action:\n```json\n{"action": "lookup", "action_input": "x"}\n```',  # no offered tool
    ],
)
def test_a_sigil_or_a_fenced_action_that_is_no_offered_call_stays_text(text: str) -> None:
    result = parse_everywhere(text, [WEATHER])
    assert result["calls"] == [] and result["text"] == text


@pytest.mark.parametrize(
    "text",
    ['Action:\n{"verb": "read", "object": "book"}', 'Action: {"name": "lookup", "arguments": {}} is an example.'],
)
def test_an_action_label_before_json_that_is_no_offered_call_stays_text(text: str) -> None:
    result = parse_everywhere(text, [WEATHER])
    assert result["calls"] == [] and result["text"] == text


@pytest.mark.parametrize(
    "text",
    [
        # run-llama/llama_index's test_extract_tool_use_ (benchmarks/real/react)
        'Thought: I need a tool.\nAction: get_weather\nAction Input: QueryEngineTool({"city": "Paris", "days": 2})\n',
        'Action: get_weather\nAction Input: get_weather({"city": "Paris", "days": 2})',
        "Action: get_weather\nAction Input: tools.Weather( {'city': 'Paris', 'days': 2} )\nObservation:",
    ],
)
def test_an_action_input_that_wraps_its_object_in_one_call_is_the_object(text: str) -> None:
    assert _calls(parse_everywhere(text, [WEATHER])) == [("get_weather", {"city": "Paris", "days": 2})]


@pytest.mark.parametrize(
    "text",
    [
        'Action: get_weather\nAction Input: Tool(["Paris", 2])',  # a list, not an object
        'Action: lookup\nAction Input: Tool({"city": "Paris"})',  # not an offered tool
        'Action: get_weather\nAction Input: Tool({"city": "Paris"}) and Tool({"city": "Rome"})',  # two calls
    ],
)
def test_a_wrapped_action_input_that_is_no_one_object_stays_text(text: str) -> None:
    result = parse_everywhere(text, [WEATHER])
    assert (result["calls"], result["text"]) == ([], text)


_CREW = [
    {"name": "Internet Search Tool", "inputSchema": {"type": "object", "properties": {"query": {"type": "string"}}}}
]


@pytest.mark.parametrize(
    "text",
    [
        # CrewAI names tools with blanks and phi3 copies the tool's signature and description onto the line.
        'Action: Internet Search Tool(user_query) - Scrapes the web.\nAction Input: {"query": "x"}',
        'Action: Internet Search Tool\nAction Input: {"query": "x"}',
        'Thought: go\nAction: Internet Search Tool (query: str) \u2014 searches\nAction Input: {"query": "x"}',
        'Action: Internet Search Tool - searches the internet\n\nAction Input: {"query": "x"}',
    ],
)
def test_an_action_line_with_a_spaced_name_a_signature_or_a_description_is_read(text: str) -> None:
    result = parse_everywhere(text, _CREW)
    assert [(c["name"], c["arguments"]) for c in result["calls"]] == [("Internet Search Tool", {"query": "x"})]


@pytest.mark.parametrize(
    "text",
    [
        'Action: Internet Search\nAction Input: {"query": "x"}',  # a prefix of the name is no offered tool
        'We took Action: Internet Search Tool - it helps.\nAction Input: {"query": "x"}',  # not opening a line
    ],
)
def test_an_action_line_naming_no_offered_tool_at_a_line_start_stays_text(text: str) -> None:
    result = parse_everywhere(text, _CREW)
    assert (result["calls"], result["errors"], result["text"]) == ([], [], text)


def test_functionary_v2s_header_to_all_is_markup_before_text_to_the_user() -> None:
    result = parse_everywhere("<|from|>assistant\n<|recipient|>all\n<|content|>Hello there", ["get_weather"])
    assert result["calls"] == [] and result["text"] == "Hello there"


@pytest.mark.parametrize(
    ("text", "query", "visible"),
    [
        (
            "Action: search\nAction Input: Run this:\n```python\nprint(1)\n```",
            "Run this:\n```python\nprint(1)\n```",
            "",
        ),
        (
            "Thought: code\nAction: search\nAction Input: Evaluate:\n```\na\n\nb\n```\nObservation: 2",
            "Evaluate:\n```\na\n\nb\n```",
            "Thought: code\n\nObservation: 2",
        ),
        ("Action: search\nAction Input: shell\n  ```sh\nls -l\n  ```", "shell\n  ```sh\nls -l\n  ```", ""),
    ],
)
def test_a_code_fence_on_the_line_after_a_string_input_continues_the_input(text: str, query: str, visible: str) -> None:
    result = parse_everywhere(text, [SEARCH])
    assert _calls(result) == [("search", {"query": query})]
    assert (result["text"], result["errors"]) == (visible, [])


@pytest.mark.parametrize(
    ("text", "visible"),
    [
        # A blank line between: the fence is the message's own, not the input.
        ("Action: search\nAction Input: cats\n\n```python\nprint(1)\n```", "\n\n```python\nprint(1)\n```"),
        # Text on the next line, then a fence: the input is its own line only.
        ("Action: search\nAction Input: cats\nSee:\n```\nx\n```", "\nSee:\n```\nx\n```"),
    ],
)
def test_a_fence_not_right_after_the_input_line_stays_text(text: str, visible: str) -> None:
    result = parse_everywhere(text, [SEARCH])
    assert _calls(result) == [("search", {"query": "cats"})]
    assert result["text"] == visible


@pytest.mark.parametrize(
    ("text", "visible"),
    [
        ('✿FUNCTION✿get_weather\n✿ARGS✿{"city": "Paris"}', ""),  # no colons (Towel's agent prompt)
        ('I will look.\n✿FUNCTION✿get_weather\n✿ARGS✿{"city": "Paris"}\n✿RESULT✿', "I will look.\n"),
        ('✿FUNCTION✿: get_weather\n✿ARGS✿: {"city": "Paris"}\n✿RESULT✿: \nDone.', "Done."),
        ('✿FUNCTION✿ get_weather ✿ARGS✿ {"city": "Paris"}✿RESULT✿', ""),  # the markers on one line
        ('Sure. ✿FUNCTION✿get_weather\r\n✿ARGS✿{"city": "Paris"}\r\n✿RESULT✿\r\n', "Sure. "),
    ],
)
def test_qwen_agent_markers_without_colons_or_lines_of_their_own_are_read_and_result_is_markup(
    text: str, visible: str
) -> None:
    result = parse_everywhere(text, [WEATHER])
    assert _calls(result) == [("get_weather", {"city": "Paris"})]
    assert result["text"] == visible


def test_qwen_agent_blocks_each_ended_by_result_are_each_a_call() -> None:
    text = (
        'Both.\n✿FUNCTION✿get_weather\n✿ARGS✿{"city": "Paris"}\n✿RESULT✿\n'
        '✿FUNCTION✿get_weather\n✿ARGS✿{"city": "Oslo"}\n✿RESULT✿'
    )
    result = parse_everywhere(text, [WEATHER])
    assert _calls(result) == [("get_weather", {"city": "Paris"}), ("get_weather", {"city": "Oslo"})]
    assert result["text"] == "Both.\n"


@pytest.mark.parametrize(
    "text",
    [
        '✿FUNCTION✿lookup\n✿ARGS✿{"city": "Paris"}\n✿RESULT✿',  # not an offered tool
        "The reply is ✿FUNCTION✿get_weather then ✿ARGS✿ and a JSON object, then ✿RESULT✿.",  # no object
        "Write ✿FUNCTION✿get_weather\n✿ARGS✿{...}\n✿RESULT✿ to call it.",  # a placeholder, not an object
        "A line ✿RESULT✿ alone is text.",
    ],
)
def test_qwen_agent_markers_without_an_offered_tool_and_an_object_stay_text(text: str) -> None:
    result = parse_everywhere(text, [WEATHER])
    assert (result["calls"], result["text"]) == ([], text)


@pytest.mark.parametrize(
    ("text", "visible"),
    [
        # BeeAI's line-prefixed agent output (i-am-bee/beeai-framework's parser tests): the caption is markup
        (
            'Thought: I need it.\nTool Name: get_weather\nTool Caption: Looking up Paris\nTool Input: {"city": "Paris"}\n'
            'Tool Output: {"temp": 20}\nFinal Answer: 20 degrees.',
            'Thought: I need it.\n\nTool Output: {"temp": 20}\nFinal Answer: 20 degrees.',
        ),
        ('Tool Name: get_weather\nTool Input: {"city": "Paris"}', ""),
        ('tool name: get_weather\r\ntool caption: weather\r\ntool input: {"city": "Paris"}', ""),
        ('Tool Name: get_weather\nTool Description: the weather\n\nTool Input: {"city": "Paris"}', ""),
    ],
)
def test_tool_name_and_tool_input_lines_with_a_caption_between_are_a_call(text: str, visible: str) -> None:
    result = parse_everywhere(text, [WEATHER])
    assert _calls(result) == [("get_weather", {"city": "Paris"})]
    assert result["text"] == visible


@pytest.mark.parametrize(
    "text",
    [
        'Tool Name: lookup\nTool Input: {"city": "Paris"}',  # not an offered tool
        "Tool Name: get_weather\nTool Caption: the weather\nand then the input follows.",  # no input line
        'The line Tool Name: get_weather\nTool Input: {"city": "Paris"}',  # the label inside a line
        'Tool Name: get_weather\nTool Caption: a\nTool Caption: b\nTool Input: {"city": "Paris"}',  # two captions
    ],
)
def test_tool_name_lines_without_the_whole_shape_stay_text(text: str) -> None:
    result = parse_everywhere(text, [WEATHER])
    assert (result["calls"], result["text"]) == ([], text)


LIST_TOOL = {"name": "fetch", "inputSchema": {"type": "object", "properties": {"input": {"type": "array"}}}}


@pytest.mark.parametrize(
    ("text", "calls", "visible"),
    [
        # Braces around no JSON: a string input, braces kept (CrewAI).
        ("Action: search\nAction Input: {temperature in SF}", [("search", {"query": "{temperature in SF}"})], ""),
        # A JSON input whose closing brace the stream's end left out.
        (
            'Action: search\nAction Input: {"query": "temperature in SF"',
            [("search", {"query": "temperature in SF"})],
            "",
        ),
        # A stray mark before the object.
        (
            'Action: get_weather\nAction Input: ** {"city": "Oslo", "days": 2}',
            [("get_weather", {"city": "Oslo", "days": 2})],
            "",
        ),
        # A string input going on over the lines below, to a label or the end; over a blank line only where no label
        # follows to the output's end (LangChain reads the input to the end: react/c31_nb_gitlab_a2_action).
        (
            "Action: search\nAction Input: what is\nthe weather\nObservation:",
            [("search", {"query": "what is\nthe weather"})],
            "Observation:",
        ),
        ("Action: search\nAction Input: bar\nbaz\n\nThen more.", [("search", {"query": "bar\nbaz\n\nThen more."})], ""),
        (
            "Action: search\nAction Input: bar\nbaz\n\nThought: more.",
            [("search", {"query": "bar\nbaz"})],
            "Thought: more.",
        ),
        ("Action: search\nAction Input: bar\nObs", [("search", {"query": "bar"})], "Obs"),
        # Keyword pairs of declared parameters (ms-swift's Llama 3.1 ReAct output).
        (
            'Action: get_weather\nAction Input: city="Boston, MA", days=3',
            [("get_weather", {"city": "Boston, MA", "days": 3})],
            "",
        ),
        # The input label on the name's line (langchaingo's MRKL test).
        ("Action:  search Action Input: bar", [("search", {"query": "bar"})], ""),
        # A fenced blob whose input key is a synonym, or whose input is a list for the one parameter.
        ('```json\n{"action": "search", "input": "cats"}\n```', [("search", {"query": "cats"})], ""),
        (
            '```\n{\n  "action": "fetch",\n  "action_input": ["GET", "/x"]\n}\n```',
            [("fetch", {"input": ["GET", "/x"]})],
            "",
        ),
    ],
)
def test_lenient_action_inputs_are_read(text: str, calls: list[tuple[str, dict[str, Any]]], visible: str) -> None:
    result = parse_everywhere(text, [SEARCH, WEATHER, LIST_TOOL], every_split=True, seeds=4)
    assert _calls(result) == calls
    assert " ".join(result["text"].split()) == visible


def test_keyword_pairs_naming_an_undeclared_parameter_stay_a_string_for_the_one_parameter() -> None:
    text = 'Action: search\nAction Input: q="cats", lang="en"'
    result = parse_everywhere(text, [SEARCH, WEATHER], every_split=True, seeds=4)
    assert _calls(result) == [("search", {"query": 'q="cats", lang="en"'})]


def test_a_blob_with_two_input_keys_is_no_blob_and_stays_text() -> None:
    text = '```json\n{"action": "search", "input": "a", "arguments": {"query": "b"}}\n```'
    result = parse_everywhere(text, [SEARCH, WEATHER], every_split=True, seeds=4)
    assert result["calls"] == [] and result["text"] == text


@pytest.mark.parametrize(
    ("text", "calls", "visible"),
    [
        # LocalCowork's LFM tests (Liquid4All/cookbook): `Tool: NAME` / `Arguments: {…}` lines after a sentence
        (
            'I\'ll list it and read it.\n\nTool: search\nArguments: {"query": "a"}\n\nTool: get_weather\n'
            'Arguments: {"city": "Paris"}',
            [("search", {"query": "a"}), ("get_weather", {"city": "Paris"})],
            "I'll list it and read it.",
        ),
        ('Function: get_weather\nParameters: {"city": "Paris"}', [("get_weather", {"city": "Paris"})], ""),
        ('Tool: search\nArgs:\n{"query": "a"}\nDone.', [("search", {"query": "a"})], "Done."),
        ('Tool: search\nInput: {"query": "a"}', [("search", {"query": "a"})], ""),
    ],
)
def test_tool_and_arguments_lines_holding_a_json_object_are_a_call(
    text: str, calls: list[tuple[str, dict[str, Any]]], visible: str
) -> None:
    result = parse_everywhere(text, [SEARCH, WEATHER])
    assert _calls(result) == calls
    assert " ".join(result["text"].split()) == visible and result["errors"] == []


@pytest.mark.parametrize(
    "text",
    [
        "Function: get_weather\nParameters: city (string), days (integer)",  # a document's signature, no object
        "Tool: search\nInput: the user's question",  # a plain string after the plain labels
        'Tool: lookup\nArguments: {"query": "a"}',  # no offered tool
        'The Tool: search\nArguments: {"query": "a"}',  # the label inside a line
        'Tool: search\nThen Arguments: {"query": "a"}',  # no input label at the line's start
    ],
)
def test_tool_and_arguments_lines_without_an_offered_tool_and_an_object_stay_text(text: str) -> None:
    result = parse_everywhere(text, [SEARCH, WEATHER])
    assert (result["calls"], result["text"], result["errors"]) == ([], text, [])


BOOK = {
    "name": "book_flight",
    "inputSchema": {
        "type": "object",
        "properties": {"flight": {"type": "string"}, "cabin": {"type": "string"}, "bags": {"type": "integer"}},
        "required": ["flight", "cabin"],
    },
}
CANCEL = {
    "name": "cancel_flight",
    "inputSchema": {"type": "object", "properties": {"flight": {"type": "string"}}, "required": ["flight"]},
}


@pytest.mark.parametrize(
    ("text", "call", "visible"),
    [
        # tau-bench's ReAct runs (hanav): `Action:` then an object holding the arguments alone, no tool name
        (
            'Thought:\nThe user confirmed. I will book it.\nAction:\n{"flight": "HAT041", "cabin": "economy", "bags": 1}',
            ("book_flight", {"flight": "HAT041", "cabin": "economy", "bags": 1}),
            "Thought: The user confirmed. I will book it.",
        ),
        ('Action: {"cabin": "basic", "flight": "X1"}', ("book_flight", {"cabin": "basic", "flight": "X1"}), ""),
        (
            'Action:\n```json\n{"flight": "X1", "cabin": "basic"}\n```\nDone.',
            ("book_flight", {"flight": "X1", "cabin": "basic"}),
            "Done.",
        ),
        ('Action:\n{"city": "Oslo", "days": 2}', ("get_weather", {"city": "Oslo", "days": 2}), ""),
    ],
)
def test_an_action_object_of_arguments_alone_fitting_one_offered_schema_exactly_is_its_call(
    text: str, call: tuple[str, dict[str, Any]], visible: str
) -> None:
    result = parse_everywhere(text, [BOOK, CANCEL, WEATHER])
    assert _calls(result) == [call]
    assert result["text"].split() == visible.split() and result["errors"] == []


@pytest.mark.parametrize(
    "text",
    [
        'Action:\n{"flight": "X1"}',  # fits two offered tools alike (cancel_flight and hold_flight)
        'Action:\n{"flight": "X1", "cabin": "basic", "user_id": "u1"}',  # a key no schema declares
        'Action:\n{"cabin": "basic", "bags": 1}',  # a required key missing
        "Action:\n{}",  # nothing names a tool
        '{"flight": "X1", "cabin": "basic"}',  # no action label: a JSON value in prose
        'The record was:\n{"flight": "X1", "cabin": "basic"}',
    ],
)
def test_an_action_object_of_arguments_that_fits_no_one_schema_exactly_stays_text(text: str) -> None:
    result = parse_everywhere(text, [BOOK, CANCEL, WEATHER, {**CANCEL, "name": "hold_flight"}])
    assert result["calls"] == [] and result["text"] == text


@pytest.mark.parametrize(
    ("raw", "value"),
    [
        # LangChain's MRKL test: the last quote closes an identifier, its partner is inside the input
        (
            '    SELECT "UserName", MAX(pay) FROM shifts GROUP BY "UserName" ',
            'SELECT "UserName", MAX(pay) FROM shifts GROUP BY "UserName"',
        ),
        ('grep "foo bar" notes.txt', 'grep "foo bar" notes.txt'),
        ('"Paris"', "Paris"),  # quotes around the whole input
        ('"Paris', "Paris"),  # a stray quote no other pairs with
        ('Saint-Étienne"', "Saint-Étienne"),
    ],
)
def test_a_string_input_loses_only_quotes_that_pair_with_nothing_inside_it(raw: str, value: str) -> None:
    result = parse_everywhere(f"Action: search\nAction Input: {raw}", [SEARCH])
    assert _calls(result) == [("search", {"query": value})]


@pytest.mark.parametrize(
    ("text", "calls", "visible"),
    [
        # vo1d's ToolParser tests (a Rust agent): the tool under "action", its arguments beside it, fenced
        ('```\n{"action": "get_weather", "city": "Lima"}\n```', [("get_weather", {"city": "Lima"})], ""),
        (
            'Some thoughts...\n```json\n{"action": "search", "query": "src/main.rs"}\n```\nMore text.',
            [("search", {"query": "src/main.rs"})],
            "Some thoughts... More text.",
        ),
        (  # spread over lines, an integer, another language around it
            'Je regarde :\n```json\n{\n  "action": "get_weather",\n  "city": "Zürich",\n  "days": 3\n}\n```\nVoilà.',
            [("get_weather", {"city": "Zürich", "days": 3})],
            "Je regarde : Voilà.",
        ),
    ],
)
def test_a_flat_action_object_in_a_fence_is_a_call(
    text: str, calls: list[tuple[str, dict[str, Any]]], visible: str
) -> None:
    result = parse_everywhere(text, [SEARCH, WEATHER])
    assert _calls(result) == calls
    assert " ".join(result["text"].split()) == visible


@pytest.mark.parametrize(
    "text",
    [
        '```json\n{"action": "lookup", "query": "x"}\n```',  # no offered tool of that name
        '```python\nstep = {"action": "search", "query": "x"}\n```',  # code of a language
        'For example:\n```json\n{"action": "search", "query": "x"}\n```',  # presented as an example
        '```json\n{"action": "search", "query": "x"\n```',  # the object does not close
        '```json\n{"action": "get_weather", "town": "x", "when": "now"}\n```',  # keys the tool does not declare
    ],
)
def test_a_flat_action_object_of_no_tool_or_in_code_stays_text(text: str) -> None:
    result = parse_everywhere(text, [SEARCH, WEATHER])
    assert result["calls"] == [] and result["text"] == text
