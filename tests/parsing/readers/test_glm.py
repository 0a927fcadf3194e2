"""GLM-4.5 / 4.6 / 4.7 <arg_key>/<arg_value> calls (`shim.parsing.readers.glm`), at every split point."""

from __future__ import annotations

from typing import Any

import pytest

from tests.parsing.readers.cases import Real, check, tool

# Quoted from the peer tests named in each case (corpus: benchmarks/real).
CASES = [
    Real(  # ollama_glm47_three_calls: no schema is given, so the values stay strings (as the source expects)
        "ollama/ollama:model/parsers/glm47_test.go@fb30760996871fa9460115c753afd2c60d4ab0f7",
        "plan</think>\n<tool_call>first<arg_key>a</arg_key><arg_value>1</arg_value></tool_call>\n<tool_call>second<arg_key>b</arg_key><arg_value>2</arg_value></tool_call>\n<tool_call>third<arg_key>c</arg_key><arg_value>3</arg_value></tool_call>",
        [("first", {"a": "1"}), ("second", {"b": "2"}), ("third", {"c": "3"})],
        reasoning="plan",
        in_reasoning=True,
    ),
    Real(  # ollama_glm47_typed_values: the chat template opens <think> in the prompt; values are typed by the tool's schema (the test's expected arguments are 3 and true)
        "ollama/ollama:model/parsers/glm47_test.go@fb30760996871fa9460115c753afd2c60d4ab0f7",
        "plan</think>Answer<tool_call>calculate<arg_key>count</arg_key><arg_value>3</arg_value><arg_key>enabled</arg_key><arg_value>true</arg_value></tool_call>",
        [("calculate", {"count": 3, "enabled": True})],
        visible="Answer",
        tools=[
            {
                "name": "calculate",
                "parameters": {
                    "type": "object",
                    "properties": {"count": {"type": "integer"}, "enabled": {"type": "boolean"}},
                },
            }
        ],
        reasoning="plan",
        in_reasoning=True,
    ),
    Real(  # vllm_glm45_date_value
        "vllm-project/vllm:tests/tool_parsers/test_glm4_moe_tool_parser.py@024364d6695352f41c029121af6b8ecf2ae60184",
        "I will help you get the weather.<tool_call>get_weather\n    <arg_key>city</arg_key>\n    <arg_value>Beijing</arg_value>\n    <arg_key>date</arg_key>\n    <arg_value>2025-08-01</arg_value>\n    </tool_call>",
        [("get_weather", {"city": "Beijing", "date": "2025-08-01"})],
        visible="I will help you get the weather.",
    ),
    Real(  # vllm_glm45_no_args
        "vllm-project/vllm:tests/tool_parsers/test_glm4_moe_tool_parser.py@024364d6695352f41c029121af6b8ecf2ae60184",
        "<tool_call>get_current_time\n</tool_call>",
        [("get_current_time", {})],
    ),
    Real(  # vllm_glm45_single_indented
        "vllm-project/vllm:tests/tool_parsers/test_glm4_moe_tool_parser.py@024364d6695352f41c029121af6b8ecf2ae60184",
        "<tool_call>get_current_weather\n    <arg_key>city</arg_key>\n    <arg_value>Dallas</arg_value>\n    <arg_key>state</arg_key>\n    <arg_value>TX</arg_value>\n    <arg_key>unit</arg_key>\n    <arg_value>fahrenheit</arg_value>\n    </tool_call>",
        [("get_current_weather", {"city": "Dallas", "state": "TX", "unit": "fahrenheit"})],
    ),
    Real(  # vllm_glm45_space_in_value
        "vllm-project/vllm:tests/tool_parsers/test_glm4_moe_tool_parser.py@024364d6695352f41c029121af6b8ecf2ae60184",
        "<tool_call>get_current_weather\n    <arg_key>city</arg_key>\n    <arg_value>New York</arg_value>\n    <arg_key>state</arg_key>\n    <arg_value>NY</arg_value>\n    <arg_key>unit</arg_key>\n    <arg_value>celsius</arg_value>\n    </tool_call>",
        [("get_current_weather", {"city": "New York", "state": "NY", "unit": "celsius"})],
    ),
    Real(  # vllm_glm45_text_before
        "vllm-project/vllm:tests/tool_parsers/test_glm4_moe_tool_parser.py@024364d6695352f41c029121af6b8ecf2ae60184",
        "I'll help you check the weather. <tool_call>get_current_weather\n    <arg_key>city</arg_key>\n    <arg_value>Seattle</arg_value>\n    <arg_key>state</arg_key>\n    <arg_value>WA</arg_value>\n    <arg_key>unit</arg_key>\n    <arg_value>celsius</arg_value>\n    </tool_call>",
        [("get_current_weather", {"city": "Seattle", "state": "WA", "unit": "celsius"})],
        visible="I'll help you check the weather.",
    ),
    Real(  # vllm_glm45_text_between_calls
        "vllm-project/vllm:tests/tool_parsers/test_glm4_moe_tool_parser.py@024364d6695352f41c029121af6b8ecf2ae60184",
        "I will help you get the weather info.\n\n<tool_call>get_weather\n<arg_key>city</arg_key>\n<arg_value>Beijing</arg_value>\n<arg_key>date</arg_key>\n<arg_value>2025-08-01</arg_value>\n</tool_call>\n\nmeaningwhile, I will also check the weather in Shanghai.\n\n<tool_call>get_weather\n<arg_key>city</arg_key>\n<arg_value>Shanghai</arg_value>\n<arg_key>date</arg_key>\n<arg_value>2025-08-01</arg_value>\n</tool_call>",
        [
            ("get_weather", {"city": "Beijing", "date": "2025-08-01"}),
            ("get_weather", {"city": "Shanghai", "date": "2025-08-01"}),
        ],
        visible="I will help you get the weather info. meaningwhile, I will also check the weather in Shanghai.",
    ),
    Real(  # vllm_glm45_think_then_call
        "vllm-project/vllm:tests/tool_parsers/test_glm4_moe_tool_parser.py@024364d6695352f41c029121af6b8ecf2ae60184",
        "<think>I want to get the weather.</think>\n\nI will help you get the weather.\n<tool_call>get_weather\n<arg_key>city</arg_key>\n<arg_value>Beijing</arg_value>\n<arg_key>date</arg_key>\n<arg_value>2025-08-01</arg_value>\n</tool_call>",
        [("get_weather", {"city": "Beijing", "date": "2025-08-01"})],
        visible="I will help you get the weather.",
        reasoning="I want to get the weather.",
    ),
    Real(  # vllm_glm45_three_args
        "vllm-project/vllm:tests/tool_parsers/test_glm4_moe_tool_parser.py@024364d6695352f41c029121af6b8ecf2ae60184",
        "<tool_call>send_message\n<arg_key>recipient</arg_key>\n<arg_value>Amy</arg_value>\n<arg_key>message</arg_key>\n<arg_value>It is a nice day</arg_value>\n<arg_key>priority</arg_key>\n<arg_value>high</arg_value>\n</tool_call>",
        [("send_message", {"recipient": "Amy", "message": "It is a nice day", "priority": "high"})],
    ),
    Real(  # vllm_glm45_two_indented
        "vllm-project/vllm:tests/tool_parsers/test_glm4_moe_tool_parser.py@024364d6695352f41c029121af6b8ecf2ae60184",
        "<tool_call>get_current_weather\n    <arg_key>city</arg_key>\n    <arg_value>Dallas</arg_value>\n    <arg_key>state</arg_key>\n    <arg_value>TX</arg_value>\n    <arg_key>unit</arg_key>\n    <arg_value>fahrenheit</arg_value>\n    </tool_call>\n    <tool_call>get_current_weather\n    <arg_key>city</arg_key>\n    <arg_value>Orlando</arg_value>\n    <arg_key>state</arg_key>\n    <arg_value>FL</arg_value>\n    <arg_key>unit</arg_key>\n    <arg_value>fahrenheit</arg_value>\n    </tool_call>",
        [
            ("get_current_weather", {"city": "Dallas", "state": "TX", "unit": "fahrenheit"}),
            ("get_current_weather", {"city": "Orlando", "state": "FL", "unit": "fahrenheit"}),
        ],
    ),
]


