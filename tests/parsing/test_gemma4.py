"""Gemma 4 ``<|tool_call>call:NAME{…}<tool_call|>``, FunctionGemma, their stripped form and Gemma 4's thought channel.

Outputs quoted from ollama/ollama `model/parsers/gemma4_test.go` and `functiongemma_test.go`
@fb30760996871fa9460115c753afd2c60d4ab0f7 (as collected in benchmarks/real/gemma4 and functiongemma).
"""

from __future__ import annotations

from typing import Any

import pytest

from shim.parsing.readers.gemma4 import to_json
from tests.parsing.chunking import parse_everywhere

Q = '<|"|>'

REAL: list[tuple[str, list[str], list[tuple[str, dict[str, Any]]], str]] = [
    (
        f"<|tool_call>call:get_weather{{location:{Q}Paris{Q},units:{Q}metric{Q}}}<tool_call|>",
        ["get_weather"],
        [("get_weather", {"location": "Paris", "units": "metric"})],
        "",
    ),
    (
        f"Let me check that for you.<|tool_call>call:get_weather{{location:{Q}Paris{Q}}}<tool_call|>",
        ["get_weather"],
        [("get_weather", {"location": "Paris"})],
        "Let me check that for you.",
    ),
    (
        f"<|tool_call>call:get_weather{{location:{Q}Paris{Q}}}<tool_call|>"
        f"<|tool_call>call:get_weather{{location:{Q}London{Q}}}<tool_call|>",
        ["get_weather"],
        [("get_weather", {"location": "Paris"}), ("get_weather", {"location": "London"})],
        "",
    ),
    (
        f"<|tool_call>call:process{{config:{{enabled:true,name:{Q}test{Q}}}}}<tool_call|>",
        ["process"],
        [("process", {"config": {"enabled": True, "name": "test"}})],
        "",
    ),
    (
        f'<|tool_call>call:process{{items:[{Q}a{Q},{Q}b "quoted"{Q},{Q}c{Q}]}}<tool_call|>',
        ["process"],
        [("process", {"items": ["a", 'b "quoted"', "c"]})],
        "",
    ),
    (
        "<|tool_call>call:set_optional{value:null,nested:{value:null}}<tool_call|>",
        ["set_optional"],
        [("set_optional", {"value": None, "nested": {"value": None}})],
        "",
    ),
    (
        f"<|tool_call>call:open_file{{path:{Q}C:\\users\\bob\\file.txt{Q}}}<tool_call|>",
        ["open_file"],
        [("open_file", {"path": "C:\\users\\bob\\file.txt"})],
        "",
    ),
    (  # the closer is missing at the end of the stream
        f'<|tool_call>call:search{{query:{Q}say "hello" and "bye"{Q}}}',
        ["search"],
        [("search", {"query": 'say "hello" and "bye"'})],
        "",
    ),
    (
        f"<|tool_call>call:bash{{command:{Q}date\n{Q}}}<tool_call|>",
        ["bash"],
        [("bash", {"command": "date\n"})],
        "",
    ),
    (  # FunctionGemma
        "Let me check.<start_function_call>call:get_weather{city:<escape>Paris<escape>}<end_function_call>",
        ["get_weather"],
        [("get_weather", {"city": "Paris"})],
        "Let me check.",
    ),
    (
        "<start_function_call>call:update{data:{name:<escape>test<escape>,value:42}}<end_function_call>",
        ["update"],
        [("update", {"data": {"name": "test", "value": 42}})],
        "",
    ),
    (
        "<start_function_call>call:process{items:[<escape>a<escape>,<escape>b<escape>,<escape>c<escape>]}"
        "<end_function_call>",
        ["process"],
        [("process", {"items": ["a", "b", "c"]})],
        "",
    ),
]


@pytest.mark.parametrize(("text", "tools", "calls", "visible"), REAL)
def test_gemma4_and_functiongemma_calls_are_read_at_every_split_point(
    text: str, tools: list[str], calls: list[tuple[str, dict[str, Any]]], visible: str
) -> None:
    result = parse_everywhere(text, tools)
    assert [(c["name"], c["arguments"]) for c in result["calls"]] == calls
    assert result["text"] == visible
    assert result["errors"] == []


