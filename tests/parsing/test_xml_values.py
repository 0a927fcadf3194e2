"""One typing rule for values written as text, in every XML family (`shim.parsing.xml_values`).

Each family writes the same value its own way; the property: whatever the family, a value comes back as the
tool's schema types it, and, where the schema says nothing, as its text.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shim.events import ToolCallEnd
from shim.parsing.shapes import ToolIndex
from shim.parsing.stream import StreamParser
from shim.parsing.xml_values import typed_value, unlaid
from shim.profiles import ModelProfile, from_template
from tests.parsing.chunking import parse_everywhere

TEMPLATES = Path(__file__).parent.parent / "profiles" / "templates"
_GLM = from_template((TEMPLATES / "GLM-4.6.jinja").read_text(encoding="utf-8"))

FAMILIES: dict[str, tuple[Callable[[str, str], str], ModelProfile | None]] = {
    "qwen3_coder": (
        lambda k, v: f"<tool_call>\n<function=probe>\n<parameter={k}>\n{v}\n</parameter>\n</function>\n</tool_call>",
        None,
    ),
    "minicpm": (lambda k, v: f'<function name="probe"><param name="{k}">{v}</param></function>', None),
    "minimax": (
        lambda k, v: (
            f'<minimax:tool_call>\n<invoke name="probe">\n<parameter name="{k}">{v}</parameter>\n'
            "</invoke>\n</minimax:tool_call>"
        ),
        None,
    ),
    "glm": (lambda k, v: f"<tool_call>probe\n<arg_key>{k}</arg_key>\n<arg_value>{v}</arg_value>\n</tool_call>", None),
    "tool-name XML": (lambda k, v: f"<probe>\n<{k}>{v}</{k}>\n</probe>", None),
    "derived from GLM-4.6's template": (
        lambda k, v: f"<tool_call>probe\n<arg_key>{k}</arg_key>\n<arg_value>{v}</arg_value>\n</tool_call>",
        _GLM,
    ),
}

KINDS = ("string", "integer", "number", "boolean", "array", "object")
TOOL = {
    "name": "probe",
    "inputSchema": {
        "type": "object",
        "properties": {**{kind: {"type": kind} for kind in KINDS}, "loose": {"description": "no type given"}},
    },
}

_TEXT = st.text(st.characters(blacklist_characters="<>&\r", blacklist_categories=("Cs", "Cc")), max_size=20).map(
    str.strip
)
_SCALAR = st.one_of(
    st.integers(-(10**6), 10**6),
    st.floats(allow_nan=False, allow_infinity=False, width=32),
    st.booleans(),
    _TEXT,
)
_VALUE = st.recursive(_SCALAR, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_TEXT, inner, max_size=3))


def _written(value: Any) -> str:
    """What a template writes: text as it is, anything else as JSON."""
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def _json_string_literal(text: str) -> bool:
    try:
        return text[:1] == '"' and isinstance(json.loads(text), str)
    except ValueError:
        return False


def _kind(value: Any) -> str:
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    return {str: "string", list: "array", dict: "object"}[type(value)]


def _read(family: str, key: str, text: str) -> Any:
    render, profile = FAMILIES[family]
    source = render(key, text)
    parser = StreamParser([TOOL], profile=profile)
    events = parser.feed(source) + parser.close()
    calls = [e.arguments for e in events if isinstance(e, ToolCallEnd)]
    assert len(calls) == 1, (family, source, events)
    assert "".join(e.raw for e in events) == source
    return calls[0][key]


@settings(max_examples=60, deadline=None)
@given(value=_VALUE)
def test_every_xml_family_types_a_value_by_the_schema_and_else_by_one_rule(value: Any) -> None:
    text = _written(value)
    if text != text.strip() or "\n" in text:
        return  # layout whitespace around a value is the families' own; the typing is what is under test
    if isinstance(value, str) and _json_string_literal(text):
        return  # a string written whole as a JSON literal is its content (the test below)
    typed = {family: _read(family, _kind(value), text) for family in FAMILIES}
    assert all(v == value for v in typed.values()), typed
    untyped = {family: _read(family, "loose", text) for family in FAMILIES}
    assert all(v == text for v in untyped.values()), untyped


def test_an_untyped_5_is_the_text_5_in_every_family_and_a_typed_one_the_number() -> None:
    assert {family: _read(family, "loose", "5") for family in FAMILIES} == dict.fromkeys(FAMILIES, "5")
    assert {family: _read(family, "integer", "5") for family in FAMILIES} == dict.fromkeys(FAMILIES, 5)
    assert {family: _read(family, "string", "5") for family in FAMILIES} == dict.fromkeys(FAMILIES, "5")


def test_python_spellings_count_where_the_schema_asks_for_that_type() -> None:
    tools = ToolIndex([TOOL])
    assert typed_value(tools, "probe", "boolean", "True") is True
    assert typed_value(tools, "probe", "array", "['a', 'b']") == ["a", "b"]
    assert typed_value(tools, "probe", "integer", "true") == "true"  # not an integer: the text stays
    assert typed_value(tools, "probe", "loose", "[1]") == "[1]"  # no schema: the text as written


NULLABLE = {
    "name": "probe",
    "inputSchema": {
        "type": "object",
        "properties": {
            "any_of": {"anyOf": [{"type": "null"}, {"type": "string"}]},
            "one_of": {"oneOf": [{"type": "integer"}, {"type": "null"}]},
            "listed": {"type": ["string", "null"]},
            "string": {"type": "string"},
            "loose": {},
        },
    },
}


def test_null_is_null_in_every_family_where_the_schema_admits_null_and_text_where_it_does_not() -> None:
    for family, (render, _) in FAMILIES.items():
        if family.startswith("derived"):
            continue  # its profile carries the probe tool of the main table
        for key in ("any_of", "one_of", "listed"):
            parser = StreamParser([NULLABLE])
            source = render(key, "null")
            events = parser.feed(source) + parser.close()
            assert [e.arguments for e in events if isinstance(e, ToolCallEnd)] == [{key: None}], (family, key)
    tools = ToolIndex([NULLABLE])
    assert typed_value(tools, "probe", "string", "null") == "null"
    assert typed_value(tools, "probe", "loose", "null") == "null"
    assert typed_value(tools, "probe", "any_of", "nullable") == "nullable"
    assert typed_value(tools, "probe", "any_of", " null ") is None


def test_a_layout_newline_each_side_of_a_value_is_layout_and_an_indented_value_keeps_its_whitespace() -> None:
    assert unlaid("\nvalue\n") == "value"
    assert unlaid("value\n") == "value"
    assert unlaid("    if x:\n        return 1\n") == "    if x:\n        return 1\n"
    assert unlaid("\tkey: 1\n") == "\tkey: 1\n"
    assert unlaid("\n    if x:\n") == "    if x:"


def test_the_indentation_of_a_closer_on_its_own_line_is_layout_too() -> None:
    assert unlaid("\n          ramen near Shibuya\n        ") == "ramen near Shibuya"  # one line: its blanks go
    assert unlaid("\n\tParis \n\t") == "Paris"
    assert unlaid("\n    if x:\n        return 1\n    ") == "if x:\n    return 1"  # lines: the indent goes
    assert unlaid("\n    a\n  b\n    ") == "a\n  b"  # a line indented less keeps what it has
    assert unlaid("\n  x = 1  \n") == "  x = 1  "  # the closer starts its line: every character kept


@pytest.mark.parametrize(
    "family",
    ["minimax", "glm", "derived from GLM-4.6's template"],
)
@pytest.mark.parametrize(
    ("written", "expected"),
    [
        ("\n      ramen near Shibuya\n    ", "ramen near Shibuya"),
        ("\n\t\tdef f():\n\t\t  pass\n\t\t", "def f():\n  pass"),
    ],
)
def test_a_value_pretty_printed_between_indented_lines_loses_that_layout_in_every_family(
    family: str, written: str, expected: str
) -> None:
    render, profile = FAMILIES[family]
    source = render("string", written)
    result = parse_everywhere(source, [TOOL], profile=profile)
    assert [c["arguments"] for c in result["calls"]] == [{"string": expected}]


def test_a_value_escaped_throughout_is_decoded_in_every_family_and_one_mixing_markup_is_kept() -> None:
    """ai-sdk-tool-call-middleware's tests write ``<Ctrl+C>`` as ``&lt;Ctrl+C&gt;``; HTML source keeps its entities."""
    escaped = "&lt;Ctrl+C&gt;hi &amp; bye&lt;Esc&gt;"
    assert {f: _read(f, "string", escaped) for f in FAMILIES} == dict.fromkeys(FAMILIES, "<Ctrl+C>hi & bye<Esc>")
    assert {f: _read(f, "loose", "a &#60;b&#x3E;") for f in FAMILIES} == dict.fromkeys(FAMILIES, "a <b>")
    for kept in ("if a &lt; b && c", "x &amp; y", "AT&T &lt;3"):
        assert {f: _read(f, "string", kept) for f in FAMILIES} == dict.fromkeys(FAMILIES, kept)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("<send_keys><value>&lt;Enter&gt;</value></send_keys>", "<Enter>"),
        ("<tool_call><function=send_keys><parameter=value>&lt;Esc&gt; x</parameter></function></tool_call>", "<Esc> x"),
        ("<send_keys><value>a &lt; b <b>c</b></value></send_keys>", "a &lt; b <b>c</b>"),
    ],
)
def test_a_decoded_value_reads_the_same_at_every_split_point(text: str, value: str) -> None:
    tools = [{"name": "send_keys", "inputSchema": {"type": "object", "properties": {"value": {"type": "string"}}}}]
    result = parse_everywhere(text, tools)
    assert [c["arguments"] for c in result["calls"]] == [{"value": value}]


