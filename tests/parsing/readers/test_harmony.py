"""gpt-oss harmony messages (`shim.parsing.readers.harmony`), at every split point."""

from __future__ import annotations

import pytest

from tests.parsing.readers.cases import Real, check

# Quoted from the peer tests named in each case (corpus: benchmarks/real/harmony).
CASES = [
    Real(  # ollama_analysis_then_call
        "ollama/ollama:harmony/harmonyparser_test.go@fb30760996871fa9460115c753afd2c60d4ab0f7",
        '<|channel|>analysis<|message|>User asks weather in SF. We need location. Use get_current_weather with location "San Francisco, CA".<|end|><|start|>assistant<|channel|>commentary to=functions.get_current_weather <|constrain|>json<|message|>{"location":"San Francisco, CA"}<|call|>',
        [("get_current_weather", {"location": "San Francisco, CA"})],
        reasoning='User asks weather in SF. We need location. Use get_current_weather with location "San Francisco, CA".',
    ),
    Real(  # ollama_call_then_final_message
        "ollama/ollama:server/routes_harmony_streaming_test.go@fb30760996871fa9460115c753afd2c60d4ab0f7",
        '<|channel|>commentary to=functions.get_weather<|message|>{"location":"San Francisco"}<|end|><|start|>assistant<|message|>The weather is sunny<|end|>',
        [("get_weather", {"location": "San Francisco"})],
        visible="The weather is sunny",
    ),
    Real(  # sglang_single
        "sgl-project/sglang:test/registered/function_call/test_gpt_oss_detector.py@4e285c7766ea604ac2100100d7d02962b0831a57",
        '<|start|>assistant<|channel|>commentary to=functions.get_weather<|constrain|>json<|message|>{"city":"Beijing"}<|call|>',
        [("get_weather", {"city": "Beijing"})],
        tools=[
            {
                "name": "get_weather",
                "parameters": {
                    "type": "object",
                    "properties": {
                        "city": {"type": "string"},
                        "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]},
                    },
                    "required": ["city"],
                },
            },
            {
                "name": "search",
                "parameters": {"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"]},
            },
        ],
    ),
    Real(  # sglang_streamed_text_then_call
        "sgl-project/sglang:test/registered/function_call/test_gpt_oss_detector.py@4e285c7766ea604ac2100100d7d02962b0831a57",
        'I\'ll look that up. <|start|>assistant<|channel|>commentary to=functions.get_weather<|constrain|>json<|message|>{"city":"Beijing", "unit":"celsius"}<|call|>',
        [("get_weather", {"city": "Beijing", "unit": "celsius"})],
        visible="I'll look that up.",
        tools=[
            {
                "name": "get_weather",
                "parameters": {
                    "type": "object",
                    "properties": {
                        "city": {"type": "string"},
                        "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]},
                    },
                    "required": ["city"],
                },
            },
            {
                "name": "search",
                "parameters": {"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"]},
            },
        ],
    ),
    Real(  # sglang_text_before
        "sgl-project/sglang:test/registered/function_call/test_gpt_oss_detector.py@4e285c7766ea604ac2100100d7d02962b0831a57",
        'Let me check.<|start|>assistant<|channel|>commentary to=functions.get_weather<|constrain|>json<|message|>{"city":"Beijing"}<|call|>',
        [("get_weather", {"city": "Beijing"})],
        visible="Let me check.",
        tools=[
            {
                "name": "get_weather",
                "parameters": {
                    "type": "object",
                    "properties": {
                        "city": {"type": "string"},
                        "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]},
                    },
                    "required": ["city"],
                },
            },
            {
                "name": "search",
                "parameters": {"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"]},
            },
        ],
    ),
    Real(  # sglang_two_calls
        "sgl-project/sglang:test/registered/function_call/test_gpt_oss_detector.py@4e285c7766ea604ac2100100d7d02962b0831a57",
        '<|start|>assistant<|channel|>commentary to=functions.get_weather<|constrain|>json<|message|>{"city":"Beijing"}<|call|><|start|>assistant<|channel|>commentary to=functions.search<|constrain|>json<|message|>{"query":"restaurants"}<|call|>',
        [("get_weather", {"city": "Beijing"}), ("search", {"query": "restaurants"})],
        tools=[
            {
                "name": "get_weather",
                "parameters": {
                    "type": "object",
                    "properties": {
                        "city": {"type": "string"},
                        "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]},
                    },
                    "required": ["city"],
                },
            },
            {
                "name": "search",
                "parameters": {"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"]},
            },
        ],
    ),
]


