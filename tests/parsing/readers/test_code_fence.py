"""Code fences of a programming language are prose: the lenient forms do not read calls inside them."""

from __future__ import annotations

import pytest

from tests.parsing.chunking import parse_everywhere

TOOLS = [{"name": "get_weather", "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}}}}]


@pytest.mark.parametrize(
    "text",
    [
        "Call it like this:\n```python\nget_weather(city='Lima')\n```\nThat is all.",
        '```js\nconst r = [get_weather(city="Lima")];\n{"name": "get_weather", "arguments": {"city": "Lima"}}\n```',
        "```bash\ncurl localhost\n",  # a fence the stream never closes
    ],
)
def test_calls_shown_in_a_code_fence_stay_text_with_no_error(text: str) -> None:
    result = parse_everywhere(text, TOOLS)
    assert result["calls"] == [] and result["errors"] == [] and result["text"] == text


def test_after_the_fence_closes_a_call_is_read_again() -> None:
    text = '```python\nget_weather(city=\'Lima\')\n```\n<tool_call>{"name": "get_weather", "arguments": {"city": "Oslo"}}</tool_call>'
    result = parse_everywhere(text, TOOLS)
    assert [(c["name"], c["arguments"]) for c in result["calls"]] == [("get_weather", {"city": "Oslo"})]


def test_a_json_fence_is_still_a_call_fence() -> None:
    text = '```json\n{"name": "get_weather", "arguments": {"city": "Lima"}}\n```'
    result = parse_everywhere(text, TOOLS)
    assert [c["name"] for c in result["calls"]] == ["get_weather"]
