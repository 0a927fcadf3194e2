"""Python-style calls spelled ``NAME(key: value)`` with backtick-fenced values (ToolCallFormat.jl's harness prompt):
a call of an offered tool whose keys it declares, read like ``NAME(key=value)`` where such a call is read (opening
the message or a line, alone on it); a signature, a key the tool does not declare, a call inside a sentence or a
tool not offered stays text."""

from __future__ import annotations

from typing import Any

import pytest

from shim.parsing.colon_calls import colon_calls, colon_words, fenced_value
from tests.parsing.readers.cases import Real, check, tool

_JL = "todoforai/ToolCallFormat.jl:test/runtests.jl@022083166e2af12150977963b2b288e24dde4d82"
_TOOLS = [
    tool("read_file", path="string"),
    tool("shell", cmd="string"),
    tool("bash", cmd="string", script="string"),
    tool("create", path="string", content="string"),
    tool("config", count="integer", enabled="boolean", ratio="number"),
    tool("search_web", query="string", max_results="integer", tags="array"),
]
_FENCE3 = "`" * 3
_FENCE4 = "`" * 4


@pytest.mark.parametrize(
    ("text", "calls", "visible"),
    [
        ('read_file(path: "/test.txt")\n', [("read_file", {"path": "/test.txt"})], ""),
        (  # variant: another tool, typed values, single quotes, blanks around the colon, JSON literals
            'search_web(query : \'Wetter in Köln\', max_results: 5, tags: ["a", "b"])',
            [("search_web", {"query": "Wetter in Köln", "max_results": 5, "tags": ["a", "b"]})],
            "",
        ),
        (
            "config(count: -3, enabled: false, ratio: 1e3)",
            [("config", {"count": -3, "enabled": False, "ratio": 1000.0})],
            "",
        ),
        (  # between lines of prose, then another call on the next line
            'Ich lese zuerst.\nread_file(path: "/etc/hosts")\nshell(cmd: "ls -la")\nDann weiter.',
            [("read_file", {"path": "/etc/hosts"}), ("shell", {"cmd": "ls -la"})],
            "Ich lese zuerst. Dann weiter.",
        ),
        (  # colon and equals keywords mixed; a positional value first
            'create("/a.py", content: "x = 1")',
            [("create", {"path": "/a.py", "content": "x = 1"})],
            "",
        ),
        (  # a fenced value on several lines, its quotes and parentheses content
            f"bash(script: {_FENCE3}\nprintf '%s)' \"it's\"\necho done\n{_FENCE3})",
            [("bash", {"script": "printf '%s)' \"it's\"\necho done"})],
            "",
        ),
        (  # a longer fence around a shorter run; `=` keyword form
            f'bash(cmd={_FENCE4}echo "```x```" and ````` five{_FENCE4})',
            [("bash", {"cmd": 'echo "```x```" and ````` five'})],
            "",
        ),
        (  # a word on the opener's line is content (the fence is the value's quotes); the closer indented
            f'create(path: "/tmp/a.sh", content: {_FENCE3}sh\nls\n  {_FENCE3})',
            [("create", {"path": "/tmp/a.sh", "content": "sh\nls"})],
            "",
        ),
        (  # an inline fenced value, then the call's other key
            f'create(content: {_FENCE3}Hallo, Welt!{_FENCE3}, path: "/tmp/h.txt")',
            [("create", {"content": "Hallo, Welt!", "path": "/tmp/h.txt"})],
            "",
        ),
    ],
)
def test_a_colon_keyword_call_of_an_offered_tool_is_a_call(
    text: str, calls: list[tuple[str, dict[str, Any]]], visible: str
) -> None:
    check(Real(_JL, text, calls, visible=visible, tools=_TOOLS))


@pytest.mark.parametrize(
    "text",
    [
        'use read_file(path: "/test") to read',  # inside a sentence
        'read_file(path: "/test") some text',  # prose after it on its line
        "config(count: integer, enabled: boolean)",  # a signature: types, no values
        'read_file(file: "/test")',  # a key the tool does not declare
        'delete_all(path: "/")',  # a tool not offered
        f"bash(cmd: {_FENCE3}never closed)",  # a fence left open
        'Write `read_file(path: "/x")` to read a file.',  # inline code
        'Im Code:\n    read_file(path: "/x")',  # indented after prose: code
        'x = read_file(path: "/x").strip()',  # code using it
        'read_file(path: "/x" + suffix)',  # an expression
        'read_file(path: {"k": 1}: 2)',  # no literal
        'In Swift:\n```swift\nread_file(path: "/x")\n```',  # a Swift call with argument labels, shown in a fence
    ],
)
def test_a_colon_keyword_form_that_is_no_call_stays_text(text: str) -> None:
    check(Real("written", text, [], visible=text, tools=_TOOLS))


