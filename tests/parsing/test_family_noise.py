"""Any mix of the Gemma, FunctionGemma, LFM2, Llama 4, OLMo 3, MiniCPM, Granite and Phi-4 markers is read
without loss and the same under any split (hypothesis)."""

from __future__ import annotations

import itertools

from hypothesis import given
from hypothesis import strategies as st

from tests.parsing.chunking import check_event_invariants, folded, parse_chunks

FRAGMENTS = [
    "<|tool_call>",
    "<tool_call|>",
    "call:t{",
    "call:",
    '<|"|>',
    "<start_function_call>",
    "<end_function_call>",
    "<escape>",
    "<|channel>thought",
    "<channel|>",
    "<|tool_call_start|>",
    "<|tool_call_end|>",
    "<|python_start|>",
    "<|python_end|>",
    "<function_calls>",
    "</function_calls>",
    "```tool_code\n",
    "```",
    '<function name="t">',
    '<param name="a">',
    "</param>",
    "</function>",
    "<![CDATA[",
    "]]>",
    "<|tool_call|>",
    "functools[",
    "\nfunctools",
    "[t(",
    "t(",
    "a=1",
    "b='x'",
    'c="y"',
    "true",
    "null",
    ")",
    ")]",
    "{",
    "}",
    "[",
    "]",
    ",",
    ":",
    '"',
    "'",
    "\\",
    " ",
    "\n",
    '{"name": "t", "arguments": {}}',
    "text ",
    "é",
]

noise = st.lists(st.one_of(st.sampled_from(FRAGMENTS), st.text(max_size=3)), max_size=25).map("".join)


@given(noise, st.lists(st.integers(min_value=0, max_value=400), max_size=6), st.booleans())
def test_family_markers_in_any_order_lose_nothing_and_do_not_depend_on_the_split(
    text: str, cuts: list[int], known: bool
) -> None:
    tools = ["t"] if known else None
    whole = parse_chunks([text], tools)
    check_event_invariants(text, whole)
    bounds = sorted({0, len(text), *(c % (len(text) + 1) for c in cuts)})
    pieces = [text[a:b] for a, b in itertools.pairwise(bounds)]
    split = parse_chunks(pieces, tools)
    check_event_invariants(text, split)
    assert folded(split) == folded(whole)
    singles = parse_chunks(list(text), tools)
    assert folded(singles) == folded(whole)
