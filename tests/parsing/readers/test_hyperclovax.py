"""HyperCLOVA X tool headers (`shim.parsing.readers.hyperclovax`), at every split point."""

from __future__ import annotations

from typing import Any

import pytest

from tests.parsing.readers.cases import Real, check

VLLM = "vllm-project/vllm:tests/tool_parsers/test_hyperclovax_tool_parser.py"


@pytest.mark.parametrize(
    ("text", "calls", "visible"),
    [
        # vLLM's test: the abbreviated header names the tool, the body is its arguments
        ('-> tool/get_weather\n{"city": "Seoul"}', [("get_weather", {"city": "Seoul"})], ""),
        (  # the template's header: a list of calls
            '-> tool/function_call\n[{"name": "get_weather", "arguments": {"city": "Seoul"}}, '
            '{"name": "get_time", "arguments": {"tz": "KST"}}]',
            [("get_weather", {"city": "Seoul"}), ("get_time", {"tz": "KST"})],
            "",
        ),
        (  # variant: after the reasoning, spaces, text after the call
            '<think>Weather in Seoul.</think>\n->  tool/get_weather \n  {"city": "Seoul"}\nChecking.',
            [("get_weather", {"city": "Seoul"})],
            "Checking.",
        ),
    ],
)
def test_a_tool_header_opening_the_message_is_a_call(
    text: str, calls: list[tuple[str, dict[str, Any]]], visible: str
) -> None:
    check(Real(VLLM, text, calls, visible=visible, tools=["get_weather", "get_time"]))


@pytest.mark.parametrize(
    "text",
    [
        '-> tool/rm_rf\n{"path": "/"}',  # no offered tool
        'The header -> tool/get_weather\n{"city": "Seoul"} is written by the model.',  # after prose
        "-> tool/get_weather then the arguments",  # no JSON body on the next line
        '-> tool/function_call\n[{"name": "shell", "arguments": {}}]',  # calls of no offered tool
    ],
)
def test_a_tool_header_without_its_evidence_stays_text(text: str) -> None:
    check(Real("written", text, [], visible=text, tools=["get_weather", "get_time"]))
