"""A tag of any name whose ``name=`` (or ``tool=``) attribute names an offered tool, one child element per argument
(MinervaCode's ``<minerva_tool name="Read"><path>a.py</path></minerva_tool>``): a call where every child is a
parameter the tool declares; a child it does not declare, a tool not offered, or the form shown in code stays
text."""

from __future__ import annotations

from typing import Any

import pytest

from tests.parsing.readers.cases import Real, check, tool

_MV = "mascarock/minervacode:src/agent/parser.test.ts@0276884d"
_TOOLS = [
    tool("Read", path="string"),
    tool("Edit", path="string", old_string="string", new_string="string"),
    tool("search_web", query="string", limit="integer", safe="boolean"),
]


@pytest.mark.parametrize(
    ("text", "calls", "visible"),
    [
        (
            'Leggo il file.\n\n<minerva_tool name="Read">\n<path>src/main.py</path>\n</minerva_tool>',
            [("Read", {"path": "src/main.py"})],
            "Leggo il file.",
        ),
        (  # variant: another tag, `tool=` in single quotes, typed values, indentation, prose after
            "Ich suche.\n<agent_action tool='search_web'>\n  <query>Wetter Köln</query>\n  <limit>3</limit>\n"
            "  <safe>true</safe>\n</agent_action>\nDanach lese ich.",
            [("search_web", {"query": "Wetter Köln", "limit": 3, "safe": True})],
            "Ich suche. Danach lese ich.",
        ),
        (  # two blocks, prose between; a value on several lines
            '<x:op name="Edit"><path>a.py</path><old_string>x = 1\ny = 2</old_string>'
            '<new_string>x = 3</new_string></x:op>\nthen:\n<op name="Read"><path>b.py</path></op>',
            [
                ("Edit", {"path": "a.py", "old_string": "x = 1\ny = 2", "new_string": "x = 3"}),
                ("Read", {"path": "b.py"}),
            ],
            "then:",
        ),
    ],
)
def test_a_named_tag_of_declared_elements_is_a_call(
    text: str, calls: list[tuple[str, dict[str, Any]]], visible: str
) -> None:
    check(Real(_MV, text, calls, visible=visible, tools=_TOOLS))


@pytest.mark.parametrize(
    "text",
    [
        '<minerva_tool name="Read">\n<file>src/main.py</file>\n</minerva_tool>',  # a child the tool does not declare
        '<minerva_tool name="Read"><path>a.py</path><mode>raw</mode></minerva_tool>',  # one declared, one not
        '<minerva_tool name="Delete">\n<path>a.py</path>\n</minerva_tool>',  # a tool not offered
        '<form name="Read"><input name="path"/><path>a.py</path></form>',  # an HTML form: its first child no parameter
        'Write `<minerva_tool name="Read"><path>a.py</path></minerva_tool>` to read.',  # inline code
    ],
)
def test_a_named_tag_without_declared_elements_stays_text(text: str) -> None:
    check(Real("written", text, [], visible=text, tools=_TOOLS))
