"""An output with Windows line endings: the layout newline around an XML-tagged value is ``\\r\\n`` as well as ``\\n``.

A value on its own lines (``<parameter=k>\\nvalue\\n</parameter>``) loses one line break each side, whichever the
output writes; the line breaks inside the value are its own and stay as written.
"""

from __future__ import annotations

import pytest

from tests.parsing.chunking import parse_everywhere
from tests.parsing.readers.cases import Real, check, fold, tool

_TOOLS = [
    tool("run_shell", command="string", note="string"),
    tool("write_code", code="string"),
    tool("bash", command="string"),
]


@pytest.mark.parametrize(
    ("lf_text", "calls"),
    [
        (
            "<tool_call>\n<function=run_shell>\n<parameter=command>\ngit init\n</parameter>\n"
            "<parameter=note>\nNew repository\n</parameter>\n</function>\n</tool_call>",
            [("run_shell", {"command": "git init", "note": "New repository"})],
        ),
        (
            '<minimax:tool_call>\n<invoke name="write_code">\n<parameter name="code">\ndef hello():\n'
            '    print("world")\n</parameter>\n</invoke>\n</minimax:tool_call>',
            [("write_code", {"code": 'def hello():\r\n    print("world")'})],
        ),
        (
            "Let me list it.\n<run_shell>\n<command>\nls -la /tmp\n</command>\n</run_shell>",
            [("run_shell", {"command": "ls -la /tmp"})],
        ),
        ("<tool: bash>\necho hello world\n</tool>", [("bash", {"command": "echo hello world"})]),
        (
            "<function=run_shell>\n<parameter=command>\n  ls\n  pwd\n  </parameter>\n</function>",
            [("run_shell", {"command": "ls\r\npwd"})],
        ),
    ],
    ids=["qwen3-coder", "minimax-multiline", "tool-name-xml", "cwm", "indented-closer"],
)
def test_a_values_layout_line_breaks_are_layout_with_windows_line_endings(
    lf_text: str, calls: list[tuple[str, dict[str, str]]]
) -> None:
    text = lf_text.replace("\n", "\r\n")
    visible = "Let me list it." if text.startswith("Let") else ""
    check(Real("written: a call with Windows line endings", text, calls, visible=visible, tools=_TOOLS))


@pytest.mark.parametrize(
    ("text", "value"),
    [
        # a line break the value holds beyond the one layout break each side stays the value's own
        ("<function=run_shell>\n<parameter=command>\n\r\nls\r\n\n</parameter>\n</function>", "\r\nls\r\n"),
        ("<function=run_shell>\r\n<parameter=command>\r\n\r\nls\r\n\r\n</parameter>\r\n</function>", "\r\nls\r\n"),
        # a value on its tag's line keeps its characters
        ("<function=run_shell>\r\n<parameter=command>ls\r\n</parameter>\r\n</function>", "ls"),
    ],
)
def test_only_one_line_break_each_side_is_layout(text: str, value: str) -> None:
    result = parse_everywhere(text, _TOOLS)
    assert [(c["name"], c["arguments"]) for c in result["calls"]] == [("run_shell", {"command": value})]


def test_the_same_form_named_in_prose_with_windows_line_endings_stays_text() -> None:
    text = (
        "The format is:\r\n```\r\n<function=NAME>\r\n<parameter=KEY>\r\nVALUE\r\n</parameter>\r\n</function>\r\n```\r\n"
    )
    result = parse_everywhere(text, _TOOLS, every_split=False)
    assert result["calls"] == []
    assert fold(result["text"]) == fold(text)