_ADD = {
    "name": "add",
    "inputSchema": {
        "type": "object",
        "properties": {
            "a": {"type": "integer"},
            "b": {"type": ["number", "null"]},
            "exact": {"type": "boolean"},
            "note": {"type": "string"},
            "nested": {"type": "object", "properties": {"n": {"type": "integer"}}},
        },
    },
}


@pytest.mark.parametrize(
    "text",
    [
        '<tool_call>{"name": "add", "arguments": {"a": "3", "b": "-0.5", "exact": "true", "note": "3"}}</tool_call>',
        '<|python_tag|>{"name": "add", "parameters": {"a": "3", "b": "-0.5", "exact": "true", "note": "3"}}',
        "<function=add>{'a': '3', 'b': '-0.5', 'exact': 'True', 'note': '3'}</function>",
        '[add(a="3", b="-0.5", exact="true", note="3")]',
        '{"name": "add", "arguments": {"a": "3", "b": "-0.5", "exact": "true", "note": "3"}}',
    ],
)
def test_a_quoted_literal_of_a_scalar_parameter_is_read_as_that_literal_in_every_family_at_every_split(
    text: str,
) -> None:
    """Small models quote every value (`"2"` for an integer); the schema says what the model meant. A string
    parameter keeps its text, and the streamed argument chunks decode to the typed values."""
    result = parse_everywhere(text, [_ADD], seeds=5)
    assert [c["arguments"] for c in result["calls"]] == [{"a": 3, "b": -0.5, "exact": True, "note": "3"}]


