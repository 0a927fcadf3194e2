"""LangChain's XML agent: ``<tool>NAME</tool><tool_input>…</tool_input>`` (`shim.parsing.readers.langchain_xml`)."""

from __future__ import annotations

import pytest

from tests.parsing.readers.cases import Real, check, tool

TOOLS = [tool("search", query="string"), tool("get_weather", city="string", days="integer")]


@pytest.mark.parametrize(
    ("text", "call", "visible"),
    [
        ("<tool>search</tool><tool_input>weather in SF</tool_input>", ("search", {"query": "weather in SF"}), ""),
        # The agent's stop sequence is `</tool_input>`: a served output ends without it.
        ("I will look.\n<tool>search</tool>\n<tool_input>cats", ("search", {"query": "cats"}), "I will look.\n"),
        (
            '<tool> get_weather </tool> <tool_input>{"city": "Paris", "days": 2}</tool_input>\nDone.',
            ("get_weather", {"city": "Paris", "days": 2}),
            "\nDone.",
        ),
        # The input tag named by an argument word (local_llm's `<args>`).
        (
            '<tool>get_weather</tool><args>{"city": "Oslo", "days": 1}</args>',
            ("get_weather", {"city": "Oslo", "days": 1}),
            "",
        ),
        ("Ok.\n<tool>search</tool>\n<input>cats</input>\nThen.", ("search", {"query": "cats"}), "Ok.\n\nThen."),
        ('<tool>get_weather</tool><Arguments>{"city": "Rome"}</Arguments>', ("get_weather", {"city": "Rome"}), ""),
        ('<tool>get_weather</tool><parameters>{"city": "Lima"}', ("get_weather", {"city": "Lima"}), ""),
        # The name tag as `<function>` (koogagent's SLIM format for Gemma), the JSON padded with blanks.
        (
            '<function>get_weather</function>\n<parameters>  {"city": "Kyiv", "days": 3}  </parameters>',
            ("get_weather", {"city": "Kyiv", "days": 3}),
            "",
        ),
        (
            "Sure.\n<function> search </function><params>chats noirs</params>",
            ("search", {"query": "chats noirs"}),
            "Sure.\n",
        ),
    ],
)
def test_an_offered_tools_name_tag_then_its_input_tag_is_a_call(
    text: str, call: tuple[str, dict[str, object]], visible: str
) -> None:
    check(Real("written", text, [call], visible=visible, tools=TOOLS))


@pytest.mark.parametrize(
    "text",
    [
        # Several name tags before one input: LangChain's parser rejects it; no call.
        "<tool>search</tool><tool>get_weather</tool><tool_input>Paris</tool_input>",
        "<tool>lookup</tool><tool>search</tool><tool_input>x</tool_input>",
        "<tool>lookup</tool><tool_input>x</tool_input>",  # no offered tool
        "<tool>get_weather</tool><tool_input>Paris</tool_input>",  # a string for a tool of two parameters
        "<tool>search</tool> is the tag, and <tool_input> holds the input.",  # prose between the tags
        "In order to use a tool, you can use <tool></tool> and <tool_input></tool_input> tags.",
        "For example:\n<tool>search</tool><tool_input>weather in SF</tool_input>",  # presented
        '<tool>lookup</tool><args>{"x": 1}</args>',  # no offered tool
        "<tool>search</tool><argsx>cats</argsx>",  # no input tag
        "<tool>get_weather</tool><args>Paris</args>",  # a string for a tool of two parameters
        '<function>lookup</function><parameters>{"x": 1}</parameters>',  # no offered tool
        "The <function>search</function> tag names it and <parameters> holds the input.",  # prose between
        "<function>search</function>",  # a name tag alone: not read here
    ],
)
def test_name_and_input_tags_without_that_evidence_stay_text(text: str) -> None:
    check(Real("written", text, [], visible=text, tools=TOOLS))


@pytest.mark.parametrize(
    ("text", "call", "visible"),
    [
        (
            '<tool_name>get_weather</tool_name>\n<arguments>{"city": "Paris"}</arguments>',
            ("get_weather", {"city": "Paris"}),
            "",
        ),
        (
            'Checking.\n<name>search</name><parameters>{"query": "cats"}</parameters>',
            ("search", {"query": "cats"}),
            "Checking.\n",
        ),
        (
            '<action>get_weather</action>\n<action_input>{"city": "Oslo", "days": 2}</action_input>\nDone.',
            ("get_weather", {"city": "Oslo", "days": 2}),
            "\nDone.",
        ),
        (
            "<function_name> search </function_name>\r\n<tool_args>chats noirs</tool_args>",
            ("search", {"query": "chats noirs"}),
            "",
        ),
    ],
)
def test_the_name_tag_under_a_call_envelopes_word_before_its_input_tag_is_a_call(
    text: str, call: tuple[str, dict[str, object]], visible: str
) -> None:
    check(Real("written", text, [call], visible=visible, tools=TOOLS))


@pytest.mark.parametrize(
    "text",
    [
        "<name>Ada</name>\n<input>hello</input>",  # a record, no offered tool
        '<tool_name>lookup</tool_name><arguments>{"x": 1}</arguments>',  # no offered tool
        "<name>search</name> names the tool and <arguments> holds the input.",  # prose between the tags
        "For example:\n<tool_name>search</tool_name><arguments>cats</arguments>",  # presented
        "<name>search</name>",  # only the pair is evidence under these words
        "<action>search</action>",
    ],
)
def test_those_words_without_the_pair_or_an_offered_tool_stay_text(text: str) -> None:
    check(Real("written", text, [], visible=text, tools=NOTHING))


NOTHING = [tool("GetWeather"), *TOOLS]
"""koogagent's tests: a tool that takes no arguments, beside tools that take some."""


@pytest.mark.parametrize(
    ("text", "visible"),
    [
        # koogagent's SLIM protocol (SlimLLMClientTest.kt): no input tag for a tool that takes none
        ("Let me check that for you.\n<function>GetWeather</function>", "Let me check that for you."),
        ("<function>GetWeather</function>", ""),
        ("<tool> GetWeather </tool>  \n\nIt will be sunny.", "It will be sunny."),
        ("Je vérifie.\r\n    <function>getWeather</function>\r\n", "Je vérifie."),
    ],
)
def test_the_name_tag_alone_of_a_tool_taking_nothing_is_its_call(text: str, visible: str) -> None:
    check(Real("monday8am/koogagent:SlimLLMClientTest.kt", text, [("GetWeather", {})], visible=visible, tools=NOTHING))


@pytest.mark.parametrize(
    "text",
    [
        "Use <function>GetWeather</function> to check the weather.",  # in a sentence
        "<function>GetWeather</function> is the tool I would call.",  # words after it on its line
        "For example:\n<function>GetWeather</function>",  # presented
        "<function>search</function>",  # a tool that takes arguments
        "<function>hammer</function>",  # no offered tool
    ],
)
def test_the_name_tag_alone_otherwise_stays_text(text: str) -> None:
    check(Real("written", text, [], visible=text, tools=NOTHING))


def test_a_name_tag_then_its_input_on_the_next_line_is_still_one_call() -> None:
    text = '<function>search</function>\n<parameters>{"query": "cats"}</parameters>'
    check(Real("written", text, [("search", {"query": "cats"})], tools=NOTHING))
    text = "<function>GetWeather</function>\n<parameters>{}</parameters>"
    check(Real("written", text, [("GetWeather", {})], tools=NOTHING))
