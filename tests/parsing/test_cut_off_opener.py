"""A call's opener alone at the end of the output, at the start of its line: the model stopped (or was cut off) before
its call; an error carrying the opener, never text. Inside a sentence the opener names the form and stays text."""

from __future__ import annotations

import pytest

from tests.parsing.chunking import parse_everywhere
from tests.parsing.readers.cases import tool

TOOLS = [tool("calculator", expression="string"), tool("get_weather", city="string"), tool("screenshot")]


@pytest.mark.parametrize(
    ("text", "visible"),
    [
        # Incant's and Lum's parser tests (hunt 20): the output ends at the opener.
        ("call:calculator(", ""),
        ('<tool_use server="x">', ""),
        ('Taking one now.\n<tool_use server="playwright">\n', "Taking one now."),
        ("<tool_call>", ""),
        ("Let me check.\n<tool_call>\n", "Let me check."),
        ("Voy a consultar el tiempo.\n  <function_calls>", "Voy a consultar el tiempo."),
        ("[TOOL_CALLS]", ""),
        ("<|python_tag|>", ""),
        ("<function=get_weather>", ""),
        ("Computing:\nfunctools[", "Computing:"),
        ("<tool_call>\n{", ""),
        ("先查一下天气。\ncall:get_weather(", "先查一下天气。"),
    ],
)
def test_a_call_opener_alone_at_the_end_of_the_output_is_an_error(text: str, visible: str) -> None:
    got = parse_everywhere(text, TOOLS)
    assert not got["calls"]
    assert len(got["errors"]) == 1
    assert got["errors"][0]["raw"].strip() in text
    assert " ".join(got["text"].split()) == visible


@pytest.mark.parametrize(
    "text",
    [
        # The opener inside a sentence names the form.
        "Wrap each call in <tool_call>",
        "<tool_call> is a tag; get_weather is a tool.",
        "Write the call as call:calculator(",
        'End with <tool_use server="x">',
        # Not the end: text after the opener (it is read as usual, and here it holds no call).
        '<tool_use server="x">\nnever mind',
        "<think>",
        # A fence of code or JSON, or a fence's closer, at the end: no call's opener.
        "Here:\n```json\n",
        # An untagged form of an offered tool with nothing in it: no call, and no cut-off call either.
        "```tool_code\n",
        "Run:\n<execute_bash>\n  \n",
        "### Response:\n",
        '<get_weather city="Paris">',
        "```\nls -a\n```\n",
        "Answer:\n```\nThe median is 4.\n``` \n",
        # A reasoning tag, and a turn token.
        "Thinking it over.\n<think>\n",
        "Done.\n<|im_end|>",
    ],
)
def test_an_opener_in_a_sentence_or_a_fence_at_the_end_stays_text(text: str) -> None:
    got = parse_everywhere(text, TOOLS)
    assert not got["calls"] and not got["errors"]
