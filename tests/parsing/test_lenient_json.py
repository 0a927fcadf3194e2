"""The lenient JSON loader: every leniency in the grammar's header, and the errors it refuses with."""

from __future__ import annotations

import pytest

from shim.parsing.lenient_json import MAX_DEPTH, LenientJSONError, loads, value_at
from shim.resources import data_dir

LENIENT = [
    ("single quotes", "{'a': 'b'}", {"a": "b"}),
    ("escaped single quote", r"{'a': 'it\'s'}", {"a": "it's"}),
    ("double quote inside single quotes", """{'a': 'say "hi"'}""", {"a": 'say "hi"'}),
    ("raw newline and tab in a string", '{"a": "x\ny\tz"}', {"a": "x\ny\tz"}),
    ("unknown escape keeps its backslash", r'{"re": "\d+\s"}', {"re": r"\d+\s"}),
    ("unknown punctuation escape is the character", r'{"c": "a\$b \`x\` \#1"}', {"c": "a$b `x` #1"}),
    ("a Windows path keeps its backslashes", r'{"p": "C:\Users\me"}', {"p": r"C:\Users\me"}),
    ("trailing commas", '{"a": [1, 2,], "b": 3,}', {"a": [1, 2], "b": 3}),
    ("Python literals", "{'t': True, 'f': False, 'n': None}", {"t": True, "f": False, "n": None}),
    (
        "unquoted keys",
        "{city: 'Paris', max_days: 3, $ref: 1, dash-key: 2}",
        {"city": "Paris", "max_days": 3, "$ref": 1, "dash-key": 2},
    ),
    (
        "line, hash and block comments",
        '{"a": 1, // one\n "b": 2, # two\n /* three */ "c": 3}',
        {"a": 1, "b": 2, "c": 3},
    ),
    ("lenient numbers", "{'a': +1, 'b': .5, 'c': 1., 'd': -2.5e3}", {"a": 1, "b": 0.5, "c": 1.0, "d": -2500.0}),
    ("a leading json word", 'json {"a": 1}', {"a": 1}),
    ("a code fence around the value", '```json\n{"a": 1}\n```', {"a": 1}),
    ("missing closing brackets", '{"a": {"b": [1, 2', {"a": {"b": [1, 2]}}),
    ("a stray extra closing bracket", '{"a": 1}}', {"a": 1}),
    ("a list closed over an object", "[{'n': 'f', 'a': {'c': 'P'}]", [{"n": "f", "a": {"c": "P"}}]),
    ("an object closed over a list", '{"a": [1, 2}', {"a": [1, 2]}),
    ("a closer over two brackets", '[{"a": {"b": [1]]', [{"a": {"b": [1]}}]),
    ("a mismatched bracket inside a string", '{"a": "[x}"}', {"a": "[x}"}),
    ("surrogate pair escapes", r'{"e": "\ud83d\ude00"}', {"e": "😀"}),
    (
        "a comma left out at the end of a line",
        '{\n\t"id": "x"\n\t"function": "f",\n\t"parameters": {"a": 1}\n}',
        {"id": "x", "function": "f", "parameters": {"a": 1}},
    ),
    (
        "commas left out after every kind of value",
        '{"a": 1\n"b": true\r\n"c": [1]\n\n"d": null\n"e": {"f": "g"\n  "h": 2}\n"i": false}',
        {"a": 1, "b": True, "c": [1], "d": None, "e": {"f": "g", "h": 2}, "i": False},
    ),
    (
        "a comma left out between members on one line",  # gptme's tests (json_repair reads it so)
        '{"missing": "comma" "key": "value", "n": 1 "ok": true \t"l": [1] "o": {}}',
        {"missing": "comma", "key": "value", "n": 1, "ok": True, "l": [1], "o": {}},
    ),
]


@pytest.mark.parametrize(("text", "expected"), [(t, e) for _, t, e in LENIENT], ids=[n for n, _, _ in LENIENT])
def test_lenient_json_is_read(text: str, expected: object) -> None:
    assert loads(text) == expected


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"a": "unterminated', "unclosed"),
        ('{"a": ', "cut off"),
        ('{"a" 1}', "unexpected"),
        ("{'a': undefined}", "unquoted text 'undefined'"),
        ("hello world", "unexpected"),
        ('[{"a": ]', "unexpected"),
        ('{"a": 1"b": 2}', "unexpected"),
        ('{"a": "x"\n"b"}', "unexpected"),
        ('{"a": [1\n2]}', "unexpected"),
    ],
    ids=[
        "a string cut mid-value",
        "a value missing after a colon",
        "a missing colon",
        "an unquoted word as a value",
        "prose",
        "a closer over an object whose value is missing",
        "a comma left out between members with no gap",
        "a string after a line break that is no key",
        "a comma left out between list items",
    ],
)
def test_text_that_is_not_json_is_refused_with_a_position(text: str, message: str) -> None:
    with pytest.raises(LenientJSONError, match=message):
        loads(text)


def test_strict_json_takes_the_fast_path_unchanged() -> None:
    assert loads('{"a": [1, 2.5, "x", null, true]}') == {"a": [1, 2.5, "x", None, True]}


def test_the_grammar_header_lists_every_leniency() -> None:
    header = (data_dir("grammars") / "lenient_json.lark").read_text().split("?start")[0]
    for word in (
        "single-quoted",
        "raw newlines",
        "trailing commas",
        "True / False / None",
        "unquoted keys",
        "comments",
        "`json` word",
        "code fence",
        "a closer that skips open brackets",
        "stray extra closing brackets",
        "missing closing brackets",
        "a comma left out at the end of a line",
        "joined by `+`",
        "bare words",
    ):
        assert word in header


