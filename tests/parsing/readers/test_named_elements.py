"""A call tag naming its tool in an attribute, its arguments as XML elements (`shim.parsing.readers.named_elements`,
TelegramSearchBot's tool format), at every split point."""

from __future__ import annotations

import pytest

from tests.parsing.readers.cases import Real, check

MEMORY = {
    "name": "remember",
    "inputSchema": {
        "type": "object",
        "properties": {"command": {"type": "string"}, "arguments": {"type": "string"}, "count": {"type": "integer"}},
    },
}
THINK = {
    "name": "think",
    "inputSchema": {
        "type": "object",
        "properties": {"input": {"type": "string"}, "more": {"type": "boolean"}, "step": {"type": "integer"}},
    },
}
TOOLS = [MEMORY, THINK]


@pytest.mark.parametrize(
    ("text", "calls", "visible"),
    [
        # TelegramSearchBot's tests: <parameters> with a CDATA JSON text kept as written, indented lines.
        (
            '<tool name="remember">\n    <parameters>\n        <command>add</command>\n'
            '        <arguments><![CDATA[\n{"a": [1]}\n]]></arguments>\n    </parameters>\n</tool>',
            [("remember", {"command": "add", "arguments": '\n{"a": [1]}\n'})],
            "",
        ),
        # Text leaves typed by the schema; two calls, each in a ```xml fence, the fences their markup.
        (
            '```xml\n<tool name="think">\n  <parameters>\n    <input>go</input>\n    <more>true</more>\n'
            '    <step>2</step>\n  </parameters>\n</tool>\n```\n\n```xml\n<tool name="remember">\n  <parameters>'
            "<command>x</command><count>3</count></parameters>\n</tool>\n```",
            [("think", {"input": "go", "more": True, "step": 2}), ("remember", {"command": "x", "count": 3})],
            "",
        ),
        # Other arguments elements, or the arguments right under the tag; single quotes; prose before it.
        ("I'll think.\n<tool name='think'><args><step>1</step></args></tool>", [("think", {"step": 1})], "I'll think."),
        ('<tool name="think">\n<input>hi</input>\n</tool>', [("think", {"input": "hi"})], ""),
        (
            '<tool_call name="think"><parameters><input>a &lt; b</input></parameters></tool_call>',
            [("think", {"input": "a < b"})],
            "",
        ),
        # Entities in a text leaf are its characters. An element named like an arguments key that the tool declares is an argument, not a wrapper.
        ('<tool name="remember"><arguments>raw</arguments></tool>', [("remember", {"arguments": "raw"})], ""),
    ],
)
def test_a_named_tag_with_element_arguments_is_a_call(text: str, calls: list, visible: str) -> None:
    check(
        Real("written: TelegramSearchBot's <tool name=…><parameters> format", text, calls, visible=visible, tools=TOOLS)
    )


@pytest.mark.parametrize(
    "text",
    [
        '<tool name="rm"><parameters><path>/</path></parameters></tool>',
        'The <tool name="think"> tag holds <b>bold</b> words.',
    ],
)
def test_a_named_tag_of_no_offered_tool_or_in_prose_stays_text(text: str) -> None:
    check(Real("written", text, [], visible=text, tools=TOOLS))


WRITE = {
    "name": "write_file",
    "inputSchema": {
        "type": "object",
        "properties": {"path": {"type": "string"}, "content": {"type": "string"}, "mode": {"type": "integer"}},
    },
}


@pytest.mark.parametrize(
    ("text", "calls", "visible"),
    [
        # A string parameter holding markup keeps it as its text (HTML, XML, a tag with attributes, a lone opener).
        (
            '<tool_call name="write_file"><args><path>a.html</path><content><div class="x">hi</div>\n'
            '<script type="text/javascript">go()</script></content></args></tool_call>',
            [
                (
                    "write_file",
                    {
                        "path": "a.html",
                        "content": '<div class="x">hi</div>\n<script type="text/javascript">go()</script>',
                    },
                )
            ],
            "",
        ),
        (
            '<tool name="write_file">\n<path>b.xml</path>\n<content><root><item>1</item><br></root></content>\n</tool>',
            [("write_file", {"path": "b.xml", "content": "<root><item>1</item><br></root>"})],
            "",
        ),
        # An arguments element carrying attributes: they are its markup.
        (
            "Stand by: <tool_call name=\"write_file\">\n  <args data-n='1'><path>c.txt</path><mode>644</mode></args>\n</tool_call>",
            [("write_file", {"path": "c.txt", "mode": 644})],
            "Stand by:",
        ),
        (
            '<tool name="write_file"><parameters kind="object"><path>d</path></parameters></tool>',
            [("write_file", {"path": "d"})],
            "",
        ),
        # An element whose only attribute is its type: keyed by its tag, typed by the attribute.
        (
            '<tool name="write_file"><args><path>e</path><mode type="int">7</mode></args></tool>',
            [("write_file", {"path": "e", "mode": 7})],
            "",
        ),
    ],
)
def test_element_arguments_keep_a_string_parameters_markup_and_read_attributes_that_are_markup(
    text: str, calls: list, visible: str
) -> None:
    check(Real("written: element arguments with markup and attributes", text, calls, visible=visible, tools=[WRITE]))


def test_an_element_with_attributes_other_than_its_type_is_no_argument() -> None:
    text = '<tool name="write_file"><args><path>f</path><mode class="x">7</mode></args></tool>'
    check(Real("written", text, [("write_file", {"path": "f"})], visible="", tools=[WRITE]))
