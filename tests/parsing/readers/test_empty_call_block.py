"""An empty call block on a line of its own (``<tool_call>\\n</tool_call>``), or glued to the next block, is the
model's markup around no call: invisible, no call, no error (inferq's Qwen3.6 tests, GLM's). Named in a sentence
(``within <tool_call></tool_call> XML tags``) the tags stay text; a block around plain words stays text too."""

from __future__ import annotations

from typing import Any

import pytest

from tests.parsing.readers.cases import Real, check, tool

INFERQ = "ybrs/inferq:src/tool_calls.rs@37310b2c (Qwen3.6-35B-A3B)"
TOOLS = [tool("a", x="integer"), tool("read_file", path="string")]
QWEN = "<tool_call>\n<function=a>\n<parameter=x>\n1\n</parameter>\n</function>\n</tool_call>"
HERMES = '<tool_call>{"name": "read_file", "arguments": {"path": "b.txt"}}</tool_call>'


@pytest.mark.parametrize(
    ("text", "calls", "visible"),
    [
        (f"<tool_call>\n</tool_call>\n{QWEN}", [("a", {"x": 1})], ""),
        (f"{QWEN}\n<tool_call></tool_call>", [("a", {"x": 1})], ""),  # after the call
        (f"<tool_call></tool_call>{HERMES}", [("read_file", {"path": "b.txt"})], ""),  # glued to the next
        (  # after a line of prose, in another family's tags, with blanks inside
            f"Je lis le fichier.\n<function_call>  \n </function_call>\n{HERMES}",
            [("read_file", {"path": "b.txt"})],
            "Je lis le fichier.",
        ),
        ("<tool_call>\n</tool_call>", [], ""),  # alone: no call, nothing shown
    ],
)
def test_an_empty_call_block_on_its_own_line_is_invisible_markup(
    text: str, calls: list[tuple[str, dict[str, Any]]], visible: str
) -> None:
    check(Real(INFERQ, text, calls, visible=visible, tools=TOOLS))


@pytest.mark.parametrize(
    "text",
    [
        "Return each call within <tool_call></tool_call> XML tags.",  # named in a sentence
        "<tool_call></tool_call> is the pair of tags to use.",  # the sentence goes on after it
        "For example:\n<tool_call></tool_call>\nis empty.",  # presented as an example
        "<tool_call>\nnothing here\n</tool_call>",  # plain words: a block that is no call stays text
    ],
)
def test_empty_tags_named_in_prose_or_a_block_of_words_stay_text(text: str) -> None:
    check(Real(INFERQ, text, [], visible=text, tools=TOOLS))
