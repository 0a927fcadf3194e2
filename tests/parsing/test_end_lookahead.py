"""An opener that looks at where the text ends (`shim.parsing.readers.attribute_call.OPENED`: a call tag opened with
attributes and nothing after it, a call cut off at its opener) is decided where the text is whole or once text follows
it, never at a chunk's end: a tag whose attribute names an offered tool (``<tool type="read_file">a.txt</tool>``) is
read by its own row whatever the chunking (`shim.parsing.tags.Markers.match`)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.parsing.chunking import parse_everywhere
from tests.parsing.readers.cases import tool

TOOLS = [
    tool("read_file", path="string"),
    tool("get-weather", city="string", days="integer"),
    tool("shell", content="string"),
    tool("write", path="string", content="string"),
]


@pytest.mark.parametrize(
    ("text", "calls"),
    [
        # `typed_action`: a call-word tag whose type/tool/tool_name/name attribute names the tool, the body a value
        ('<tool type="read_file">a.txt</tool>', [("read_file", {"path": "a.txt"})]),
        ('<tool_action type="read_file">\nsrc/main.py\n</tool_action>', [("read_file", {"path": "src/main.py"})]),
        ('<tool_exec id="x1" type="shell">pwd</tool_exec>', [("shell", {"content": "pwd"})]),
        ('<call tool="get_weather" days="2">Oslo</call>', [("get-weather", {"days": 2, "city": "Oslo"})]),
        ('<function_call tool_name="shell">ls -la</function_call>', [("shell", {"content": "ls -la"})]),
        ('<invoke_tool name="shell">echo hi</invoke_tool>', [("shell", {"content": "echo hi"})]),
        ("Lo leo ahora.\n<tool type='read_file'>\nnotas.txt\n</tool>\nListo.", [("read_file", {"path": "notas.txt"})]),
        # `named_any_tag`: the invoke form's pairs under a tag of any name
        (
            '<call_record tool="read_file"><parameter name="path">a.py</parameter></call_record>',
            [("read_file", {"path": "a.py"})],
        ),
        (
            '<tool_run tool="write">\n<parameter name="path">b.md</parameter>\n<parameter name="content">hi</parameter>\n'
            "</tool_run>",
            [("write", {"path": "b.md", "content": "hi"})],
        ),
        # `attribute_call`, `invoke`, `minicpm`: call rows, ahead of the cut-off opener in the table
        ('<tool_use name="read_file" args=\'{"path": "c"}\' />', [("read_file", {"path": "c"})]),
        ('<tool_use server="fs" name="read_file" path="d"></tool_use>', [("read_file", {"path": "d"})]),
        ('<invoke name="read_file"><parameter name="path">f</parameter></invoke>', [("read_file", {"path": "f"})]),
        ('<function name="read_file"><param name="path">g</param></function>', [("read_file", {"path": "g"})]),
    ],
)
def test_a_tag_whose_attribute_names_an_offered_tool_is_its_call_at_every_split(
    text: str, calls: list[tuple[str, dict[str, Any]]]
) -> None:
    got = parse_everywhere(text, TOOLS)
    assert [(c["name"], c["arguments"]) for c in got["calls"]] == calls
    assert not got["errors"]


@pytest.mark.parametrize(
    "text",
    [
        '<tool_use server="fs">hello there</tool_use>',  # no tool named: text
        'Use <tool type="read_file"> tags for it.',  # named in a sentence
        '<tool type="delete_all">x</tool>',  # a tool that was not offered
        'Write `<tool type="read_file">a.txt</tool>` to read a file.',  # inline code
    ],
)
def test_the_same_openers_in_prose_stay_text_at_every_split(text: str) -> None:
    got = parse_everywhere(text, TOOLS)
    assert not got["calls"] and not got["errors"]
    assert got["text"] == text


@pytest.mark.parametrize(
    ("text", "visible"),
    [
        ('<tool_use server="fs">', ""),
        ('Taking one now.\n<tool_use server="playwright">\n\n', "Taking one now."),
        ('<tool type="read_file">', ""),
    ],
)
def test_an_attribute_opener_ending_the_output_is_still_a_call_cut_off(text: str, visible: str) -> None:
    got = parse_everywhere(text, TOOLS)
    assert not got["calls"]
    assert len(got["errors"]) == 1
    assert " ".join(got["text"].split()) == visible