@pytest.mark.parametrize("case", CASES, ids=[f"{i}" for i in range(len(CASES))])
def test_a_real_harmony_output_is_read_at_every_split_point(case: Real) -> None:
    check(case)


def test_a_final_message_is_visible_and_its_tokens_are_markup() -> None:
    text = "<|channel|>analysis<|message|>Simple greeting.<|end|><|start|>assistant<|channel|>final<|message|>Hello!<|return|>"
    check(Real("variant", text, [], visible="Hello!", reasoning="Simple greeting.", tools=["get_weather"]))


def test_a_call_with_the_special_tokens_stripped_by_the_engine_is_read_for_an_offered_tool() -> None:
    # The shape engines leave when they strip special tokens (oobabooga/textgen#7374 shows the same
    # stripping on a final message: "analysisUser says ... assistantfinalHello!").
    text = 'commentary to=functions.get_weather json{"city": "Paris"}'
    check(Real("variant", text, [("get_weather", {"city": "Paris"})]))


@pytest.mark.parametrize(
    "text",
    [
        'to=functions.get_weather {"city": "Paris"}',
        'to=tool:get_weather {"city": "Paris"}',  # supercoder's parser tests
        'to=tool.get-weather json\n{"city": "Paris"}',
        'to=functions.get_weather<|constrain|>json{"city": "Paris"}',
    ],
)
def test_the_recipient_alone_opening_the_message_is_a_call_of_an_offered_tool(text: str) -> None:
    check(Real("variant", text, [("get_weather", {"city": "Paris"})], tools=["get_weather"]))


@pytest.mark.parametrize(
    "text",
    [
        'to=functions.delete_all {"really": true}',  # not offered
        'to=get_weather {"city": "Paris"}',  # no recipient's namespace
        'Send it to=tool:get_weather {"city": "Paris"} later.',  # not where the message begins
    ],
)
def test_the_recipient_alone_without_that_evidence_stays_text(text: str) -> None:
    check(Real("variant", text, [], visible=text, tools=["get_weather"]))


def test_the_stripped_form_naming_no_offered_tool_stays_text() -> None:
    text = 'commentary to=functions.delete_all json{"really": true}'
    check(Real("variant", text, [], visible=text, tools=["get_weather"]))


def test_a_start_token_mentioned_in_prose_stays_text() -> None:
    text = "Harmony messages begin with <|start|> and a role."
    check(Real("variant", text, [], visible=text, tools=["get_weather"]), every_split=False)


@pytest.mark.parametrize(
    ("text", "visible", "reasoning"),
    [
        # vllm-mlx's gpt-oss tests: the analysis message is not ended by <|end|> before the call's header
        (
            "<|channel|>analysis<|message|>thinking...<|channel|>commentary to=functions.read_file<|message|>"
            '{"path":"/etc/hosts"}<|call|>',
            "",
            "thinking...",
        ),
        (
            "<|channel|>analysis<|message|>plan<|start|>assistant<|channel|>commentary to=functions.read_file "
            '<|constrain|>json<|message|>{"path":"/etc/hosts"}<|call|>',
            "",
            "plan",
        ),
        (
            "<|channel|>final<|message|>Reading it.<|channel|>commentary to=functions.read_file<|message|>"
            '{"path":"/etc/hosts"}<|call|>',
            "Reading it.",
            "",
        ),
    ],
)
def test_a_message_left_unended_ends_where_the_next_header_begins(text: str, visible: str, reasoning: str) -> None:
    check(Real("written", text, [("read_file", {"path": "/etc/hosts"})], visible=visible, reasoning=reasoning))