@pytest.mark.parametrize(
    ("written", "kept"),
    [
        ('"a": "007"', {"a": "007"}),  # a leading zero: an id, not a number
        ('"a": " 3"', {"a": " 3"}),
        ('"a": "3 apples"', {"a": "3 apples"}),
        ('"a": "3.0"', {"a": "3.0"}),  # no integer
        ('"b": "1e400x"', {"b": "1e400x"}),
        ('"exact": "yes"', {"exact": "yes"}),
        ('"nested": {"n": "4"}', {"nested": {"n": "4"}}),  # only a top-level parameter is retyped
        ('"note": "12"', {"note": "12"}),
    ],
)
def test_a_quoted_value_that_is_no_exact_literal_of_its_type_stays_the_string_the_model_wrote(
    written: str, kept: dict[str, Any]
) -> None:
    result = parse_everywhere(f'<tool_call>{{"name": "add", "arguments": {{{written}}}}}</tool_call>', [_ADD], seeds=5)
    assert [c["arguments"] for c in result["calls"]] == [kept]


def test_a_tool_without_a_schema_keeps_quoted_numbers_as_strings() -> None:
    result = parse_everywhere('<tool_call>{"name": "add", "arguments": {"a": "3"}}</tool_call>', ["add"], seeds=5)
    assert [c["arguments"] for c in result["calls"]] == [{"a": "3"}]