def test_the_thought_channel_is_reasoning_and_the_call_after_it_runs() -> None:
    text = (
        "<|channel>thought\nI need to check the weather<channel|>"
        f"<|tool_call>call:get_weather{{location:{Q}Paris{Q}}}<tool_call|>"
    )
    result = parse_everywhere(text, ["get_weather"])
    assert [(c["name"], c["arguments"]) for c in result["calls"]] == [("get_weather", {"location": "Paris"})]
    assert result["text"] == ""
    assert "I need to check the weather" in result["reasoning"]


def test_with_the_special_tokens_stripped_a_call_of_an_offered_tool_opening_the_message_is_read() -> None:
    result = parse_everywhere("call:get_weather{location:Paris,units:metric}", ["get_weather"])
    assert [(c["name"], c["arguments"]) for c in result["calls"]] == [
        ("get_weather", {"location": "Paris", "units": "metric"})
    ]


@pytest.mark.parametrize(
    "text",
    [
        "call:get_weather{location:Paris}",  # no tools offered: see below, the tool is not offered
        "Please call:me{maybe} tomorrow.",
        "call: the number {1, 2}",
    ],
)
def test_a_stripped_form_naming_no_offered_tool_stays_text_without_errors(text: str) -> None:
    result = parse_everywhere(text, ["search"])
    assert result["calls"] == [] and result["errors"] == []
    assert result["text"] == text


def test_gemma_arguments_that_cannot_be_read_are_one_error_naming_the_problem() -> None:
    result = parse_everywhere("<|tool_call>call:f{a:1 b:2}<tool_call|> ok", ["f"])
    assert result["calls"] == []
    assert len(result["errors"]) == 1 and "could not be read" in result["errors"][0]["message"]
    assert result["text"].strip() == "ok"


def test_to_json_quotes_bare_keys_and_words_and_keeps_literals() -> None:
    assert to_json([(False, "{a:1,b:"), (True, 'x "y"'), (False, ",c:[true,null,word]}")]) == (
        '{"a":1,"b":"x \\"y\\"","c":[true,null,"word"]}'
    )


def test_the_markers_quoted_in_code_stay_text_without_errors() -> None:
    # ml-explore/mlx-lm `mlx_lm/tool_parsers/gemma4.py` (in the decoy corpus as code/mlx_lm_gemma4.py)
    text = 'tool_call_start = "<|tool_call>"\ntool_call_end = "<tool_call|>"\nstart = "<start_function_call>"\n'
    result = parse_everywhere(text, ["get_weather"])
    assert result["calls"] == [] and result["errors"] == [] and result["text"] == text


def test_several_calls_in_one_block_and_a_stripped_call_after_the_thought_channel_are_read() -> None:
    text = f"<|tool_call>call:a{{x:1}}call:b{{y:{Q}z{Q}}}<tool_call|>"
    result = parse_everywhere(text, ["a", "b"])
    assert [(c["name"], c["arguments"]) for c in result["calls"]] == [("a", {"x": 1}), ("b", {"y": "z"})]
    stripped = "<|channel>thought\nweather first<channel|>call:get_weather{location:Paris}"
    result = parse_everywhere(stripped, ["get_weather"])
    assert [(c["name"], c["arguments"]) for c in result["calls"]] == [("get_weather", {"location": "Paris"})]


@pytest.mark.parametrize(
    ("text", "arguments"),
    [
        # Gemma 4 on oMLX, quoted in https://github.com/jundot/omlx/issues/581
        ('<|tool_call>call:bash{command:"ls"}<tool_call|>', {"command": "ls"}),
        (
            '<|tool_call>call:bash{command:"ls -la, then cd /tmp: ok",timeout:5}<tool_call|>',
            {"command": "ls -la, then cd /tmp: ok", "timeout": 5},
        ),
        ('<|tool_call>call:bash{"command":"echo \\"hi\\""}<tool_call|>', {"command": 'echo "hi"'}),
        (f'<|tool_call>call:bash{{command:"ls",cwd:{Q}/tmp{Q}}}<tool_call|>', {"command": "ls", "cwd": "/tmp"}),
        ('call:bash{command:"ls"}', {"command": "ls"}),  # the special tokens stripped too
    ],
)
def test_a_value_in_plain_double_quotes_is_a_string_without_its_quotes(text: str, arguments: dict[str, Any]) -> None:
    result = parse_everywhere(text, ["bash"])
    assert [(c["name"], c["arguments"]) for c in result["calls"]] == [("bash", arguments)]
    assert (result["errors"], result["text"]) == ([], "")


