"""A JSON call whose values or keys are damaged in ways models really write: arithmetic on numbers as a value (Qwen3-4B
on tau-bench, ``"amount": 1600 - (250 + 250)``; Qwen2.5-7B in BFCL, ``"x": 10 - 5``), and a word key that lost its
opening quote (Llama 4, ``maxDists": "0.1"``). The grammar (`lenient_json`) and the streaming scanner (`json_scan`)
read each alike (`tests/parsing/test_json_scan.py` checks them at every split point); here the whole parser reads the
call at every split point, untagged, in a call tag and in a fence, and valid JSON or prose reads as before."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from shim.parsing import lenient_json
from shim.parsing.json_scan import ARITHMETIC as SCANNED
from shim.parsing.pythonic import folded_arithmetic
from tests.parsing.chunking import parse_everywhere

TOOLS = [
    {
        "name": "pay",
        "inputSchema": {
            "type": "object",
            "properties": {"amount": {"type": "number"}, "methods": {"type": "array"}, "note": {"type": "string"}},
        },
    },
    {
        "name": "math.hypot",
        "inputSchema": {"type": "object", "properties": {"x": {"type": "integer"}, "y": {"type": "integer"}}},
    },
    {
        "name": "search",
        "inputSchema": {
            "type": "object",
            "properties": {
                "query": {"type": "string"},
                "maxDists": {"type": "string"},
                "max-results": {"type": "string"},
            },
        },
    },
]


def _calls(result: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    return [(c["name"], c["arguments"]) for c in result["calls"]]


ARITHMETIC = [
    ('{"name": "math.hypot", "arguments": {"x": 10 - 5, "y": 15 - 7}}', ("math.hypot", {"x": 5, "y": 8})),
    ('{"name": "math.hypot", "arguments": {"x": 2 * 3,"y":(1 + 1) * 4}}', ("math.hypot", {"x": 6, "y": 8})),
    (
        '{"name": "pay", "arguments": {"methods": [{"id": "c1", "amount": 250}, {"id": "cc", "amount": 1600 - (250 + 1)}]}}',
        ("pay", {"methods": [{"id": "c1", "amount": 250}, {"id": "cc", "amount": 1349}]}),
    ),
    (
        '{"name": "pay", "arguments": {\n  "amount": 12.5 / 2,\n  "note": "half of 12.5 - the rest"\n}}',
        ("pay", {"amount": 6.25, "note": "half of 12.5 - the rest"}),
    ),
    ('{"name": "pay", "arguments": {"amount": -(20 - 5)}}', ("pay", {"amount": -15})),
]


@pytest.mark.parametrize(("text", "call"), ARITHMETIC)
def test_arithmetic_on_numbers_as_a_value_is_its_number_at_every_split(text: str, call: Any) -> None:
    result = parse_everywhere(text, TOOLS)
    assert _calls(result) == [call]
    assert (result["text"], result["errors"]) == ("", [])


@pytest.mark.parametrize(("text", "call"), ARITHMETIC)
def test_arithmetic_inside_a_call_tag_streams_the_folded_number(text: str, call: Any) -> None:
    result = parse_everywhere(f"<tool_call>\n{text}\n</tool_call>", TOOLS, seeds=5)
    assert _calls(result) == [call]
    assert result["text"] == ""


def test_the_arithmetic_folded_is_the_pythonic_readers() -> None:
    # One owner: what a JSON value folds is what a Python-style call's value folds.
    for source in ("10 - 5", "1600 - (250 + 250 + 198 + 129)", "4.0 * 3.14159e-04", "-(2 + 3) * 2", "7 / 2"):
        assert lenient_json.loads(f'{{"v": {source}}}') == {"v": folded_arithmetic(source)}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('{"expr": "1 - 2"}', {"expr": "1 - 2"}),
        ('{"a-b": 1, "c": -2, "d": 1e-5, "e": [1, -1]}', {"a-b": 1, "c": -2, "d": 1e-5, "e": [1, -1]}),
        (
            '{"q": "(3 + 4) * 2", "p": "a // b", "r": "x\\" - \\"y"}',
            {"q": "(3 + 4) * 2", "p": "a // b", "r": 'x" - "y'},
        ),
        ('{"a": 1 // comment - 2\n}', {"a": 1}),
    ],
)
def test_valid_json_with_operators_in_strings_reads_as_before(text: str, expected: Any) -> None:
    assert lenient_json.loads(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        '{"a": 2 ** 10}',  # a power is never folded
        '{"a": 10 - x}',  # a name is no number
        '{"a": abs(-3) + 1}',  # nor a call
        '{"a": 1 / 0}',  # no finite value
        '{"a": (1 + 2}',  # an unbalanced parenthesis
        '{"a": 2024-05-01}',  # no blanks around the operator: a word, not a sum
        '{"a": 3/4}',
        "1 + 2",  # a whole text of arithmetic is no JSON value
    ],
)
def test_arithmetic_outside_the_rule_is_still_not_json(text: str) -> None:
    with pytest.raises(lenient_json.LenientJSONError):
        lenient_json.loads(text)


@pytest.mark.parametrize(
    "text",
    [
        "The total is 1600 - (250 + 250) = 1100 dollars.",
        'In JSON you cannot write {"x": 10 - 5}; compute the value first.',
        '{"name": "subtract", "arguments": {"a": 10 - 5}}',  # a tool that was not offered
        'Use `{"amount": 12 * 3}` as the shape.',
    ],
)
def test_prose_about_arithmetic_stays_text(text: str) -> None:
    result = parse_everywhere(text, TOOLS, seeds=5)
    assert (result["calls"], result["text"]) == ([], text)


UNOPENED = [
    (
        '```json\n{\n  "function_call": {\n    "name": "search",\n    "arguments": {\n    "query": "Redi",\n'
        '    maxDists": "0.1"\n  }\n}\n```',
        ("search", {"query": "Redi", "maxDists": "0.1"}),
    ),
    ('{"name": "search", "arguments": {maxDists"  : "2", "query": "x"}}', ("search", {"maxDists": "2", "query": "x"})),
    (
        '{"name": "search", "arguments": {"query": "a", max-results\': "5"}}',
        ("search", {"query": "a", "max-results": "5"}),
    ),
    ('{"name": "search", arguments": {"query": "b"}}', ("search", {"query": "b"})),
]


@pytest.mark.parametrize(("text", "call"), UNOPENED)
def test_a_key_that_lost_its_opening_quote_is_read_at_every_split(text: str, call: Any) -> None:
    result = parse_everywhere(text, TOOLS, seeds=5)
    assert _calls(result) == [call]
    assert result["errors"] == []


@pytest.mark.parametrize(("text", "call"), UNOPENED[1:])
def test_a_key_that_lost_its_opening_quote_inside_a_call_tag(text: str, call: Any) -> None:
    result = parse_everywhere(f"<tool_call>{text}</tool_call>", TOOLS, seeds=5)
    assert _calls(result) == [call]
    assert result["text"] == ""


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('{"say": "he said: \\"hi\\"", "k": 1}', {"say": 'he said: "hi"', "k": 1}),
        ('{"it\'s": 1, \'b\': "c: d"}', {"it's": 1, "b": "c: d"}),
        ('{"a": "x", "b\\"": 2}', {"a": "x", 'b"': 2}),
    ],
)
def test_keys_with_quotes_in_valid_json_read_as_before(text: str, expected: Any) -> None:
    assert lenient_json.loads(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        'Set maxDists": "0.1" in the request.',
        '{"name": "lookup", "arguments": {maxDists": "0.1"}}',  # no offered tool
        '{"name": "search", "arguments": {max dists": "0.1"}}',  # no word key
    ],
)
def test_prose_and_no_call_with_an_unopened_key_stay_text(text: str) -> None:
    result = parse_everywhere(text, TOOLS, seeds=5)
    assert (result["calls"], result["text"]) == ([], text)


EMBEDDED = [
    (
        '{"tool_calls":[{"id":"call_1","type":"function","function":{"name":"search","arguments":"{"query":"SF"}"}}]}',
        ("search", {"query": "SF"}),
    ),
    (
        '{"name": "search", "arguments": "{ "query": "a b", "maxDists": "2" }"}',
        ("search", {"query": "a b", "maxDists": "2"}),
    ),
    (
        '{"name": "pay", "arguments": "{"methods": [{"id": "c1"}], "amount": 3}" }',
        ("pay", {"methods": [{"id": "c1"}], "amount": 3}),
    ),
    ('{"name": "search", "arguments": "{"query": "SF"}}', ("search", {"query": "SF"})),  # its closing quote left out
]


@pytest.mark.parametrize(("text", "call"), EMBEDDED)
def test_arguments_written_as_a_string_with_unescaped_quotes_are_read_at_every_split(text: str, call: Any) -> None:
    result = parse_everywhere(text, TOOLS, seeds=5)
    assert _calls(result) == [call]
    assert (result["text"], result["errors"]) == ("", [])


@pytest.mark.parametrize(("text", "call"), EMBEDDED)
def test_arguments_written_as_a_string_with_unescaped_quotes_inside_a_call_tag(text: str, call: Any) -> None:
    result = parse_everywhere(f"<tool_call>\n{text}\n</tool_call>", TOOLS, seeds=5)
    assert _calls(result) == [call]
    assert result["text"] == ""


def test_arguments_as_a_string_with_escaped_quotes_read_as_before() -> None:
    text = '{"name": "search", "arguments": "{\\"query\\": \\"SF\\"}"}'
    assert lenient_json.loads(text) == {"name": "search", "arguments": '{"query": "SF"}'}
    assert _calls(parse_everywhere(text, TOOLS, seeds=5)) == [("search", {"query": "SF"})]


@pytest.mark.parametrize(
    "text",
    [
        'He typed "{"query": "SF"}" into the box.',
        '{"name": "lookup", "arguments": "{"query": "SF"}"}',  # no offered tool
        'Write "{"query": "SF"}" as the arguments of "search".',
    ],
)
def test_an_unescaped_object_string_that_is_no_call_stays_text(text: str) -> None:
    result = parse_everywhere(text, TOOLS, seeds=5)
    assert (result["calls"], result["text"]) == ([], text)


def test_the_grammar_and_the_scanner_share_one_arithmetic_pattern() -> None:
    grammar = (Path(lenient_json.__file__).parents[2] / "grammars" / "lenient_json.lark").read_text(encoding="utf-8")
    found = re.search(r"^ARITHMETIC\.3: /(.*)/$", grammar, re.MULTILINE)
    assert found is not None
    assert found.group(1) == SCANNED.pattern.replace("/", "\\/")


@pytest.mark.parametrize("key", ['}</"', '}"', '"}', '}</\\"'])
def test_a_key_of_a_brace_and_an_escaped_quote_round_trips_in_a_call_tag(key: str) -> None:
    # The round-trip property test's find: `{"}</\"": null}` was read as an object of quotes alone (empty).
    body = json.dumps({"name": "search", "arguments": {key: None}})
    result = parse_everywhere(f"<function_call>{body}</function_call>", TOOLS, seeds=5)
    assert _calls(result) == [("search", {key: None})]