def test_colon_calls_spells_only_what_it_must() -> None:
    def names(_: str) -> list[str]:
        return ["a", "b"]

    assert colon_calls('f(a: 1, b: {"k": [1, 2]})', names) == 'f(a= 1, b= {"k": [1, 2]})'
    assert colon_calls("f(a=1)", names) is None  # nothing to spell
    assert colon_calls("f(c: 1)", names) is None  # not a declared key
    assert colon_calls("f(a:: 1)", names) is None  # Julia's type assertion
    assert colon_calls("f(x[1:2])", names) is None  # a slice
    assert colon_calls('f(a: "x: y")', names) == 'f(a= "x: y")'
    assert colon_calls("f(a: ```q```, b: ```` ``` ````)", names) == "f(a= 'q', b= ' ``` ')"
    assert colon_calls("f(a: ```open)", names) is None
    assert fenced_value("\nx\n") == "x"
    assert fenced_value("x\r\n\t") == "x"
    assert fenced_value("\n\nx\n\n") == "\nx\n"


_AUTONOMY = "vadiminshakov/autonomy:core/ai/openai_parser_test.go@2a0d6116952db2952a79467244a859b08ac47e07"
_LINE_TOOLS = [
    tool("read_file", path="string"),
    tool("write_file", path="string", content="string"),
    tool("attempt_completion", result="string"),
    tool("get_project_structure"),
    tool("config", count="integer", enabled="boolean"),
]


@pytest.mark.parametrize(
    ("text", "calls", "visible"),
    [
        ("Tool call: read_file (path: main.go)", [("read_file", {"path": "main.go"})], ""),
        (  # between prose, several per reply; a value with blanks and a comma that no declared key follows
            "Erst lesen.\nTool call: read_file (path: src/a b.go)\nDann schreiben.\n"
            "Tool call: write_file (path: out.txt, content: Hallo, Welt)\nFertig.",
            [("read_file", {"path": "src/a b.go"}), ("write_file", {"path": "out.txt", "content": "Hallo, Welt"})],
            "Erst lesen. Dann schreiben. Fertig.",
        ),
        (  # an apostrophe in a word, Cyrillic, parentheses inside the value
            "Tool call: attempt_completion (result: Я сделал Conway's Life (на Go))",
            [("attempt_completion", {"result": "Я сделал Conway's Life (на Go)"})],
            "",
        ),
        ("Tool call: get_project_structure ()", [("get_project_structure", dict[str, Any]())], ""),  # no parameters
        (  # quoted and typed values as literals; other labels; no blank before the parenthesis
            'Function call: config(count: 3, enabled: true)\nCall: read_file (path: "/etc/hosts")',
            [("config", {"count": 3, "enabled": True}), ("read_file", {"path": "/etc/hosts"})],
            "",
        ),
    ],
)
def test_a_labelled_colon_keyword_line_with_unquoted_values_is_a_call(
    text: str, calls: list[tuple[str, dict[str, Any]]], visible: str
) -> None:
    check(Real(_AUTONOMY, text, calls, visible=visible, tools=_LINE_TOOLS))


@pytest.mark.parametrize(
    "text",
    [
        "read_file (path: main.go)",  # no label: a bare word there may be code
        "Action: read_file (path: main.go)",  # ReAct's action label: a name and its description
        "Tool call: read_file (path: string)",  # a signature: a type, no value
        "Tool call: read_file (file: main.go)",  # a key the tool does not declare
        "Tool call: delete_all (path: /)",  # a tool not offered
        "Tool call: config (count: three)",  # a word for an integer
        "Tool call: read_file (path: main.go) is what I would write.",  # prose after it on its line
        "I would write `Tool call: read_file (path: main.go)` for that.",  # inline code
        "The format is: Tool call: read_file (path: main.go), then wait.",  # inside a sentence
    ],
)
def test_a_labelled_colon_keyword_form_that_is_no_call_stays_text(text: str) -> None:
    check(Real("written", text, [], visible=text, tools=_LINE_TOOLS))


def test_colon_words_quotes_only_values_that_are_no_literal() -> None:
    def names(_: str) -> list[str]:
        return ["a", "b"]

    assert colon_words("f (a: x y, b: 2)", names) == ("[f(a='x y', b=2)]", {"a"})
    assert colon_words("[f(a: 1, 2, b: true)]", names) == ("[f(a=1, 2, b=true)]", set())
    assert colon_words("f (a: it's, done)", names) == ('[f(a="it\'s, done")]', {"a"})
    assert colon_words("f ()", names) == ("[f()]", set())
    assert colon_words("f (c: 1)", names) is None  # not a declared key
    assert colon_words("f (x, a: 1)", names) is None  # something before the first key
    assert colon_words("f (a: string)", names) is None  # a signature
    assert colon_words("f (a: )", names) is None  # no value