@pytest.mark.parametrize(
    ("text", "visible"),
    [
        # Gemma 4 E4B under load (vllm-mlx's tests): parentheses for braces, no closer
        ('<|tool_call>call:get_weather(location="Paris")', ""),
        ('<|tool_call>call:get_weather(location="Paris")<tool_call|> Checking.', "Checking."),
        ("<start_function_call>call:get_weather('Paris')<end_function_call>", ""),
        ('Sure.\n<|tool_call>call:get_weather(location="Paris", unit="c")<tool_call|>', "Sure."),
    ],
)
def test_a_call_with_parentheses_between_the_call_tokens_is_read(text: str, visible: str) -> None:
    tools = [
        {
            "name": "get_weather",
            "inputSchema": {
                "type": "object",
                "properties": {"location": {"type": "string"}, "unit": {"type": "string"}},
            },
        }
    ]
    result = parse_everywhere(text, tools)
    assert result["calls"][0]["name"] == "get_weather"
    assert result["calls"][0]["arguments"]["location"] == "Paris"
    assert " ".join(result["text"].split()) == visible


def test_a_parenthesised_call_form_in_prose_without_the_call_token_stays_text() -> None:
    text = 'The log showed call:get_weather(location="Paris") twice.'
    result = parse_everywhere(text, ["get_weather"])
    assert (result["calls"], result["text"]) == ([], text)


GREP = {
    "name": "grep",
    "inputSchema": {"type": "object", "properties": {"pattern": {"type": "string"}, "path": {"type": "string"}}},
}


@pytest.mark.parametrize(
    ("text", "arguments"),
    [
        # Gemma 4 E4B in ollama#15315: a value in plain single quotes, then a stray special quote
        (
            f"<|tool_call>call:grep{{path:{Q}/data{Q},pattern:':\\s*\\w+'{Q}}}<tool_call|>",
            {"path": "/data", "pattern": ":\\s*\\w+"},
        ),
        (f"<|tool_call>call:grep{{pattern:'a, b'{Q},path:{Q}.{Q}}}<tool_call|>", {"pattern": "a, b", "path": "."}),
        (f'<|tool_call>call:grep{{pattern:"x"{Q},path:{Q}.{Q}}}<tool_call|>', {"pattern": "x", "path": "."}),
        (f"<|tool_call>call:grep{{pattern:'it',path:{Q}.{Q}}}<tool_call|>", {"pattern": "it", "path": "."}),
        # a special quote inside a special-quoted value opened after a plain quote is no stray
        (f"<|tool_call>call:grep{{pattern:{Q}it's{Q},path:{Q}.{Q}}}<tool_call|>", {"pattern": "it's", "path": "."}),
    ],
)
def test_a_value_in_plain_quotes_and_a_stray_special_quote_after_it_read_as_the_quoted_text(
    text: str, arguments: dict[str, Any]
) -> None:
    result = parse_everywhere(text, [GREP])
    assert [(c["name"], c["arguments"]) for c in result["calls"]] == [("grep", arguments)]
    assert result["text"] == ""


@pytest.mark.parametrize(
    "text",
    [
        "<start_function_call>get_weather{location:<escape>Paris<escape>}<end_function_call>",
        "<start_function_call> get_weather {location:Paris}</end_function_call>",  # and the closer as an end tag
        '<|tool_call>get_weather{location:<|"|>Paris<|"|>}<tool_call|>',
    ],
)
def test_between_the_tokens_the_call_prefix_left_out_before_an_offered_tool_is_a_call(text: str) -> None:
    result = parse_everywhere(text, ["get_weather"])
    assert [(c["name"], c["arguments"]) for c in result["calls"]] == [("get_weather", {"location": "Paris"})]
    assert (result["text"], result["errors"]) == ("", [])


@pytest.mark.parametrize(
    "text",
    [
        "<start_function_call>lookup{location:Paris}<end_function_call>",  # no offered tool
        "The markers are <start_function_call> and <end_function_call>.",  # named in prose
    ],
)
def test_between_the_tokens_a_name_of_no_offered_tool_without_the_prefix_stays_text(text: str) -> None:
    result = parse_everywhere(text, ["get_weather"])
    assert (result["calls"], result["errors"], result["text"]) == ([], [], text)


