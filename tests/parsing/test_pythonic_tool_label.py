"""A ``tool:`` / ``function:`` / ``tool call:`` label before a Python-style call opening the message or a line is the
call's markup, as ``Call:`` and ``Action:`` are (beauford's prompt asks for ``tool: NAME({…})``, benchmarks/real/
call_colon_json_paren ``a30_bf_*``; `shim.parsing.readers.pythonic_calls`)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.parsing.chunking import parse_everywhere

TOOLS = ["get_weather", "list_files", "read_file"]


def _calls(result: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    return [(c["name"], c["arguments"]) for c in result["calls"]]


@pytest.mark.parametrize(
    ("text", "calls", "visible"),
    [
        ('tool: read_file({"filename":"README.md"})', [("read_file", {"filename": "README.md"})], ""),
        (
            'I will inspect this first.\ntool: list_files({"path":"."})\nThen I will continue.',
            [("list_files", {"path": "."})],
            "I will inspect this first.\nThen I will continue.",
        ),
        ('Tool: get_weather(city="Paris")', [("get_weather", {"city": "Paris"})], ""),
        (
            'Je vérifie.\nFunction : get_weather(city="Lyon", days=2)',
            [("get_weather", {"city": "Lyon", "days": 2})],
            "Je vérifie.",
        ),
        ('Tool call: list_files(path="src")\n', [("list_files", {"path": "src"})], ""),
        (
            'tool_call: read_file(filename="a.py")\ntool: read_file(filename="b.py")',
            [("read_file", {"filename": "a.py"}), ("read_file", {"filename": "b.py"})],
            "",
        ),
    ],
)
def test_a_tool_label_before_a_call_on_its_line_is_markup(
    text: str, calls: list[tuple[str, dict[str, Any]]], visible: str
) -> None:
    result = parse_everywhere(text, TOOLS)
    assert _calls(result) == calls
    assert result["text"].split() == visible.split()


@pytest.mark.parametrize(
    "text",
    [
        'The tool: get_weather(city="Paris") is what we use.',  # mid-sentence, more on its line
        'Tool: get_weather(city="Paris") and then wait',  # more on the call's line
        "Tool: deploy(target='prod')",  # no offered tool of that name
        'For example: Tool: get_weather(city="Paris")',  # presented as an example
        'Write `tool: read_file({"filename": "a"})` to read.',  # inline code
        "tool: list_files is the one to use.",  # the name, no call
    ],
)
def test_a_tool_label_in_prose_or_before_no_offered_call_stays_text(text: str) -> None:
    result = parse_everywhere(text, TOOLS)
    assert (result["calls"], result["errors"], result["text"]) == ([], [], text)