def test_a_message_with_its_end_token_still_ends_there_and_no_call_is_made() -> None:
    text = "<|channel|>analysis<|message|>I will not call.<|end|>The answer."
    check(Real("written", text, [], visible="The answer.", reasoning="I will not call.", tools=["read_file"]))


@pytest.mark.parametrize(
    ("text", "visible"),
    [
        (  # olmlx's tests: a commentary preamble, then the final answer
            "<|start|>assistant<|channel|>commentary<|message|>Let me start.<|end|>"
            "<|start|>assistant<|channel|>final<|message|>Done.<|end|>",
            "Let me start.\nDone.",
        ),
        (
            "<|channel|>analysis<|message|>Think.<|end|><|start|>assistant<|channel|>final<|message|>Done.<|return|>",
            "Done.",
        ),
    ],
)
def test_two_visible_messages_are_shown_a_line_apart(text: str, visible: str) -> None:
    result = check(Real("variant", text, [], visible=visible, tools=["get_weather"]))
    assert result["text"] == visible


WEB_SEARCH = [{"name": "Web Search", "parameters": {"type": "object", "properties": {"query": {"type": "string"}}}}]


@pytest.mark.parametrize(
    "text",
    [
        # LM Studio issue 876: a plugin tool named with a space, the header written as the template writes it
        '<|start|>assistant<|channel|>commentary to=functions.Web Search <|constrain|>json<|message|>{"query": "x"}',
        '<|channel|>commentary to=functions.Web Search<|message|>{"query": "x"}<|call|>',
        '<|start|>assistant<|channel|>commentary to=Web Search json<|message|>{"query": "x"}<|call|>',
    ],
)
def test_a_recipient_named_with_spaces_is_the_offered_tool_its_words_name(text: str) -> None:
    check(Real("lmstudio-ai/lmstudio-bug-tracker#876", text, [("Web Search", {"query": "x"})], tools=WEB_SEARCH))


def test_a_recipient_whose_words_name_no_offered_tool_keeps_its_first_word() -> None:
    text = '<|channel|>commentary to=functions.get_time now <|constrain|>json<|message|>{"tz": "UTC"}<|call|>'
    check(Real("written", text, [("get_time", {"tz": "UTC"})], tools=["get_time", "get_time now please"]))


@pytest.mark.parametrize(
    "text",
    [
        # exo's gpt-oss test: the prompt ended `<|start|>assistant`, the recipient comes before the channel
        ' to=functions.get_time<|channel|>commentary json<|message|>{"tz": "UTC"}<|call|>',
        'to=functions.get_time<|channel|>commentary<|message|>{"tz": "UTC"}<|call|>',
        'to=functions.get_time <|channel|>commentary <|constrain|>json<|message|>{"tz": "UTC"}',
    ],
)
def test_a_recipient_before_the_channel_opening_the_message_is_a_call(text: str) -> None:
    check(Real("exo-explore/exo:gpt-oss tests", text, [("get_time", {"tz": "UTC"})], tools=["get_time"]))


@pytest.mark.parametrize(
    ("text", "visible", "reasoning"),
    [
        # mlx / text-generation-webui issues: the engine decoded without harmony's special tokens
        (
            'analysisWe need to answer. The answer is "four".\nOnly that word.assistantfinalfour',
            "four",
            'We need to answer. The answer is "four". Only that word.',
        ),
        (
            "analysisUser says hi. Respond politely.assistantfinalHello! How can I help?",
            "Hello! How can I help?",
            "User says hi. Respond politely.",
        ),
        ('analysis"Hi" is a greeting.assistant finalHello.', "Hello.", '"Hi" is a greeting.'),
    ],
)
def test_stripped_channel_words_opening_the_message_split_reasoning_from_the_answer(
    text: str, visible: str, reasoning: str
) -> None:
    check(Real("written: stripped harmony tokens", text, [], visible=visible, tools=["get_time"], reasoning=reasoning))


