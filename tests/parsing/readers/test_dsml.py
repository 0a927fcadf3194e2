# ruff: noqa: RUF001  (the full-width bars are DeepSeek's real tokens)
"""DeepSeek V3.2 / V4 DSML calls (`shim.parsing.readers.dsml`), at every split point."""

from __future__ import annotations

import pytest

from tests.parsing.readers.cases import Real, check, tool

LLAMA_CPP = "ggml-org/llama.cpp:tests/test-chat.cpp@0042e2079d3428ba7af410df553202aa7fdf8d7a"
VLLM = "vllm-project/vllm:tests/tool_parsers/test_deepseekv32_tool_parser.py@00816550e740a13736f7ef9921097d51a3f01ede"

CASES = [
    Real(  # V3.2: string="false" value typed by the schema
        LLAMA_CPP,
        '<｜DSML｜function_calls>\n<｜DSML｜invoke name="special_function">\n'
        '<｜DSML｜parameter name="arg1" string="false">1</｜DSML｜parameter>\n</｜DSML｜invoke>\n</｜DSML｜function_calls>',
        [("special_function", {"arg1": 1})],
        tools=[tool("special_function", arg1="integer")],
    ),
    Real(  # V4: the block is named tool_calls; two invokes; text before
        LLAMA_CPP,
        "Checking both.\n\n<｜DSML｜tool_calls>\n"
        '<｜DSML｜invoke name="get_time">\n<｜DSML｜parameter name="city" string="true">Paris</｜DSML｜parameter>\n'
        '</｜DSML｜invoke>\n<｜DSML｜invoke name="get_weather">\n'
        '<｜DSML｜parameter name="city" string="true">Paris</｜DSML｜parameter>\n</｜DSML｜invoke>\n</｜DSML｜tool_calls>',
        [("get_time", {"city": "Paris"}), ("get_weather", {"city": "Paris"})],
        visible="Checking both.",
    ),
    Real(  # a parameter that holds the whole arguments object, which the schema does not have: unwrapped
        VLLM,
        '<｜DSML｜function_calls>\n<｜DSML｜invoke name="get_weather">\n<｜DSML｜parameter name="arguments" '
        'string="false">{"location":"Beijing"}</｜DSML｜parameter>\n</｜DSML｜invoke>\n</｜DSML｜function_calls>',
        [("get_weather", {"location": "Beijing"})],
        tools=[tool("get_weather", location="string")],
    ),
    Real(  # variant: ASCII bars, no string attribute, the invoke's end tag left out before the wrapper closes
        "written: the leniencies of the DSML reader",
        '<|DSML|function_calls><|DSML|invoke name="get_time"><|DSML|parameter name="city">Oslo</|DSML|parameter>'
        "</|DSML|function_calls> Done.",
        [("get_time", {"city": "Oslo"})],
        visible="Done.",
    ),
    Real(  # variant: no parameters
        VLLM,
        '<｜DSML｜function_calls>\n<｜DSML｜invoke name="get_time">\n</｜DSML｜invoke>\n</｜DSML｜function_calls>',
        [("get_time", {})],
    ),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.text[:40])
def test_a_dsml_call_is_read_at_every_split_point(case: Real) -> None:
    check(case)


def test_a_dsml_call_after_reasoning_the_template_opened_is_read_with_the_reasoning_apart() -> None:
    case = Real(
        LLAMA_CPP,
        'Let me check the time</think>\n\n<｜DSML｜function_calls>\n<｜DSML｜invoke name="get_time">\n'
        '<｜DSML｜parameter name="city" string="true">Tokyo</｜DSML｜parameter>\n</｜DSML｜invoke>\n</｜DSML｜function_calls>',
        [("get_time", {"city": "Tokyo"})],
        in_reasoning=True,
        reasoning="Let me check the time",
    )
    check(case)


def test_a_dsml_tag_named_in_prose_stays_text() -> None:
    case = Real("written", "The <｜DSML｜function_calls> block wraps the calls.", [], visible="")
    result = check(case, visible=False)
    assert result["text"] == case.text


@pytest.mark.parametrize(
    ("attribute", "value", "expected"),
    [
        (' string="true"', "42", "42"),
        (' string="false"', "42", 42),
        (' string="false"', "[1, 2]", [1, 2]),
        (' string="false"', '{"a": true}', {"a": True}),
        (' string="true"', "[1, 2]", "[1, 2]"),
        (' string="false"', "not json", "not json"),
        ("", "42", "42"),  # no attribute, no schema: the text
    ],
)
def test_the_string_attribute_says_whether_a_value_is_text_or_json(
    attribute: str, value: str, expected: object
) -> None:
    text = (
        '<｜DSML｜function_calls><｜DSML｜invoke name="f">'
        f'<｜DSML｜parameter name="v"{attribute}>{value}</｜DSML｜parameter>'
        "</｜DSML｜invoke></｜DSML｜function_calls>"
    )
    check(Real("written: DeepSeek V3.2 template's string attribute", text, [("f", {"v": expected})]))


