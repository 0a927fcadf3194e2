"""A call tag whose attributes are the call (``<tool_use server="S" name="NAME" args='{…}' />``, Lum's MCP format),
or whose body is those pairs (``<toolcall>name="NAME" k="v"</toolcall>``): a call of the offered tool named; the same
element of a tool not offered, an HTML element, or one shown in prose stays text."""

from __future__ import annotations

from typing import Any

import pytest

from tests.parsing.readers.cases import Real, check, tool

_LUM = "Code2731/Lum:src/utils/toolCallParser.test.ts@293e58356e4fc220c3cbf280505f4417568b7e32"
_NO_ARGUMENTS: dict[str, Any] = {}
_TOOLS = [
    tool("read", path="string"),
    tool("screenshot", url="string", full_page="boolean"),
    tool("exec", command="string", timeout="integer"),
    tool("open&run"),
]


@pytest.mark.parametrize(
    ("text", "calls", "visible"),
    [
        ('<tool_use server="fs" name="read" args=\'{"path":"a.txt"}\' />', [("read", {"path": "a.txt"})], ""),
        (  # variant: another tool, prose in German around it, a closing tag instead of `/>`
            'Ich mache einen Screenshot.\n<tool_use server="pw" name="screenshot" '
            'args=\'{"url": "https://x.org", "full_page": true}\'></tool_use>\nDanach schaue ich.',
            [("screenshot", {"url": "https://x.org", "full_page": True})],
            "Ich mache einen Screenshot. Danach schaue ich.",
        ),
        (  # variant: entities in the args, encoded twice, and in the name; tag and keys in upper case
            '<TOOL_USE SERVER="a&amp;b" NAME="exec" ARGS="{&amp;quot;command&amp;quot;:&amp;quot;ls&amp;quot;}"/>',
            [("exec", {"command": "ls"})],
            "",
        ),
        ('<tool_use server="x" name="open&amp;run" args=\'{}\' />', [("open&run", _NO_ARGUMENTS)], ""),
        ('<tool_use server="git" name="exec" />', [("exec", _NO_ARGUMENTS)], ""),  # no args: empty arguments
        (  # declared parameters as attributes, typed by the schema; `id` and `server` are markup
            '<tool_call id="call_1" name="exec" command="make -j4" timeout="30"/>',
            [("exec", {"command": "make -j4", "timeout": 30})],
            "",
        ),
        (  # two in a row, another tag of the call vocabulary, `tool=` for the name
            '<mcp_tool tool="read" args=\'{"path": "a"}\'/>\n<mcp_tool tool="read" args=\'{"path": "b"}\'/>',
            [("read", {"path": "a"}), ("read", {"path": "b"})],
            "",
        ),
        (  # the pairs as the body of a call tag (0xAgent), comma-separated
            '<toolcall>name="exec", command="git status"</toolcall>',
            [("exec", {"command": "git status"})],
            "",
        ),
        ('```xml\n<tool_use server="fs" name="read" args=\'{"path": "c"}\'/>\n```', [("read", {"path": "c"})], ""),
    ],
)
def test_a_call_tag_of_attributes_naming_an_offered_tool_is_a_call(
    text: str, calls: list[tuple[str, dict[str, Any]]], visible: str
) -> None:
    check(Real(_LUM, text, calls, visible=visible, tools=_TOOLS))


@pytest.mark.parametrize(
    "text",
    [
        '<tool_use server="x" name="delete_all" />',  # not an offered tool
        '<tool_use server="x" />',  # no tool named
        '<tool_use server="x" name="read" args=\'{not json}\' />',  # arguments unknown
        '<tool_use name="read" name="exec" />',  # a key twice
        '<tool_use name="read"></tool_call>',  # another tag's closer
        '<input name="read" type="text"/> is the search box.',  # an HTML element, no call tag
        '<form name="exec"><input name="q"></form>',
        '<xsl:call-template name="read"/>',  # XSLT markup
        'Write `<tool_use server="fs" name="read" args=\'{}\' />` to read a file.',  # inline code
        '```ts\nconst raw = `<tool_use name="read" args=\'{"path": "a"}\'/>`;\n```',  # code shown in a fence
        'For example: <tool_use server="fs" name="read" args=\'{"path": "a"}\' />',  # presented
        '<toolcall>name="exec" and then ls</toolcall>',  # words that are no pairs
    ],
)
def test_an_attribute_tag_without_a_call_of_an_offered_tool_stays_text(text: str) -> None:
    check(Real("written", text, [], visible=text, tools=_TOOLS))


_BLANKS = " " * 12
"""More blanks after an opener than the row reading the element whole (`attribute_call`) waits through."""


@pytest.mark.parametrize(
    ("text", "calls", "visible"),
    [
        (  # benchmarks/real/function_name_attr_xml/b24_vtx_*: a chunk ending after the opener's line took it
            f'\n  I will write it.\n  <function name="write_file">\n{_BLANKS}<parameter name="path">/a.txt</parameter>\n'
            f'{_BLANKS}<parameter name="content">hi</parameter>\n  </function>\n  Done?\n',
            [("write_file", {"path": "/a.txt", "content": "hi"})],
            "I will write it. Done?",
        ),
        (  # variant: another tool and language, no indent, blanks of tabs after the opener
            'Ich suche.\n<function name="search">\t\t\t\t\t\n\t\t\t\t<param name="query">Wetter Köln</param>\n</function>',
            [("search", {"query": "Wetter Köln"})],
            "Ich suche.",
        ),
        (  # benchmarks/real/tool_attr_params_xml/c16_tsb_*: a <tool name=…> element with its parameters
            f'<tool name="exec">\n{_BLANKS}<parameters>\n{_BLANKS}  <command>ls -la</command>\n{_BLANKS}</parameters>\n'
            "    </tool>",
            [("exec", {"command": "ls -la"})],
            "",
        ),
    ],
)
def test_an_opener_another_row_reads_is_that_rows_at_every_split_point(
    text: str, calls: list[tuple[str, dict[str, Any]]], visible: str
) -> None:
    """`attribute_call_opened` (a call tag opened with attributes, nothing after it in the text read so far) is the
    table's last row: where a chunk ends after such an opener, the row that reads it whole still gets it."""
    tools = [*_TOOLS, tool("write_file", path="string", content="string"), tool("search", query="string")]
    check(Real("written", text, calls, visible=visible, tools=tools))
