"""``TOOL: NAME`` or ``[NAME]`` on its own line, then ``KEY: value`` lines (`shim.parsing.readers.kv_lines`)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.parsing.readers.cases import Real, check, tool

ORKET = "McElyea/Orket:tests/test_tool_parser.py (ToolParser's legacy DSL)"
TOOLS = [
    tool("write_file", path="string", content="string"),
    tool("create_issue", title="string", body="string", priority="integer"),
    tool("set-alarm", time="string", repeat="boolean"),
]


@pytest.mark.parametrize(
    ("text", "calls", "visible"),
    [
        (
            'TOOL: write_file\nPATH: script.py\nCONTENT: print("hello")',
            [("write_file", {"path": "script.py", "content": 'print("hello")'})],
            "",
        ),
        (  # the name in brackets; keys in any case; an integer typed by the schema
            "[create_issue]\nTitle: Broken login\npriority: 2",
            [("create_issue", {"title": "Broken login", "priority": 2})],
            "",
        ),
        (  # prose before and after, blanks around the colon, CRLF line ends, a boolean
            "Setting it now.\r\ntool :  set_alarm\r\nTIME: 07:30\r\nREPEAT: true\r\n\r\nDone, see you tomorrow.",
            [("set-alarm", {"time": "07:30", "repeat": True})],
            "Setting it now. Done, see you tomorrow.",
        ),
        (  # a value over several lines: the lines that are no key line go on it
            "TOOL: write_file\nPATH: a.py\nCONTENT: def f():\n    return 1\nprint(f())\n\nWrote it.",
            [("write_file", {"path": "a.py", "content": "def f():\n    return 1\nprint(f())"})],
            "Wrote it.",
        ),
        (  # a value in triple quotes, a blank line inside it
            'TOOL: write_file\nPATH: notes.md\nCONTENT: """\n# Notes\n\nÜberblick: fertig\n"""\nSaved.',
            [("write_file", {"path": "notes.md", "content": "# Notes\n\nÜberblick: fertig"})],
            "Saved.",
        ),
        (  # two calls, each under its header, indented
            "  TOOL: create_issue\n  TITLE: one\n  [write_file]\n  PATH: b.txt\n  CONTENT: two",
            [("create_issue", {"title": "one"}), ("write_file", {"path": "b.txt", "content": "two"})],
            "",
        ),
    ],
)
def test_a_tool_header_then_its_key_lines_is_its_call(
    text: str, calls: list[tuple[str, dict[str, Any]]], visible: str
) -> None:
    check(Real(ORKET, text, calls, visible=visible, tools=TOOLS))


@pytest.mark.parametrize(
    "text",
    [
        "TOOL: delete_file\nPATH: a.py",  # no offered tool of that name
        "Use TOOL: write_file\nPATH: a.py",  # the header inside a sentence
        "TOOL: write_file\nNOTE: this is the tool I would use",  # a key the tool does not declare
        "TOOL: write_file\n\nPATH: a.py",  # no key line right after the header
        "[write_file] is the tool for files.\nPATH: a.py",  # the bracketed name in a sentence
        "The format is:\nTOOL: write_file\nPATH: a.py\nCONTENT: x",  # presented as the format
        "```yaml\nTOOL: write_file\nPATH: a.py\n```",  # in a code fence
        "TOOL: write_file\nPATH: a.py\nPATH: b.py",  # a key given twice
        'TOOL: write_file\nCONTENT: """\nunfinished',  # quotes never closed
    ],
)
def test_a_header_in_prose_of_no_tool_or_no_declared_key_stays_text(text: str) -> None:
    check(Real(ORKET, text, [], visible=text, tools=TOOLS))


def test_without_tools_the_lines_stay_text() -> None:
    text = "TOOL: write_file\nPATH: a.py"
    check(Real(ORKET, text, [], visible=text, tools=None))


@pytest.mark.parametrize(
    ("text", "calls", "visible"),
    [
        (  # a YAML call envelope, unfenced: the name, then `args:` over the indented key lines
            "tool: create_issue\nargs:\n  title: Broken login\n  priority: 2",
            [("create_issue", {"title": "Broken login", "priority": 2})],
            "",
        ),
        (
            "Filing it.\nname: create_issue\narguments:\n  title: Crash\nDone.",
            [("create_issue", {"title": "Crash"})],
            "Filing it.\n\nDone.",
        ),
        (
            "tool_name: write_file\r\nparameters:\r\n    path: a.txt\r\n    content: hi there\r\n",
            [("write_file", {"path": "a.txt", "content": "hi there"})],
            "\r\n",
        ),
        (
            "Function: set-alarm\nInput:\n  time: 07:30\n  repeat: true",
            [("set-alarm", {"time": "07:30", "repeat": True})],
            "",
        ),
    ],
)
def test_a_yaml_envelope_of_a_name_and_its_arguments_is_its_call(
    text: str, calls: list[tuple[str, dict[str, Any]]], visible: str
) -> None:
    check(Real("written: a YAML call envelope without its fence", text, calls, visible=visible, tools=TOOLS))


@pytest.mark.parametrize(
    "text",
    [
        "name: create_issue\ntitle: Crash",  # a name key with no arguments line: a record, not a call
        "name: Ada\narguments:\n  title: x",  # no offered tool
        "name: create_issue\nargs:\n  color: red",  # a key the tool does not declare
        "For example:\nname: create_issue\nargs:\n  title: Crash",  # presented
        "The name: create_issue field and args:\n  title: x",  # not at a line's start
    ],
)
def test_envelope_lookalikes_stay_text(text: str) -> None:
    check(Real("written", text, [], visible=text, tools=TOOLS))
