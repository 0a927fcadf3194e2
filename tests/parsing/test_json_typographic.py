"""Strings and keys in typographic quotes (``{“command”: “ls”}``: MiniMax-M2.7 as a chat UI shows it): the streaming
scanner (`shim.parsing.json_scan`) and the grammar (`lenient_json.loads`) read them alike at every split point, only
where they are asked to (a tagged call block, a call's header), and a typographic quote inside a straight-quoted string
stays a character."""

from __future__ import annotations

import json
from typing import Any

import pytest

from shim.parsing.json_scan import Status
from shim.parsing.lenient_json import LenientJSONError
from tests.parsing.json_cases import grammar, scan, splits

READ = [
    ("{\u201ccommand\u201d: \u201cls -la\u201d}", {"command": "ls -la"}),
    (
        "{\u201ccommand\u201d: \u201cnvidia-smi || echo \u2018no gpu\u2019\u201d}",
        {"command": "nvidia-smi || echo \u2018no gpu\u2019"},
    ),
    ('{\u201cq\u201d: \u201csay "hi" \\n now\u201d, \u201cn\u201d: 2}', {"q": 'say "hi" \n now', "n": 2}),
    ("{\u201dpath\u201d: \u201d/tmp/a b\u201d}", {"path": "/tmp/a b"}),  # closing quotes both sides
    (
        "{\u201ca\u201d: [\u201cx\u201d, {\u201cb\u201d: \u201cy\u201d}], \u201cc\u201d: true}",
        {"a": ["x", {"b": "y"}], "c": True},
    ),
    (
        "{\u2018city\u2019: \u2018Paris\u2019, \u2018note\u2019: \u2018it\u2019s here\u2019}",
        {"city": "Paris", "note": "it\u2019s here"},
    ),
    ("{\u201cname\u201d: \u201cget_weather\u201d, \u201carguments\u201d: {\u201ccity\u201d: \u201cRome\u201d}}", None),
    ('{"mixed": \u201cvalue\u201d, \u201ckey\u201d: "v"}', {"mixed": "value", "key": "v"}),
    ("{\u201c\u65e5\u672c\u201d: \u201c\u6771\u4eac\u201d}", {"\u65e5\u672c": "\u6771\u4eac"}),
]
"""Texts a tagged block reads, and their value (None: the call object itself, checked for agreement only)."""

KEPT = [
    # inside a straight-quoted string a typographic quote is a character, whatever the mode
    ('{"text": "he said \u201chi\u201d and \u2018bye\u2019"}', {"text": "he said \u201chi\u201d and \u2018bye\u2019"}),
    ("{'text': 'a \u201cb\u201d'}", {"text": "a \u201cb\u201d"}),
]

ERRORS = [
    "{\u201ccommand\u201d: \u201cls}",  # never closed
    "{\u201ca\u201d: \u201cx\u201d + \u201cy\u201d}",  # no `+` joins them
    "{\u2018a\u2019: \u2018it\u2019s}",  # the apostrophe closes nothing
]


@pytest.mark.parametrize(("text", "value"), READ)
def test_typographic_strings_stream_as_the_grammar_reads_them_at_every_split(text: str, value: Any) -> None:
    expected = grammar(text, bare_words=True)
    assert expected is not LenientJSONError
    if value is not None:
        assert expected == value
    for chunks in splits(text):
        status, streamed = scan(chunks, bare_words=True)
        assert status is Status.DONE, chunks
        if value is not None:
            assert json.loads(streamed) == expected, chunks


@pytest.mark.parametrize("text", [text for text, _ in READ if '"' not in text])  # only typographic strings
def test_typographic_strings_are_no_json_where_they_are_not_asked_for(text: str) -> None:
    assert grammar(text, bare_words=False) is LenientJSONError
    assert scan([text], bare_words=False)[0] is not Status.DONE


@pytest.mark.parametrize(("text", "value"), KEPT)
@pytest.mark.parametrize("typographic", [True, False])
def test_a_typographic_quote_inside_a_straight_quoted_string_is_its_character(
    text: str, value: Any, typographic: bool
) -> None:
    assert grammar(text, bare_words=typographic) == value
    for chunks in splits(text):
        status, streamed = scan(chunks, bare_words=typographic)
        assert status is Status.DONE, chunks
        assert json.loads(streamed) == value, chunks


@pytest.mark.parametrize("text", ERRORS)
def test_a_damaged_typographic_string_is_an_error_in_both(text: str) -> None:
    assert grammar(text, bare_words=True) is LenientJSONError
    for chunks in splits(text):
        assert scan(chunks, bare_words=True)[0] is not Status.DONE, chunks