E = "<escape>"


@pytest.mark.parametrize(
    ("body", "arguments"),
    [
        # FunctionGemma fine-tuned on data that fills unused parameters with None, a datetime left unescaped
        # (unsloth's FunctionGemma notebook; benchmarks/real/functiongemma/c6_unsloth_…)
        (
            f"{{body:None,datetime:2025-06-06 14:00:00,title:{E}Team Sync{E},to:None}}",
            {"datetime": "2025-06-06 14:00:00", "title": "Team Sync"},
        ),
        (f"{{to:None,title:{E}Sync{E}}}", {"title": "Sync"}),
        ("{url:https://example.com/a?b=1,when:16:30}", {"url": "https://example.com/a?b=1", "when": "16:30"}),
        ("{title:None}", {}),
        ("{title:null,to:None}", {"title": None}),  # JSON null is a value; only Python's None is a filler
        ("{meta:{to:None}}", {"meta": {"to": "None"}}),  # inside a value, the word is the model's text
    ],
)
def test_bare_values_run_to_the_next_comma_and_none_fillers_are_parameters_not_given(
    body: str, arguments: dict[str, Any]
) -> None:
    for text in (
        f"<start_function_call>call:create_event{body}<end_function_call>",
        f"<|tool_call>call:create_event{body}<tool_call|>",
        f"call:create_event{body}",  # the special tokens stripped: an offered tool opening the message
    ):
        result = parse_everywhere(text, ["create_event"], seeds=5)
        assert [(c["name"], c["arguments"]) for c in result["calls"]] == [("create_event", arguments)], text
        assert result["text"] == "" and result["errors"] == []


def test_a_stripped_call_with_fillers_of_a_tool_not_offered_stays_text() -> None:
    text = "call:create_event{body:None,datetime:2025-06-06 14:00:00}"
    result = parse_everywhere(text, ["get_weather"], seeds=5)
    assert result["calls"] == [] and result["text"] == text


@pytest.mark.parametrize(
    ("text", "visible"),
    [
        # SmallCTL's Gemma 4 runs: the template's opener written as Hermes' tag, Gemma's own closer.
        (f"<tool_call>call:get_weather{{city:{Q}Paris{Q}}}<tool_call|>", ""),
        (f"Checking.\n<tool_call>call:get_weather{{city:{Q}Paris{Q},days:3}}</tool_call>", "Checking.\n"),
        (f"<function_call>\ncall:get_weather{{city:{Q}Oslo, NO{Q}}}\n</function_call> Done.", " Done."),
        ("<tool_call>call: get_weather{city:Lima}</tool_call>", ""),
    ],
)
def test_a_gemma_call_body_inside_another_familys_call_tag_is_read(text: str, visible: str) -> None:
    result = parse_everywhere(text, ["get_weather"], every_split=len(text) < 100, seeds=6)
    assert [c["name"] for c in result["calls"]] == ["get_weather"] and result["errors"] == []
    assert result["text"] == visible


@pytest.mark.parametrize(
    "text",
    [
        "Use `<tool_call>call:get_weather{city:x}</tool_call>` to ask.",  # inline code
        "```python\nprint('<tool_call>call:get_weather{}</tool_call>')\n```",  # code
        "For example: <tool_call>call:get_weather{city:x}</tool_call>",  # an example presented
    ],
)
def test_a_gemma_call_body_in_a_call_tag_shown_in_prose_stays_text(text: str) -> None:
    result = parse_everywhere(text, ["get_weather"], every_split=len(text) < 100, seeds=6)
    assert (result["calls"], result["errors"], result["text"]) == ([], [], text)


@pytest.mark.parametrize(
    ("body", "arguments"),
    [
        (f"{{thought{Q}ok{Q},n:2}}", {"thought": "ok", "n": 2}),
        (f"{{a:1,b{Q}x, y{Q}}}", {"a": 1, "b": "x, y"}),
        (f"{{query {Q}rust{Q}}}", {"query": "rust"}),
    ],
)
def test_a_key_right_before_its_quoted_value_reads_with_the_colon_left_out(
    body: str, arguments: dict[str, Any]
) -> None:
    for text in (f"<|tool_call>call:probe{body}<tool_call|>", f"call:probe{body}"):
        result = parse_everywhere(text, ["probe"], every_split=False, seeds=6)
        assert [c["arguments"] for c in result["calls"]] == [arguments] and result["errors"] == []


