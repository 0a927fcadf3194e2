"""A fence labelled with a call's words holding Python-style calls (`shim.parsing.readers.call_fence`), at every
split point; the same fence shown as an example, holding code, or calling a tool not offered stays text."""

from __future__ import annotations

from typing import Any

import pytest

from tests.parsing.readers.cases import Real, check, tool

TOOLS = [
    tool("get_weather", city="string", days="integer"),
    tool("track", symbol="string", live="boolean"),
    tool("search-docs", query="string", tags="array", filters="object"),
]


@pytest.mark.parametrize(
    ("text", "calls", "visible"),
    [
        ('```tool_call\nget_weather(city="Paris", days=3)\n```', [("get_weather", {"city": "Paris", "days": 3})], ""),
        (  # text before and after; a boolean; the label in capitals
            "Let me look that up.\n\n```TOOL_CALL\ntrack(symbol='AAPL', live=True)\n```\nOne moment.",
            [("track", {"symbol": "AAPL", "live": True})],
            "Let me look that up.\n\nOne moment.",
        ),
        (  # two calls, a line each, under a plural label
            "```function_calls\nget_weather(city='Lima')\ntrack(symbol='MSFT')\n```",
            [("get_weather", {"city": "Lima"}), ("track", {"symbol": "MSFT"})],
            "",
        ),
        (  # a call list; a list and a dict as values; a name spelled with `_` for `-`
            "```tool\n[search_docs(query=\"fence\", tags=['a', 'b'], filters={'lang': 'en'})]\n```",
            [("search-docs", {"query": "fence", "tags": ["a", "b"], "filters": {"lang": "en"}})],
            "",
        ),
        (  # the harness prints what the call returns; CRLF line ends; blanks after the label
            "```call  \r\nprint(get_weather(city='Oslo'))\r\n```",
            [("get_weather", {"city": "Oslo"})],
            "",
        ),
        (  # a hyphenated label; an end-of-turn token after the fence; keywords over several lines
            "```tool-use\nget_weather(\n    city='Köln',\n    days=2,\n)\n```<|im_end|>",
            [("get_weather", {"city": "Köln", "days": 2})],
            "",
        ),
        (  # after a reasoning block
            "<think>\nWeather first.\n</think>\n\n```action\nget_weather(city='Rome')\n```",
            [("get_weather", {"city": "Rome"})],
            "",
        ),
    ],
)
def test_python_calls_in_a_fence_labelled_a_call_are_the_calls(
    text: str, calls: list[tuple[str, dict[str, Any]]], visible: str
) -> None:
    check(Real("written", text, calls, visible=visible, tools=TOOLS))


def test_json_in_a_fence_labelled_tool_is_the_call_and_the_fence_its_markup() -> None:
    text = 'On it.\n```tool\n{"name": "get_weather", "arguments": {"city": "Quito"}}\n```'
    check(Real("written", text, [("get_weather", {"city": "Quito"})], visible="On it.\n", tools=TOOLS))


@pytest.mark.parametrize(
    "text",
    [
        "In Python:\n```python\nget_weather(city='Paris')\n```",  # a language's fence shows code
        "```tool_call\ndelete_everything(path='/')\n```",  # a tool not offered
        "```tool_call\nimport os\nos.remove('x')\n```",  # code, no call
        "```call\nThe call failed; try again later.\n```",  # a sentence under the label
        "For example:\n```tool_call\nget_weather(city='Paris')\n```",  # presented as an example
        "Call it like `get_weather(city='Paris')` inside a ```tool_call fence.",  # named in a sentence
    ],
)
def test_the_fence_shown_as_an_example_or_holding_no_offered_call_stays_text(text: str) -> None:
    check(Real("written", text, [], visible=text, tools=TOOLS))
