"""A client's call log line, ``[Tool Call] name=NAME id=ID args={…}`` (`shim.parsing.readers.bracket_tool_call_kv`),
read at every split point; for offered tools only, and shown in prose it stays text."""

from __future__ import annotations

from typing import Any

import pytest

from tests.parsing.readers.cases import Real, check, tool

TOOLS = [tool("run-command", command="string", profile="string"), tool("get_weather", city="string")]
ONYX = (
    '[Tool Call] name=run-command id=3d4e5f6a-7b8c-9d0e-1f2a-3b4c5d6e7f8a args={"command": "echo READY", '
    '"profile": "lan"}'
)


@pytest.mark.parametrize(
    ("text", "calls", "visible"),
    [
        # Onyx issue 14931: the model (ornith 1.5 9B) answers with the line its client logs for a call.
        (ONYX, [("run-command", {"command": "echo READY", "profile": "lan"})], ""),
        (
            'I will run it.\n[tool call] name="get_weather" args={"city": "Oslo"}\nDone.',
            [("get_weather", {"city": "Oslo"})],
            "I will run it.\n\nDone.",
        ),
        (
            '[TOOL_CALL]: id=call_1 name=get_weather arguments: {"city": "Oslo"}',
            [("get_weather", {"city": "Oslo"})],
            "",
        ),
        (
            '[ToolCall] name=get_weather id=a1 input={"city": "Oslo"}\n'
            "[Tool Call] name=run-command params={'command': 'ls'}",
            [("get_weather", {"city": "Oslo"}), ("run-command", {"command": "ls"})],
            "\n",
        ),
    ],
)
def test_a_tool_call_log_line_of_an_offered_tool_is_a_call(
    text: str, calls: list[tuple[str, dict[str, Any]]], visible: str
) -> None:
    check(Real("written: [Tool Call] log lines", text, calls, visible=visible, tools=TOOLS))


@pytest.mark.parametrize(
    "text",
    [
        '[Tool Call] name=delete_everything args={"path": "/"}',  # no offered tool
        "[Tool Call] name=run-command is what the log shows.",  # no arguments
        "[Tool Call] name=run-command args=echo READY",  # arguments that are no JSON object
        "[Tool Call] name=run-commander args={}",  # another name
        f"For example:\n{ONYX}",  # presented
        f"The log looks like this:\n```text\n{ONYX}\n```",  # a log presented in a fence
    ],
)
def test_a_log_line_of_no_offered_tool_or_without_json_arguments_or_shown_stays_text(text: str) -> None:
    check(Real("written", text, [], visible=text, tools=TOOLS))
