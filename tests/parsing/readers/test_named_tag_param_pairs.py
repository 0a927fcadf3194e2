"""A tag naming an offered tool (``<tool name="bash">``, or any tag whose ``name=``/``tool=`` names one) holding
one pair per argument, spelled ``<param name="K">``, ``<parameter name="K">``, ``<arg name="K">`` or
``<argument name="K">`` (brain-agent-v2's ``<tool name="bash"><param name="command">ls</param></tool>``): a call,
its values typed by the schema; the form mentioned in prose, shown in code, or naming a tool not offered stays
text."""

from __future__ import annotations

from typing import Any

import pytest

from tests.parsing.readers.cases import Real, check, tool

_BRAIN = "rgjaci/brain-agent-v2:tests/test_tool_parser.py@5db51617"
_TOOLS = [
    tool("bash", command="string", timeout="integer"),
    tool("read_file", path="string"),
    tool("lookup_order", order_id="string", include_items="boolean", limit="integer"),
]


@pytest.mark.parametrize(
    ("text", "calls", "visible"),
    [
        (
            '<tool name="bash"><param name="command">ls -la</param></tool>',
            [("bash", {"command": "ls -la"})],
            "",
        ),
        (  # typed values, a value over two lines, prose each side
            'I\'ll run it now.\n<tool name="bash"><param name="command">apt-get update\napt-get install -y nginx'
            '</param><param name="timeout">30</param></tool>\nDone soon.',
            [("bash", {"command": "apt-get update\napt-get install -y nginx", "timeout": 30})],
            "I'll run it now. Done soon.",
        ),
        (  # two calls, prose between; `<arg>` and `<argument>` spellings, single quotes, indentation
            "<tool_call name='read_file'>\n  <arg name='path'>/tmp/x</arg>\n</tool_call> puis "
            '<tool name="lookup_order">\n  <argument name="order_id">A-17</argument>\n'
            '  <argument name="include_items">true</argument>\n</tool>',
            [("read_file", {"path": "/tmp/x"}), ("lookup_order", {"order_id": "A-17", "include_items": True})],
            "puis",
        ),
        (  # a tag of any name, the tool in `tool=`, `<param>` pairs
            'Bestellung prüfen:\n<agent_step tool="lookup_order"><param name="order_id">B-2</param>'
            '<param name="limit">5</param></agent_step>',
            [("lookup_order", {"order_id": "B-2", "limit": 5})],
            "Bestellung prüfen:",
        ),
        (  # `<invoke>` with `<arg>` pairs
            '<invoke name="bash"><arg name="command">whoami</arg></invoke>',
            [("bash", {"command": "whoami"})],
            "",
        ),
    ],
)
def test_a_named_tag_of_param_pairs_is_a_call(text: str, calls: list[tuple[str, dict[str, Any]]], visible: str) -> None:
    check(Real(_BRAIN, text, calls, visible=visible, tools=_TOOLS))


@pytest.mark.parametrize(
    "text",
    [
        'Write `<tool name="bash"><param name="command">ls</param></tool>` to run a command.',  # inline code
        # the form inside code shown in a fence (a fenced call of its own is read, as every tagged call's is)
        'Parse it like this:\n```python\nTEXT = \'<tool name="bash"><param name="command">ls</param></tool>\'\n```',
        'The <param name="command"> element holds the command to run.',  # the pair named in prose
        '<agent_step tool="delete_all"><param name="path">/</param></agent_step>',  # a tool not offered
    ],
)
def test_param_pairs_in_prose_or_for_other_tools_stay_text(text: str) -> None:
    check(Real("written", text, [], visible=text, tools=_TOOLS))
