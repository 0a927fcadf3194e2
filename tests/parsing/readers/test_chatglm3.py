"""ChatGLM3's own call: an offered tool's name alone on a line, then a fence holding ``tool_call(k=v, …)``
(`shim.parsing.readers.chatglm3`), at every split point; the same words shown in prose stay text."""

from __future__ import annotations

from typing import Any

import pytest

from tests.parsing.readers.cases import Real, check, tool

PR526 = "zai-org/ChatGLM3#526 (openai_api_demo's stream, chatglm3-6b)"
PROMPT = "THUDM/ChatGLM3:PROMPT_en.md (Tool Calling)"
TOOLS = [
    tool("get_current_weather", location="string", unit="string"),
    tool("track", symbol="string", days="integer", live="boolean"),
    tool("search-docs", query="string", tags="array", filters="object"),
]


@pytest.mark.parametrize(
    ("source", "text", "calls", "visible"),
    [
        (  # benchmarks/real/chatglm3_tool_call/a26_chatglm3_pr526_stream_weather: a space before the fence
            PR526,
            "get_current_weather\n ```python\ntool_call(location='Beijing', unit='celsius')\n```",
            [("get_current_weather", {"location": "Beijing", "unit": "celsius"})],
            "",
        ),
        (  # the template's own example: the text of an earlier message, then the call, the turn token after it
            PROMPT,
            "Okay, let's look up the weather in Bejing today.\nget_current_weather\n```python\n"
            'tool_call(location="beijing", unit="celsius")\n```<|observation|>',
            [("get_current_weather", {"location": "beijing", "unit": "celsius"})],
            "Okay, let's look up the weather in Bejing today.",
        ),
        (  # a bare fence; an integer, a boolean; Chinese text before
            "written",
            "我来查一下股价。\ntrack\n```\ntool_call(symbol='AAPL', days=5, live=True)\n```\n",
            [("track", {"symbol": "AAPL", "days": 5, "live": True})],
            "我来查一下股价。",
        ),
        (  # a list and a dict as values, the keywords over several lines; a name spelled with `_` for `-`
            "written",
            "search_docs\n```py\ntool_call(\n    query=\"fence\",\n    tags=['a', 'b'],\n    filters={'lang': 'en'},\n)\n```",
            [("search-docs", {"query": "fence", "tags": ["a", "b"], "filters": {"lang": "en"}})],
            "",
        ),
        (  # two calls, one after the other (the role tokens between them dropped), text after both
            "written",
            "track\n```python\ntool_call(symbol='MSFT')\n```\nget_current_weather\n```python\n"
            "tool_call(location='Köln')\n```\nDone.",
            [("track", {"symbol": "MSFT"}), ("get_current_weather", {"location": "Köln"})],
            "Done.",
        ),
        (  # two calls a blank line apart
            "written",
            "track\n```python\ntool_call(symbol='MSFT')\n```\n\ntrack\n```\ntool_call(symbol='NVDA', days=1)\n```",
            [("track", {"symbol": "MSFT"}), ("track", {"symbol": "NVDA", "days": 1})],
            "",
        ),
        (  # the template's header kept (special tokens not skipped): the name is its metadata, after text too
            PROMPT,
            'Okay, let\'s look it up.\n<|assistant|>get_current_weather\n```python\ntool_call(location="beijing")\n```'
            "\n<|assistant|>track\n```python\ntool_call(symbol='BABA')\n```<|observation|>",
            [("get_current_weather", {"location": "beijing"}), ("track", {"symbol": "BABA"})],
            "Okay, let's look it up.",
        ),
        (
            "written",
            "<|assistant|>track\n```python\ntool_call(live=False, symbol='0700.HK')\n```",
            [("track", {"live": False, "symbol": "0700.HK"})],
            "",
        ),
        (  # CRLF line ends, blanks after the name and around the parenthesis
            "written",
            'track  \r\n```python\r\ntool_call ( symbol = "TSLA" )\r\n```',
            [("track", {"symbol": "TSLA"})],
            "",
        ),
    ],
)
def test_a_name_line_then_a_fenced_tool_call_is_the_call(
    source: str, text: str, calls: list[tuple[str, dict[str, Any]]], visible: str
) -> None:
    check(Real(source, text, calls, visible=visible, tools=TOOLS))


@pytest.mark.parametrize(
    "text",
    [
        "track\n```python\nprint(track('AAPL'))\n```",  # the name line, then ordinary code
        "interpreter\n```python\nimport json\nprint(json.dumps({}))\n```",  # ChatGLM3's code interpreter
        "ChatGLM3 calls a tool by writing tool_call(symbol='AAPL') in a fence.",  # `tool_call(` in a sentence
        "delete_everything\n```python\ntool_call(path='/')\n```",  # a tool not offered
        "The tracker:\ntracking\n```python\ntool_call(symbol='AAPL')\n```",  # a longer word than the tool's name
        "Use track, then:\n```python\ntool_call(symbol='AAPL')\n```",  # the name inside a sentence, not its own line
    ],
)
def test_the_form_shown_in_prose_or_for_a_tool_not_offered_stays_text(text: str) -> None:
    check(Real("written", text, [], visible=text, tools=TOOLS))


@pytest.mark.parametrize(
    "text",
    [
        "For example:\ntrack\n```python\ntool_call(symbol='AAPL')\n```",  # presented as an example
        "To call a tool, write its name, then:\n\n    track\n    ```python\n    tool_call(symbol='AAPL')\n    ```",
    ],
)
def test_the_form_presented_as_an_example_stays_text(text: str) -> None:
    check(Real("written", text, [], visible=text, tools=TOOLS))


@pytest.mark.parametrize(
    ("text", "visible"),
    [
        # the header's metadata naming a tool not offered, or the code interpreter: the header is turn markup only
        ("<|assistant|>delete_everything\n```python\ntool_call(path='/')\n```", "delete_everything\n```python"),
        ("<|assistant|>interpreter\n```python\nprint(1 + 1)\n```", "interpreter\n```python\nprint(1 + 1)\n```"),
    ],
)
def test_a_header_naming_no_offered_tool_holds_no_call(text: str, visible: str) -> None:
    result = check(Real("written", text, [], tools=TOOLS), visible=False)
    assert result["text"].startswith(visible)
