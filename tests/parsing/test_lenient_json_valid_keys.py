"""Valid JSON reads as ``json.loads`` reads it and a valid Python literal as ``ast.literal_eval`` reads it, whatever
printable characters its keys hold: a key's character that a damaged key ends in (the other quote before a colon,
``>`` ``(`` ``=`` before a brace) is the key's own where the key goes on to its quote and a colon (``{"a':": 1}``,
``{'A({': None}``), read so by the grammar (`lenient_json`) and by the streaming scanner (`json_scan`) at any split;
the damaged keys themselves (``{"data': 1}``, ``{"parameters>{…}}``) read as before."""

from __future__ import annotations

import ast
import itertools
import json
from typing import Any, cast

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shim.parsing import lenient_json
from shim.parsing.json_scan import Status
from tests.parsing.test_json_scan import grammar, scan, splits

PRINTABLE = st.characters(codec="utf-8").filter(str.isprintable)
KEYS = st.text(st.one_of(PRINTABLE, st.sampled_from(list("\"'\\:{[(>=,}] \t\n"))), max_size=10)
"""Keys of any printable character, the damaged keys' characters drawn often."""
WORDS = st.from_regex(r"[A-Za-z_$][A-Za-z0-9_$\-]{0,6}", fullmatch=True)


def _damaged_looking(word: str, end: str, rest: str) -> str:
    return word + end + rest


DAMAGED_LOOKING: st.SearchStrategy[str] = st.builds(
    _damaged_looking, WORDS, st.sampled_from(["'", '"', ">", "(", "=", "':", ">{", "({"]), KEYS
)
"""A word, then what ends a damaged key, then anything: the keys these rules could take for damaged ones."""
SCALARS = st.none() | st.booleans() | st.integers(-(10**6), 10**6) | st.text(PRINTABLE, max_size=8)


def values(keys: st.SearchStrategy[str]) -> st.SearchStrategy[Any]:
    return st.recursive(
        SCALARS,
        lambda inner: st.lists(inner, max_size=3) | st.dictionaries(keys, inner, max_size=3),
        max_leaves=8,
    )


ANY_KEY: st.SearchStrategy[str] = st.one_of(KEYS, DAMAGED_LOOKING)
OBJECTS: st.SearchStrategy[dict[str, Any]] = st.dictionaries(ANY_KEY, values(ANY_KEY), min_size=1, max_size=4)


def _chunks(text: str, cuts: list[int]) -> list[str]:
    bounds = sorted({0, len(text), *(cut % (len(text) + 1) for cut in cuts)})
    return [text[a:b] for a, b in itertools.pairwise(bounds)]


def _streamed(text: str, cuts: list[int]) -> Any:
    status, streamed = scan(_chunks(text, cuts), bare_words=False)
    assert status is Status.DONE
    return json.loads(streamed)


def python_style(value: Any) -> str:
    """Single quotes always (the other quote raw, only the quote and backslash escaped), True/None, trailing commas."""
    if isinstance(value, dict):
        items = cast("dict[str, Any]", value).items()
        return "{" + "".join(f"{python_style(k)}: {python_style(v)}, " for k, v in items) + "}"
    if isinstance(value, list):
        return "[" + "".join(f"{python_style(v)}, " for v in cast("list[Any]", value)) + "]"
    if isinstance(value, str):
        return "'" + value.replace("\\", "\\\\").replace("'", "\\'").replace("\n", "\\n") + "'"
    return repr(value)


@settings(deadline=None)
@given(OBJECTS, st.sampled_from([None, 0, 2]), st.booleans(), st.lists(st.integers(0, 10**6), max_size=4))
def test_valid_json_with_any_keys_reads_as_json_loads_reads_it(
    value: dict[str, Any], indent: int | None, ascii_only: bool, cuts: list[int]
) -> None:
    text = json.dumps(value, indent=indent, ensure_ascii=ascii_only)
    assert lenient_json.loads(f"```json\n{text}\n```") == value  # the fence keeps `json.loads` from reading it first
    assert _streamed(text, cuts) == value


@settings(deadline=None)
@given(OBJECTS, st.booleans(), st.lists(st.integers(0, 10**6), max_size=4))
def test_a_valid_python_literal_with_any_keys_reads_as_python_reads_it(
    value: dict[str, Any], python_quotes: bool, cuts: list[int]
) -> None:
    text = repr(value) if python_quotes else python_style(value)
    assert ast.literal_eval(text) == value
    assert lenient_json.loads(text) == value
    assert _streamed(text, cuts) == value


FOUND = [
    # what the property runs found: each a valid key read as a damaged one
    ("{'A({': None}", {"A({": None}),
    ('{"a\':": 1}', {"a':": 1}),
    # more of the same
    ('{"a>{": [1], "b": "c"}', {"a>{": [1], "b": "c"}),
    ("{'x=[': 'y', 'k': 'v'}", {"x=[": "y", "k": "v"}),
    ('{"city\': x": "Paris"}', {"city': x": "Paris"}),
    ("{'data\": 1, \"b': 2}", {'data": 1, "b': 2}),
    ('{"f(  {\\"": 1}', {'f(  {"': 1}),
    ('{"q": {"w\'\n: ": 1}}', {"q": {"w'\n: ": 1}}),
]


@pytest.mark.parametrize(("text", "expected"), FOUND)
def test_a_valid_key_holding_what_ends_a_damaged_key_reads_whole_at_every_split(text: str, expected: Any) -> None:
    assert grammar(f"```json\n{text}\n```", bare_words=False) == expected
    for chunks in splits(text):
        status, streamed = scan(chunks, bare_words=False)
        assert status is Status.DONE, chunks
        assert json.loads(streamed) == expected, chunks


STILL_DAMAGED = [
    ("""{"parameters':{'city':'Paris'}}""", {"parameters": {"city": "Paris"}}),
    ("""{'data": 1, "b": 2}""", {"data": 1, "b": 2}),
    ("""{"a': "x", "b': "y"}""", {"a": "x", "b": "y"}),
    ("""{"parameters>{"city":"Paris"}}""", {"parameters": {"city": "Paris"}}),
    ("""{"arguments=[{"q": "a"}], "n": 1}""", {"arguments": [{"q": "a"}], "n": 1}),
    ("""{'params({'q': 'x'}}""", {"params": {"q": "x"}}),
    # the key's rest closes with its quote but no colon follows: still the damaged key
    ("""{"data': "x", "y": 1}""", {"data": "x", "y": 1}),
]


@pytest.mark.parametrize(("text", "expected"), STILL_DAMAGED)
def test_a_damaged_key_reads_as_before_at_every_split(text: str, expected: Any) -> None:
    assert grammar(text, bare_words=False) == expected
    for chunks in splits(text):
        status, streamed = scan(chunks, bare_words=False)
        assert status is Status.DONE, chunks
        assert json.loads(streamed) == expected, chunks
