"""Two calls, in every common wrapper and with every common separator between them (a line break, a blank line,
nothing, a comma, a semicolon, a list, numbering, bullets, a second fence, a second tag, two forms in a row), read
the same: both calls, in order, no markup visible. A rule found for one separator in one wrapper fails here if it
does not hold in the others. Each is read whole and in 3-character chunks, alone and after a sentence."""

from __future__ import annotations

import json

import pytest

from shim.events import TextDelta, ToolCallEnd
from shim.parsing.stream import parse_text

TOOLS = [
    {"name": "get_weather", "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}}}},
    {"name": "search", "inputSchema": {"type": "object", "properties": {"query": {"type": "string"}}}},
]
A = {"name": "get_weather", "arguments": {"city": "Paris"}}
B = {"name": "search", "arguments": {"query": "cats"}}
a, b = json.dumps(A), json.dumps(B)
PA, PB = 'get_weather(city="Paris")', 'search(query="cats")'
BOTH = [("get_weather", {"city": "Paris"}), ("search", {"query": "cats"})]
QWEN_A = "<function=get_weather>\n<parameter=city>\nParis\n</parameter>\n</function>"
QWEN_B = "<function=search>\n<parameter=query>\ncats\n</parameter>\n</function>"

FORMS = {
    "hermes_lines": f"<tool_call>\n{a}\n</tool_call>\n<tool_call>\n{b}\n</tool_call>",
    "hermes_glued": f"<tool_call>{a}</tool_call><tool_call>{b}</tool_call>",
    "hermes_blank_line": f"<tool_call>{a}</tool_call>\n\n<tool_call>{b}</tool_call>",
    "one_tag_two_lines": f"<tool_call>\n{a}\n{b}\n</tool_call>",
    "one_tag_comma": f"<tool_call>\n{a},\n{b}\n</tool_call>",
    "one_tag_list": f"<tool_call>\n[{a}, {b}]\n</tool_call>",
    "one_tag_glued": f"<tool_call>{a}{b}</tool_call>",
    "hermes_unclosed": f"<tool_call>\n{a}\n<tool_call>\n{b}",
    "bare_lines": f"{a}\n{b}",
    "bare_blank_line": f"{a}\n\n{b}",
    "bare_glued": f"{a}{b}",
    "bare_comma": f"{a},\n{b}",
    "bare_semicolon": f"{a}; {b}",
    "bare_list": f"[{a}, {b}]",
    "bare_list_pretty": json.dumps([A, B], indent=2),
    "numbered": f"1. {a}\n2. {b}",
    "bulleted": f"- {a}\n- {b}",
    "fence_lines": f"```json\n{a}\n{b}\n```",
    "fence_list": f"```json\n[{a}, {b}]\n```",
    "fence_comma": f"```json\n{a},\n{b}\n```",
    "two_fences": f"```json\n{a}\n```\n```json\n{b}\n```",
    "pythonic_list": f"[{PA}, {PB}]",
    "pythonic_lines": f"{PA}\n{PB}",
    "pythonic_semicolon": f"{PA}; {PB}",
    "tool_code_fence": f"```tool_code\n{PA}\n{PB}\n```",
    "functools": f"functools[{a}, {b}]",
    "mistral_list": f"[TOOL_CALLS][{a}, {b}]",
    "mistral_args": '[TOOL_CALLS]get_weather[ARGS]{"city": "Paris"}[TOOL_CALLS]search[ARGS]{"query": "cats"}',
    "python_tag": f"<|python_tag|>{a}; {b}",
    "react_twice": 'Action: get_weather\nAction Input: {"city": "Paris"}\nAction: search\nAction Input: {"query": "cats"}',
    "qwen_xml_two_tags": f"<tool_call>\n{QWEN_A}\n</tool_call>\n<tool_call>\n{QWEN_B}\n</tool_call>",
    "qwen_xml_one_tag": f"<tool_call>\n{QWEN_A}\n{QWEN_B}\n</tool_call>",
    "tool_calls_envelope": json.dumps({"tool_calls": [{"function": A}, {"function": B}]}),
    "tool_calls_tag": f"<tool_calls>\n{a}\n{b}\n</tool_calls>",
    "tool_calls_tag_list": f"<tool_calls>[{a}, {b}]</tool_calls>",
    "function_calls_tag": f"<function_calls>\n{a}\n{b}\n</function_calls>",
    # two forms in a row: the line after a call opens the next form
    "json_then_react": f'{a}\nAction: search\nAction Input: {{"query": "cats"}}',
    "tag_then_name_first": f'<tool_call>{a}</tool_call>\nsearch {{"query": "cats"}}',
}


def _read(text: str, chunk_size: int | None) -> tuple[list[tuple[str, object]], str]:
    events = parse_text(text, TOOLS, chunk_size=chunk_size)
    calls = [(e.name, e.arguments) for e in events if isinstance(e, ToolCallEnd)]
    return calls, "".join(e.text for e in events if isinstance(e, TextDelta))


@pytest.mark.parametrize("prose", ["", "Sure, checking both.\n"], ids=["alone", "after_a_sentence"])
@pytest.mark.parametrize("form", sorted(FORMS))
def test_two_calls_in_any_wrapper_and_separator_are_both_read_and_nothing_of_their_markup_shows(
    form: str, prose: str
) -> None:
    text = prose + FORMS[form]
    for chunk_size in (None, 3):
        calls, visible = _read(text, chunk_size)
        assert calls == BOTH, (form, chunk_size)
        assert " ".join(visible.split()) == " ".join(prose.split()), (form, chunk_size)


@pytest.mark.parametrize("form", ["hermes_lines", "bare_lines", "numbered", "fence_lines", "pythonic_list"])
def test_the_same_two_calls_presented_as_an_example_stay_text(form: str) -> None:
    text = "For example:\n" + FORMS[form]
    calls, visible = _read(text, 3)
    assert (calls, visible) == ([], text)


@pytest.mark.parametrize(
    "text",
    [
        f"For example:\n<tool_call>{a}</tool_call>\n\n<tool_call>{b}</tool_call>",  # a blank line: the example ended
        f"Example: <tool_call>{a}</tool_call>\n<tool_call>{b}</tool_call>",  # the example on the words' own line
    ],
)
def test_a_call_after_the_examples_paragraph_or_under_an_inline_example_is_a_call(text: str) -> None:
    calls, _ = _read(text, 3)
    assert calls == BOTH[1:]