@pytest.mark.parametrize("case", CASES, ids=[f"{i}" for i in range(len(CASES))])
def test_a_real_glm_output_is_read_at_every_split_point(case: Real) -> None:
    check(case)


def test_values_are_typed_by_the_schema_and_python_literals_read_for_arrays() -> None:
    text = "<tool_call>tag\n<arg_key>labels</arg_key>\n<arg_value>['a', 'b']</arg_value>\n<arg_key>n</arg_key><arg_value>2</arg_value></tool_call>"
    check(
        Real(
            "variant", text, [("tag", {"labels": ["a", "b"], "n": 2})], tools=[tool("tag", labels="array", n="integer")]
        )
    )


def test_a_value_left_open_before_the_closer_still_ends_the_call() -> None:
    text = "<tool_call>get_weather<arg_key>city</arg_key><arg_value>Paris</tool_call>"
    check(Real("variant", text, [("get_weather", {"city": "Paris"})]))


def test_hermes_json_inside_tool_call_is_still_json() -> None:
    text = '<tool_call>{"name": "get_weather", "arguments": {"city": "Paris"}}</tool_call>'
    check(Real("variant", text, [("get_weather", {"city": "Paris"})]))


def test_a_word_after_tool_call_that_is_not_a_call_stays_prose() -> None:
    text = "Use <tool_call> tags when calling."
    check(Real("variant", text, [], visible=text, tools=["get_weather"]), every_split=False)


