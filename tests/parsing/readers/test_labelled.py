"""A label line right before a call block is the call's markup; a label before anything else stays text."""

from __future__ import annotations

import pytest

from tests.parsing.readers.cases import Real, check

_FENCE = '```json\n{\n  "name": "get_weather",\n  "arguments": {"city": "Paris"}\n}\n```'
_CALL = [("get_weather", {"city": "Paris"})]


@pytest.mark.parametrize(
    ("text", "visible"),
    [
        (f"**Tool Call:**\n{_FENCE}", ""),  # RWKV (vLLM's rwkv tool parser)
        (f"**Tool Call**:\n\n{_FENCE}", ""),
        (f"Let me look.\n\n### Function call\n{_FENCE}\nDone.", "Let me look. Done."),
        (f"__Tool calls:__\n{_FENCE}", ""),
        ('Checking.\nTool call:\n{"name": "get_weather", "arguments": {"city": "Paris"}}', "Checking."),
        (f"On it.\n  Function calls:\n{_FENCE}", "On it."),
        ("[[ ## tool_calls ## ]]\n{'name': 'get_weather', 'args': {'city': 'Paris'}}", ""),  # DSPy ChatAdapter
        (
            "[[ ## next_thought ## ]]\nCheck it.\n\n[[ ## tool_calls ## ]]\n"
            '{"tool_calls": [{"name": "get_weather", "args": {"city": "Paris"}}]}\n\n[[ ## completed ## ]]\n',
            "[[ ## next_thought ## ]] Check it. [[ ## completed ## ]]",
        ),
    ],
)
def test_a_label_line_before_a_call_block_is_markup(text: str, visible: str) -> None:
    check(Real("written: a framework's heading over its call", text, _CALL, visible=visible))


def test_two_labelled_calls_are_two_calls_with_no_text() -> None:
    text = f"**Tool Call:**\n{_FENCE}\n**Tool Call:**\n{_FENCE.replace('Paris', 'Lima')}"
    check(Real("written: RWKV, two calls", text, [*_CALL, ("get_weather", {"city": "Lima"})]))


@pytest.mark.parametrize(
    "text",
    [
        "**Tool Call:**\nnone needed, the answer is 4.",
        '**Tool Call:**\n```json\n{"name": "delete_everything", "arguments": {}}\n```',  # not offered
        '[[ ## tool_calls ## ]]\n{"city": "Paris", "note": "no name"}',
        "### Function calls\nThey let a model ask the host to run code.",
    ],
)
def test_a_label_before_no_call_of_an_offered_tool_stays_text(text: str) -> None:
    result = check(Real("written", text, [], visible=text, tools=["get_weather"]))
    assert result["text"] == text


ADD = {
    "name": "add",
    "inputSchema": {"type": "object", "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}}},
}


@pytest.mark.parametrize(
    ("text", "visible"),
    [
        ('[Calling tool: add({"a": 5, "b": 3})]', ""),  # vllm-mlx's Qwen bracket format
        ("Sure. [Calling tool: add(a=5, b=3)] Done.", "Sure. Done."),
        ("[call function: add(5, 3)]\n", ""),
        ('[calling tool: {"name": "add", "arguments": {"a": 5, "b": 3}}]', ""),  # a JSON call object in the bracket
        ('Sure. [Calling tool: {"name": "add", "arguments": {"a": 5, "b": 3}}] Done.', "Sure. Done."),
    ],
)
def test_a_label_and_a_call_in_one_bracket_is_a_call(text: str, visible: str) -> None:
    check(Real("written", text, [("add", {"a": 5, "b": 3})], visible=visible, tools=[ADD]))


@pytest.mark.parametrize(
    "text",
    [
        "[Calling tool: sub(a=1)]",  # not an offered tool
        '[Calling tool: {"name": "sub", "arguments": {"a": 1}}]',
        "[Calling tool: {see the list below}]",
        "[Called tool: add(a=5, b=3)]",  # a record of a call made before
        "For example: [Calling tool: add(a=5, b=3)]",  # presented
    ],
)
def test_a_bracket_label_without_that_evidence_stays_text(text: str) -> None:
    check(Real("written", text, [], visible=text, tools=[ADD]))


_JSON_LIST = '[{"function": "get_weather", "parameters": {"city": "Paris"}}]'


@pytest.mark.parametrize(
    ("text", "visible"),
    [
        # Llama 3.1 8B asked for BFCL's `<TOOLCALL>…</TOOLCALL>` (json return format): the tag's word, no brackets
        (f"TOOLCALL\n{_JSON_LIST}", ""),
        (f"ToolCall:\n\n{_JSON_LIST}", ""),
        (f"  tool_calls\n{_FENCE}", ""),
        (f"FUNCTION_CALL\n{_JSON_LIST}\n", ""),
        (f"Checking.\nToolCall\n{_JSON_LIST}", "Checking."),  # or a line of its own later in the message
        (f"Checking.\nFunction call\n{_FENCE}", "Checking."),
    ],
)
def test_a_label_alone_on_its_line_without_a_colon_is_markup_before_a_call(text: str, visible: str) -> None:
    check(Real("written: a label word with no colon", text, _CALL, visible=visible))


@pytest.mark.parametrize(
    "text",
    [
        f"TOOLCALL\n{_JSON_LIST.replace('get_weather', 'delete_everything')}",  # not offered
        'TOOLCALL\n{"city": "Paris", "note": "no name"}',
        "Tool calls\nare how a model asks the host to run code.",
        "Toolcall support is new.\n[1, 2]",
    ],
)
def test_a_label_word_line_before_no_call_of_an_offered_tool_stays_text(text: str) -> None:
    result = check(Real("written", text, [], visible=text, tools=["get_weather"]))
    assert result["text"] == text


_STATE: list[tuple[str, dict[str, str]]] = [("get_state", {})]


@pytest.mark.parametrize(
    ("text", "calls", "visible"),
    [
        # smolagents#938: the model copies its framework's history line and a Python-repr list of tool-call dicts
        (
            "Calling tools:\n[{'id': '...', 'type': 'function', 'function': {'name': 'get_state', 'arguments': {}}}]",
            _STATE,
            "",
        ),
        # variants: one tool, a function, after text, JSON quotes, a blank line between
        ('Done.\nCalling tool:\n{"name": "get_weather", "arguments": {"city": "Paris"}}', _CALL, "Done."),
        (f"Calling function:\n\n{_FENCE}", _CALL, ""),
        ('calling_tools\n[{"name": "get_state", "arguments": {}}]\nWaiting.', _STATE, "Waiting."),
    ],
)
def test_a_calling_tools_line_before_a_call_list_is_its_label(
    text: str, calls: list[tuple[str, dict[str, str]]], visible: str
) -> None:
    check(Real("huggingface/smolagents#938", text, calls, visible=visible, tools=["get_state", "get_weather"]))


@pytest.mark.parametrize(
    "text",
    [
        'Calling tools:\n[{"name": "other", "arguments": {}}]',  # a tool that was not offered
        "Calling tools is easy:\n[1, 2]",
        "Calling tools:\nnone needed.",
    ],
)
def test_a_calling_tools_line_before_anything_else_stays_text(text: str) -> None:
    check(Real("written", text, [], visible=text, tools=["get_state"]))
