"""A number written bare in a Python-style call, for a parameter the offered tool declares a string, is the text it
is written as (``roll(sides=6)``: ``"6"``): hollingsbot's ``TOOL_CALL:`` parser and mlx-swift's LFM2 tests keep
every written value a string there. A parameter declared a number, or not typed at all, keeps the number; ``True``,
``None`` and JSON's literals stay constants whatever the declared type (BFCL's Java and JavaScript prompts)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.parsing.readers.cases import Real, check, tool

SOURCE = "Hollings/hollingsbot3:tests/test_tools_parser.py@c566dd5f; ml-explore/mlx-swift-lm LFM2 tests"
TOOLS: list[dict[str, Any]] = [
    tool("roll", sides="string"),
    tool("set_timer", minutes="string", label="string", repeat="integer"),
    tool("configure", count="string", enabled="string", ratio="number"),
    {"name": "note", "inputSchema": {"type": "object", "properties": {"value": {}}}},  # untyped: any value
]


@pytest.mark.parametrize(
    ("text", "calls"),
    [
        ("Call: roll(sides=6)", [("roll", {"sides": "6"})]),
        (
            '[set_timer(minutes=15, label="tea", repeat=2)]',
            [("set_timer", {"minutes": "15", "label": "tea", "repeat": 2})],
        ),
        ("set_timer(minutes=-2.50, label=7)", [("set_timer", {"minutes": "-2.50", "label": "7"})]),  # as written
        (  # LFM2's tagged list: the written number stays its text, the constant a constant, a number a number
            "<|tool_call_start|>[configure(count=5, enabled=True, ratio=0.5)]<|tool_call_end|>",
            [("configure", {"count": "5", "enabled": True, "ratio": 0.5})],
        ),
        ("<|tool_call_start|>[roll(sides=1e3)]<|tool_call_end|>", [("roll", {"sides": "1e3"})]),
        ("Call: note(value=6)", [("note", {"value": 6})]),  # untyped: the number
        ('Call: roll(sides="6")', [("roll", {"sides": "6"})]),  # quoted: the string, as always
    ],
)
def test_a_number_for_a_declared_string_is_its_written_text(text: str, calls: list[tuple[str, dict[str, Any]]]) -> None:
    check(Real(SOURCE, text, calls, tools=TOOLS))


@pytest.mark.parametrize(
    "text",
    [
        "Use roll(sides=6) in your code.",  # a call on a line of prose: code shown
        "Call: deploy(sides=6)",  # no offered tool of that name
        "The example `roll(sides=6)` rolls a die.",  # inline code
    ],
)
def test_calls_in_prose_or_of_no_tool_stay_text(text: str) -> None:
    check(Real(SOURCE, text, [], visible=text, tools=TOOLS))
