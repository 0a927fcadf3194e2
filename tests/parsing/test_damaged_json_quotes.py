"""A JSON call damaged by a quote, as Qwen3-4B-Instruct-2507 writes it on vLLM in tau-bench runs: an arguments
object holding nothing but one or two quotes (``{"}}``, ``{""}``) is empty, and a key whose closing quote was left out
before its colon and object (``"arguments: {"user_id": …}``) is that key. The grammar (`lenient_json`) and the
streaming scanner (`json_scan`) read each the same way, untagged, inside a call tag and after a ReAct label."""

from __future__ import annotations

import json
from typing import Any

import pytest

from shim.parsing import lenient_json
from shim.parsing.json_scan import JsonScanner, Status
from tests.parsing.chunking import parse_everywhere
from tests.parsing.readers.cases import tool

TOOLS = [
    tool("list_all_airports"),
    tool("get_user_details", user_id="string"),
    tool("search", query="string", filter="object"),
]


def _calls(result: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    return [(c["name"], c["arguments"]) for c in result["calls"]]


EMPTY = [
    '{"name": "list_all_airports", "arguments": {"}}',
    '{"name": "list_all_airports", "arguments": {""}}',
    '{"name":"list_all_airports","parameters":{ " }}',
    '{"name": "list_all_airports", "arguments": {"" }\n}',
    "{'name': 'list_all_airports', 'arguments': {\"}}",
]


@pytest.mark.parametrize("body", EMPTY)
@pytest.mark.parametrize("wrap", ["<tool_call>\n{}\n</tool_call>", "{}", "Action:\n{}"])
def test_an_arguments_object_of_quotes_alone_is_empty(body: str, wrap: str) -> None:
    result = parse_everywhere(wrap.replace("{}", body), TOOLS, seeds=5)
    assert _calls(result) == [("list_all_airports", {})]
    assert (result["text"], result["errors"]) == ("", [])


OPEN_KEY = [
    ('{"name": "get_user_details", "arguments: {"user_id": "sophia_silva_7557"}}', "get_user_details"),
    ('{"name":"get_user_details","parameters:{ "user_id":"sophia_silva_7557"}}', "get_user_details"),
    ('{"name": "get_user_details", "args:  {\n  "user_id": "sophia_silva_7557"\n}}', "get_user_details"),
]


@pytest.mark.parametrize(("body", "name"), OPEN_KEY)
@pytest.mark.parametrize("wrap", ["<tool_call>\n{}\n</tool_call>", "{}"])
def test_a_key_whose_closing_quote_is_left_out_before_its_object_is_that_key(body: str, name: str, wrap: str) -> None:
    result = parse_everywhere(wrap.replace("{}", body), TOOLS, seeds=5)
    assert _calls(result) == [(name, {"user_id": "sophia_silva_7557"})]
    assert (result["text"], result["errors"]) == ("", [])


def test_an_argument_key_whose_closing_quote_is_left_out_streams_the_same_object() -> None:
    text = '<tool_call>{"name": "search", "arguments": {"query": "x", "filter: {"city": "Paris"}}}</tool_call>'
    result = parse_everywhere(text, TOOLS, seeds=5)
    assert _calls(result) == [("search", {"query": "x", "filter": {"city": "Paris"}})]


@pytest.mark.parametrize(
    "text",
    [
        'Type {"} to close the brace, or {""} for nothing.',  # prose: no call's shape
        '{"name": "lookup", "arguments": {"}}',  # no offered tool
        '{"name": "lookup", "arguments: {"q": 1}}',  # no offered tool
        'A key like "arguments: {" is shown here.',
        'It wrote `{"name": "list_all_airports", "arguments": {"}}` and stopped.',  # a quoted example
    ],
)
def test_prose_and_examples_of_the_damage_stay_text(text: str) -> None:
    result = parse_everywhere(text, TOOLS, seeds=5)
    assert (result["calls"], result["text"]) == ([], text)


ALIKE: list[tuple[str, Any]] = [
    ('{"a": {"}}', {"a": {}}),
    ('{"a": {""}}', {"a": {}}),
    ('{"a": [{"}]}', {"a": [{}]}),
    ('{"}": 1}', {"}": 1}),  # a key that is a brace: its closing quote follows it
    ('{"}}": null}', {"}}": None}),  # a key of two braces: a quote follows the closers
    ('{"x": {"}}": 1}, "y": {"}}', {"x": {"}}": 1}, "y": {}}),
    ('{"}<": 1}', {"}<": 1}),  # a key of a brace and an angle: no closing tag follows
    ('{"}</": 1}', {"}</": 1}),  # a quote and a colon after it on its line: a key
    ('{"a: {": 1}', {"a: {": 1}),  # a key holding a colon and a brace, then its own colon
    ('{"ns:key": 1}', {"ns:key": 1}),  # a colon inside a key
    ('{"a: {"b": 1}}', {"a": {"b": 1}}),
    ('{"a": {"b:{"c": [1]}}}', {"a": {"b": {"c": [1]}}}),
]


@pytest.mark.parametrize(("text", "expected"), ALIKE)
def test_the_grammar_and_the_scanner_read_the_damage_alike(text: str, expected: Any) -> None:
    assert lenient_json.loads(text) == expected
    for size in (1, 2, 3, 5, len(text)):
        scanner = JsonScanner(stop_chars="", args_only=True)
        pos, status = 0, Status.MORE
        out: list[str] = []
        for start in range(0, len(text), size):
            used, status = scanner.feed(text[pos : start + size], 0, final=start + size >= len(text))
            pos += used
            out.append(scanner.take_arguments())
            if status is not Status.MORE:
                break
        assert status is Status.DONE, (size, scanner.error)
        assert json.loads("".join(out)) == expected, size


@pytest.mark.parametrize(
    "text",
    [
        '{"a": {"} and more',  # a quote with text after its brace opens a string
        '{"a": {""": 1}}',
        '{"a: 1}',  # no object after the colon: the string runs on
    ],
)
def test_damage_outside_the_rules_is_still_not_json(text: str) -> None:
    with pytest.raises(lenient_json.LenientJSONError):
        lenient_json.loads(text)
