"""A call tag whose body is the tool's name on a line, then ``key: value`` lines and ``<<<TAG`` heredocs
(`shim.parsing.readers.name_lines`)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.parsing.readers.cases import Real, check, tool

NOTION = "OmarElKadri/notion-proxy:notion_proxy/tools/parse.py (_parse_delimited_tool_call)"
TOOLS = [
    tool("Read", file_path="string"),
    tool("Edit", file_path="string", old_string="string", new_string="string"),
    tool("EnterPlanMode"),
    tool("create_issue", title="string", body="string", priority="integer", draft="boolean"),
    tool("run-shell", command="string"),
]

_NONE: dict[str, Any] = {}


@pytest.mark.parametrize(
    ("text", "calls", "visible"),
    [
        ("<tool_use>\nRead\nfile_path: /home/a/b.py\n</tool_use>", [("Read", {"file_path": "/home/a/b.py"})], ""),
        ("<tool_use>\nEnterPlanMode\n</tool_use>", [("EnterPlanMode", _NONE)], ""),  # a bare name: no arguments
        ("<tool_use>EnterPlanMode</tool_use>", [("EnterPlanMode", _NONE)], ""),
        (  # heredocs kept as written (indent, quotes, a Windows path's backslashes in the inline value)
            "<tool_use>\nEdit\nfile_path: D:\\dev\\main.py\nold_string: <<<OLD\ndef f():\n    print('hi')\nOLD\n"
            "new_string: <<<NEW\ndef f():\n\n    print('hello')\nNEW\n</tool_use>",
            [
                (
                    "Edit",
                    {
                        "file_path": "D:\\dev\\main.py",
                        "old_string": "def f():\n    print('hi')",
                        "new_string": "def f():\n\n    print('hello')",
                    },
                )
            ],
            "",
        ),
        (  # `KEY:` alone, its heredoc on the next line; another tag (Hermes' <tool_call>); CRLF line ends
            "<tool_call>\r\nEdit\r\nfile_path: a.txt\r\nnew_string:\r\n<<<BODY\r\nline one\r\nline two\r\nBODY\r\n"
            "</tool_call>",
            [("Edit", {"file_path": "a.txt", "new_string": "line one\nline two"})],
            "",
        ),
        (  # a heredoc holding a whole example block: its closer is the value's, not the call's
            "<tool_use>\nEdit\nfile_path: prompt.txt\nold_string: <<<OLD\nold\nOLD\nnew_string: <<<NEW\nExample:\n"
            "<tool_use>\nRead\nfile_path: x.py\n</tool_use>\nNEW\n</tool_use>",
            [
                (
                    "Edit",
                    {
                        "file_path": "prompt.txt",
                        "old_string": "old",
                        "new_string": "Example:\n<tool_use>\nRead\nfile_path: x.py\n</tool_use>",
                    },
                )
            ],
            "",
        ),
        (  # keys in any case, typed by the schema, blank lines between pairs; prose around two blocks
            "Filing it.\n<function_call>\ncreate_issue\nTitle: Broken login\n\npriority: 2\ndraft: true\n"
            "</function_call>\nand running:\n<tool_use>\n  run_shell\n  command: ls -la\n</tool_use>\nDone.",
            [
                ("create_issue", {"title": "Broken login", "priority": 2, "draft": True}),
                ("run-shell", {"command": "ls -la"}),
            ],
            "Filing it. and running: Done.",
        ),
        (  # a plain value over several lines; the closer at the end of the last one; no closer at the output's end
            "<tool_use>\ncreate_issue\ntitle: Crash\nbody: It crashes\non start.</tool_use><tool_use>\nRead\n"
            "file_path: z.py",
            [("create_issue", {"title": "Crash", "body": "It crashes\non start."}), ("Read", {"file_path": "z.py"})],
            "",
        ),
        (  # in a fence: its closer is the block's markup
            "```xml\n<tool_use>\nRead\nfile_path: a.py\n</tool_use>\n```\nReading.",
            [("Read", {"file_path": "a.py"})],
            "Reading.",
        ),
        (  # a heredoc tag in quotes; text after the closer on its line
            "<tool_use>\nrun-shell\ncommand: <<<'SH'\ncat <<EOF > f\nhi\nEOF\nSH\n</tool_use> ran it.",
            [("run-shell", {"command": "cat <<EOF > f\nhi\nEOF"})],
            "ran it.",
        ),
    ],
)
def test_a_name_line_then_its_key_lines_in_a_call_tag_is_its_call(
    text: str, calls: list[tuple[str, dict[str, Any]]], visible: str
) -> None:
    check(Real(NOTION, text, calls, visible=visible, tools=TOOLS))


@pytest.mark.parametrize(
    "text",
    [
        "Emit <tool_use> blocks with the name on a line.",  # the tag in a sentence
        "<tool_use>\nDelete\nfile_path: a.py\n</tool_use>",  # no offered tool of that name
        "<tool_use>\nRead\ncolour: red\n</tool_use>",  # a first key the tool does not declare
        "<tool_use>\nRead the file first, then edit it.\n</tool_use>",  # a sentence, not a name line
        "For example:\n```\n<tool_use>\nRead\nfile_path: a.py\n</tool_use>\n```",  # a fenced example, presented
        "For example:\n<tool_use>\nRead\nfile_path: a.py\n</tool_use>",  # presented as the format
    ],
)
def test_a_name_line_in_prose_of_no_tool_or_no_declared_key_stays_text(text: str) -> None:
    check(Real(NOTION, text, [], visible=text, tools=TOOLS))


def test_a_heredoc_never_closed_leaves_the_block_text() -> None:
    text = "<tool_use>\nEdit\nfile_path: a.py\nnew_string: <<<NEW\nunfinished\n</tool_use>"
    check(Real(NOTION, text, [], visible=text, tools=TOOLS))


def test_without_tools_the_block_stays_text() -> None:
    text = "<tool_use>\nRead\nfile_path: a.py\n</tool_use>"
    check(Real(NOTION, text, [], visible=text, tools=None))