@pytest.mark.parametrize(
    ("text", "calls"),
    [
        (  # GLM-5.2 under load, sampled tokens quoted in https://github.com/vllm-project/vllm/issues/49248
            "<tool_call>search<arg_key>query</arg_key>how many vacation days left</arg_value></tool_call>",
            [("search", {"query": "how many vacation days left"})],
        ),
        (  # the same on GLM's usual one-pair-per-line layout
            "<tool_call>search\n<arg_key>query</arg_key>\nhow many vacation days left\n</arg_value>\n</tool_call>",
            [("search", {"query": "how many vacation days left"})],
        ),
        (  # one pair damaged, the other whole, typed by the schema
            "<tool_call>search<arg_key>query</arg_key>days left</arg_value><arg_key>limit</arg_key><arg_value>5</arg_value></tool_call>",
            [("search", {"query": "days left", "limit": 5})],
        ),
        (  # both openers left out
            "<tool_call>search<arg_key>query</arg_key>days</arg_value><arg_key>limit</arg_key>5</arg_value></tool_call>",
            [("search", {"query": "days", "limit": 5})],
        ),
    ],
)
def test_a_value_whose_arg_value_opener_is_left_out_starts_after_its_key(
    text: str, calls: list[tuple[str, dict[str, object]]]
) -> None:
    check(Real("variant", text, calls, tools=[tool("search", query="string", limit="integer")]))


@pytest.mark.parametrize(
    ("text", "visible"),
    [
        # Laguna, quoted by ollama/ollama's laguna parser tests (benchmarks/real/laguna)
        (
            "<user>get_weather\n<arg_key>city</arg_key>\n<arg_value>San Francisco, CA</arg_value>\n</user>",
            "",
        ),
        (
            "I'll check.\n<user>get_weather\n<arg_key>city</arg_key>\n<arg_value>San Francisco, CA</arg_value>\n</user>",
            "I'll check.",
        ),
        ("<call> get_weather <arg_key>city</arg_key><arg_value>San Francisco, CA</arg_value></call> ok", "ok"),
    ],
)
def test_an_arg_key_call_of_an_offered_tool_is_read_whatever_tag_wraps_it(text: str, visible: str) -> None:
    check(
        Real("variant", text, [("get_weather", {"city": "San Francisco, CA"})], visible=visible, tools=["get_weather"])
    )


