"""A tool's name between special tokens, its JSON arguments after (`shim.parsing.readers.token_call`): token
spellings no family row names, read for offered tools at every split point; anything else stays text."""

from __future__ import annotations

from typing import Any

import pytest

from tests.parsing.readers.cases import Real, check, tool

W = ("get_weather", {"city": "Paris"})


@pytest.mark.parametrize(
    ("text", "visible"),
    [
        (
            '<|tool_calls|><|tool_call:begin|>x9<|tool_call:name|>get_weather<|tool_call:args|>{"city": "Paris"}'
            "<|tool_call:end|><|calls|>",
            "",
        ),
        ('<|call|>get_weather<|args|>{"city": "Paris"}', ""),
        ('Checking.\n<|tool|>\nget_weather\n<|arguments|>\n{"city": "Paris"}\n<|end|>', "Checking."),
        ('functions.get_weather:0 {"city": "Paris"}', ""),
        ('functions.get_weather:1<|tool_call_argument_begin|>{"city": "Paris"}', ""),
        ('Let me look.\nfunctions.get_weather {"city": "Paris"}', "Let me look."),
    ],
)
def test_a_name_between_special_tokens_or_namespaced_is_a_call(text: str, visible: str) -> None:
    check(Real("written: token spellings of Solar, stripped Kimi and others", text, [W], visible=visible))


@pytest.mark.parametrize(
    "text",
    [
        '<|call|>unknown_tool<|args|>{"city": "Paris"}',
        "Type <|im_end|> to end a turn, then get_weather<|x|> runs.",
        "functions.get_weather is the tool you want",
        'functions.unknown:0 {"a": 1}',
        'Call functions.get_weather:0 {"city": "Paris"} mid-sentence.',
    ],
)
def test_tokens_around_no_offered_tool_or_no_arguments_stay_text(text: str) -> None:
    check(Real("written", text, [], visible=text, tools=["get_weather"]))


@pytest.mark.parametrize(
    "text",
    [
        # Inkling's message frames: each call's frame token opens it, after the last one's end token
        '<|message_model|>get_weather<|content_invoke_tool_json|>{"city": "Paris"}<|end_message|>'
        '<|message_model|>get_weather<|content_invoke_tool_json|>{"city": "Rome"}<|end_message|><|end_sampling|>',
        '<|call|>get_weather<|args|>{"city": "Paris"}<|end|>\n<|call|>get_weather<|args|>{"city": "Rome"}<|end|>',
    ],
)
def test_the_token_that_opens_the_next_call_is_not_taken_as_the_last_ones_end(text: str) -> None:
    check(Real("written: Inkling frames", text, [W, ("get_weather", {"city": "Rome"})], visible=text[:0]))


@pytest.mark.parametrize(
    "body",
    [
        '{"name":"get_weather","args":{"city":"Paris"}}',  # Inkling's invoke: the call written again
        '{"name": "get_weather", "arguments": {"city": "Paris"}}',
        '{ "tool_name": "get_weather", "parameters": {"city": "Paris"} }',
    ],
)
def test_arguments_that_restate_the_named_call_are_read_as_that_call(body: str) -> None:
    text = f"<|message_model|>get_weather<|content_invoke_tool_json|>{body}<|end_message|>"
    check(Real("written: Inkling's invoke", text, [W], visible=""))


def test_a_name_argument_of_a_tool_that_declares_it_or_names_no_tool_stays_an_argument() -> None:
    schema = {"type": "object", "properties": {"name": {"type": "string"}, "city": {"type": "string"}}}
    declared = [{"name": "get_weather", "parameters": schema}]
    text = '<|call|>get_weather<|args|>{"name": "get_weather", "city": "Paris"}'
    check(Real("written", text, [("get_weather", {"name": "get_weather", "city": "Paris"})], tools=declared))
    text = '<|call|>get_weather<|args|>{"name": "John Doe", "city": "Paris"}'
    check(Real("written", text, [("get_weather", {"name": "John Doe", "city": "Paris"})], tools=["get_weather"]))


ENVELOPED = [tool("get_weather", city="string", unit="string"), tool("run", arguments="string")]


@pytest.mark.parametrize(
    ("text", "arguments"),
    [
        # Qwen3.5 in mlx-swift's tests: its XML form's function tag around the JSON form's arguments envelope
        ('<tool_call><function=get_weather>{"arguments":{}}</function></tool_call>', {}),
        ('<tool_call><function=get_weather>{"arguments": {"city": "Paris"}}</function></tool_call>', {"city": "Paris"}),
        (
            '<|call|>get_weather<|args|>{"parameters": {"city": "Paris", "unit": "C"}}<|end|>',
            {"city": "Paris", "unit": "C"},
        ),
        ('<|call|>get_weather<|args|>{ "args" : {"city": "Rome"} }', {"city": "Rome"}),
    ],
)
def test_an_arguments_envelope_the_named_tool_does_not_declare_is_read_as_the_call(
    text: str, arguments: dict[str, Any]
) -> None:
    check(Real("written", text, [("get_weather", arguments)], visible="", tools=ENVELOPED))


def test_an_arguments_key_the_named_tool_declares_stays_its_argument() -> None:
    text = '<|call|>run<|args|>{"arguments": "--fast"}<|end|>'
    check(Real("written", text, [("run", {"arguments": "--fast"})], visible="", tools=ENVELOPED))


@pytest.mark.parametrize(
    ("text", "visible"),
    [
        # Kimi K2 with its special tokens stripped, mid-prose (ik_llama.cpp's tests): the index and the glued object.
        (
            'I will look. functions.get_weather:0{"city": "Paris"} The request is sent.',
            "I will look. The request is sent.",
        ),
        ('Let me list the contents.functions.get_weather:1{"city": "Paris"}', "Let me list the contents."),
        ('First: done. Then: functions.get_weather:12{"city": "Paris"} Finished.', "First: done. Then: Finished."),
        ('functions.get-weather:3{"city": "Paris"}', ""),
    ],
)
def test_a_namespaced_call_with_its_index_glued_to_its_object_is_a_call_anywhere_in_prose(
    text: str, visible: str
) -> None:
    check(Real("written: ik_llama.cpp's Kimi-K2 tests, tokens stripped", text, [W], visible=visible))


def test_namespaced_calls_back_to_back_or_between_sentences_are_each_a_call() -> None:
    text = 'Start. functions.get_weather:1{"city": "Paris"} Next. functions.get_weather:2{"city": "Rome"}'
    check(Real("written", text, [W, ("get_weather", {"city": "Rome"})], visible="Start. Next."))
    text = 'functions.get_weather:0{"city": "Paris"}functions.get_weather:1{"city": "Rome"}'
    check(Real("written", text, [W, ("get_weather", {"city": "Rome"})], visible=""))


@pytest.mark.parametrize(
    "text",
    [
        'The functions.get_weather:0 entry takes {"city": "Paris"} as input.',  # no object glued on
        'See functions.get_weather{"city": "Paris"} in the docs.',  # no index
        'Here functions.unknown:0{"a": 1} runs.',  # no offered tool
        'For example: functions.get_weather:0{"city": "Paris"}',  # presented
        "The functions.get_weather:0{ format is odd",  # no object
    ],
)
def test_a_namespaced_name_in_prose_without_index_object_or_offered_tool_stays_text(text: str) -> None:
    check(Real("written", text, [], visible=text, tools=["get_weather"]))
