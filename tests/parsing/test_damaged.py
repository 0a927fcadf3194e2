"""Damaged structure: a closer whose opener is missing, misspelled or cut closers, doubled braces, escaped bodies."""

from __future__ import annotations

from typing import Any

import pytest

from shim.parsing.readers import Dialect
from tests.parsing.chunking import parse_everywhere

TOOLS = [{"name": "get_weather", "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}}}}]
CALL = ("get_weather", {"city": "Paris"})


def _calls(result: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    return [(c["name"], c["arguments"]) for c in result["calls"]]


def test_the_opener_left_out_before_qwen3_coder_xml_is_a_call_and_the_orphan_closer_is_markup() -> None:
    # qwen3-coder:30b on Ollama v0.32.5, quoted in https://github.com/ollama/ollama/pull/17742
    text = "<function=exec_command>\n<parameter=cmd>\necho LEAK_TEST\n</parameter>\n</function>\n</tool_call>"
    result = parse_everywhere(text, ["exec_command"])
    assert _calls(result) == [("exec_command", {"cmd": "echo LEAK_TEST"})]
    assert result["text"].strip() == ""


def test_a_json_call_with_its_opener_left_out_mid_message_is_a_call_when_a_closer_follows() -> None:
    result = parse_everywhere('Sure. {"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call> ok', TOOLS)
    assert _calls(result) == [CALL]
    assert result["text"].split() == ["Sure.", "ok"]


@pytest.mark.parametrize(
    "text",
    [
        'Sure. {"name": "lookup", "arguments": {"city": "Paris"}}</tool_call>',  # not an offered tool
        'Sure. {"name": "get_weather", "city": "Paris", "note": 1}</tool_call>',  # not a call's shape
    ],
)
def test_a_json_object_without_that_evidence_stays_text(text: str) -> None:
    result = parse_everywhere(text, TOOLS)
    assert (result["calls"], result["errors"], result["text"]) == ([], [], text)


@pytest.mark.parametrize(
    "text",
    [
        '<function_call>{"name": "get_weather", "arguments": {"city": "Paris"}}</function_calls>',
        '<tool_call>{"name": "get_weather", "arguments": {"city": "Paris"}}</tool_calls>',
        '<function_call>{"name": "get_weather", "arguments": {"city": "Paris"}}</function_call',
        '<tool_call>{{"name": "get_weather", "arguments": {{"city": "Paris"}}}}</tool_call>',
        '<tool_call>{\\"name\\": \\"get_weather\\", \\"arguments\\": {\\"city\\": \\"Paris\\"}}</tool_call>',
        # A closer token that is a word in brackets, written as an XML end tag.
        "<start_function_call>call:get_weather{city:<escape>Paris<escape>}</end_function_call>",
        '<|tool_call_start|>[get_weather(city="Paris")]</|tool_call_end|>',
        '<|python_start|>[get_weather(city="Paris")]</|python_end|>',
    ],
)
def test_a_damaged_tagged_call_is_read_and_leaves_no_markup_visible(text: str) -> None:
    result = parse_everywhere(text, TOOLS)
    assert (_calls(result), result["errors"], result["text"]) == ([CALL], [], "")


def test_a_closer_with_other_damage_stays_visible_and_a_broken_repaired_body_is_an_error() -> None:
    result = parse_everywhere('<tool_call>{"name": "get_weather", "arguments": {"city": "Paris"}}</tool_callx>', TOOLS)
    assert (_calls(result), result["text"]) == ([CALL], "</tool_callx>")
    broken = parse_everywhere('<tool_call>{{"name": "get_weather", "arguments": {{"city": </tool_call>', TOOLS)
    assert broken["calls"] == [] and len(broken["errors"]) == 1


@pytest.mark.parametrize(
    ("body", "city"),
    [
        (r"a\$b", "a$b"),  # Command R+ writing a template literal's dollar (ai-sdk-tool-call-middleware's fixture)
        (r"\`x\`", "`x`"),
        (r"C:\dir\$x", r"C:\dir$x"),  # a letter escape keeps its backslash, the punctuation one reads as itself
    ],
)
def test_a_punctuation_escape_json_lacks_reads_as_the_character_in_every_chunking(body: str, city: str) -> None:
    text = '<tool_call>{"name": "get_weather", "arguments": {"city": "' + body + '"}}</tool_call>'
    result = parse_everywhere(text, TOOLS)
    assert (_calls(result), result["errors"], result["text"]) == ([("get_weather", {"city": city})], [], "")


@pytest.mark.parametrize(
    "text",
    [
        # Laguna, quoted by ollama/ollama's TestLagunaParserIgnoresDuplicatedNestedToolCall (benchmarks/real/laguna)
        '<tool_call>get_weather\n{"city":"Paris"}\n<tool_call>get_weather\n{"city":"Paris"}</tool_call>',
        '<tool_call>{"name": "get_weather", "arguments": {"city": "Paris"}}\n'
        '<tool_call>{"name": "get_weather",\n "arguments": {"city": "Paris"}}</tool_call>',
        '<tool_call>{"name": "get_weather", "arguments": {"city": "Paris"}}<tool_call>'
        '{"name": "get_weather", "arguments": {"city": "Paris"}}',
    ],
)
def test_an_unclosed_call_written_again_under_a_second_opener_is_one_call(text: str) -> None:
    result = parse_everywhere(text, TOOLS)
    assert (_calls(result), result["errors"], result["text"].strip()) == ([CALL], [], "")


@pytest.mark.parametrize(
    ("text", "cities"),
    [
        (  # a different call under the second opener: two calls
            '<tool_call>{"name": "get_weather", "arguments": {"city": "Paris"}}\n'
            '<tool_call>{"name": "get_weather", "arguments": {"city": "Rome"}}</tool_call>',
            ["Paris", "Rome"],
        ),
        (  # the first call closed: the same call made again is a second call
            '<tool_call>{"name": "get_weather", "arguments": {"city": "Paris"}}</tool_call>\n'
            '<tool_call>{"name": "get_weather", "arguments": {"city": "Paris"}}</tool_call>',
            ["Paris", "Paris"],
        ),
        (  # a prefix of the same call, then more: two calls
            '<tool_call>{"name": "get_weather", "arguments": {"city": "Paris"}}\n'
            '<tool_call>{"name": "get_weather", "arguments": {"city": "Paris", "days": 2}}</tool_call>',
            ["Paris", "Paris"],
        ),
    ],
)
def test_a_second_opener_that_does_not_repeat_an_unclosed_call_is_another_call(text: str, cities: list[str]) -> None:
    result = parse_everywhere(text, TOOLS)
    assert [c["arguments"]["city"] for c in result["calls"]] == cities


@pytest.mark.parametrize(
    "text",
    [
        # ByteDance Seed 2.0 Lite, quoted by ai-sdk-tool-call-middleware (benchmarks/real/damaged): cut to `</tool`
        '<tool_call>\n[{"name": "get_weather", "arguments": {"city": "Paris"}}]\n</tool',
        '<tool_call>{"name": "get_weather", "arguments": {"city": "Paris"}}</tool_c',
        '<tool_call>{"name": "get_weather", "arguments": {"city": "Paris"}}\n</too',
    ],
)
def test_a_closer_cut_off_by_the_end_of_the_output_is_markup(text: str) -> None:
    result = parse_everywhere(text, TOOLS)
    assert (_calls(result), result["errors"], result["text"].strip()) == ([CALL], [], "")


@pytest.mark.parametrize(
    "text",
    [
        '<tool_call>{"name": "get_weather", "arguments": {"city": "Paris"}}</tool_call> see </to',  # after text
        '<tool_call>{"name": "get_weather", "arguments": {"city": "Paris"}}</b',  # not the closer's beginning
    ],
)
def test_a_tail_that_is_no_beginning_of_the_blocks_closer_stays_text(text: str) -> None:
    result = parse_everywhere(text, TOOLS)
    assert _calls(result) == [CALL] and result["text"].strip().endswith(text[-3:].strip())


EDITOR = {
    "name": "edit",
    "inputSchema": {
        "type": "object",
        "properties": {"mode": {"type": "string"}, "path": {"type": "string"}, "items": {"type": "array"}},
    },
}


@pytest.mark.parametrize(
    ("text", "arguments"),
    [
        (
            "<function=edit>\n<parameter=mode=replace</parameter>\n<parameter=path>/a.py</parameter>\n</function>",
            {"mode": "replace", "path": "/a.py"},
        ),
        ("<function=edit><parameter=path=/b c.txt</parameter></function>", {"path": "/b c.txt"}),
        ("<function=edit><parameter=mode=</parameter></function>", {"mode": ""}),
    ],
)
def test_a_parameter_opener_missing_its_bracket_splits_name_and_value_at_the_first_equals(
    text: str, arguments: dict[str, Any]
) -> None:
    # OpenHands' recovery test writes `<parameter=command=str_replace</parameter>`.
    result = parse_everywhere(text, [EDITOR])
    assert _calls(result) == [("edit", arguments)]


def test_a_parameter_value_holding_an_equals_sign_is_still_the_value() -> None:
    result = parse_everywhere("<function=edit><parameter=path>a=b</parameter></function>", [EDITOR])
    assert _calls(result) == [("edit", {"path": "a=b"})]


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ('[{\\"id\\": \\"1\\"}, {\\"id\\": \\"2\\"}]', [{"id": "1"}, {"id": "2"}]),
        ('[\\"a\\", \\"b\\\\\\\\c\\"]', ["a", "b\\c"]),
        ("[]", []),
    ],
)
def test_an_array_written_as_inside_a_json_string_is_read_when_the_schema_says_array(value: str, expected: Any) -> None:
    # GLM-4.7 under SGLang writes the escaped form of an array inside <arg_value>.
    text = f"<tool_call>edit<arg_key>items</arg_key><arg_value>{value}</arg_value></tool_call>"
    result = parse_everywhere(text, [EDITOR])
    assert _calls(result) == [("edit", {"items": expected})]


def test_an_escaped_array_for_a_string_parameter_stays_its_text() -> None:
    value = '[{\\"id\\": 1}]'
    text = f"<tool_call>edit<arg_key>path</arg_key><arg_value>{value}</arg_value></tool_call>"
    assert _calls(parse_everywhere(text, [EDITOR])) == [("edit", {"path": value})]


@pytest.mark.parametrize("gap", ["\n", " \n", ""])
def test_a_lone_gt_where_the_closer_belongs_is_markup(gap: str) -> None:
    # Phi-4-mini wrote `{…}}>` for `{…}}</tool_call>`, then a second, well-formed call.
    text = (
        '<tool_call>{"name": "get_weather", "arguments": {"city": "Paris"}}>'
        f'{gap}<tool_call>{{"name": "get_weather", "arguments": {{"city": "Paris"}}}}</tool_call>'
    )
    result = parse_everywhere(text, TOOLS)
    assert _calls(result) == [CALL, CALL]
    assert result["text"].strip() == ""


def test_a_gt_after_a_call_that_begins_more_text_stays_text() -> None:
    result = parse_everywhere('<tool_call>{"name": "get_weather", "arguments": {"city": "Paris"}}>3 done', TOOLS)
    assert _calls(result) == [CALL]
    assert result["text"] == ">3 done"


@pytest.mark.parametrize(
    "text",
    [
        # Llama 3.2 3B in meta-llama/llama-cookbook: the prompt's `{{"example_name": …}}` copied with its escapes
        '<function=get_weather>{{"city": "Paris"}}</function>',
        '<tool_call>{{"name": "get_weather", "arguments": {"city": "Paris"}}}</tool_call>',
        '<tool_call>{ {"name": "get_weather", "arguments": {"city": "Paris"}} }</tool_call>',
        '<|python_tag|>{{"name": "get_weather", "parameters": {"city": "Paris"}}}<|eom_id|>',
    ],
)
def test_a_call_object_with_doubled_braces_copied_from_a_prompt_is_read(text: str) -> None:
    result = parse_everywhere(text, ["get_weather"])
    assert [(c["name"], c["arguments"]) for c in result["calls"]] == [("get_weather", {"city": "Paris"})]
    assert result["text"].strip() == ""


def test_doubled_braces_in_prose_stay_text() -> None:
    text = 'Use {{"city": "Paris"}} as the template, with double braces.'
    result = parse_everywhere(text, ["get_weather"])
    assert (result["calls"], result["text"]) == ([], text)


@pytest.mark.parametrize(("each", "cities"), [(False, ["Paris"]), (True, ["Paris", "Paris"])])
def test_a_repeat_the_output_ends_in_is_one_call_under_a_wrapper_and_another_under_a_per_call_opener(
    each: bool, cities: list[str]
) -> None:
    row = Dialect("act", r"<act>", r"</act>", body="json", opens_each_call=each)
    call = '{"name": "get_weather", "arguments": {"city": "Paris"}}'
    result = parse_everywhere(f"<act>{call}\n<act>{call}", TOOLS, dialects=[row])
    assert [c["arguments"]["city"] for c in result["calls"]] == cities


@pytest.mark.parametrize(
    "text",
    [
        # gemma3-12b, gamemaker1/gemma3-function-calling-benchmarks: the comma after the "id" line left out
        '```function_call\n{\n\t"id": "c1"\n\t"function": "get_weather",\n\t"parameters": {"city": "Paris"}\n}\n```',
        '<tool_call>\n{"name": "get_weather"\n "arguments": {"city": "Paris"}}\n</tool_call>',
        '<tool_call>\n{"name": "get_weather", "arguments": {\n  "city": "Paris"\n  "days": 2\n}}\n</tool_call>',
        '{\n  "name": "get_weather"\n  "arguments": {"city": "Paris"}\n}',
        # On the same line, after a blank (gptme's tests: `{"missing": "comma" "key": "value"}`).
        '<tool_call>\n{"name": "get_weather" "arguments": {"city": "Paris"}}\n</tool_call>',
        '<tool_call>{"name": "get_weather", "arguments": {"city": "Paris" "days": 2}}</tool_call>',
        '{"name": "get_weather",\t"arguments": {"days": 2  "city": "Paris"}}',
    ],
)
def test_a_comma_left_out_before_a_key_is_read_as_there(text: str) -> None:
    result = parse_everywhere(text, TOOLS)
    assert [c["name"] for c in result["calls"]] == ["get_weather"]
    assert result["calls"][0]["arguments"]["city"] == "Paris"
    assert result["text"].strip() == ""


@pytest.mark.parametrize(
    "text",
    [
        '<tool_call>\n{"name": "get_weather""arguments": {"city": "Paris"}}\n</tool_call>',  # no gap: no comma read
        '<tool_call>{"name": "get_weather", "arguments": {"city": "Paris" "Rome"}}</tool_call>',  # no key after
        'The list:\n{"name": "get_weather"\n"Paris"}\n',  # a string after a line break that is no key
    ],
)
def test_two_values_a_comma_cannot_join_are_no_call(text: str) -> None:
    result = parse_everywhere(text, TOOLS)
    assert result["calls"] == []


@pytest.mark.parametrize(
    ("text", "visible"),
    [
        # clawlite's extractor tests: a self-closing tag written as the opener, the JSON after it, no closer
        ('Let me check.\n<tool_call/>\n{"name": "get_weather", "arguments": {"city": "Paris"}}', "Let me check.\n"),
        ('<tool_call />{"name": "get_weather", "arguments": {"city": "Paris"}}\nDone.', "\nDone."),
        ('<function_call/>\n{"tool": "get_weather", "args": {"city": "Paris"}}', ""),
        ('<tool_use/> [{"name": "get_weather", "arguments": {"city": "Paris"}}]', ""),
    ],
)
def test_a_self_closing_call_tag_before_a_json_call_is_its_opener(text: str, visible: str) -> None:
    result = parse_everywhere(text, TOOLS)
    assert _calls(result) == [CALL]
    assert result["text"] == visible


@pytest.mark.parametrize(
    "text",
    [
        "Mark the call with <tool_call/> and nothing else.",
        "<tool_call/>\nThen the JSON goes here.",
        "Use `<tool_call/>` before {the arguments}.",
    ],
)
def test_a_self_closing_call_tag_without_a_call_after_it_stays_text(text: str) -> None:
    result = parse_everywhere(text, TOOLS)
    assert (result["calls"], result["errors"], result["text"]) == ([], [], text)


@pytest.mark.parametrize(
    "text",
    [
        # Llama 3.2 3B (a benchmark's raw_content): every quote after "parameters escaped, so its string never closes
        '{"name":"get_weather","parameters\\":{\\"city\\":\\"Paris\\"}}',
        '{"name": "get_weather", "arguments\\": {\\"city\\": \\"Paris\\"}}',
        '{"name": "get_weather",\n "parameters\\":\n {\\"city\\": \\"Paris\\"}\n}',
    ],
)
def test_json_whose_quotes_turn_escaped_at_a_key_is_read_unescaped_from_there(text: str) -> None:
    result = parse_everywhere(text, TOOLS)
    assert _calls(result) == [CALL]
    assert result["text"] == ""


@pytest.mark.parametrize(
    "text",
    [
        '{"name": "lookup", "parameters\\": {\\"city\\": \\"Paris\\"}}',  # not an offered tool
        'Write {"name": "get_weather", "note": "say \\"hi\\" to it',  # escaped quotes inside a value, never closed
        '{"name": "get_weather", "parameters\\": {\\"city\\": \\"Par',  # cut off
    ],
)
def test_escaped_quotes_that_do_not_make_a_whole_call_stay_text(text: str) -> None:
    result = parse_everywhere(text, TOOLS)
    assert (result["calls"], result["text"]) == ([], text)


HYPHENATED = [{"name": "book-room", "inputSchema": {"type": "object", "properties": {"n": {"type": "integer"}}}}]


@pytest.mark.parametrize(
    ("text", "arguments"),
    [
        # Llama3-Groq-Tool-Use as Ollama issue 5813 shows it: every quote typographic, an "id" key first.
        (
            "<tool_call> {\u201cid\u201d: 0, \u201cname\u201d: \u201cbook-room\u201d, \u201carguments\u201d: "
            "{\u201cn\u201d: 1, \u201cs\u201d: \u201cSingle Room\u201d}} </tool_call>",
            {"n": 1, "s": "Single Room"},
        ),
        (
            "<tool_call>\n{\u201cname\u201d:\u201cbook-room\u201d,\u201carguments\u201d:{\u201cn\u201d:2}}\n</tool_call>",
            {"n": 2},
        ),
        # single typographic quotes likewise; an apostrophe of the other pair inside a value stays
        (
            "<tool_call>{\u2018name\u2019: \u2018book-room\u2019, \u2018arguments\u2019: {\u2018s\u2019: \u2018it\u201cs\u201d\u2019}}"
            "</tool_call>",
            {"s": "it\u201cs\u201d"},
        ),
    ],
)
def test_a_tagged_body_whose_quotes_are_all_typographic_is_read_as_json(text: str, arguments: dict[str, Any]) -> None:
    result = parse_everywhere(text, HYPHENATED)
    assert _calls(result) == [("book-room", arguments)]
    assert result["text"].strip() == ""


def test_typographic_quotes_inside_a_straight_quoted_value_are_its_text() -> None:
    text = '<tool_call>{"name": "book-room", "arguments": {"s": "\u201cquoted\u201d"}}</tool_call>'
    assert _calls(parse_everywhere(text, HYPHENATED)) == [("book-room", {"s": "\u201cquoted\u201d"})]


def test_typographic_quotes_in_prose_stay_text() -> None:
    text = "She wrote {\u201cname\u201d: \u201cbook-room\u201d} on the board."
    result = parse_everywhere(text, HYPHENATED)
    assert _calls(result) == []
    assert result["text"] == text