@pytest.mark.parametrize(
    "text",
    [
        "<user>lookup\n<arg_key>city</arg_key>\n<arg_value>Paris</arg_value>\n</user>",  # not an offered tool
        "<user>get_weather is the tool to use</user>",  # no <arg_key> after the name
        "Write `<user>get_weather<arg_key>city</arg_key><arg_value>Paris</arg_value></user>` here.",  # code span
    ],
)
def test_a_tag_around_a_name_without_that_evidence_stays_text(text: str) -> None:
    check(Real("variant", text, [], visible=text, tools=["get_weather"]))


@pytest.mark.parametrize(
    "end",
    ["</tool_", "</tool_call", "</tool_calls>", "\n</tool_ca"],
)
def test_a_wrapper_closer_cut_at_the_end_or_misspelled_ends_the_call(end: str) -> None:
    # Ollama's glm46 parser test builds "<tool_call>" + body + "</tool_" (benchmarks/real/glm/b6_ollama_glm46_*)
    text = "<tool_call>grep\n<arg_key>pattern</arg_key>\n<arg_value>needle</arg_value>" + end
    check(Real("written", text, [("grep", {"pattern": "needle"})]))


@pytest.mark.parametrize("end", ["</tool_x> ok", "</b>", "</tool_call>"[:3] + " later"])
def test_another_closer_after_the_pairs_is_no_end_of_the_call(end: str) -> None:
    text = "<tool_call>grep\n<arg_key>pattern</arg_key>\n<arg_value>needle</arg_value>" + end
    result = check(Real("written", text, [], visible=text, errors=1), visible=False)
    assert result["calls"] == []


@pytest.mark.parametrize(
    ("text", "calls", "visible"),
    [
        # Hunyuan HY-3 (vLLM's hy_v3 parser tests): a separator token after the name, <tool_calls> around.
        (
            "<tool_calls>\n<tool_call>get_weather<tool_sep>\n<arg_key>city</arg_key>\n<arg_value>Oslo</arg_value>\n"
            "</tool_call>\n<tool_call>get_weather<tool_sep><arg_key>city</arg_key><arg_value>Rome</arg_value></tool_call>"
            "\n</tool_calls>",
            [("get_weather", {"city": "Oslo"}), ("get_weather", {"city": "Rome"})],
            "",
        ),
        (
            "Checking.<tool_calls><tool_call>get_date<tool_sep></tool_call></tool_calls>",
            [("get_date", {})],
            "Checking.",
        ),
        ("<tool_call>get_date <|tool_sep|>\n</tool_call>", [("get_date", {})], ""),
    ],
)
def test_a_separator_token_after_the_name_is_markup(
    text: str, calls: list[tuple[str, dict[str, Any]]], visible: str
) -> None:
    check(Real("written: HY-3 shapes", text, calls, visible=visible, tools=["get_weather", "get_date"]))


@pytest.mark.parametrize(
    "text",
    [
        "glob\n<arg_key>pattern</arg_key>\n<arg_value>**/*.md</arg_value>",
        "glob<arg_key>pattern</arg_key><arg_value>**/*.md</arg_value>\n",
    ],
)
def test_the_name_and_pairs_opening_the_message_without_the_tag_are_a_call(text: str) -> None:
    check(
        Real(
            "written: GLM-4.5-Air without <tool_call> (mlx-lm#607)",
            text,
            [("glob", {"pattern": "**/*.md"})],
            tools=["glob"],
        )
    )


@pytest.mark.parametrize(
    "text",
    [
        "I ran glob\n<arg_key>pattern</arg_key>\n<arg_value>x</arg_value>",
        "unknown\n<arg_key>pattern</arg_key>\n<arg_value>x</arg_value>",
    ],
)
def test_pairs_after_prose_or_an_unknown_name_without_the_tag_stay_text(text: str) -> None:
    result = check(Real("written: pairs in prose", text, [], visible=text, tools=["glob"]))
    assert result["errors"] == []


