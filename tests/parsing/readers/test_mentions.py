"""Mentions of call syntax in code and docs stay text with no error event (from the decoy corpus)."""

from __future__ import annotations

import pytest

from tests.parsing.chunking import parse_everywhere

TOOLS = ["get_conditions", "get_current_temperature"]


@pytest.mark.parametrize(
    "text",
    [
        # ollama/ollama tools/tools.go, a Go comment quoting a call in backticks.
        '// e.g. `{"name": "get_conditions", "arguments": {}}` will work but\n',
        # ollama/ollama model/parsers/qwen3coder.go, a Go comment quoting the format line by line.
        "// <function=get_current_temperature>\n// <parameter=location>\n// San Francisco\n// </parameter>\n",
        # ml-explore/mlx-lm mlx_lm/tool_parsers/qwen3_coder.py, a regular expression in Python source.
        '_function_regex = re.compile(r"<function=(.*?)</function>$", re.DOTALL)\n',
    ],
)
def test_call_syntax_quoted_in_code_stays_text_without_an_error(text: str) -> None:
    result = parse_everywhere(text, TOOLS)
    assert result["calls"] == [] and result["errors"] == [] and result["text"] == text


def test_a_bare_function_opener_with_a_body_is_still_a_call() -> None:
    text = "<function=get_current_temperature>\n<parameter=location>\nParis\n</parameter>\n</function>"
    result = parse_everywhere(text, TOOLS)
    assert [(c["name"], c["arguments"]) for c in result["calls"]] == [
        ("get_current_temperature", {"location": "Paris"})
    ]


def test_bare_json_followed_by_prose_is_still_a_call() -> None:
    text = 'Here is the result: {"name": "get_conditions", "arguments": {}} Would you like to know more?'
    result = parse_everywhere(text, TOOLS)
    assert [c["name"] for c in result["calls"]] == ["get_conditions"]


def test_semicolons_between_bare_json_calls_are_separators_not_text() -> None:
    # vllm-project/vllm tests/tool_parsers (Llama 3 JSON): "{…}; {…}; {…} Would you like to know more?"
    text = 'Here: {"name": "get_conditions", "arguments": {}}; {"name": "get_conditions", "arguments": {}} More?'
    result = parse_everywhere(text, TOOLS)
    assert len(result["calls"]) == 2 and ";" not in result["text"]


def test_a_semicolon_followed_by_prose_stays_text() -> None:
    text = 'Done: {"name": "get_conditions", "arguments": {}}; that is all.'
    result = parse_everywhere(text, TOOLS)
    assert len(result["calls"]) == 1 and "; that is all." in result["text"]
