"""The rest of a JSON call object whose head the prompt wrote (Pinecone's Mixtral agent prefills
```` ```json\\n{\\n"tool_name": ````): ``"NAME", "input": …}`` opening the message is that call; a quoted offered name
opening prose, a tail that does not close, or a name not offered stays text."""

from __future__ import annotations

from typing import Any

import pytest

from tests.parsing.readers.cases import Real, check

_PINECONE = "pinecone-io/examples:learn/generation/llm-field-guide/mistral-ai/mixtral-8x7b/00-mixtral-8x7b-agent.ipynb"


def _tool(name: str, *keys: str) -> dict[str, Any]:
    properties = {key: {"type": "string"} for key in keys}
    return {"name": name, "inputSchema": {"type": "object", "properties": properties, "required": list(keys)}}


_TOOLS = [_tool("Calculator", "input"), _tool("Search", "input"), _tool("get_weather", "city", "unit")]


@pytest.mark.parametrize(
    ("text", "calls", "visible"),
    [
        (
            ' "Calculator",\n"input":  "from math import sqrt; output = sqrt(512) * 7"\n}\n```',
            [("Calculator", {"input": "from math import sqrt; output = sqrt(512) * 7"})],
            "",
        ),
        ('"Search", "input": "¿quién ganó el mundial?"}', [("Search", {"input": "¿quién ganó el mundial?"})], ""),
        (  # arguments under their own key, the fence's closer with blanks, then prose after it
            '"get_weather",\n  "parameters": {"city": "Oslo", "unit": "C"}\n}\n```  \nChecking now.',
            [("get_weather", {"city": "Oslo", "unit": "C"})],
            "Checking now.",
        ),
    ],
)
def test_the_tail_of_a_prefilled_call_object_is_the_call(
    text: str, calls: list[tuple[str, dict[str, Any]]], visible: str
) -> None:
    check(Real(_PINECONE, text, calls, visible=visible, tools=_TOOLS))


@pytest.mark.parametrize(
    "text",
    [
        '"Search", she said, "is what I would use."',  # a quoted name opening prose
        '"Final Answer",\n"input": "It is 158.4."\n}\n```',  # no offered tool: the prompt's answer action
        '"Search", "input": "x"',  # the object never closes
        'Use "Search", "input": "x"} as the tail.',  # not opening the message
    ],
)
def test_a_tail_that_is_no_call_stays_text(text: str) -> None:
    check(Real("written", text, [], visible=text, tools=_TOOLS))