@pytest.mark.parametrize(
    ("written", "value"),
    [
        ('"hello world"', "hello world"),
        ('"a.txt"', "a.txt"),
        ('"say \\"hi\\""', 'say "hi"'),
        ('"caf\\u00e9"', "café"),
        ('""', ""),
    ],
)
def test_a_string_value_written_whole_as_a_json_literal_is_its_content_in_every_family(
    written: str, value: str
) -> None:
    """GLM and MiniMax fixtures quote every value as JSON (``<arg_value>"a.txt"</arg_value>``): the quotes are
    how the value is written, not part of it, where the schema says the parameter is a string."""
    assert {f: _read(f, "string", written) for f in FAMILIES} == dict.fromkeys(FAMILIES, value)


@pytest.mark.parametrize(
    "written",
    ['"a" and "b"', '"C:\\x"', '"unclosed', 'say "hi"', "'single'", '"3"x'],
)
def test_a_string_value_that_is_no_single_json_literal_keeps_its_quotes_and_an_untyped_one_always_does(
    written: str,
) -> None:
    assert {f: _read(f, "string", written) for f in FAMILIES} == dict.fromkeys(FAMILIES, written)
    assert {f: _read(f, "loose", '"a.txt"') for f in FAMILIES} == dict.fromkeys(FAMILIES, '"a.txt"')


@pytest.mark.parametrize(
    "text",
    [
        '<tool_call>read_file<arg_key>path</arg_key><arg_value>"a.txt"</arg_value></tool_call>',
        '<tool_call>\nread_file\n<arg_key>path</arg_key><arg_value>"a.txt"</arg_value></tool_call>',
        '<tool_call>\n<function=read_file>\n<parameter=path>\n"a.txt"\n</parameter>\n</function>\n</tool_call>',
        '<minimax:tool_call><invoke name="read_file"><parameter name="path">"a.txt"</parameter></invoke></minimax:tool_call>',
    ],
)
def test_a_json_quoted_string_value_reads_the_same_at_every_split_point(text: str) -> None:
    tools = [{"name": "read_file", "inputSchema": {"type": "object", "properties": {"path": {"type": "string"}}}}]
    result = parse_everywhere(text, tools, seeds=5)
    assert [c["arguments"] for c in result["calls"]] == [{"path": "a.txt"}]
    assert result["text"] == ""


@pytest.mark.parametrize(("written", "value"), [('"Seoul"', "Seoul"), ('"a \\"b\\""', 'a "b"'), ('""', "")])
def test_a_string_parameter_written_as_one_json_string_is_decoded_in_every_family(written: str, value: str) -> None:
    assert {family: _read(family, "string", written) for family in FAMILIES} == dict.fromkeys(FAMILIES, value)


@pytest.mark.parametrize("written", ['"a" and "b"', '"unclosed', 'say "hi"', '"two\nlines"'])
def test_a_string_that_is_not_exactly_one_json_string_literal_keeps_its_text(written: str) -> None:
    assert {family: _read(family, "string", written) for family in FAMILIES} == dict.fromkeys(FAMILIES, written)


_LISTS = {
    "name": "hist",
    "inputSchema": {
        "type": "object",
        "properties": {
            "data": {"type": "array", "items": {"type": "integer"}},
            "tags": {"type": "array", "items": {"type": "string"}},
            "opts": {"type": "object"},
            "note": {"type": "string"},
        },
    },
}