VALUES_AT = [
    (
        "a nested object, trailing prose left alone",
        '{"a": {"b": [1, {"c": 2}]}} and more',
        0,
        {"a": {"b": [1, {"c": 2}]}},
        27,
    ),
    ("braces inside strings do not end the value", '{"a": "}{", "b": \'][\'} x', 0, {"a": "}{", "b": "]["}, 22),
    ("leading whitespace is skipped", '  \n {"a": 1}', 0, {"a": 1}, 12),
    ("a value in the middle of prose", "Answer: [1, 2,] done", 8, [1, 2], 15),
    ("only the first of two values", "[1] [2]", 0, [1], 3),
    ("a string value", '"s}" rest', 0, "s}", 4),
    ("a lenient object (as a template prints a dict)", "x={'a': True, b: None}!", 2, {"a": True, "b": None}, 22),
    ("a comment inside the value", '{"a": 1 /* note */}', 0, {"a": 1}, 19),
]


@pytest.mark.parametrize(
    ("text", "start", "expected", "end"), [case[1:] for case in VALUES_AT], ids=[case[0] for case in VALUES_AT]
)
def test_the_value_at_a_position_is_read_with_the_index_just_past_it(
    text: str, start: int, expected: object, end: int
) -> None:
    assert value_at(text, start) == (expected, end)


@pytest.mark.parametrize(
    ("text", "start"),
    [
        ('{"a": 1', 0),  # truncated: closers are not added, the value must end in the text
        ('{"a": "open', 0),  # truncated inside a string
        ('{"a": tru', 0),  # truncated inside a literal
        ("hello", 0),  # not JSON
        ('x {"a": 1}', 0),  # the value starts later, not here
        ("{'a' 1}", 0),  # a missing colon
        ("", 0),
        ("   ", 0),
        ("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1), 0),  # strict but nested too deep
    ],
)
def test_no_value_at_a_position_where_no_complete_json_value_starts(text: str, start: int) -> None:
    assert value_at(text, start) is None


def test_the_value_at_a_position_is_what_loads_reads_from_its_extent() -> None:
    text = "Here: {'city': 'Paris', days: [1, 2,], // why\n 'ok': True} -- end"
    found = value_at(text, text.index("{"))
    assert found is not None
    value, end = found
    assert text[end:] == " -- end"
    assert value == loads(text[text.index("{") : end])


BARE_WORDS = [
    ("an unquoted string value", '{"city": Seoul}', {"city": "Seoul"}),
    ("an unquoted key and path", "{path: /home/me/notes.txt}", {"path": "/home/me/notes.txt"}),
    ("an unquoted name", '{"name": get_weather, "arguments": {}}', {"name": "get_weather", "arguments": {}}),
    (
        "words with blanks, blanks at the end left out",
        '{"q": Viale Francesco Redi  , "n": 2}',
        {"q": "Viale Francesco Redi", "n": 2},
    ),
    ("a url, its // no comment", "{url: https://example.com/a}", {"url": "https://example.com/a"}),
    ("a word on each line, commas left out", '{"a": Rome\n "b": Paris\n}', {"a": "Rome", "b": "Paris"}),
    ("in a list", "[Seoul, Tokyo, 3]", ["Seoul", "Tokyo", 3]),
    (
        "a word that only begins like a number or literal",
        "{a: nullable, b: 1.5.3, c: 5abc, d: 1_000}",
        {"a": "nullable", "b": "1.5.3", "c": "5abc", "d": "1_000"},
    ),
]


@pytest.mark.parametrize(("text", "expected"), [(t, e) for _, t, e in BARE_WORDS], ids=[n for n, _, _ in BARE_WORDS])
def test_bare_words_are_strings_only_when_asked_for(text: str, expected: object) -> None:
    assert loads(text, bare_words=True) == expected
    with pytest.raises(LenientJSONError, match="unquoted text"):
        loads(text)


def test_literals_and_numbers_stay_themselves_where_bare_words_are_read() -> None:
    text = "{a: true, b: None, c: -2.5, d: .5, e: 1e3}"
    assert loads(text, bare_words=True) == loads(text) == {"a": True, "b": None, "c": -2.5, "d": 0.5, "e": 1000.0}


@pytest.mark.parametrize(
    "text",
    [
        '{"first": get_current_date (), "last": 1}',  # a call expression is no word
        '{"last": birthdate ({user: "Oliver"})}',
        "{a: Seoul's tower}",  # a quote inside a word
        '{"a": 5 people}',  # a number, then words: not one value
        "{a: `ls`}",
        "{a: <city>}",  # a template's stand-in
    ],
)
def test_text_that_is_no_bare_word_is_refused_even_when_they_are_asked_for(text: str) -> None:
    with pytest.raises(LenientJSONError):
        loads(text, bare_words=True)


def test_a_whole_text_of_words_is_never_a_bare_word() -> None:
    with pytest.raises(LenientJSONError):
        loads("hello world", bare_words=True)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('{"c": "abc\\n" +\n"def"}', {"c": "abc\ndef"}),
        ("{'c': 'a' + \"b\" + 'c'}", {"c": "abc"}),
        ('["x" /* one */ + "y", "z"]', ["xy", "z"]),
        ('{"c": "a" + "b"\n "d": 1}', {"c": "ab", "d": 1}),
    ],
    ids=["over lines", "three literals, both quotes", "a comment between", "a comma left out after"],
)
def test_string_literals_joined_by_plus_are_one_string(text: str, expected: object) -> None:
    assert loads(text) == expected


@pytest.mark.parametrize("text", ['{"c": "a" +}', '{"c": "a" + 1}', '{"c": "a" + b}', '{"c": 1 + "a"}'])
def test_a_join_of_anything_but_string_literals_is_refused(text: str) -> None:
    with pytest.raises(LenientJSONError):
        loads(text, bare_words=True)