@pytest.mark.parametrize(
    "text",
    [
        # smg's DSML test: the invoke holds a JSON object instead of parameter elements
        '<｜DSML｜function_calls>\n<｜DSML｜invoke name="get_weather">\n{"location": "Beijing", "date": "2024-01-16"}\n'
        "</｜DSML｜invoke>\n</｜DSML｜function_calls>",
        '<|DSML|function_calls><|DSML|invoke name="get_weather">{"location": "Beijing", "date": "2024-01-16"}'
        "</|DSML|invoke></|DSML|function_calls>",
    ],
)
def test_an_invoke_holding_a_json_object_is_read_as_its_arguments(text: str) -> None:
    tools = [tool("get_weather", location="string", date="string")]
    check(Real("written", text, [("get_weather", {"location": "Beijing", "date": "2024-01-16"})], tools=tools))


def test_an_invoke_holding_json_in_an_inline_code_span_stays_text() -> None:
    text = 'Write `<｜DSML｜invoke name="get_weather">{"location": "Beijing"}</｜DSML｜invoke>` to call it.'
    check(Real("written", text, [], visible=text, tools=[tool("get_weather", location="string")]))


GIGACHAT = (
    "vllm-project/vllm:tests/tool_parsers/test_gigachat35_tool_parser.py@053521db5e1807004c5e89d03c75b93b3974c7c7"
)


@pytest.mark.parametrize(
    ("text", "visible"),
    [
        (  # GigaChat 3.5: the DSML markup under its own namespace, text before
            'I will check.<｜GCML｜tool_calls><｜GCML｜invoke name="get_time"><｜GCML｜parameter name="city" '
            'string="true">Oslo</｜GCML｜parameter></｜GCML｜invoke></｜GCML｜tool_calls>',
            "I will check.",
        ),
        (  # variant: ASCII bars, the function_calls wrapper, line breaks between the tags
            '<|GCML|function_calls>\n<|GCML|invoke name="get_time">\n<|GCML|parameter name="city">Oslo'
            "</|GCML|parameter>\n</|GCML|invoke>\n</|GCML|function_calls>",
            "",
        ),
        (  # variant: a namespace no one here has seen, with a digit
            '<｜XML2｜tool_calls><｜XML2｜invoke name="get_time"><｜XML2｜parameter name="city" string="true">Oslo'
            "</｜XML2｜parameter></｜XML2｜invoke></｜XML2｜tool_calls> Done.",
            "Done.",
        ),
    ],
)
def test_the_dsml_markup_under_another_namespace_is_read_alike(text: str, visible: str) -> None:
    check(Real(GIGACHAT, text, [("get_time", {"city": "Oslo"})], visible=visible))


@pytest.mark.parametrize(
    "text",
    [
        "The <｜GCML｜tool_calls> block wraps the calls.",
        'GigaChat writes `<|GCML|invoke name="x">` in a sentence, then goes on.',
        "A token like <|ABC|> or <|END|invoke> is no call.",
    ],
)
def test_a_namespaced_tag_named_in_prose_stays_text(text: str) -> None:
    result = check(Real("written", text, [], visible=""), visible=False)
    assert result["text"] == text


GLM2API = "glm2api / grok2api DSML sieve tests (benchmarks/real dsml/c19_grok2api_*, damaged/c19_glm2api_*)"


