# ruff: noqa: RUF001  (DeepSeek's real tokens use full-width bars)
"""Property-based tests (hypothesis) of the invariants: nothing lost, chunk invariance, unique ids, no crash."""

from __future__ import annotations

import itertools
import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shim.parsing import lenient_json
from shim.parsing.readers.prose import presents
from tests.parsing.chunking import check_event_invariants, folded, parse_chunks

FRAGMENTS = [
    "<",
    ">",
    "</",
    "{",
    "}",
    "[",
    "]",
    '"',
    "'",
    "\\",
    ":",
    ",",
    " ",
    "\n",
    "`",
    "```json\n",
    "json",
    "<function_call>",
    "</function_call>",
    "<tool_call>",
    "</tool_call>",
    "<think>",
    "</think>",
    '{"name": "t", "arguments": {',
    '"name"',
    "<function=t>",
    "<parameter=a>",
    "</parameter>",
    "</function>",
    "[TOOL_CALLS]",
    "[t(",
    "a=1",
    "b='x'",
    ")]",
    "<function=t>{",
    "[TOOL_REQUEST]",
    "[END_TOOL_REQUEST]",
    "True",
    "None",
    "//",
    "#",
    "/*",
    "*/",
    "\\u00e9",
    "<｜tool▁calls▁begin｜>",
    "<｜tool▁call▁begin｜>",
    "<｜tool▁sep｜>",
    "<｜tool▁call▁end｜>",
    "function",
    "<|tool_calls_section_begin|>",
    "<|tool_call_begin|>",
    "functions.t:0",
    "<|tool_call_argument_begin|>",
    "<|tool_call_end|>",
    "<tool_call>t",
    "<arg_key>a</arg_key>",
    "<arg_value>",
    "</arg_value>",
    '<invoke name="t">',
    '<parameter name="a">',
    "</invoke>",
    "<minimax:tool_call>",
    "<function_calls>",
    "<|start|>assistant",
    "<|channel|>commentary to=functions.t",
    "<|channel|>analysis",
    "<|message|>",
    "<|call|>",
    "<|end|>",
    "commentary to=t json",
    "a",
    "text ",
    "é",
    "👋",
]

noise = st.lists(st.one_of(st.sampled_from(FRAGMENTS), st.text(max_size=3)), max_size=25).map("".join)

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(10**6), 10**6)
    | st.floats(allow_nan=False, allow_infinity=False, width=32)
    | st.text(max_size=12),
    lambda children: st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=6), children, max_size=3),
    max_leaves=10,
)
arguments = st.dictionaries(st.text(max_size=8), json_values, max_size=4)
names = st.from_regex(r"[a-z][a-z0-9_]{0,15}", fullmatch=True)


def split_at(text: str, cuts: list[int]) -> list[str]:
    bounds = [0, *sorted({c % (len(text) + 1) for c in cuts}), len(text)]
    return [text[a:b] for a, b in itertools.pairwise(bounds)]


@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(noise, st.lists(st.integers(0, 10**6), max_size=6), st.booleans())
def test_any_input_is_parsed_without_loss_and_the_same_under_any_split(text: str, cuts: list[int], known: bool) -> None:
    tools = ["t"] if known else None
    whole = parse_chunks([text], tools)
    check_event_invariants(text, whole)
    for chunks in (split_at(text, cuts), list(text)):
        events = parse_chunks(chunks, tools)
        check_event_invariants(text, events)
        assert folded(events) == folded(whole)


@settings(deadline=None)
@given(
    st.lists(
        st.tuples(
            st.text(max_size=20).filter(lambda s: not any(c in s for c in "<[`") and not presents(s)), names, arguments
        ),
        min_size=1,
        max_size=3,
    ),
    st.sampled_from(["function_call", "tool_call"]),
    st.lists(st.integers(0, 10**6), max_size=5),
)
def test_generated_calls_between_text_are_recovered_exactly(
    parts: list[tuple[str, str, dict[str, Any]]], tag: str, cuts: list[int]
) -> None:
    text = "".join(
        f"{prose}<{tag}>{json.dumps({'name': name, 'arguments': args}, ensure_ascii=False)}</{tag}>"
        for prose, name, args in parts
    )
    events = parse_chunks(split_at(text, cuts))
    check_event_invariants(text, events)
    result = folded(events)
    assert [(c["name"], c["arguments"]) for c in result["calls"]] == [(n, a) for _, n, a in parts]
    assert result["text"] == "".join(prose for prose, _, _ in parts)
    assert result["errors"] == []


def python_style(value: Any) -> str:
    """Render a value the way a model imitating Python would: single quotes, True/None, trailing commas."""
    if isinstance(value, dict):
        return "{" + "".join(f"{python_style(k)}: {python_style(v)}, " for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + "".join(f"{python_style(v)}, " for v in value) + "]"
    if isinstance(value, str):  # raw characters, only the quote and backslash escaped, as models write them
        return "'" + value.replace("\\", "\\\\").replace("'", "\\'") + "'"
    return repr(value) if isinstance(value, bool) or value is None else json.dumps(value)


@settings(deadline=None)
@given(arguments, st.lists(st.integers(0, 10**6), max_size=5))
def test_python_style_arguments_parse_to_the_same_values_and_stream_as_json(
    args: dict[str, Any], cuts: list[int]
) -> None:
    rendered = python_style(args)
    assert lenient_json.loads(rendered) == args
    text = f"<function_call>{{'name': 'tool', 'arguments': {rendered}}}</function_call>"
    events = parse_chunks(split_at(text, cuts))
    check_event_invariants(text, events)  # includes: argument chunks decode to the final arguments
    assert [(c["name"], c["arguments"]) for c in folded(events)["calls"]] == [("tool", args)]


# --- deep nesting (issue 14 item 3): no input of any depth may raise; raw still rebuilds the input --------

DEEP_UNITS = ["[", "{", '{"a":', "[[", '"', "'", "(", "<tool_call>", "<think>", "<function=t>", "<parameter=a>"]
deep_nesting = st.one_of(
    st.builds(lambda unit, n: unit * n, st.sampled_from(DEEP_UNITS), st.integers(90, 1500)),
    st.builds(  # an opener, then nesting, then maybe the closers
        lambda head, unit, n, close: head + unit * n + ("]" * n if close else ""),
        st.sampled_from(
            [
                "",
                "<function_call>",
                '<tool_call>{"name": "t", "arguments": {"a": ',
                "[TOOL_CALLS]",
                "[t(a=",
                "```json\n",
                "<function=t><parameter=a>",
                '{"name": "t", "arguments": {"a": "',
            ]
        ),
        st.sampled_from(["[", "{", '{"a":', "[{", "(", "[t("]),
        st.integers(90, 1500),
        st.booleans(),
    ),
    st.lists(st.sampled_from([*DEEP_UNITS, "]", "}", ")", "a"]), min_size=100, max_size=1500).map("".join),
)


@settings(deadline=None, max_examples=60, suppress_health_check=[HealthCheck.too_slow])
@given(deep_nesting, st.lists(st.integers(0, 10**6), max_size=4), st.booleans())
def test_deep_nesting_never_raises_and_is_parsed_the_same_under_any_split(
    text: str, cuts: list[int], known: bool
) -> None:
    tools = ["t"] if known else None
    whole = parse_chunks([text], tools)
    check_event_invariants(text, whole)
    events = parse_chunks(split_at(text, cuts), tools)
    check_event_invariants(text, events)
    assert folded(events) == folded(whole)
