"""``Action: NAME(raw argument)`` (klauscode's ReAct): the text in the parentheses is the value of the tool's one
string parameter as written (never evaluated), or the arguments when it is a JSON object (also fenced) or keyword
pairs; the same line with prose after it, cut short, or of a tool not offered stays text."""

from __future__ import annotations

from typing import Any

import pytest

from tests.parsing.readers.cases import Real, check

_KLAUS = "raphaelbauer/klauscode:internal/agent/parser_test.go@1590e8126cd26b57ace87b35800461f2c0b48fc3"


def _tool(name: str, *keys: str) -> dict[str, Any]:
    properties = {key: {"type": "string"} for key in keys}
    return {"name": name, "inputSchema": {"type": "object", "properties": properties, "required": list(keys)}}


_TOOLS = [_tool("calculate", "expression"), _tool("run_shell", "cmd"), _tool("write_file", "path", "content")]


@pytest.mark.parametrize(
    ("text", "calls", "visible"),
    [
        (
            "Thought: add them.\nAction: calculate(2 + 3)",
            [("calculate", {"expression": "2 + 3"})],
            "Thought: add them.",
        ),
        ("Action: calculate(12*9 - 4 / 2)", [("calculate", {"expression": "12*9 - 4 / 2"})], ""),  # variant: no blanks
        ("Action: run_shell(ls -la | grep 'x (y)')", [("run_shell", {"cmd": "ls -la | grep 'x (y)'"})], ""),
        (  # a heredoc over lines, the closing parenthesis on its own line, a Thought in French before it
            "Thought: j'écris le fichier.\nAction: run_shell(cat > a.txt <<EOF\nbonjour\nEOF\n)",
            [("run_shell", {"cmd": "cat > a.txt <<EOF\nbonjour\nEOF"})],
            "Thought: j'écris le fichier.",
        ),
        ('Action: run_shell(cmd: "echo \\"(hi)\\"")', [("run_shell", {"cmd": 'echo "(hi)"'})], ""),
        ("Action: run_shell(cmd='pwd')", [("run_shell", {"cmd": "pwd"})], ""),
        ("Action: run_shell(ls -R)\n```\nDone.", [("run_shell", {"cmd": "ls -R"})], "```\nDone."),  # a fence after
        ('Action 2: calculate("sqrt(16)")', [("calculate", {"expression": "sqrt(16)"})], ""),
        (
            'Action: write_file(\n```json\n{"path": "b.md", "content": "a (b) c"}\n```\n)',
            [("write_file", {"path": "b.md", "content": "a (b) c"})],
            "",
        ),
    ],
)
def test_a_raw_argument_in_parentheses_is_the_call(
    text: str, calls: list[tuple[str, dict[str, Any]]], visible: str
) -> None:
    check(Real(_KLAUS, text, calls, visible=visible, tools=_TOOLS))


@pytest.mark.parametrize(
    "text",
    [
        "Action: run_shell(ls) is how you would list the files.",  # prose after it on its line
        "Use it like e.g. Action: run_shell(ls -R)",  # not at a line's start
        "Action: delete_everything(now)",  # not an offered tool
        "Action: write_file(a.txt)",  # a raw text for a tool of two parameters
        "```go\nAction: run_shell(ls -R)\n```",  # code shown in a fence
        "For example:\nAction: calculate(1 + 1)",  # presented
    ],
)
def test_a_paren_action_that_is_no_call_stays_text(text: str) -> None:
    check(Real("written", text, [], visible=text, tools=_TOOLS))


def test_a_paren_action_cut_off_by_the_end_is_an_error_not_text() -> None:
    result = check(
        Real("written", "Thought: t\nAction: run_shell(echo (", [], visible="Thought: t", errors=1, tools=_TOOLS)
    )
    assert result["calls"] == []