@pytest.mark.parametrize(
    ("text", "visible"),
    [
        (  # grok2api: the slash after the first bar, `<|/DSML|invoke>`, in the wrapper's closer too; words around
            'prefix <|DSML|tool_calls><|DSML|invoke name="get_time"><|DSML|parameter name="city">Oslo'
            "</|DSML|parameter><|/DSML|invoke><|/DSML|tool_calls> suffix",
            "prefix suffix",
        ),
        (  # glm2api: no slash at all, the first bar doubled: `<||DSML|invoke>`
            '<|DSML|tool_calls><|DSML|invoke name="get_time"><|DSML|parameter name="city">Oslo</|DSML|parameter>'
            "<||DSML|invoke></|DSML|tool_calls>",
            "",
        ),
        (  # variant: full-width bars, the parameter's closer slash moved too, a second call, line breaks
            '<｜DSML｜function_calls>\n<｜DSML｜invoke name="get_time">\n<｜DSML｜parameter name="city">Oslo<｜/DSML｜parameter>'
            '\n<｜/DSML｜invoke>\n<｜DSML｜invoke name="get_weather">\n<｜DSML｜parameter name="city">Oslo'
            "</｜DSML｜parameter>\n<｜｜DSML｜invoke>\n<｜/DSML｜function_calls>\nDone.",
            "Done.",
        ),
    ],
)
def test_a_dsml_closer_with_its_slash_moved_or_left_out_still_closes(text: str, visible: str) -> None:
    calls = [("get_time", {"city": "Oslo"})]
    if "get_weather" in text:
        calls.append(("get_weather", {"city": "Oslo"}))
    check(
        Real(
            GLM2API,
            text,
            calls,
            visible=visible,
            tools=[tool("get_time", city="string"), tool("get_weather", city="string")],
        )
    )


@pytest.mark.parametrize(
    "text",
    [
        "A closer such as <|/DSML|invoke> or <||DSML|invoke> is no call.",
        "The sieve drops <|/DSML|tool_calls> and keeps the rest.",
    ],
)
def test_a_moved_slash_closer_named_in_prose_stays_text(text: str) -> None:
    result = check(Real("written", text, [], visible=""), visible=False)
    assert result["text"] == text


ZED = "https://github.com/zed-industries/zed/issues/60601 (benchmarks/real dsml/b27_zed60601_*)"


@pytest.mark.parametrize(
    ("text", "calls", "visible"),
    [
        (  # Zed #60601: both bars doubled on every tag; string="false" types the limit
            '<｜｜DSML｜｜tool_calls>\n<｜｜DSML｜｜invoke name="read">\n'
            '<｜｜DSML｜｜parameter name="filePath" string="true">AGENTS.md</｜｜DSML｜｜parameter>\n'
            '<｜｜DSML｜｜parameter name="limit" string="false">30</｜｜DSML｜｜parameter>\n'
            "</｜｜DSML｜｜invoke>\n</｜｜DSML｜｜tool_calls>",
            [("read", {"filePath": "AGENTS.md", "limit": 30})],
            "",
        ),
        (  # variant: ASCII bars doubled, the older wrapper name, two invokes, words around
            'On it. <||DSML||function_calls><||DSML||invoke name="get_time"><||DSML||parameter name="city">Oslo'
            '</||DSML||parameter></||DSML||invoke><||DSML||invoke name="get_weather">'
            '<||DSML||parameter name="city">Lima</||DSML||parameter></||DSML||invoke></||DSML||function_calls> Done.',
            [("get_time", {"city": "Oslo"}), ("get_weather", {"city": "Lima"})],
            "On it. Done.",
        ),
        (  # variant: doubled bars on the openers only, single-bar closers; the invoke's closer left out
            '<｜｜DSML｜｜tool_calls>\n<｜｜DSML｜｜invoke name="get_weather">\n'
            '<｜｜DSML｜｜parameter name="city" string="true">São Paulo</｜DSML｜parameter>\n</｜DSML｜tool_calls>\nok',
            [("get_weather", {"city": "São Paulo"})],
            "ok",
        ),
        (  # variant: doubled bars with the closer's slash moved after them, another namespace
            '<||GCML||tool_calls><||GCML||invoke name="get_time"><||GCML||parameter name="city">Kyiv'
            "<||/GCML||parameter><||/GCML||invoke><||/GCML||tool_calls>",
            [("get_time", {"city": "Kyiv"})],
            "",
        ),
    ],
)
def test_a_dsml_namespace_with_its_bars_doubled_is_read_alike(
    text: str, calls: list[tuple[str, dict[str, object]]], visible: str
) -> None:
    tools = [tool("read", filePath="string", limit="integer"), tool("get_time", city="string")]
    check(Real(ZED, text, calls, visible=visible, tools=[*tools, tool("get_weather", city="string")]))


@pytest.mark.parametrize(
    "text",
    [
        "Zed showed <｜｜DSML｜｜tool_calls> raw in the panel.",
        'A tag like `<||DSML||invoke name="read">` in a sentence, then more words.',
        "The closer </||DSML||invoke> alone is no call.",
        "Bars doubled around a word: <||OK||> and <｜｜NOTE｜｜ here>.",
    ],
)
def test_a_doubled_bar_dsml_tag_named_in_prose_stays_text(text: str) -> None:
    result = check(Real("written", text, [], visible=""), visible=False)
    assert result["text"] == text
