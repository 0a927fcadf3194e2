"""A string value whose inner quotes lost their escapes, as small models write shell commands, code, SQL and HTML
into JSON (mini-codex's deepseek-r1 ``{"tool": "shell", "cmd": "egrep '(?<=<h1 class="x">)' f"}``, Continue's diff
string holding ``new Error("…")``): a quote inside a string value that nothing valid can follow there (after blanks:
no closer, comma and key, ``+`` and literal, comment, tag or end; `json_scan.closing_quote`) is the string's own.
The grammar (`lenient_json`) and the streaming scanner (`json_scan`) read each the same way at every split point;
every valid JSON text reads as ``json.loads`` reads it, and a string left open at the end is still an error."""

from __future__ import annotations

import itertools
import json
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shim import StreamParser
from shim.events import ToolCallStart
from shim.parsing import lenient_json
from shim.parsing.json_scan import Status, closing_quote
from tests.parsing.chunking import parse_everywhere
from tests.parsing.readers.cases import tool
from tests.parsing.test_json_scan import grammar, scan, splits

TOOLS = [
    tool("shell", cmd="string", cwd="string", args="array"),
    tool("run_python", code="string"),
    tool("query", sql="string"),
    tool("write_file", path="string", content="string"),
]


def _calls(result: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    return [(c["name"], c["arguments"]) for c in result["calls"]]


CALLS: list[tuple[str, tuple[str, dict[str, Any]]]] = [
    (  # a shell command's HTML pattern, the value last
        '{"name": "shell", "arguments": {"cwd": "/srv", "cmd": "grep -o \'<h1.*class="title">.*</h1>\' index.html"}}',
        ("shell", {"cwd": "/srv", "cmd": "grep -o '<h1.*class=\"title\">.*</h1>' index.html"}),
    ),
    (  # a quote right before the real closing quote, the value first
        '{"name": "shell", "arguments": {"cmd": "echo "done"", "cwd": "/tmp"}}',
        ("shell", {"cmd": 'echo "done"', "cwd": "/tmp"}),
    ),
    (  # nested quotes of both kinds
        '{"name": "shell", "arguments": {"cmd": "bash -c "echo \'a "b" c\'""}}',
        ("shell", {"cmd": 'bash -c "echo \'a "b" c\'"'}),
    ),
    (  # HTML attributes, a self-closing tag
        '{"name": "write_file", "arguments": {"path": "a.html", "content": "<div class="box" id="m"><img src="x.png"/></div>"}}',
        ("write_file", {"path": "a.html", "content": '<div class="box" id="m"><img src="x.png"/></div>'}),
    ),
    (  # Python code: a comma and a string that is no key, raw line breaks
        '{"name": "run_python", "arguments": {"code": "x = "a"\nprint(x, "b")\n"}}',
        ("run_python", {"code": 'x = "a"\nprint(x, "b")\n'}),
    ),
    (  # SQL with quoted identifiers
        '{"name": "query", "arguments": {"sql": "SELECT "id", "name" FROM "users" WHERE x = \'a\'"}}',
        ("query", {"sql": 'SELECT "id", "name" FROM "users" WHERE x = \'a\''}),
    ),
    (  # single quotes: an apostrophe inside
        "{'name': 'shell', 'arguments': {'cmd': 'echo 'don't' here'}}",
        ("shell", {"cmd": "echo 'don't' here"}),
    ),
    (  # a list item
        '{"name": "shell", "arguments": {"cmd": "ls", "args": ["-l", "my "odd" dir"]}}',
        ("shell", {"cmd": "ls", "args": ["-l", 'my "odd" dir']}),
    ),
    (  # mini-codex's flat call, the tool beside its arguments
        '{"tool": "shell", "cmd": "ls "my dir"; egrep \'(?<=<b class="x">)\' f.html"}',
        ("shell", {"cmd": 'ls "my dir"; egrep \'(?<=<b class="x">)\' f.html'}),
    ),
]


@pytest.mark.parametrize(("text", "call"), CALLS)
@pytest.mark.parametrize("wrap", ["{}", "<tool_call>\n{}\n</tool_call>", "```json\n{}\n```"])
def test_a_quote_nothing_valid_follows_is_the_strings_own_at_every_split(text: str, call: Any, wrap: str) -> None:
    result = parse_everywhere(wrap.replace("{}", text, 1), TOOLS, seeds=5)
    assert _calls(result) == [call]
    assert (result["text"], result["errors"]) == ("", [])


@pytest.mark.parametrize(
    "text",
    [
        'He said "stop" and left, then "go" again.',
        'The JSON {"name": "lookup", "arguments": {"q": "a "b""}} names no offered tool.',
        'It wrote `{"name": "shell", "arguments": {"cmd": "echo "hi""}}` and stopped.',  # a quoted example
        'Use "shell" with "cmd" set to "ls "x"" when asked.',
    ],
)
def test_prose_with_quotes_stays_text(text: str) -> None:
    result = parse_everywhere(text, TOOLS, seeds=5)
    assert (result["calls"], result["text"]) == ([], text)


@pytest.mark.parametrize(
    "text",
    [
        '<tool_call>\n{"name": "shell", "arguments": {"cmd": "echo "hi</tool_call>',
        '<tool_call>\n{"name": "shell", "arguments": {"cmd": "echo "hi" there',
    ],
)
def test_a_string_left_open_at_the_end_is_still_an_error(text: str) -> None:
    result = parse_everywhere(text, TOOLS, seeds=5)
    assert result["calls"] == []
    assert result["errors"]


ALIKE: list[str] = [
    '{"cmd": "grep -o \'<h1.*class="firstHeading">.*</h1>\' page.html"}',
    '{"code": "print("a", "b")", "lang": "py"}',
    '{"a": "echo "hi""}',
    '{"a": "x"\n"b"}',  # two whole strings no comma joins: an error, as before
    '{"a": "x" "y", "b": "get""c": 1}',
    '{"cmd": "echo "a" "b"", "n": ["p "q" r", "s"]}',
    "{'t': 'don't'}",
    '{"l": ["a "b" c", 1, "d"e", "f"]}',
    '{"sql": "SELECT "id", "name" FROM "users" WHERE x = \'a\'"}',
    '{"html": "<div class="a" id="b"><img src="x.png"/></div>"}',
    '{"a": "say "hi", he said", "b": 2}',
    '{"a": "1"2"}',
    '{"a": "x"  ,  "b": "q"r"  }',
    '{"a": ["x "y"", "z"], "b": {"c": "d"e""}}',
    '{"name": "f", "arguments": {"q": "a "b" c"}}',
    '{"a": "x" + "y", "b": "p" /* c */ + "q"}',  # what may follow a quote reads as before
    '{"a": "x"\n "b": 1, "c": "y" // note\n}',
    '{"a": "x", \'b\': 1, c: 2, "name", "f"}',
    '{"a": "x",}',
    '{"a": ["x",]}',
    '{"a": "x"',  # closers added at the end
    '{"a": "x", ',
    '{"cmd": "echo "',
    '{"cmd": "echo "hi',  # an open string at the end: an error
    '{"a": "x"]',  # no list to close: an error
    '{"a": "x": "y"}',
    # a call's name key's value ends at its first quote, as ever (the call is announced the moment it closes)
    '{"name": "get"weather", "arguments": {}}',
    "{'tool': 'sh'ell', 'cmd': 'ls'}",
    '{"name", "f"g", "arguments": {"q": "a "b""}}',
    '{"function": {"name": "f"x", "arguments": {}}}',
    '{"name" {"a": "b "c""}}',
    '{name: "f"g", "q": "a "b""}',  # a name key without quotes is no NAME_KEY: its value's inner quotes are read
    '{"n\\u0061me": "f"g"}',  # nor a name key spelled with escapes
    '{"name\': "f"g"}',  # nor a damaged key
    '{"names": "f"g", "tools": "a"b"}',
    # keys ahead may hold raw line breaks, as lenient strings do (`{'': '', '\n': ''}`, a Python-style dict)
    "{'': '', '\n': '', }",
    '{"a": "x", "b\nc": 1}',
    '{"a": ["x", "y\n"], "b\n": "z"}',
]


@pytest.mark.parametrize("text", ALIKE)
@pytest.mark.parametrize("bare_words", [True, False], ids=["bare words", "strict words"])
def test_the_grammar_and_the_scanner_read_inner_quotes_alike_at_every_split(text: str, bare_words: bool) -> None:
    expected = grammar(text, bare_words=bare_words)
    for chunks in splits(text):
        status, streamed = scan(chunks, bare_words=bare_words)
        if expected is lenient_json.LenientJSONError:
            assert status is not Status.DONE, chunks
        else:
            assert status is Status.DONE, chunks
            assert json.loads(streamed) == expected, chunks


@pytest.mark.parametrize(
    "opener",
    [
        '<function_call>{"name": "write_file"',
        "<function_call>\n{'name': 'write_file'",
        "<tool_call>{'tool': 'write_file'",
        '<tool_call>{"function": {"name": "write_file"',
    ],
)
def test_a_streamed_call_is_announced_the_moment_its_names_quote_closes(opener: str) -> None:
    parser = StreamParser(["write_file"])
    events = parser.feed(opener)
    assert [type(e) for e in events] == [ToolCallStart]
    assert isinstance(events[0], ToolCallStart) and events[0].name == "write_file"


def test_an_open_string_at_the_end_is_an_error_and_a_closed_one_reads() -> None:
    assert lenient_json.loads('{"cmd": "echo "a" "b""}') == {"cmd": 'echo "a" "b"'}
    with pytest.raises(lenient_json.LenientJSONError, match="not valid JSON"):
        lenient_json.loads('{"cmd": "echo "hi')


def test_the_grammar_spells_the_scanners_closing_quote_patterns() -> None:
    text = (Path(lenient_json.__file__).parents[2] / "grammars" / "lenient_json.lark").read_text(encoding="utf-8")
    for name, in_list in (("_ENDS_IN_OBJECT", False), ("_ENDS_IN_LIST", True)):
        found = re.search(rf"^{name}: /(.*)/$", text, re.MULTILINE)
        assert found is not None
        assert found.group(1).replace("\\/", "/") == closing_quote(in_list=in_list)


# --- valid JSON reads exactly as `json.loads` reads it, by the grammar and by the scanner at any split -------------

QUOTY = st.text(st.sampled_from([*list("\"'\\,:}]{[ \n\t+/#<ab1"), "é", "\u2028"]), max_size=12)
KEYS = st.text(st.sampled_from([*list("\\,:}]{[ \n\t+/#<ab1_-$"), "é"]), max_size=8)
"""Keys without quotes: a key holding a word, the other quote and a colon (``{"a':": 1}``) is read as the damaged key
``"a'`` (the grammar's MIXED_KEY, an older leniency of keys); this rule is about values."""
VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**6), 10**6) | QUOTY,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(KEYS, inner, max_size=4),
    max_leaves=12,
)


@settings(deadline=None, max_examples=300)
@given(
    st.dictionaries(KEYS, VALUES, max_size=5),
    st.sampled_from([None, 0, 2]),
    st.sampled_from([(", ", ": "), (",", ":"), (" , ", " :  ")]),
    st.booleans(),
    st.lists(st.integers(0, 10**6), max_size=4),
)
def test_valid_json_reads_as_json_loads_reads_it(
    value: dict[str, Any], indent: int | None, separators: tuple[str, str], ascii_only: bool, cuts: list[int]
) -> None:
    text = json.dumps(value, indent=indent, separators=separators, ensure_ascii=ascii_only)
    assert lenient_json.loads(f"```json\n{text}\n```") == value  # the fence keeps `json.loads` from reading it first
    bounds = sorted({0, len(text), *(cut % (len(text) + 1) for cut in cuts)})
    chunks = [text[a:b] for a, b in itertools.pairwise(bounds)]
    status, streamed = scan(chunks, bare_words=False)
    assert status is Status.DONE
    assert json.loads(streamed) == value
