"""A wrapper's word in brackets before a tagged call (`shim.parsing.readers.bracket_wrapper`): ``[tool_call]`` then
``<invoke name=…>`` (MiniMax-M1 in LucidMind's brain.log), its markup at every split point; before anything else
the label is text."""

from __future__ import annotations

from typing import Any

import pytest

from tests.parsing.chunking import parse_everywhere
from tests.parsing.readers.cases import Real, check

TOOLS = ["web_search", "run_command", "read_file"]
INVOKE = '<invoke name="run_command">\n<parameter name="command">ls -la</parameter>\n</invoke>'
LUCID = "yadongzy/LucidMind:tests/test_tool_call_parser.py@5f3f4a13"


@pytest.mark.parametrize(
    ("text", "calls", "visible"),
    [
        (f"[tool_call]\n{INVOKE}", [("run_command", {"command": "ls -la"})], ""),
        (
            '让我先搜索...\n[tool_call]\n<invoke name="web_search">\n<parameter name="query">量子计算</parameter>\n'
            "</invoke>",
            [("web_search", {"query": "量子计算"})],
            "让我先搜索...",
        ),
        (f"[TOOL_CALL]\n{INVOKE}\n[/TOOL_CALL]\nDone.", [("run_command", {"command": "ls -la"})], "Done."),
        (f"[tool_call]\n{INVOKE}\n</minimax:tool_call>", [("run_command", {"command": "ls -la"})], ""),
        (
            'Voy a leerlo. [ Function Calls ]  <invoke name="read_file"><parameter name="path">a.py</parameter>'
            "</invoke>[/function calls] Listo.",
            [("read_file", {"path": "a.py"})],
            "Voy a leerlo. Listo.",
        ),
        (f"[minimax:tool_call]\n\n{INVOKE}\n[/minimax:tool_call]", [("run_command", {"command": "ls -la"})], ""),
        (
            '[tool_use]\n<tool_call>{"name": "web_search", "arguments": {"query": "tides"}}</tool_call>\n[/tool_use]',
            [("web_search", {"query": "tides"})],
            "",
        ),
        (
            "[ToolCall] <function=read_file>\n<parameter=path>\nb.txt\n</parameter>\n</function>",
            [("read_file", {"path": "b.txt"})],
            "",
        ),
    ],
)
def test_a_bracketed_wrapper_word_before_a_tagged_call_is_its_markup(
    text: str, calls: list[tuple[str, dict[str, Any]]], visible: str
) -> None:
    check(Real(f"written after {LUCID}", text, calls, visible=visible, tools=TOOLS))


def test_minimax_m1_brain_log_output_is_read() -> None:
    text = (
        '让我先搜索今天的科技新闻...\n[tool_call]\n<invoke name="web_search">\n'
        '<parameter name="query">2026年2月27日 科技新闻</parameter>\n<parameter name="max_results">8</parameter>\n'
        "</invoke>"
    )
    calls = [("web_search", {"query": "2026年2月27日 科技新闻", "max_results": "8"})]
    check(Real(LUCID, text, calls, visible="让我先搜索今天的科技新闻...", tools=TOOLS))


@pytest.mark.parametrize(
    "text",
    [
        "Write [tool_call] then the invoke tag on the next line.",
        "The log shows [tool_call]\n<b>nothing</b> here.",
        'Use `[tool_call]` and then `<invoke name="run_command">`.',
        "[function_calls]\nno calls were needed.",
        "Reply with [TOOL_CALL] <your call> [/TOOL_CALL].",
    ],
)
def test_the_label_before_no_tagged_call_stays_text(text: str) -> None:
    result = parse_everywhere(text, TOOLS, every_split=True, seeds=4)
    assert result["calls"] == [] and result["errors"] == [] and result["text"] == text