def test_a_stripped_analysis_then_a_stripped_call_is_reasoning_then_the_call() -> None:
    text = 'analysisNeed the time.assistantcommentary to=functions.get_time json{"tz": "UTC"}'
    check(Real("written", text, [("get_time", {"tz": "UTC"})], tools=["get_time"], reasoning="Need the time."))


@pytest.mark.parametrize(
    "text",
    [
        "analysis of the data shows a trend; the assistant final answer follows.",
        "The analysisWe ran is over. assistantfinal is a word here.",
        "analysis: we need more data.",
    ],
)
def test_the_word_analysis_in_prose_stays_text(text: str) -> None:
    check(Real("written", text, [], visible=text, tools=["get_time"]))


@pytest.mark.parametrize(
    "text",
    [
        "<|start|>system<|message|>\nYou can call tools.\n<|eot|><|start|>user<|message|>Weather?<|eot|><|start|>assistant",
        "<|start|>developer<|message|># Tools\nnamespace functions { type get_weather = () => any; }<|end|>",
        "<|start|>user<|message|>What is the weather in Paris?<|end|>",
        'Rendered: <|start|>system <|message|>Use to=functions.get_weather <|constrain|>json {"city": "x"}<|end|>',
    ],
)
def test_a_header_of_the_system_or_the_user_turn_is_a_rendered_prompt_and_stays_text(text: str) -> None:
    check(Real("variant", text, [], visible=text, tools=["get_weather"]))


def test_the_assistant_header_after_a_rendered_user_turn_is_still_text() -> None:
    text = (
        "<|start|>user<|message|>Weather?<|end|><|start|>assistant<|channel|>commentary to=functions.get_weather"
        '<|message|>{"city": "Paris"}<|call|>'
    )
    check(Real("variant", text, [], visible=text, tools=["get_weather"]))


def test_the_model_own_header_after_the_roles_word_in_prose_is_still_read() -> None:
    text = 'The user asked.<|start|>assistant<|channel|>commentary to=functions.get_weather<|message|>{"city": "Paris"}<|call|>'
    check(Real("variant", text, [("get_weather", {"city": "Paris"})], visible="The user asked."))


@pytest.mark.parametrize(
    "text",
    [
        'Let me search. to=tool:get_weather {"city": "Paris"}',  # supercoder's parser tests
        'I will check the weather.\nto=functions.get_weather json\n{"city": "Paris"}\n',
        'Checking now: to=tool.get_weather {"city": "Paris"}<|call|>',
        'On it to=tool:get_weather {"city": "Paris"}  \n\n',
    ],
)
def test_the_recipient_alone_after_prose_is_a_call_when_it_ends_the_output(text: str) -> None:
    result = check(Real("variant", text, [("get_weather", {"city": "Paris"})], tools=["get_weather"]), visible=False)
    assert "to=" not in result["text"] and result["text"].strip()


@pytest.mark.parametrize(
    "text",
    [
        'Let me search. to=tool:get_weather {"city": "Paris"} and then I will answer.',
        'Let me search. to=tool:delete_all {"really": true}',  # not offered
        'Let me search. goto=tool:get_weather {"city": "Paris"}',  # no word of its own
        "Let me search. to=tool:get_weather {city: Paris}",  # no JSON
    ],
)
def test_the_recipient_alone_after_prose_with_words_after_it_or_no_evidence_stays_text(text: str) -> None:
    check(Real("variant", text, [], visible=text, tools=["get_weather"]))
