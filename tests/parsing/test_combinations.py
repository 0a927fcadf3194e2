"""Every common spelling of one call, in every common wrapper, with text, reasoning or turn tokens around it, is
read the same: the call once, its markup never visible. The families' own tests hold real outputs; this one holds
their combinations, so a rule that reads one spelling only in the wrapper it was found in fails here. Each
combination is read whole and in 3-character chunks; the same text presented as an example stays text."""

from __future__ import annotations

import json
from typing import Any

import pytest

from shim.events import TextDelta, ToolCallEnd
from shim.parsing.stream import parse_text

TOOLS = [
    {
        "name": "get_weather",
        "inputSchema": {
            "type": "object",
            "properties": {"city": {"type": "string"}, "days": {"type": "integer"}},
            "required": ["city"],
        },
    },
    {"name": "search_web", "inputSchema": {"type": "object", "properties": {"query": {"type": "string"}}}},
]
ARGS = {"city": "Paris", "days": 3}
CALL = ("get_weather", ARGS)

BODIES = {
    "name_arguments": json.dumps({"name": "get_weather", "arguments": ARGS}),
    "name_parameters": json.dumps({"name": "get_weather", "parameters": ARGS}),
    "function_nested": json.dumps({"function": {"name": "get_weather", "arguments": ARGS}}),
    "type_function": json.dumps({"type": "function", "function": {"name": "get_weather", "arguments": ARGS}}),
    "arguments_string": json.dumps({"name": "get_weather", "arguments": json.dumps(ARGS)}),
    "tool_name_parameters": json.dumps({"tool_name": "get_weather", "parameters": ARGS}),
    "tool_args": json.dumps({"tool": "get_weather", "args": ARGS}),
    "action_input": json.dumps({"action": "get_weather", "action_input": ARGS}),
    "list_of_one": json.dumps([{"name": "get_weather", "arguments": ARGS}]),
    "name_keyed": json.dumps({"get_weather": ARGS}),
    "python_dict": "{'name': 'get_weather', 'arguments': {'city': 'Paris', 'days': 3}}",
    "trailing_commas": '{"name": "get_weather", "arguments": {"city": "Paris", "days": 3,},}',
    "unquoted_keys": '{name: "get_weather", arguments: {city: "Paris", days: 3}}',
    "pretty": json.dumps({"name": "get_weather", "arguments": ARGS}, indent=2),
    "pythonic": 'get_weather(city="Paris", days=3)',
    "pythonic_list": '[get_weather(city="Paris", days=3)]',
}
WRAPPERS = {
    "bare": "{}",
    "tool_call_tag": "<tool_call>\n{}\n</tool_call>",
    "tool_call_tag_unclosed": "<tool_call>\n{}",
    "json_fence": "```json\n{}\n```",
    "plain_fence": "```\n{}\n```",
    "tool_call_fence": "```tool_call\n{}\n```",
    "tool_fence": "```tool\n{}\n```",
    "functools": "functools{}",
    "tool_calls_token": "[TOOL_CALLS]{}",
    "python_tag": "<|python_tag|>{}",
    "function_call_tag": "<function_call>{}</function_call>",
    "tool_calls_tag": "<tool_calls>{}</tool_calls>",
}
NOT_READ = {
    # Text by design, each tested as such in its family's tests. A Python call is no JSON list for Phi-4's functools, and a fence of no language may hold any program's code.
    ("pythonic", "functools"),
    ("pythonic_list", "functools"),
    ("pythonic", "plain_fence"),
    ("pythonic", "json_fence"),  # a Python call under a JSON label: neither language's call
}
BEFORE = {"": "", "sentence": "Let me check the weather.\n\n", "reasoning": "<think>\nWeather.\n</think>\n\n"}
AFTER = ["", "<|eot_id|>", "<|im_end|>", "</s>", "<end_of_turn>"]


def _read(text: str, chunk: int | None) -> tuple[list[tuple[str, Any]], str]:
    events = parse_text(text, TOOLS, chunk_size=chunk)
    calls = [(e.name, e.arguments) for e in events if isinstance(e, ToolCallEnd)]
    return calls, "".join(e.text for e in events if isinstance(e, TextDelta))


@pytest.mark.parametrize(("body", "wrapper"), [(b, w) for b in BODIES for w in WRAPPERS if (b, w) not in NOT_READ])
def test_every_spelling_in_every_wrapper_is_the_one_call_its_markup_not_visible(body: str, wrapper: str) -> None:
    for before, prefix in BEFORE.items():
        for after in AFTER:
            text = prefix + WRAPPERS[wrapper].replace("{}", BODIES[body]) + after
            for chunk in (None, 3):
                calls, visible = _read(text, chunk)
                assert calls == [CALL], (text, chunk)
                expected = "Let me check the weather." if before == "sentence" else ""
                assert visible.strip() == expected, (text, chunk, visible)


@pytest.mark.parametrize("wrapper", [w for w in WRAPPERS if w != "functools"])
@pytest.mark.parametrize(
    "cue", ["For example:\n", "The format is:\n", "e.g. ", "> ", "You could write something like:\n\n"]
)
def test_the_same_call_presented_as_an_example_stays_text(cue: str, wrapper: str) -> None:
    for body in ("name_arguments", "pythonic_list"):
        text = cue + WRAPPERS[wrapper].replace("{}", BODIES[body])
        calls, visible = _read(text, None)
        assert (calls, visible) == ([], text)


HEADS = {
    "im_start": "<|im_start|>assistant\n",
    "gemma": "<start_of_turn>model\n",
    "llama3": "<|start_header_id|>assistant<|end_header_id|>\n\n",
    "assistant_tag": "<|assistant|>\n",
    "inst_end": "[/INST] ",
    "bos": "<s>",
    "begin_of_text": "<|begin_of_text|>",
    "eot_before": "<|eot_id|>",
    "empty_reasoning": "<think>\n\n</think>\n\n",
    "orphan_reasoning_closer": "</think>\n\n",
}
SPELLINGS = {
    "hermes": "<tool_call>\n" + json.dumps({"name": "get_weather", "arguments": ARGS}) + "\n</tool_call>",
    "bare_json": json.dumps({"name": "get_weather", "arguments": ARGS}),
    "pythonic_list": '[get_weather(city="Paris", days=3)]',
    "qwen_xml": "<tool_call>\n<function=get_weather>\n<parameter=city>\nParis\n</parameter>\n<parameter=days>\n3\n"
    "</parameter>\n</function>\n</tool_call>",
}


@pytest.mark.parametrize("spelling", SPELLINGS)
@pytest.mark.parametrize("head", HEADS)
def test_turn_tokens_around_a_call_are_markup(head: str, spelling: str) -> None:
    for tail in ("", "<|end|>", "<|endoftext|>", "<eos>", "<|eom_id|>", "<|eot_id|>\n"):
        text = HEADS[head] + SPELLINGS[spelling] + tail
        for chunk in (None, 3):
            calls, visible = _read(text, chunk)
            assert calls == [CALL], (text, chunk)
            assert visible.strip() == "", (text, chunk, visible)
