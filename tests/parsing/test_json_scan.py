"""The streaming JSON scanner (`shim.parsing.json_scan`) agrees with the grammar (`lenient_json.loads`) on bare words
and joined strings: at every split point it accepts what the grammar accepts, and its argument chunks decode to the
grammar's value."""

from __future__ import annotations

import json

import pytest

from shim.parsing.json_scan import JsonScanner, Status
from shim.parsing.lenient_json import LenientJSONError
from tests.parsing.json_cases import grammar, scan, splits

AGREED = [
    '{"city": Seoul}',
    "{path: /home/me}",
    '{"q": Viale Francesco Redi  , "n": 2}',
    '{"a": Rome\n "b": Paris}',
    "{url: https://example.com/a, b: [x, y]}",
    "{a: nullable, b: 1.5.3, c: true, d: -2, e: 1_000}",
    '{"content": "abc\\n" +\n"def\\n" + \'g\'}',
    '{"a": ["x" + "y", "z"], "b": "p" /* c */ + "q"}',
    '{"a": "x" + "y"\n "b": 1}',
    '{"first": get_current_date (), "last": 1}',
    '{"a": 5 people}',
    '{"a": "x" + 1}',
    "{a: Seoul",  # closers added at the end
    # arithmetic on number literals as a value (`ARITHMETIC`)
    '{"amount": 1600 - (250 + 250 + 198 + 129), "n": 0}',
    '{"x": 10 - 5, "y": 15 - 7}',
    '{"l": [2.5 * 4, -(1 + 2) / 2 , 3]}',
    '{"a": {"b": [1 + 1]}, "r": 4.0 * 3.14159e-04}',
    '{"a": 1 / 0}',  # no finite value: an error
    '{"a": 1 ** 2}',  # `**` is never folded
    '{"a": 2024-05-01, "b": 3/4}',  # no blanks around the operators: a word (or no value)
    '{"a": 10 - 5 apples}',
    '{"a": 10 - x}',
    '{"a": (10 - 5}',
    '{"a": "1 - 2", "a-b": "(3)", "c": "x // y"}',  # valid JSON reads as before
    # a word key whose opening quote was left out (`_UNOPENED_KEY`)
    '{"search": "Redi",\n maxDists": "0.1",\n "n": 1}',
    "{maxDists'  : [1, 2]}",
    '{"a": 1, b-c": {"d": 2}}',
    '{"a": 1, b.c": 2}',  # no word key: an error
    '{"a": 1, b": }',
    # a key holding `}` and an escaped quote is a key, never an object of quotes alone (`_QUOTES_ONLY`)
    '{"}</\\"": null}',
    '{"}\\"": 1, "b": {"\\"}": 2}}',
    # an object written as a string, its inner quotes unescaped (`_EMBEDDED`)
    '{"function": {"name": "f", "arguments": "{"city":"SF"}"}}',
    '{"a": "{ "b": [1, {"c": 2}]} " , "d": "{"}',
    '{"l": ["{"b": 1}", "x"]}',
    '{"a": "{"b": 1}, "c": 2}',  # the closing quote left out
    '{"a": "{"b": 1}"x"}',
    '{"a": "{" "b": 1}',  # a valid string `"{"` and a comma left out: as before
    '{"a": "{\\"b\\": 1}", "c": "{\\"d\\"}"}',  # escaped inner quotes: the string as before
]


@pytest.mark.parametrize("text", AGREED)
@pytest.mark.parametrize("bare_words", [True, False], ids=["bare words", "strict words"])
def test_the_scanner_streams_what_the_grammar_reads_at_every_split(text: str, bare_words: bool) -> None:
    expected = grammar(text, bare_words=bare_words)
    for chunks in splits(text):
        status, streamed = scan(chunks, bare_words=bare_words)
        if expected is LenientJSONError:
            assert status is not Status.DONE, chunks
        else:
            assert status is Status.DONE, chunks
            assert json.loads(streamed) == expected, chunks


def test_a_bare_name_is_read_where_only_names_may_be_bare() -> None:
    scanner = JsonScanner(stop_chars="", capture=False, bare_names=True)
    assert scanner.feed('[{"name": get_weather, "arguments": {"city": "Rome"}}]', 0, final=True)[1] is Status.DONE
    scanner = JsonScanner(stop_chars="", capture=False, bare_names=True)
    assert scanner.feed('{"name": "get_weather", "arguments": {"city": Rome}}', 0, final=True)[1] is Status.ERROR
