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


ZIKOS = "cyprienruffino/zikos:tests/unit/test_tool_call_parser.py@a77f9dd9 (variants)"
FREEGENT = "abdulalfurkan8-eng/freegent:src/agent/parser.test.ts@82bb50b3 (variants)"
KV_TOOLS = [*TOOLS, tool("plan", goal="string", steps="array", limits="object"), tool("metronome", bpm="number")]


@pytest.mark.parametrize(
    ("text", "calls", "visible"),
    [
        (  # zikos' form: values typed by the declared schema; text before the tag stays
            'Here is my response\n<tool name="create_issue">\ntitle: Fix login\npriority: 3\ndraft: false\n</tool>',
            [("create_issue", {"title": "Fix login", "priority": 3, "draft": False})],
            "Here is my response",
        ),
        (  # a declared string keeps `true` and `42` as text; a value holding colons
            '<tool_call name="create_issue">\ntitle: true\nbody: 42 at 12:30: agenda\n</tool_call>',
            [("create_issue", {"title": "true", "body": "42 at 12:30: agenda"})],
            "",
        ),
        (  # a `|` block value, the last before the closer: its final line break is the body's layout
            '<tool name="Edit">\nfile_path: a.py\nnew_string: |\n  def f():\n      return 1\n</tool>',
            [("Edit", {"file_path": "a.py", "new_string": "def f():\n    return 1"})],
            "",
        ),
        (  # a `|` block value before another key keeps YAML's final line break; `|-` drops it; CRLF line ends
            '<tool_use name="Edit">\r\nold_string: |\r\n  a: 1\r\nnew_string: |-\r\n  b\r\n</tool_use>',
            [("Edit", {"old_string": "a: 1\n", "new_string": "b"})],
            "",
        ),
        (  # an array parameter as a YAML list (indented, then at the key's own indent), an object as a mapping;
            # scalars typed as YAML types them (`days: 3` a number, `"test it"` text)
            '<tool name="plan">\ngoal: Ship it\nsteps:\n  - write: the code\n  - "test it"\nlimits:\n  days: 3\n</tool>'
            '\n<tool name="plan">\nsteps:\n- one\n- two\n</tool>',
            [
                ("plan", {"goal": "Ship it", "steps": [{"write": "the code"}, "test it"], "limits": {"days": 3}}),
                ("plan", {"steps": ["one", "two"]}),
            ],
            "",
        ),
        (  # a thinking block first, two calls with text between, a float
            '<thinking>Set the tempo.</thinking>\n<tool name="metronome">\nbpm: 92.5\n</tool>\nThen:\n'
            '<tool name="Read">\nfile_path: b.py\n</tool>',
            [("metronome", {"bpm": 92.5}), ("Read", {"file_path": "b.py"})],
            "Then:",
        ),
    ],
)
def test_key_lines_in_a_tag_naming_the_tool_are_its_call(
    text: str, calls: list[tuple[str, dict[str, Any]]], visible: str
) -> None:
    check(Real(ZIKOS, text, calls, visible=visible, tools=KV_TOOLS))


@pytest.mark.parametrize(
    "text",
    [
        '<tool name="Delete">\nfile_path: a.py\n</tool>',  # no offered tool of that name
        '<tool name="Read">\ncolour: red\n</tool>',  # a key the tool does not declare
        '<tool name="Read">\nRead the file first.\n</tool>',  # a sentence, not a key line
        'For example:\n<tool name="Read">\nfile_path: a.py\n</tool>',  # presented as the format
        "file_path: a.py\ntitle: Fix login",  # key lines in a plain answer
    ],
)
def test_key_lines_without_a_tag_naming_an_offered_tool_stay_text(text: str) -> None:
    check(Real(ZIKOS, text, [], visible=text, tools=KV_TOOLS))


@pytest.mark.parametrize(
    ("text", "calls", "visible"),
    [
        (  # freegent's fence: a heredoc named for its parameter, closed `TAG>>>`
            '```freegent\ntool: Edit\nfile_path: a.ts\n<<<NEW_STRING\nconst x = "a";\n\nNEW_STRING>>>\n```',
            [("Edit", {"file_path": "a.ts", "new_string": 'const x = "a";\n'})],
            "",
        ),
        (  # a block scalar ending at the fence; text after the fence
            "```freegent\ntool: create_issue\ntitle: Bug\nbody: |\n  line one\n  line two\npriority: 2\n```\nFiled.",
            [("create_issue", {"title": "Bug", "body": "line one\nline two\n", "priority": 2})],
            "Filed.",
        ),
        (  # another word naming the fence, `name:` as the header, CRLF line ends
            "Reading:\r\n```agent\r\nname: Read\r\nfile_path: src/a.py\r\n```",
            [("Read", {"file_path": "src/a.py"})],
            "Reading:",
        ),
        (  # a fence's line inside a heredoc is the value's
            "```tool_call\ntool: Edit\nfile_path: README.md\nnew_string: <<<MD\n```sh\nls\n```\nMD\n```",
            [("Edit", {"file_path": "README.md", "new_string": "```sh\nls\n```"})],
            "",
        ),
    ],
)
def test_a_tool_header_and_key_lines_in_a_named_fence_are_its_call(
    text: str, calls: list[tuple[str, dict[str, Any]]], visible: str
) -> None:
    check(Real(FREEGENT, text, calls, visible=visible, tools=KV_TOOLS))


@pytest.mark.parametrize(
    "text",
    [
        "```yaml\nservice: Read\nfile_path: a.py\n```",  # a YAML example: a language's fence
        "```\ntool: Read\nfile_path: a.py\n```\nThat is the format.",  # a bare fence
        "```freegent\ntool: Delete\nfile_path: a.py\n```",  # no offered tool of that name
        "```freegent\ntool: Read\ncolour: red\n```",  # a key the tool does not declare
        "For example:\n```freegent\ntool: Read\nfile_path: a.py\n```",  # presented as the format
    ],
)
def test_a_tool_header_in_a_fence_without_that_evidence_stays_text(text: str) -> None:
    check(Real(FREEGENT, text, [], visible=text, tools=KV_TOOLS))


TASKS = {
    "name": "todo",
    "parameters": {
        "type": "object",
        "properties": {
            "operations": {
                "type": "array",
                "items": {"type": "object", "properties": {"action": {"type": "string"}, "note": {"type": "string"}}},
            },
            "view_all": {"type": "boolean"},
        },
    },
}


@pytest.mark.parametrize(
    ("text", "operations"),
    [
        (  # a mapping per item: `task_id: 1` a number, `true` a boolean where the schema is silent
            "<todo>\noperations:\n  - action: add\n    task_id: 1\n  - action: done\n    urgent: true\n</todo>",
            [{"action": "add", "task_id": 1}, {"action": "done", "urgent": True}],
        ),
        (  # the schema declares `note` a string at that place: `42` and `yes` stay the text written
            '<tool name="todo">\noperations:\n- action: 7\n  note: 42\n- note: "x"\n</tool>',
            [{"action": "7", "note": "42"}, {"note": "x"}],
        ),
    ],
)
def test_a_yaml_list_of_mappings_is_typed_by_yaml_where_the_schema_is_silent(
    text: str, operations: list[dict[str, Any]]
) -> None:
    check(Real(ZIKOS, text, [("todo", {"operations": operations})], visible="", tools=[TASKS]))
