"""Tool-name XML (Cline, Roo Code): ``<read_file><path>a.py</path></read_file>``, for offered tools only.

Outputs quoted from RooCodeInc/Roo-Code:src/core/assistant-message/__tests__/XmlToolCallParser.spec.ts
@f39fad586eb34a04c24bdff06c2684707bff8ae4 (the strings Roo's own XML tool parser is tested on).
"""

from __future__ import annotations

from typing import Any

import pytest

from shim.parsing.stream import StreamParser
from tests.parsing.chunking import parse_everywhere

_S = {"type": "string"}


def _tool(name: str, **props: Any) -> dict[str, Any]:
    return {"name": name, "inputSchema": {"type": "object", "properties": props}}


TOOLS = [
    _tool("read_file", path=_S),
    _tool("execute_command", command=_S, cwd=_S),
    _tool("write_to_file", path=_S, content=_S),
    _tool("list_files", path=_S, recursive={"type": "boolean"}),
    _tool("ask_followup_question", question=_S, follow_up={"type": "array"}),
    _tool("use_mcp_tool", server_name=_S, tool_name=_S, arguments={"type": "object"}),
    _tool("attempt_completion", result=_S),
]


def _calls(result: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    return [(c["name"], c["arguments"]) for c in result["calls"]]


def test_a_tool_tag_with_one_child_per_parameter_is_a_call_and_the_text_around_it_stays() -> None:
    text = "Here's my analysis:\n\n<read_file>\n<path>src/file.ts</path>\n</read_file>\n\nThis should help us understand the code."
    result = parse_everywhere(text, TOOLS)
    assert _calls(result) == [("read_file", {"path": "src/file.ts"})]
    assert result["text"] == "Here's my analysis:\n\n\n\nThis should help us understand the code."
    assert result["errors"] == []


def test_two_calls_on_one_line_are_two_calls() -> None:
    text = "<read_file><path>file1.ts</path></read_file> <read_file><path>file2.ts</path></read_file>"
    assert _calls(parse_everywhere(text, TOOLS)) == [
        ("read_file", {"path": "file1.ts"}),
        ("read_file", {"path": "file2.ts"}),
    ]


@pytest.mark.parametrize(
    ("text", "call"),
    [
        (  # a boolean parameter
            "<list_files>\n<path>src/</path>\n<recursive>true</recursive>\n</list_files>",
            ("list_files", {"path": "src/", "recursive": True}),
        ),
        (  # an array parameter written as JSON
            "<ask_followup_question>\n<question>What file would you like me to read?</question>\n"
            '<follow_up>[{"text": "src/file.ts"}, {"text": "package.json"}]</follow_up>\n</ask_followup_question>',
            (
                "ask_followup_question",
                {
                    "question": "What file would you like me to read?",
                    "follow_up": [{"text": "src/file.ts"}, {"text": "package.json"}],
                },
            ),
        ),
        (  # an object parameter written as JSON
            "<use_mcp_tool>\n<server_name>my-server</server_name>\n<tool_name>my-tool</tool_name>\n"
            '<arguments>{"key": "value"}</arguments>\n</use_mcp_tool>',
            ("use_mcp_tool", {"server_name": "my-server", "tool_name": "my-tool", "arguments": {"key": "value"}}),
        ),
    ],
)
def test_values_are_typed_by_the_tools_schema(text: str, call: tuple[str, dict[str, Any]]) -> None:
    assert _calls(parse_everywhere(text, TOOLS)) == [call]


def test_a_string_value_keeps_its_lines_tags_and_cdata_content() -> None:
    text = "<write_to_file>\n<path>test.ts</path>\n<content>function hello() {\n\t\tconsole.log('hello')\n}\n\nexport { hello }</content>\n</write_to_file>"
    assert _calls(parse_everywhere(text, TOOLS)) == [
        (
            "write_to_file",
            {"path": "test.ts", "content": "function hello() {\n\t\tconsole.log('hello')\n}\n\nexport { hello }"},
        )
    ]
    cdata = "<write_to_file>\n<path>test.ts</path>\n<content><![CDATA[const x = 1; // This <should> work]]></content>\n</write_to_file>"
    assert _calls(parse_everywhere(cdata, TOOLS)) == [
        ("write_to_file", {"path": "test.ts", "content": "const x = 1; // This <should> work"})
    ]


def test_a_python_literal_is_read_for_an_array_or_object_parameter_but_not_for_a_string_one() -> None:
    text = "<ask_followup_question><question>['a']</question><follow_up>['a', 'b']</follow_up></ask_followup_question>"
    assert _calls(parse_everywhere(text, TOOLS)) == [
        ("ask_followup_question", {"question": "['a']", "follow_up": ["a", "b"]})
    ]


@pytest.mark.parametrize(
    "text",
    [
        "<execute_command>ls -la</execute_command>",  # plain text, and the tool has two string parameters
        "<read_file><b>src/file.ts</b></read_file>",  # a tag that is no parameter of the tool
        "<read_file><file>a.ts</file></read_file>",  # not a parameter of the tool
        "<read_file>\n<path>a</path>\n</div>\n</read_file>",  # a closer of no parameter read
        "<read_file> and then <path>a</path></read_file>",  # prose between the children
        "<attempt_completion><result>do",  # the stream ends inside a value
        "<write_to_file><path>a.ts</path>\n<content>line",  # the stream ends inside the second value
        "<div><code>x</code></div>",  # a tag that is no offered tool
    ],
)
def test_markup_that_is_not_exactly_a_call_of_an_offered_tool_stays_text_without_an_error(text: str) -> None:
    result = parse_everywhere(text, [*TOOLS, "div"])
    assert (result["calls"], result["errors"], result["text"]) == ([], [], text)


@pytest.mark.parametrize(
    ("text", "call", "visible"),
    [
        ("<attempt_completion><result>done</result>", ("attempt_completion", {"result": "done"}), ""),
        ("Some text <execute_command><command>ls</command>", ("execute_command", {"command": "ls"}), "Some text"),
        (
            "I'll write it.\n<write_to_file>\n<path>a.ts</path>\n<content>x = 1\n</content>\n",
            ("write_to_file", {"path": "a.ts", "content": "x = 1"}),
            "I'll write it.",
        ),
    ],
)
def test_a_tool_tag_whose_parameter_tags_all_closed_when_the_output_ends_is_the_call(
    text: str, call: tuple[str, dict[str, Any]], visible: str
) -> None:
    """Cline's parser reads a tool use still open at the end as that call: only ``</TOOL>`` was left out."""
    result = parse_everywhere(text, TOOLS)
    assert [(c["name"], c["arguments"]) for c in result["calls"]] == [call]
    assert result["text"].strip() == visible


def test_a_tool_tag_cut_off_by_the_token_limit_stays_text() -> None:
    text = "Some text <execute_command><command>ls</command>"
    parser = StreamParser(TOOLS)
    events = parser.feed(text) + parser.close(truncated=True)
    assert "".join(getattr(e, "text", "") for e in events) == text


def test_without_offered_tools_tool_tags_are_text() -> None:
    text = "<read_file>\n<path>src/file.ts</path>\n</read_file>"
    assert parse_everywhere(text)["text"] == text


@pytest.mark.parametrize(
    ("text", "arguments"),
    [
        (  # Mistral Small, quoted by minpeter/ai-sdk-tool-call-middleware (benchmarks/real/tool_name_xml)
            '<write_to_file>\npath: a.py\ncontent: """Doc.\n\nNote: keep it short.\n"""\n\ndef f():\n    return 1\n'
            "</write_to_file>",
            {"path": "a.py", "content": '"""Doc.\n\nNote: keep it short.\n"""\n\ndef f():\n    return 1'},
        ),
        ('<list_files>\n  path: "src"\n  recursive: true\n</list_files>', {"path": "src", "recursive": True}),
        ("<read_file>path: src/file.ts</read_file>", {"path": "src/file.ts"}),
    ],
)
def test_a_yaml_like_body_of_declared_keys_is_the_calls_parameters(text: str, arguments: dict[str, Any]) -> None:
    name = text[1 : text.index(">")]
    result = parse_everywhere(text, TOOLS)
    assert (_calls(result), result["text"]) == ([(name, arguments)], "")


@pytest.mark.parametrize(
    "text",
    [
        "<read_file>\nfile: src/file.ts\n</read_file>",  # not a declared parameter
        "<read_file>\nThe path: src/file.ts\n</read_file>",  # the body does not begin with a key
        "<read_file>\npath: src/file.ts\n",  # never closed
        "Write `<read_file>path: a.py</read_file>` to read a file.",  # in an inline code span
        "For example:\n<read_file>\npath: a.py\n</read_file>",  # presented as an example
    ],
)
def test_a_yaml_like_body_without_that_evidence_stays_text(text: str) -> None:
    result = parse_everywhere(text, TOOLS)
    assert (result["calls"], result["text"]) == ([], text)


@pytest.mark.parametrize(
    ("text", "calls", "visible"),
    [
        (  # Devstral Medium, quoted by minpeter/ai-sdk-tool-call-middleware (benchmarks/real/damaged)
            "list_files\n  <path>/src</path>\nread_file\n  <path>/src/main.ts</path>\n</read_file>",
            [("list_files", {"path": "/src"}), ("read_file", {"path": "/src/main.ts"})],
            "",
        ),
        (
            "Let me look.\nread_file\n<path>a.py</path>\nDone.",
            [("read_file", {"path": "a.py"})],
            "Let me look. Done.",
        ),
        (
            "execute_command\n<command>ls</command>\n<cwd>/tmp</cwd>",
            [("execute_command", {"command": "ls", "cwd": "/tmp"})],
            "",
        ),
    ],
)
def test_a_tool_name_alone_on_its_line_then_its_parameter_tags_is_a_call(
    text: str, calls: list[Any], visible: str
) -> None:
    result = parse_everywhere(text, TOOLS)
    assert (_calls(result), " ".join(result["text"].split())) == (calls, visible)


@pytest.mark.parametrize(
    "text",
    [
        "read_file\n<file>a.py</file>",  # a tag the tool does not declare
        "delete_file\n<path>a.py</path>",  # not an offered tool
        "Then read_file\n<path>a.py</path>",  # the name is not alone on its line
        "read_file\n<path>a.py",  # the value never closes
        "For example:\nread_file\n<path>a.py</path>",  # presented as an example
    ],
)
def test_a_name_line_without_that_evidence_stays_text(text: str) -> None:
    result = parse_everywhere(text, TOOLS)
    assert (result["calls"], result["text"]) == ([], text)


SHELL = _tool(
    "shell",
    command={"type": "array", "items": {"type": "string"}},
    justification=_S,
    timeout_ms={"type": "number"},
)
SEND = _tool("send_message", message=_S, card={"type": "object"})


@pytest.mark.parametrize(
    ("text", "arguments"),
    [
        # minpeter/ai-sdk-tool-call-middleware's Morph tests (benchmarks/real/tool_name_xml/b6_aisdk_morph_*)
        ("<shell><command>git</command><command>log</command></shell>", {"command": ["git", "log"]}),
        ("<shell>\n  <command>ls</command>\n  <command>-la</command>\n</shell>", {"command": ["ls", "-la"]}),
        ("<shell><command>cat > a << 'EOF'\nx\nEOF</command></shell>", {"command": ["cat > a << 'EOF'\nx\nEOF"]}),
        ('<shell><command>["ls", "-l"]</command></shell>', {"command": ["ls", "-l"]}),
        ("<shell><command><item>ls</item><item>a</item></command></shell>", {"command": ["ls", "a"]}),
        ("<shell><command><arg>ls</arg><arg>a</arg></command></shell>", {"command": ["ls", "a"]}),
        (  # a repeated string parameter keeps its last value, as a repeated JSON key does
            "<shell><command>ls</command><justification>a</justification><justification>b</justification></shell>",
            {"command": ["ls"], "justification": "b"},
        ),
        (  # an item's closer written twice is markup
            "<shell><command>ls</command><command>app</command></command><timeout_ms>5</timeout_ms></shell>",
            {"command": ["ls", "app"], "timeout_ms": 5},
        ),
    ],
)
def test_an_array_parameter_collects_its_repeated_elements_and_stray_closers_are_markup(
    text: str, arguments: dict[str, Any]
) -> None:
    result = parse_everywhere(text, [SHELL])
    assert (_calls(result), result["text"]) == ([("shell", arguments)], "")


@pytest.mark.parametrize(
    ("text", "arguments"),
    [
        # Amazon Nova 2 Lite, quoted by ai-sdk-tool-call-middleware: one space opens every value
        (
            "<execute_command>\n<command> ls</command>\n<cwd> /tmp</cwd>\n</execute_command>",
            {"command": "ls", "cwd": "/tmp"},
        ),
        ("<read_file><path> a b.py</path></read_file>", {"path": "a b.py"}),
        # not every value opens with one space: the spaces are data
        ("<execute_command><command> ls</command><cwd>/tmp</cwd></execute_command>", {"command": " ls", "cwd": "/tmp"}),
        ("<execute_command><command>  ls</command><cwd>  /</cwd></execute_command>", {"command": "  ls", "cwd": "  /"}),
    ],
)
def test_one_space_opening_every_value_is_layout(text: str, arguments: dict[str, Any]) -> None:
    result = parse_everywhere(text, TOOLS)
    assert _calls(result) == [(text[1 : text.index(">")], arguments)]


@pytest.mark.parametrize(
    ("text", "calls", "visible"),
    [
        (  # ai-sdk-tool-call-middleware's Morph test: the body is the tool's one string parameter
            "I'll summarize.\n<send_message>The trial shows two items.</send_message>",
            [("send_message", {"message": "The trial shows two items."})],
            "I'll summarize.",
        ),
        (
            "<send_message>\nline one\nline two\n</send_message> Sent.",
            [("send_message", {"message": "line one\nline two"})],
            "Sent.",
        ),
        ("<read_file>src/file.ts</read_file>", [("read_file", {"path": "src/file.ts"})], ""),
        ("<send_message>a &lt;b&gt;</send_message>", [("send_message", {"message": "a <b>"})], ""),
    ],
)
def test_a_plain_body_is_the_value_of_the_tools_one_string_parameter(text: str, calls: list[Any], visible: str) -> None:
    result = parse_everywhere(text, [*TOOLS, SEND])
    assert (_calls(result), " ".join(result["text"].split())) == (calls, visible)


@pytest.mark.parametrize(
    ("text", "call", "visible"),
    [
        ('<execute_command command="ls -l" />', ("execute_command", {"command": "ls -l"}), ""),
        (
            "Listing:\n<execute_command command='ls' cwd=\"/tmp\"/>\nDone.",
            ("execute_command", {"command": "ls", "cwd": "/tmp"}),
            "Listing:\n\nDone.",
        ),
        ('<list_files path="src"\n  recursive="true" />', ("list_files", {"path": "src", "recursive": True}), ""),
        ('<read_file path="a &amp; b.txt"/>', ("read_file", {"path": "a & b.txt"}), ""),
        # Attributes, then children for the other parameters.
        (
            '<write_to_file path="a.py"><content>x = 1</content></write_to_file>',
            ("write_to_file", {"path": "a.py", "content": "x = 1"}),
            "",
        ),
        # Attributes, then a plain body for the one string parameter left.
        (
            '<write_to_file path="a.py">\nprint("<name>")\n</write_to_file>',
            ("write_to_file", {"path": "a.py", "content": 'print("<name>")'}),
            "",
        ),
        # gptme's `args="PATH"`: the first parameter's value by position, the body the next's.
        (
            '<tool-use>\n<write_to_file args="s.py">\nif a < b:\n    f("<x>")\n</write_to_file>\n</tool-use>',
            ("write_to_file", {"path": "s.py", "content": 'if a < b:\n    f("<x>")'}),
            "\n",
        ),
        ('<execute_command args="ls -l" />', ("execute_command", {"command": "ls -l"}), ""),
    ],
)
def test_a_tool_element_whose_attributes_are_its_parameters_is_a_call(
    text: str, call: tuple[str, dict[str, Any]], visible: str
) -> None:
    result = parse_everywhere(text, TOOLS)
    assert _calls(result) == [call]
    assert (result["text"], result["errors"]) == (visible, [])


@pytest.mark.parametrize(
    "text",
    [
        "<send_message>never closed",
        "For example: <send_message>hi</send_message>",
        "Write `<send_message>hi</send_message>` to send.",
        "<execute_command>ls</execute_command>",  # two string parameters: which one is not known
        "<send_message>hi</send_message>",  # send_message is not offered in this list
        '<read_file args="a.py">more text</read_file>',  # the body has no parameter left to be
    ],
)
def test_a_plain_body_without_that_evidence_stays_text(text: str) -> None:
    tools = TOOLS if text == "<send_message>hi</send_message>" else [*TOOLS, SEND]
    result = parse_everywhere(text, tools)
    assert (result["calls"], result["text"]) == ([], text)


@pytest.mark.parametrize(
    ("text", "content"),
    [
        (  # Claude Sonnet 4.5 via ai-sdk-tool-call-middleware: a block scalar, then a stray </content> line
            "<write_to_file>\npath: a.py\ncontent: |\n  def f():\n      return 1\n      \n  x = 2\n</content>\n</write_to_file>",
            "def f():\n    return 1\n    \nx = 2\n",
        ),
        ("<write_to_file>\npath: a.py\ncontent: |-\n    one\n    two\n</write_to_file>", "one\ntwo"),
        ("<write_to_file>\npath: a.py\ncontent: >\n  one\n  two\n\n  three\n</write_to_file>", "one two\n\nthree\n"),
        ("<write_to_file>\ncontent: |+\n  a\n\npath: a.py\n</write_to_file>", "a\n\n"),
    ],
)
def test_a_yaml_block_scalar_is_read_as_yaml_reads_it(text: str, content: str) -> None:
    result = parse_everywhere(text, TOOLS)
    assert _calls(result) == [("write_to_file", {"path": "a.py", "content": content})]


@pytest.mark.parametrize(
    ("text", "arguments"),
    [
        (  # CORD's plan: an array parameter as an indented YAML list, quoted items too
            "<ask_followup_question>\nquestion: Which?\nfollow_up:\n  - Option A\n  - 'B: the other'\n"
            "</ask_followup_question>",
            {"question": "Which?", "follow_up": ["Option A", "B: the other"]},
        ),
        (  # the list at the key's own indent, before another key
            "<ask_followup_question>\nfollow_up:\n- a\n- b\nquestion: Which?\n</ask_followup_question>",
            {"follow_up": ["a", "b"], "question": "Which?"},
        ),
        (  # a declared string keeps the lines as written
            "<ask_followup_question>\nquestion:\n  - a\n  - b\n</ask_followup_question>",
            {"question": "\n  - a\n  - b"},
        ),
    ],
)
def test_a_yaml_list_under_an_array_parameter_is_its_items(text: str, arguments: dict[str, Any]) -> None:
    result = parse_everywhere(text, TOOLS)
    assert _calls(result) == [("ask_followup_question", arguments)]


def test_a_pipe_that_opens_no_block_is_the_value_itself() -> None:
    result = parse_everywhere("<write_to_file>\npath: a.py\ncontent: a | b\n</write_to_file>", TOOLS)
    assert _calls(result) == [("write_to_file", {"path": "a.py", "content": "a | b"})]


@pytest.mark.parametrize(
    "text",
    [
        '<execute_command class="x" command="ls"/>',  # an attribute the tool does not declare
        '<execute_command command="ls" command="pwd"/>',  # a parameter given twice
        "<read_file/>",  # no argument
        "<attempt_completion />",  # no argument (a component in JSX: `<TitleBar />`)
        '<run_script command="ls"/>',  # no offered tool
        'Use `<execute_command command="ls"/>` to list.',  # inline code
        "```python\nprint('<execute_command command=\"ls\"/>')\n```",  # a programming language's fence
        '<execute_command command="ls">',  # never closed
    ],
)
def test_attributes_without_that_evidence_stay_text(text: str) -> None:
    result = parse_everywhere(text, TOOLS)
    assert (result["calls"], result["errors"], result["text"]) == ([], [], text)


_ITEM = {"type": "object", "properties": {"step": _S, "status": _S}}
_PLAN_TOOLS = [
    _tool(
        "update_plan",
        explanation=_S,
        plan={"type": "object", "properties": {"step": {"type": "array", "items": _ITEM}}},
        steps={"type": "array", "items": _ITEM},
        note=_S,
    )
]
_TWO = [{"step": "Read", "status": "completed"}, {"step": "Write", "status": "in_progress"}]


@pytest.mark.parametrize(
    ("text", "arguments"),
    [
        (
            "<update_plan><plan><step><step>Read</step><status>completed</status></step>"
            "<step><step>Write</step><status>in_progress</status></step></plan></update_plan>",
            {"plan": {"step": _TWO}},
        ),
        (  # the first item's closer left out, the second's split over a line (ai-sdk's morph test, b6_aisdk_…)
            "<update_plan><plan><step><step>Read</step><status>completed</status>"
            "<step><step>Write</\n  step><status>in_progress</status></step></plan></update_plan>",
            {"plan": {"step": _TWO}},
        ),
        (  # an array parameter repeated, each an object item, one closer with a line break inside
            "<update_plan><steps><step>Read</step><status>completed</\nstatus></steps>"
            "<steps><step>Write</step><status>in_progress</status></steps></update_plan>",
            {"steps": _TWO},
        ),
        (  # an object parameter's one item: a list of one
            "<update_plan><plan><step><step>Read</step><status>completed</status></step></plan></update_plan>",
            {"plan": {"step": _TWO[:1]}},
        ),
    ],
)
def test_an_object_or_array_parameter_of_nested_elements_is_read_by_its_schema_even_damaged(
    text: str, arguments: dict[str, Any]
) -> None:
    result = parse_everywhere(text, _PLAN_TOOLS, seeds=5)
    assert [(c["name"], c["arguments"]) for c in result["calls"]] == [("update_plan", arguments)]
    assert result["text"] == ""


def test_elements_inside_a_string_parameter_stay_its_text() -> None:
    text = "<update_plan><note>Use <b>bold</b> and a <br> here</note></update_plan>"
    result = parse_everywhere(text, _PLAN_TOOLS, seeds=5)
    assert [c["arguments"] for c in result["calls"]] == [{"note": "Use <b>bold</b> and a <br> here"}]


@pytest.mark.parametrize(
    ("text", "call", "visible"),
    [
        (  # llxprt's tests: the scalars typed by the schema
            '<use list_files path="src" recursive="true"></use>',
            ("list_files", {"path": "src", "recursive": True}),
            "",
        ),
        ('Reading it.\n<call read_file path="a.py"/>', ("read_file", {"path": "a.py"}), "Reading it.\n"),
        (
            '<invoke execute_command command="ls -l" cwd="/tmp" >\n</invoke> done',
            ("execute_command", {"command": "ls -l", "cwd": "/tmp"}),
            " done",
        ),
    ],
)
def test_a_tag_whose_first_word_is_an_offered_tool_and_whose_attributes_are_its_parameters_is_a_call(
    text: str, call: tuple[str, dict[str, Any]], visible: str
) -> None:
    result = parse_everywhere(text, TOOLS)
    assert _calls(result) == [call]
    assert (result["text"], result["errors"]) == (visible, [])


@pytest.mark.parametrize(
    "text",
    [
        "<use read_file></use>",  # no attribute
        '<use read_file file="a.py"></use>',  # an attribute the tool does not declare
        '<use read_file path="a.py">and text</use>',  # something inside the tag
        '<use read_file path="a.py"></other>',  # another tag's closer
        '<use read_file path="a.py">',  # never closed
        '<div read_file="a.py"></div>',  # the name as an attribute's key
        '<use fetch_page path="a.py"></use>',  # no offered tool
        'Write `<use read_file path="a.py"></use>` to read.',  # inline code
    ],
)
def test_a_tag_naming_a_tool_without_that_evidence_stays_text(text: str) -> None:
    result = parse_everywhere(text, TOOLS)
    assert (result["calls"], result["errors"], result["text"]) == ([], [], text)


BASH = _tool("bash", command=_S)


@pytest.mark.parametrize(
    ("text", "command", "visible"),
    [
        ("<tool_call>\n<bash>\npwd\n</tool_call>", "pwd", ""),  # MiniMax M2.1 in LocalGPT's changelog
        ("<tool_call>\n<bash>\npwd\n</tool_call>\n</tool_call>", "pwd", ""),  # twice: the second is markup too
        ("Listing.\n<tool-use><bash>ls -la</tool_call>", "ls -la", "Listing. </tool_call>"),
        ("<bash>git status</function_call> Done.", "git status", "</function_call> Done."),
    ],
)
def test_a_plain_body_whose_closer_a_call_familys_closer_replaced_ends_there(
    text: str, command: str, visible: str
) -> None:
    result = parse_everywhere(text, [BASH])
    assert _calls(result) == [("bash", {"command": command})]
    assert " ".join(result["text"].split()) == visible


@pytest.mark.parametrize(
    "text",
    [
        "<bash>ls</div>",  # a closer of no call family
    ],
)
def test_a_plain_body_without_its_closer_or_a_call_closer_stays_text(text: str) -> None:
    result = parse_everywhere(text, [BASH])
    assert (_calls(result), result["text"]) == ([], text)


_SEARCH = _tool("search", query=_S, result_types={"type": "array", "items": _S})
_PAIR = _tool("pair", a=_S, b={"type": "integer"})
_TWO = _tool("two", a=_S, b=_S)


@pytest.mark.parametrize(
    ("text", "call"),
    [
        # rnj-1 (a workunit benchmark's results): the tool's tag around its JSON arguments
        (
            ' <search>\n{"query": "Notify", "result_types": ["workunit"]}\n</search>',
            ("search", {"query": "Notify", "result_types": ["workunit"]}),
        ),
        ('<search>{"query": "x"}</search>', ("search", {"query": "x"})),
        ("<pair>\n  {'a': 'x', 'b': 2}\n</pair>", ("pair", {"a": "x", "b": 2})),  # no single string parameter
        ('<pair>{"a": "x", "b": "2"}</pair>', ("pair", {"a": "x", "b": 2})),
    ],
)
def test_a_json_object_of_declared_parameters_as_the_body_is_the_arguments(
    text: str, call: tuple[str, dict[str, Any]]
) -> None:
    result = parse_everywhere(text, [_SEARCH, _PAIR], seeds=5)
    assert [(c["name"], c["arguments"]) for c in result["calls"]] == [call]
    assert result["text"].strip() == ""


@pytest.mark.parametrize(
    ("text", "calls"),
    [
        ('<search>{"other": 1}</search>', [("search", {"query": '{"other": 1}'})]),  # the one string's value, as before
        ('<two>{"a": "x", "c": 2}</two> ok', []),  # a key the tool does not declare
        ("<two>{}</two>", []),
        ('<two>{"a": "x"} and more</two>', []),
    ],
)
def test_a_json_body_with_keys_the_tool_does_not_declare_is_no_arguments_object(
    text: str, calls: list[tuple[str, dict[str, Any]]]
) -> None:
    result = parse_everywhere(text, [_SEARCH, _TWO], seeds=5)
    assert [(c["name"], c["arguments"]) for c in result["calls"]] == calls
    if not calls:
        assert result["text"] == text


NEWS = _tool("get_news_report", location=_S, category=_S, language=_S, limit={"type": "integer"})
"""BitAgent-8B's outputs in BFCL's prompt variations (HuanzhiMao/gorilla@143abef6, result/BitAgent_BitAgent-8B/
prompt_variation, the concise_xml and verbose_xml return formats): the parameters as a nameless tag's pairs."""


@pytest.mark.parametrize(
    ("text", "calls", "visible"),
    [
        # the nameless tag self-closed, pairs separated by blanks; two calls glued
        (
            '<get_news_report><location="Paris, France" language="en"/><get_news_report><location="Cork"/>',
            [
                ("get_news_report", {"location": "Paris, France", "language": "en"}),
                ("get_news_report", {"location": "Cork"}),
            ],
            "",
        ),
        # variant: pairs separated by commas, the tag left open, never closed
        (
            '<get_news_report><location="Paris, France", category="General", language="en">',
            [("get_news_report", {"location": "Paris, France", "category": "General", "language": "en"})],
            "",
        ),
        # variant: the tool's closer after it is markup; a bare value typed by the schema; single quotes
        (
            "Fetching.\n<get_news_report>\n  <location='Cork', limit=5 />\n</get_news_report>\nDone.",
            [("get_news_report", {"location": "Cork", "limit": 5})],
            "Fetching.\n\nDone.",
        ),
        # variant: the opener's own attributes separated by commas, as in a call's argument list
        (
            '<get_news_report location="Cork", language="en"/>',
            [("get_news_report", {"location": "Cork", "language": "en"})],
            "",
        ),
    ],
)
def test_the_parameters_as_a_nameless_tags_pairs_inside_the_tools_tag_are_a_call(
    text: str, calls: list[tuple[str, dict[str, Any]]], visible: str
) -> None:
    result = parse_everywhere(text, [*TOOLS, NEWS])
    assert _calls(result) == calls
    assert (result["text"], result["errors"]) == (visible, [])


@pytest.mark.parametrize(
    "text",
    [
        '<get_news_report><city="Cork"/>',  # a key the tool does not declare
        '<get_news_report><location="Cork" location="Lima"/>',  # a parameter given twice
        "<get_news_report><>",  # no pair
        '<get_news_report><location="Cork',  # cut off inside the tag
        'For example: <get_news_report><location="Cork"/>',  # presented as an example
        "```python\nx = \"<get_news_report><location='Cork'/>\"\n```",  # code in a fence
        '<weather_report><location="Cork"/>',  # no offered tool
    ],
)
def test_a_nameless_tag_without_that_evidence_stays_text(text: str) -> None:
    result = parse_everywhere(text, [*TOOLS, NEWS])
    assert (result["calls"], result["errors"], result["text"]) == ([], [], text)


_HYPHENED = [_tool("resolve-library-id", libraryName=_S), _tool("get_weather", city=_S)]


@pytest.mark.parametrize(
    ("text", "call"),
    [
        # LM Studio's bug tracker, issue 1358: LFM2.5 spells MCP's `resolve-library-id` as an identifier.
        ('resolve_library_id(libraryName="astro")', ("resolve-library-id", {"libraryName": "astro"})),
        ('[resolve_library_id(libraryName="astro")]', ("resolve-library-id", {"libraryName": "astro"})),
        (
            "<resolve_library_id><libraryName>astro</libraryName></resolve_library_id>",
            ("resolve-library-id", {"libraryName": "astro"}),
        ),
        # And the other way: an offered `get_weather` written with a hyphen.
        ('get-weather(city="Oslo")', ("get_weather", {"city": "Oslo"})),
        ("<get-weather><city>Oslo</city></get-weather>", ("get_weather", {"city": "Oslo"})),
    ],
)
def test_a_tool_name_written_with_underscores_for_hyphens_or_back_opens_its_call(
    text: str, call: tuple[str, dict[str, Any]]
) -> None:
    result = parse_everywhere(text, _HYPHENED, seeds=4)
    assert [(c["name"], c["arguments"]) for c in result["calls"]] == [call]
    assert result["text"] == ""


@pytest.mark.parametrize(
    "text",
    [
        'resolve library id(libraryName="astro")',  # words, not the name
        'resolve__library__id(libraryName="astro")',  # a doubled separator is another identifier
        'resolvelibraryid(libraryName="astro")',
        "The resolve_library_id tool takes a libraryName.",
    ],
)
def test_a_name_that_differs_in_more_than_its_separators_stays_text(text: str) -> None:
    result = parse_everywhere(text, _HYPHENED, seeds=4)
    assert result["calls"] == [] and result["errors"] == []
    assert result["text"] == text


@pytest.mark.parametrize(
    ("text", "arguments"),
    [
        (
            '<read>\n<parameter name="filePath">C:\\src\\a.xaml</parameter>\n<parameter name="offset">218</parameter>\n</read>',
            {"filePath": "C:\\src\\a.xaml", "offset": 218},
        ),
        ("<read><param name='filePath'>a.py</param></read>", {"filePath": "a.py"}),
        (
            "<read>\n  <parameter name=filePath>a.py</parameter>\n  <offset>3</offset>\n</read>",
            {"filePath": "a.py", "offset": 3},
        ),
    ],
)
def test_a_tool_tags_children_written_as_named_parameters_are_its_parameters(
    text: str, arguments: dict[str, Any]
) -> None:
    tools = [_tool("read", filePath=_S, offset={"type": "integer"})]
    result = parse_everywhere(text, tools)
    assert [(c["name"], c["arguments"]) for c in result["calls"]] == [("read", arguments)]
    assert result["text"].strip() == ""


@pytest.mark.parametrize(
    "text",
    [
        '<read><parameter name="color">red</parameter></read>',  # a parameter the tool does not declare
        'The <read> tag takes <parameter name="filePath"> children.',  # prose
    ],
)
def test_named_parameters_the_tool_does_not_declare_or_in_prose_stay_text(text: str) -> None:
    tools = [_tool("read", filePath=_S, offset={"type": "integer"})]
    result = parse_everywhere(text, tools)
    assert result["calls"] == [] and result["text"] == text


@pytest.mark.parametrize(
    ("text", "call", "visible"),
    [
        # deepseek-agent's tests (corpus: tool_name_xml/b31_dsagent_uppercase_in_xml_fence): the format in capitals
        # in a fence of its own language, the fence the call's markup
        (
            "```xml\n<EXECUTE_COMMAND><COMMAND>pwd</COMMAND></EXECUTE_COMMAND>\n```",
            ("execute_command", {"command": "pwd"}),
            "",
        ),
        # variants: no fence, blanks and lines, two parameters, a boolean, capitals for the tag only
        (
            "Listing.\n<LIST_FILES>\n  <PATH>src</PATH>\n  <RECURSIVE>true</RECURSIVE>\n</LIST_FILES>",
            ("list_files", {"path": "src", "recursive": True}),
            "Listing.\n",
        ),
        (
            "<WRITE_TO_FILE><PATH>a.txt</PATH><content>hi</content></WRITE_TO_FILE> done",
            ("write_to_file", {"path": "a.txt", "content": "hi"}),
            " done",
        ),
        ("<READ_FILE><path>b.py</path></READ_FILE>", ("read_file", {"path": "b.py"}), ""),
    ],
)
def test_a_tool_tag_in_capitals_with_its_parameter_tags_is_its_call(
    text: str, call: tuple[str, dict[str, Any]], visible: str
) -> None:
    result = parse_everywhere(text, TOOLS)
    assert _calls(result) == [call]
    assert result["text"] == visible


@pytest.mark.parametrize(
    "text",
    [
        "<DELETE_FILE><PATH>a</PATH></DELETE_FILE>",  # no offered tool
        "<READ_FILE><COLOR>red</COLOR></READ_FILE>",  # a parameter the tool does not declare
        "<read_file><PATH>a</PATH></read_file>",  # capitals for a parameter under a tag as offered
        "<Read_File><Path>a</Path></Read_File>",  # another mixing of cases
        "Use <EXECUTE_COMMAND> with a <COMMAND> child to run it.",  # prose
        "For example:\n```xml\n<EXECUTE_COMMAND><COMMAND>pwd</COMMAND></EXECUTE_COMMAND>\n```",  # presented
    ],
)
def test_capitals_without_that_evidence_stay_text(text: str) -> None:
    result = parse_everywhere(text, TOOLS)
    assert result["calls"] == [] and result["errors"] == []
    assert result["text"] == text


def test_two_offered_names_that_differ_only_in_case_are_not_matched_in_capitals() -> None:
    tools = [_tool("run", cmd=_S), _tool("Run", cmd=_S)]
    text = "<RUN><CMD>ls</CMD></RUN>"
    result = parse_everywhere(text, tools)
    assert result["calls"] == [] and result["text"] == text
