"""Qwen3-Coder's opener drifted into another tag (`shim.parsing.readers.qwen_xml_drift`) and its arguments object
under an undeclared ``arguments`` parameter (`shim.parsing.readers.qwen_xml.XmlBody`), at every split point; the
same shapes of no offered tool, with no parameter after them or quoted in a fence, stay text."""

from __future__ import annotations

import pytest

from tests.parsing.readers.cases import Real, check, tool

TOOLS = [tool("bash", command="string", description="string"), tool("read", filePath="string")]
BASH = ("bash", {"command": "ls /code"})
READ = ("read", {"filePath": "/code/a.go"})


@pytest.mark.parametrize(
    ("text", "visible"),
    [
        # q27 issue 24: the tool's name as the first parameter's key, unclosed.
        ("<parameter=bash>\n<parameter=command>\nls /code\n</parameter>\n</function>\n", ""),
        ("Checking.\n<parameter=bash><parameter=command>ls /code</parameter></function>", "Checking."),
        ("<parameter=bash>\n<parameter=command>\nls /code\n</parameter>\n", ""),  # no closer: the output's end
        # The name in a tag of its own, closed by its own closer, by `</parameter>` or by none.
        ("<name>bash\n</parameter>\n<parameter=command>\nls /code\n</parameter>\n</function>", ""),
        ("<tool_name>bash</tool_name>\n<parameter=command>ls /code</parameter>", ""),
        ("<function_name> bash </function_name><parameter=command>ls /code</parameter></function>", ""),
        (
            "<tool_call>\n<name>\nbash\n</parameter>\n<parameter=command>\nls /code\n</parameter>\n</function>\n</tool_call>",
            "",
        ),
        # A JSON call's brace fused with the opener, or a JSON call's head, before XML parameters.
        ('<tool_call>\n{"function=bash>\n<parameter=command>\nls /code\n</parameter>\n</function>\n</tool_call>', ""),
        ('Trying.\n\n{"function="bash">\n<parameter=command>\nls /code\n</parameter>\n</function>', "Trying."),
        ('<tool_call>\n{"name": "bash",\n<parameter=command>\nls /code\n</parameter>\n</function>\n</tool_call>', ""),
        ('{ "name":"bash" <parameter=command>ls /code</parameter></function>', ""),
        # The name tag for a JSON call's head, the arguments object after it, the call's own brace left over.
        ('<name>bash, "arguments": {"command": "ls /code"}}', ""),
        ('Listing.\n<tool_name>bash", "parameters": {"command": "ls /code"}}\n', "Listing."),
        ('<name>bash, "arguments": {"command": "ls /code"}', ""),
    ],
)
def test_a_drifted_opener_of_an_offered_tool_before_a_parameter_is_a_call(text: str, visible: str) -> None:
    check(Real("written: q27's Qwen3.6/3.8-27B captures", text, [BASH], visible=visible, tools=TOOLS))


@pytest.mark.parametrize(
    "text",
    [
        "<parameter=bash>\n<parameter=command>\nls /code\n</parameter>\n</function>\n"
        "<parameter=read>\n<parameter=filePath>\n/code/a.go\n</parameter>\n</function>\n",
        # the next drifted opener ends the call that wrote no closer
        "<tool_name>bash</tool_name>\n<parameter=command>ls /code</parameter>\n"
        "<tool_name>read</tool_name>\n<parameter=filePath>/code/a.go</parameter>",
    ],
)
def test_two_drifted_calls_are_two_calls(text: str) -> None:
    check(Real("written: q27 issue 24", text, [BASH, READ], visible="", tools=TOOLS))


@pytest.mark.parametrize(
    "text",
    [
        "<parameter=grep>\n<parameter=command>\nls\n</parameter>\n</function>",  # no offered tool
        "<parameter=bash>ls /code</parameter>",  # no parameter after it
        "<name>bash</name> is the tool's name.",
        '<name>bash, "arguments": are listed below',
        '<name>grep, "arguments": {"command": "ls"}}',
        '{"function=bash> is how it drifts',
        '{"name": "bash", "note": "<parameter=command> is a tag"}',
        '{"function=grep>\n<parameter=command>\nls\n</parameter>\n</function>',  # no offered tool
        "The shape, quoted:\n\n```\n<parameter=bash>\n<parameter=command>\nls /code\n</parameter>\n</function>\n```\n",
        "```xml\n<name>bash</name>\n<parameter=command>ls</parameter>\n```",
    ],
)
def test_a_drifted_shape_of_no_offered_tool_with_no_parameter_or_in_a_fence_stays_text(text: str) -> None:
    check(Real("written", text, [], visible=text, tools=TOOLS))


