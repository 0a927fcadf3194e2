"""MiniMax M2.x's ``[TOOL_CALL]{tool => "NAME", args => {--k "v"}}[/TOOL_CALL]`` (`shim.parsing.readers.minimax_bracket`):
read for offered tools at every split point, with typographic quotes and dashes; anything else stays text."""

from __future__ import annotations

from typing import Any

import pytest

from tests.parsing.chunking import parse_everywhere
from tests.parsing.readers.cases import Real, check

TOOLS = ["skills_list", "document-summarizer", "terminal"]


@pytest.mark.parametrize(
    ("text", "calls", "visible"),
    [
        (
            '[TOOL_CALL]\n{tool => "skills_list", args => {\n  --category "research"\n}}\n[/TOOL_CALL]',
            [("skills_list", {"category": "research"})],
            "",
        ),
        (
            "Sure. [TOOL_CALL] {tool => \u201cdocument-summarizer\u201d, args => { \u2013action \u201clist\u201d \u2013document_filename null }} [/TOOL_CALL]",
            [("document-summarizer", {"action": "list", "document_filename": None})],
            "Sure.",
        ),
        (
            '[TOOL_CALL]{name => "terminal", arguments => {--command "echo hi" --timeout 30}}[/TOOL_CALL] Done.',
            [("terminal", {"command": "echo hi", "timeout": 30})],
            "Done.",
        ),
        (
            '[TOOL_CALL]\n{"name": "terminal", "arguments": {"command": "ls"}}\n[/TOOL_CALL]',
            [("terminal", {"command": "ls"})],
            "",
        ),
        ("[TOOL_CALL]{tool => 'skills_list', args => {}}", [("skills_list", {})], ""),
    ],
)
def test_a_bracketed_arrow_call_of_an_offered_tool_is_a_call(
    text: str, calls: list[tuple[str, dict[str, Any]]], visible: str
) -> None:
    check(Real("written: MiniMax M2.x bracket shapes", text, calls, visible=visible, tools=TOOLS))


@pytest.mark.parametrize(
    "text",
    [
        '[TOOL_CALL]{tool => "unknown", args => {--a "b"}}[/TOOL_CALL]',
        "Write [TOOL_CALL] then the call, then [/TOOL_CALL].",
        '[TOOL_CALL]{tool => "terminal", args => {command echo}}[/TOOL_CALL]',
        '[TOOL_CALL]{tool => "terminal", args => {--a "1" --a "2"}}[/TOOL_CALL]',
    ],
)
def test_brackets_around_no_offered_call_stay_text(text: str) -> None:
    result = parse_everywhere(text, TOOLS, every_split=True, seeds=4)
    assert result["calls"] == [] and result["errors"] == [] and result["text"] == text