@pytest.mark.parametrize(
    "text",
    [
        # Llama 3.1 8B (BFCL runs on an L4): arrays quoted as JSON strings
        '<tool_call>{"name": "hist", "arguments": {"data": "[1, 2]", "tags": "[\\"Wi-Fi\\", \\"Room\\"]", '
        '"opts": "{\\"k\\": true}", "note": "[1, 2]"}}</tool_call>',
        # ...or as Python literals inside the string
        '<tool_call>{"name": "hist", "arguments": {"data": " [1, 2] ", "tags": "[\'Wi-Fi\', \'Room\']", '
        '"opts": "{\'k\': True}", "note": "[1, 2]"}}</tool_call>',
        '{"name": "hist", "arguments": {"data": "[1,2]", "tags": "[\\"Wi-Fi\\",\\"Room\\"]", "opts": "{\\"k\\":true}", '
        '"note": "[1, 2]"}}',
        '[hist(data="[1, 2]", tags="[\'Wi-Fi\', \'Room\']", opts=\'{"k": true}\', note="[1, 2]")]',
    ],
)
def test_a_quoted_list_or_object_of_an_array_or_object_parameter_is_that_value_at_every_split(text: str) -> None:
    result = parse_everywhere(text, [_LISTS], seeds=5)
    assert [c["arguments"] for c in result["calls"]] == [
        {"data": [1, 2], "tags": ["Wi-Fi", "Room"], "opts": {"k": True}, "note": "[1, 2]"}
    ]


@pytest.mark.parametrize(
    ("written", "kept"),
    [
        ('"data": "[1, 2"', {"data": "[1, 2"}),  # not one whole literal
        ('"data": "[x]"', {"data": "[x]"}),
        ('"data": "{1, 2}"', {"data": "{1, 2}"}),  # a set is no JSON value
        ('"data": "{\\"a\\": 1}"', {"data": '{"a": 1}'}),  # an object where an array is asked
        ('"opts": "[1]"', {"opts": "[1]"}),
        ('"data": "1, 2"', {"data": "1, 2"}),
    ],
)
def test_a_quoted_value_that_is_no_whole_literal_of_the_container_type_stays_a_string(
    written: str, kept: dict[str, Any]
) -> None:
    result = parse_everywhere(
        f'<tool_call>{{"name": "hist", "arguments": {{{written}}}}}</tool_call>', [_LISTS], seeds=5
    )
    assert [c["arguments"] for c in result["calls"]] == [kept]


KEYWORDS: dict[str, Any] = {
    "name": "probe",
    "inputSchema": {
        "type": "object",
        "properties": {
            "items": {"items": {"type": "integer"}},
            "tuple": {"prefixItems": [{"type": "string"}]},
            "metadata": {"properties": {"a": {"type": "integer"}}},
            "map": {"additionalProperties": {"type": "string"}},
            "either": {"anyOf": [{"type": "string"}, {"items": {}}]},
            "loose": {"description": "no type given"},
        },
    },
}


@pytest.mark.parametrize(
    ("key", "text", "value"),
    [
        ("items", "[1, 2]", [1, 2]),
        ("tuple", '["a"]', ["a"]),
        ("metadata", '{"a": 1}', {"a": 1}),
        ("map", "{'k': 'v'}", {"k": "v"}),
        # a union or no keyword: no type to infer, the text as written
        ("either", "[1]", "[1]"),
        ("loose", "[1, 2]", "[1, 2]"),
        # a keyword's type that the text is not: the text stays
        ("metadata", "plain words", "plain words"),
    ],
)
def test_a_schema_without_a_type_is_typed_by_its_keywords_in_every_family(key: str, text: str, value: Any) -> None:
    for family, (render, _) in FAMILIES.items():
        if family.startswith("derived"):
            continue  # its profile carries the probe tool of the main table
        result = parse_everywhere(render(key, text), [KEYWORDS], seeds=2, every_split=family == "glm")
        assert [c["arguments"] for c in result["calls"]] == [{key: value}], family