@pytest.mark.parametrize(
    "text",
    [
        # Qwen3.8: the arguments object as JSON under an `arguments` parameter, its closer left out at the output's end.
        '<function=bash>\n<parameter=arguments>\n{"command": "ls /code"}',
        '<function=bash>\n<parameter=arguments>\n{"command": "ls /code"}}\n</parameter>\n</function>',
        '<tool_call><function=bash><parameter=parameters>{"command":"ls /code"}</parameter></function></tool_call>',
        '<tool_name>bash</tool_name>\n<parameter=arguments>\n{"command":"ls /code"}}',
    ],
)
def test_an_arguments_object_under_an_undeclared_arguments_parameter_is_the_arguments(text: str) -> None:
    check(Real("written: q27's Qwen3.8 captures", text, [BASH], visible="", tools=TOOLS))


def test_a_declared_arguments_parameter_or_a_cut_off_object_is_not_spread() -> None:
    declared = [tool("run", arguments="string")]
    text = '<function=run>\n<parameter=arguments>\n{"a": 1}\n</parameter>\n</function>'
    check(Real("written", text, [("run", {"arguments": '{"a": 1}'})], tools=declared))
    text = '<function=bash>\n<parameter=arguments>\n{"command": "ls /co'
    check(Real("written", text, [], tools=TOOLS, errors=1), visible=False)


def _strict(name: str, required: list[str], **types: str) -> dict[str, object]:
    entry = tool(name, **types)
    entry["inputSchema"]["required"] = required
    return entry


NAMELESS_TOOLS = [
    _strict("Read", ["file_path"], file_path="string", limit="integer"),
    _strict("Write", ["file_path", "content"], file_path="string", content="string"),
    _strict("Bash", ["command"], command="string"),
]


@pytest.mark.parametrize(
    ("text", "calls", "visible"),
    [
        # q27's drift mode 20: an empty <tool_name> before each call, a <tool> separator, mismatched closers
        (
            "Let me look.\n\n<tool_calls>\n<tool_name>\n<parameter=file_path>\n/w/vitest.config.ts\n</parameter>\n"
            "</function>\n<tool>\n<tool_name>\n<parameter=file_path>\n/w/TASK.md\n</parameter>\n</function>\n"
            "</tool_call>",
            [("Read", {"file_path": "/w/vitest.config.ts"}), ("Read", {"file_path": "/w/TASK.md"})],
            "Let me look.",
        ),
        (
            "<tool_call>\n<tool_name>\n<parameter=command>\nls -la\n</parameter>\n</function>\n</tool_call>",
            [("Bash", {"command": "ls -la"})],
            "",
        ),
        (  # every key declared, the required ones present: Write, not Read (content is no key of Read's)
            "<tool_call><name></name><parameter=file_path>/a</parameter><parameter=content>x</parameter></function>"
            "</tool_call>",
            [("Write", {"file_path": "/a", "content": "x"})],
            "",
        ),
        (  # the schema types the values once the tool is known
            "Reading.\n<function_name>\n<parameter=file_path>\n/a\n</parameter>\n<parameter=limit>\n5\n</parameter>\n"
            "</function>",
            [("Read", {"file_path": "/a", "limit": 5})],
            "Reading.",
        ),
    ],
)
def test_an_empty_name_tag_before_parameters_is_a_call_of_the_one_tool_they_fit(
    text: str, calls: list[tuple[str, dict[str, object]]], visible: str
) -> None:
    check(Real("variant", text, calls, visible=visible, tools=NAMELESS_TOOLS))


@pytest.mark.parametrize(
    ("text", "tools"),
    [
        # two offered tools fit (Read and Stat take file_path alone): no call, an error carrying the text
        (
            "<tool_call>\n<tool_name>\n<parameter=file_path>\n/a\n</parameter>\n</function>\n</tool_call>",
            [*NAMELESS_TOOLS, _strict("Stat", ["file_path"], file_path="string")],
        ),
        # no offered tool declares the key
        ("<tool_call>\n<tool_name>\n<parameter=path>\n/a\n</parameter>\n</function>\n</tool_call>", NAMELESS_TOOLS),
        # a required key missing: content alone is no Write (file_path is required), and no other tool declares it
        ("<tool_call><tool_name><parameter=content>x</parameter></function></tool_call>", NAMELESS_TOOLS),
    ],
)
def test_an_empty_name_tag_whose_parameters_fit_no_one_tool_is_an_error(text: str, tools: list[object]) -> None:
    result = check(Real("variant", text, [], tools=tools, errors=1), visible=False)
    assert result["text"] == ""
    assert "names no tool" in result["errors"][0]["message"]


@pytest.mark.parametrize(
    "text",
    [
        "Write <tool_name> then <parameter=command> tags.",
        "The shape:\n```\n<tool_name>\n<parameter=command>\nls\n</parameter>\n```",
        "<tool_name>\nBash is the tool; no parameter follows.",
    ],
)
def test_an_empty_name_tag_mentioned_or_fenced_stays_text(text: str) -> None:
    check(Real("variant", text, [], visible=text, tools=NAMELESS_TOOLS))
