"""Mistral's ``[TOOL_CALLS]`` forms (`shim.parsing.readers.mistral`), with the call id of v11+ tokenizers."""

from __future__ import annotations

from typing import Any

import pytest

from tests.parsing.readers.cases import Real, check

W = ("get_weather", {"city": "Paris"})


@pytest.mark.parametrize(
    ("text", "calls"),
    [
        ('[TOOL_CALLS]get_weather[CALL_ID]a1b2c3d4e[ARGS]{"city": "Paris"}', [W]),
        ('[TOOL_CALLS]get_weather[CALL_ID] 123456789 [ARGS]{"city": "Paris"}</s>', [W]),
        (
            '[TOOL_CALLS]get_weather[CALL_ID]abc[ARGS]{"city": "Paris"}[TOOL_CALLS]get_weather[CALL_ID]def[ARGS]'
            '{"city": "Rome"}',
            [W, ("get_weather", {"city": "Rome"})],
        ),
        ('[TOOL_CALLS]get_weather[ARGS]{"city": "Paris"}', [W]),
        ('[TOOL_CALLS]get_weather{"city": "Paris"}', [W]),
    ],
)
def test_a_name_then_arguments_with_or_without_a_call_id_is_read(text: str, calls: list) -> None:
    check(Real("written: Mistral v11 tokenizer ([CALL_ID]), v7 ([ARGS]) and older", text, calls))


@pytest.mark.parametrize(
    ("text", "visible"),
    [
        ('[TOOL_CALLS]get_weather [ARGS]{"location": "Berlin"}', ""),
        ('get_weather[ARGS]{"location": "Berlin"}', ""),
        ('get_weather [ARGS] {"location": "Berlin"}</s>', ""),
    ],
)
def test_a_space_before_args_or_the_tool_calls_token_left_out_is_still_a_call(text: str, visible: str) -> None:
    check(
        Real("written: mlx-swift-lm's Mistral shapes", text, [("get_weather", {"location": "Berlin"})], visible=visible)
    )


@pytest.mark.parametrize(
    "text",
    [
        'unknown_tool[ARGS]{"location": "Berlin"}',
        "get_weather[ARGS] is the token after the name.",
        'Call it as get_weather[ARGS]{"location": "Berlin"} in your output.',
    ],
)
def test_args_after_no_offered_name_or_mid_sentence_stays_text(text: str) -> None:
    check(Real("written: [ARGS] in prose", text, [], visible=text, tools=["get_weather"]))


@pytest.mark.parametrize(
    ("text", "arguments"),
    [
        # The schema's `properties` level copied around the arguments, in any family read whole.
        ('<|tool_call_start|>[get_weather(properties={"location": "Tokyo"})]<|tool_call_end|>', {"location": "Tokyo"}),
        ('[get_weather(properties={"location": "Tokyo"})]', {"location": "Tokyo"}),
        # A parameter that is named `properties` stays.
        ('[search(properties={"a": 1})]', {"properties": {"a": 1}}),
    ],
)
def test_arguments_nested_under_the_schemas_properties_key_are_unwrapped(text: str, arguments: dict[str, Any]) -> None:
    weather = {"name": "get_weather", "inputSchema": {"type": "object", "properties": {"location": {"type": "string"}}}}
    search = {"name": "search", "inputSchema": {"type": "object", "properties": {"properties": {"type": "object"}}}}
    name = "search" if "search" in text else "get_weather"
    check(Real("written: LFM2's properties wrapper", text, [(name, arguments)], tools=[weather, search]))