@pytest.mark.parametrize(
    ("text", "name"),
    [
        # mlx-vlm's Gemma 4 parser tests: an MCP client's namespaced tool names.
        (
            f"<|tool_call>call:google-workspace:list_events{{action:{Q}list{Q}}}<tool_call|>",
            "google-workspace:list_events",
        ),
        ("<|tool_call>call:mcp.calendar:list_events{action:list}<tool_call|>", "mcp.calendar:list_events"),
        ("<|tool_call>call: a:b:c {action:list}<tool_call|>", "a:b:c"),
        ("<start_function_call>call:srv:tool{action:list}<end_function_call>", "srv:tool"),
        ("call:srv:tool{action:list}", "srv:tool"),
    ],
)
def test_a_namespaced_tool_name_joined_by_colons_is_one_name(text: str, name: str) -> None:
    result = parse_everywhere(text, [name])
    assert [(c["name"], c["arguments"]) for c in result["calls"]] == [(name, {"action": "list"})]
    assert result["text"] == ""


@pytest.mark.parametrize(
    "text",
    [
        "call:srv:{action:list}",  # a colon ends no name: `srv:` is no tool
        "Please call:srv:tool{maybe} later.",  # a stripped form of no offered tool stays text
    ],
)
def test_a_name_ending_in_a_colon_or_of_no_offered_tool_stays_text(text: str) -> None:
    result = parse_everywhere(text, ["srv"])
    assert (result["calls"], result["errors"], result["text"]) == ([], [], text)


_VLLM_GEMMA4 = "vllm-project/vllm:tests/tool_parsers/test_gemma4_tool_parser.py (hunt 13c)"


@pytest.mark.parametrize(
    ("text", "visible"),
    [
        (f"<|tool_call>:call:bash{{command:{Q}pytest{Q}}}", ""),  # a stray colon after the opener, no closer
        (f"<|tool_call> : call:bash{{command:{Q}pytest{Q}}}<tool_call|>", ""),
        (f"<|tool_call>call:bash{{command:{Q}pytest{Q}}}<turn|>", ""),  # the turn's closer for the call's
        (f"<|tool_call>call:bash{{command:{Q}pytest{Q}}}<tool_call|><turn|>", ""),
        (f"some prose\ncall:bash{{command:{Q}pytest{Q}}}", "some prose"),  # on a line of its own after prose
        (f"Running the tests now.\n  call:bash{{command:{Q}pytest{Q}}}\nDone.", "Running the tests now. Done."),
        (f"<call>bash{{command:{Q}pytest{Q}}}", ""),  # the call token come out in pieces
        (f"Let me run them. <call>bash{{command:{Q}pytest{Q}}}", "Let me run them."),
    ],
)
def test_a_gemma_call_with_its_tokens_damaged_or_left_out_on_its_own_line_is_read(text: str, visible: str) -> None:
    # vLLM's Gemma 4 parser tests (_VLLM_GEMMA4): the model's own argument syntax is the evidence.
    result = parse_everywhere(text, ["bash", "get_weather"])
    assert [(c["name"], c["arguments"]) for c in result["calls"]] == [("bash", {"command": "pytest"})]
    assert (" ".join(result["text"].split()), result["errors"]) == (visible, [])


@pytest.mark.parametrize(
    "text",
    [
        f"some prose\ncall:rm_rf{{path:{Q}/{Q}}}",  # a line naming no offered tool
        "The syntax is\ncall:NAME{key:value}",
        "In prose, call:bash{command} is how it looks.",  # not on a line of its own
        f"<call>rm_rf{{path:{Q}/{Q}}}",  # the fragment naming no offered tool
        "Write <call>bash{x} to call it.",  # no arguments in the family's syntax
        "The closers are <turn|> and <tool_call|>.",  # the tokens named in prose
    ],
)
def test_a_damaged_or_bare_gemma_form_of_no_offered_tool_or_in_prose_stays_text(text: str) -> None:
    result = parse_everywhere(text, ["bash", "get_weather"])
    assert (result["calls"], result["errors"], result["text"]) == ([], [], text)