@pytest.mark.parametrize(
    ("text", "visible"),
    [
        # mlx_ollama's tests: an unreadable block, then a real call of another family.
        (
            "<tool_call>GARBAGE</tool_call><function=get_weather><parameter=city>Oslo</parameter></function>",
            "<tool_call>GARBAGE</tool_call>",
        ),
        ('<tool_call>\noops\n</tool_call>\n<tool_call>{"name": "get_weather", "arguments": {}}</tool_call>', None),
    ],
)
def test_a_name_alone_in_a_call_tag_of_no_offered_tool_stays_text(text: str, visible: str | None) -> None:
    result = check(
        Real("written", text, [("get_weather", {"city": "Oslo"} if "Oslo" in text else {})], tools=["get_weather"]),
        visible=False,
    )
    if visible is not None:
        assert result["text"] == visible
    else:
        assert "oops" in result["text"]


@pytest.mark.parametrize(
    "text",
    ["<tool_call>get_time</tool_call>", "<tool_call>\nget_time\n</tool_call>", "Now: <tool_call>get_time</tool_call>"],
)
def test_a_name_alone_in_a_call_tag_of_an_offered_tool_is_a_call_without_arguments(text: str) -> None:
    check(Real("written", text, [("get_time", {})], visible=text.split("<")[0], tools=["get_time", "get_weather"]))


_HY = (
    "<tool_call{s}>get_weather<tool_sep{s}>\n<arg_key{s}>city</arg_key{s}>\n<arg_value{s}>Seoul</arg_value{s}>\n"
    "</tool_call{s}>"
)


@pytest.mark.parametrize("suffix", [":opensource", ":hy"])
def test_tags_with_a_namespace_after_their_name_are_read_as_the_family(suffix: str) -> None:
    # Hunyuan V3's open-source build (llamadart's tests): every tag carries `:opensource` after its name
    text = f"<think{suffix}>plan</think{suffix}><tool_calls{suffix}>\n{_HY.format(s=suffix)}\n</tool_calls{suffix}>"
    check(Real("written", text, [("get_weather", {"city": "Seoul"})], visible="", reasoning="plan"))


@pytest.mark.parametrize("text", ["<tool_call:>get_weather</tool_call:>", "a <tool_call:1>b</tool_call:1> c"])
def test_a_colon_after_a_tag_name_without_a_word_stays_text(text: str) -> None:
    check(Real("written", text, [], visible=text, tools=["get_weather"]))


@pytest.mark.parametrize(
    ("text", "arguments"),
    [
        # vLLM PR 47190 (GLM-4.7): the first <arg_key> opener left out, the name glued to the key.
        (
            "<tool_call>send_command_to_shellcommand</arg_key><arg_value>echo test</arg_value></tool_call>",
            {"command": "echo test"},
        ),
        (
            "<tool_call>send_command_to_shellcommand</arg_key>\n<arg_value>ls</arg_value>\n</tool_call>",
            {"command": "ls"},
        ),
        ("<tool_call>send_command_to_shellcommand</arg_key>ls</arg_value></tool_call>", {"command": "ls"}),
        (
            "<tool_call>send_command_to_shellcommand</arg_key><arg_value>ls</arg_value>"
            "<arg_key>cwd</arg_key><arg_value>/tmp</arg_value></tool_call>",
            {"command": "ls", "cwd": "/tmp"},
        ),
    ],
)
def test_a_name_glued_to_its_first_key_for_a_left_out_arg_key_opener_is_the_name_and_the_key(
    text: str, arguments: dict[str, Any]
) -> None:
    tools = [tool("send_command_to_shell", command="string", cwd="string"), tool("send_command", to="string")]
    check(Real("variant", text, [("send_command_to_shell", arguments)], tools=tools))


