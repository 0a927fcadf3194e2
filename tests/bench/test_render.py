"""shim.bench.render: each JsonStyle switch writes exactly its defect."""

from __future__ import annotations

import json

import pytest

from shim.bench.render import JsonStyle, dumps

DATA = {"name": "x", "arguments": {"ok": True, "none": None, "text": "a\nb", "list": [1, 2.5], "empty": {}}}


def test_default_style_is_strict_json() -> None:
    assert json.loads(dumps(DATA)) == DATA


def test_single_quotes_write_python_strings_and_escape_their_own_quote() -> None:
    out = dumps({"q": 'it\'s "x"'}, JsonStyle(quote="'"))
    assert out == "{'q': 'it\\'s \"x\"'}"


def test_python_literals_write_true_and_none() -> None:
    out = dumps(DATA, JsonStyle(python_literals=True))
    assert "True" in out and "None" in out and "true" not in out and "null" not in out


def test_unquoted_keys_write_identifiers_bare() -> None:
    assert dumps({"city": "Paris"}, JsonStyle(unquoted_keys=True)) == '{city: "Paris"}'


def test_unquoted_keys_refuse_a_key_that_is_not_an_identifier() -> None:
    with pytest.raises(ValueError, match="unquoted"):
        dumps({"two words": 1}, JsonStyle(unquoted_keys=True))


def test_trailing_commas_follow_the_last_member_of_non_empty_containers() -> None:
    assert dumps({"a": [1], "b": {}}, JsonStyle(trailing_commas=True)) == '{"a": [1,], "b": {},}'


def test_raw_newlines_break_the_line_but_keep_an_escaped_backslash_n() -> None:
    out = dumps({"t": "a\nb\\nc"}, JsonStyle(raw_newlines=True))
    assert out == '{"t": "a\nb\\\\nc"}'


def test_ensure_ascii_escapes_non_ascii() -> None:
    assert dumps({"c": "Zürich"}, JsonStyle(ensure_ascii=True)) == '{"c": "Z\\u00fcrich"}'


def test_indent_pretty_prints_and_still_parses() -> None:
    out = dumps(DATA, JsonStyle(indent=2))
    assert out.count("\n") > 5 and json.loads(out) == DATA
