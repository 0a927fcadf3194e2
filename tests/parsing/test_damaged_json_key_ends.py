"""A JSON call damaged where a key ends or before it, as Llama 3.2 3B writes it on Ollama (llama-stack's recordings):
a word key whose closing quote and colon are left out, a blank before its object (``"parameters {"city": …}``), and a
backslash escape written outside a string where a blank may stand (``{\\>"city": …}``; ``\\n`` between members). The
grammar (`lenient_json`) and the streaming scanner (`json_scan`) read each the same way at every split point;
damage outside the rules stays an error and prose stays text."""

from __future__ import annotations

import json
from typing import Any

import pytest

from shim.parsing import lenient_json
from shim.parsing.json_scan import Status
from tests.parsing.chunking import parse_everywhere
from tests.parsing.readers.cases import tool
from tests.parsing.test_json_scan import grammar, scan, splits

TOOLS = [
    tool("get_weather", city="string", days="integer"),
    tool("process_data", data="array"),
    tool("search_files", pattern="string", path="string"),
]


def _calls(result: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    return [(c["name"], c["arguments"]) for c in result["calls"]]


CALLS: list[tuple[str, tuple[str, dict[str, Any]]]] = [
    # a word key's closing quote and colon left out, a blank (or a tab, or several) before its object
    ('{"name":"get_weather","parameters {"city": "Tokyo"}}', ("get_weather", {"city": "Tokyo"})),
    ('{"name":"process_data","parameters {"data":["1,3,5","2,4"]}}', ("process_data", {"data": ["1,3,5", "2,4"]})),
    (
        '{"name": "search_files", "arguments\t{"pattern": "*.py", "path": "src"}}',
        ("search_files", {"pattern": "*.py", "path": "src"}),
    ),
    (
        '{"function": {"name": "get_weather", "args  {\n  "city": "Köln", "days": 3}}}',
        ("get_weather", {"city": "Köln", "days": 3}),
    ),
    # a stray backslash escape before a key, a value or a closer
    ('{"name":"get_weather","parameters":{\\>"city": "Tokyo"}}', ("get_weather", {"city": "Tokyo"})),
    (
        '{\\n"name": "search_files",\\n"arguments": {\\n"pattern": "a\\\\b",\\n"path": "."\\n}\\n}',
        ("search_files", {"pattern": "a\\b", "path": "."}),
    ),
    ('{"name": "get_weather", "arguments": {"city": \\t"Oslo"\\r\\n}}', ("get_weather", {"city": "Oslo"})),
    ("{'name': 'process_data', 'arguments': {\\/'data': ['x', \\n'y']}}", ("process_data", {"data": ["x", "y"]})),
]


@pytest.mark.parametrize(("text", "call"), CALLS)
@pytest.mark.parametrize("wrap", ["{}", "<tool_call>\n{}\n</tool_call>", "```json\n{}\n```"])
def test_a_call_damaged_at_a_key_end_is_read_at_every_split(text: str, call: Any, wrap: str) -> None:
    result = parse_everywhere(wrap.replace("{}", text, 1), TOOLS, seeds=5)
    assert _calls(result) == [call]
    assert (result["text"], result["errors"]) == ("", [])


@pytest.mark.parametrize(
    "text",
    [
        'The key "parameters {" is shown here.',
        'Write {"name":"lookup","parameters {"city": "Tokyo"}} for a tool we lack.',  # no offered tool
        'It printed `{"name":"get_weather","parameters":{\\>"city": "Tokyo"}}` by mistake.',  # a quoted example
        "A path like C:\\n or \\> alone is prose.",
    ],
)
def test_prose_and_no_call_stay_text(text: str) -> None:
    result = parse_everywhere(text, TOOLS, seeds=5)
    assert (result["calls"], result["text"]) == ([], text)


ALIKE: list[tuple[str, Any]] = [
    ('{"a {"b": 1}}', {"a": {"b": 1}}),
    ('{"a: {"b": 1}}', {"a": {"b": 1}}),
    ('{"first name": "x", "a b": {"c": 1}}', {"first name": "x", "a b": {"c": 1}}),  # blanks in valid keys
    ('{"a {": 1}', {"a {": 1}),  # a valid key holding a blank and a brace
    ('{"a {\\"b\\": 1}": 2}', {'a {"b": 1}': 2}),
    ('{\\>"a": 1}', {"a": 1}),
    ('{"a": 1\\n}', {"a": 1}),
    ('{"a": "x",\\n"b": ["y"\\n]\\n}', {"a": "x", "b": ["y"]}),
    ('{"a": "\\n"}', {"a": "\n"}),  # inside a string: the escape
    ('{"a": 1, \\\\"b": 2}', lenient_json.LenientJSONError),  # `\\`: no stray escape
    ('{"a": \\x"b"}', lenient_json.LenientJSONError),  # a letter other than n r t
    ('{"a": \\>b}', lenient_json.LenientJSONError),  # a word after it
    ('{"a {b": 1}', {"a {b": 1}),  # a valid key
    ('{"a {b: 1}}', lenient_json.LenientJSONError),  # no quoted key after the brace: no open key
    ('{"a [1, 2]}', lenient_json.LenientJSONError),  # a list after the blank: not read
    ('{"a\n{"b": 1}}', lenient_json.LenientJSONError),  # a line break is no blank of a key
]


@pytest.mark.parametrize(("text", "expected"), ALIKE)
@pytest.mark.parametrize("bare_words", [True, False], ids=["bare words", "strict words"])
def test_the_grammar_and_the_scanner_read_them_alike_at_every_split(text: str, expected: Any, bare_words: bool) -> None:
    if not bare_words or expected is not lenient_json.LenientJSONError:
        assert grammar(text, bare_words=bare_words) == expected
    expected = grammar(text, bare_words=bare_words)
    for chunks in splits(text):
        status, streamed = scan(chunks, bare_words=bare_words)
        if expected is lenient_json.LenientJSONError:
            assert status is not Status.DONE, chunks
        else:
            assert status is Status.DONE, chunks
            assert json.loads(streamed) == expected, chunks