@pytest.mark.parametrize(
    "text",
    [
        "<tool_call>send_command_to_shellout</arg_key><arg_value>ls</arg_value></tool_call>",  # no declared key
        "<tool_call>run_commandcommand</arg_key><arg_value>ls</arg_value></tool_call>",  # no offered tool
    ],
)
def test_a_word_glued_to_a_closer_that_is_no_offered_name_and_declared_key_is_no_call(text: str) -> None:
    result = check(
        Real("variant", text, [], visible=text, tools=[tool("send_command_to_shell", command="string")]),
        visible=False,
    )
    assert "send_command_to_shell" not in str(result["calls"])


@pytest.mark.parametrize(
    ("text", "arguments"),
    [
        # the glm5 corpus's missing-arg-key-close record: the key's closer left out, `<arg_value>` ends the key
        (
            "<tool_call>echo<arg_key>message<arg_value>missing key close</arg_value></tool_call>",
            {"message": "missing key close"},
        ),
        ("<tool_call>get_weather\n<arg_key>city\n<arg_value>Paris</arg_value>\n</tool_call>", {"city": "Paris"}),
        (
            "<tool_call>get_weather<arg_key> city <arg_value>Lyon</arg_value><arg_key>unit</arg_key>"
            "<arg_value>c</arg_value></tool_call>",
            {"city": "Lyon", "unit": "c"},
        ),
    ],
)
def test_a_key_whose_closer_is_left_out_ends_at_the_value_opener(text: str, arguments: dict[str, Any]) -> None:
    name = text.removeprefix("<tool_call>").split("<")[0].strip()
    tools = [tool("echo", message="string"), tool("get_weather", city="string", unit="string")]
    check(Real("variant", text, [(name, arguments)], tools=tools))


@pytest.mark.parametrize(
    "text",
    [
        # the glm5 corpus's variant-tag-whitespace record: blanks inside every structural tag
        "< tool_call >echo< arg_key >message</ arg_key >< arg_value >space tolerant</ arg_value ></ tool_call >",
        "<tool_call>echo\n<arg_key >message</arg_key >\n<arg_value >space tolerant</arg_value >\n</tool_call>",
        "<tool_call>echo<\targ_key>message<\t/arg_key><arg_value>space tolerant< /arg_value></tool_call>",
    ],
)
def test_blanks_inside_the_pair_tags_keep_them_tags(text: str) -> None:
    check(Real("variant", text, [("echo", {"message": "space tolerant"})], tools=[tool("echo", message="string")]))


@pytest.mark.parametrize(
    ("text", "value", "visible"),
    [
        # the glm5 corpus's raw-outer-close-in-string record: GLM's raw strings may hold the call's closer
        (
            "<tool_call>echo<arg_key>message</arg_key><arg_value>literal </tool_call> marker</arg_value></tool_call>",
            "literal </tool_call> marker",
            "",
        ),
        (
            "<tool_call>echo<arg_key>message</arg_key><arg_value>a</tool_call>b</arg_value></tool_call>",
            "a</tool_call>b",
            "",
        ),
        # the closer with a line break or a tag after it still ends the call (the value's closer left out)
        ("<tool_call>echo<arg_key>message</arg_key><arg_value>hi</tool_call>\nDone.", "hi", "Done."),
        ("<tool_call>echo<arg_key>message</arg_key><arg_value>hi</tool_call><tool_call>", "hi", None),
        ("<tool_call>echo<arg_key>message</arg_key><arg_value>hi</arg_value></tool_call> done", "hi", "done"),
    ],
)
def test_the_call_closer_inside_a_value_with_text_after_it_on_its_line_is_the_value_s(
    text: str, value: str, visible: str | None
) -> None:
    tools = [tool("echo", message="string")]
    if visible is None:  # an opener cut at the end: an error event after the call
        result = check(Real("variant", text, [("echo", {"message": value})], tools=tools, errors=1), visible=False)
        assert result["text"] == ""
        return
    check(Real("variant", text, [("echo", {"message": value})], visible=visible, tools=tools))
