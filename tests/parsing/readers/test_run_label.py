"""The one offered tool that takes a command line, whatever its name (zhihuiti's ``tool`` of one ``command``), and
its commands written as ``$ command`` or after a label of running (``Run: command``) where a line begins: a call;
the same lines with no such tool, with two, in a fence, mid-sentence, or not a command (``Run: The tests pass``)
stay text."""

from __future__ import annotations

from typing import Any

import pytest

from tests.parsing.readers.cases import Real, check, tool

_ZHH = "doggychip/zhihuiti:tests/test_agent_tools.py@3c1f0a2e"
_TOOL = [tool("tool", command="string")]
_CMD = [tool("execute", cmd="string"), tool("lookup", query="string", limit="integer")]


@pytest.mark.parametrize(
    ("text", "tools", "calls", "visible"),
    [
        ("Run: curl -s https://api.com/health", _TOOL, [("tool", {"command": "curl -s https://api.com/health"})], ""),
        (  # after prose, prose after; lower case, `./`
            "Voy a probarlo.\nrun: ./build.sh --release\nLuego te digo.",
            _TOOL,
            [("tool", {"command": "./build.sh --release"})],
            "Voy a probarlo. Luego te digo.",
        ),
        (  # `Command:` for a tool whose one parameter is `cmd`, beside a tool of another kind
            "Command: git status --short",
            _CMD,
            [("execute", {"cmd": "git status --short"})],
            "",
        ),
        (  # the `$` prompt, for the same generic tool
            "Execute:\n$ gh pr list --state open\nThat should work.",
            _TOOL,
            [("tool", {"command": "gh pr list --state open"})],
            "Execute: That should work.",
        ),
        (  # two, prose between
            "EXECUTE: ls /tmp\nthen\nExec: ~/bin/sync",
            _TOOL,
            [("tool", {"command": "ls /tmp"}), ("tool", {"command": "~/bin/sync"})],
            "then",
        ),
    ],
)
def test_a_command_after_a_run_label_is_the_runners_call(
    text: str, tools: list[Any], calls: list[tuple[str, dict[str, Any]]], visible: str
) -> None:
    check(Real(_ZHH, text, calls, visible=visible, tools=tools))


_TWO = [tool("tool", command="string"), tool("bash", command="string")]


@pytest.mark.parametrize(
    ("text", "tools"),
    [
        ("Run: The tests pass now.", _TOOL),  # a sentence after the label
        ("Run: 5 km in 30 minutes", _TOOL),
        ("I'll run: ls -la", _TOOL),  # mid-sentence
        ("RuN: ls", _TOOL),  # mixed case: no label
        ("```\nRun: ls\n```\nok", _TOOL),  # in a fence: code shown
        ("Run: ls", _TWO),  # two runners: which one is not said
        ("Run: ls", [tool("lookup", query="string")]),  # no runner
        ("Command: reboot", [tool("device", cmd="string")]),  # a command, its name another thing: no shell's
        ("$ reboot", [tool("device", cmd="string")]),
        ("Run: ls", [tool("tool", command="string", cwd="string")]),  # two parameters, neither required
        ("curl is a command-line tool for transferring data.", _TOOL),  # a bare command word in prose
    ],
)
def test_a_run_label_without_a_runner_or_a_command_stays_text(text: str, tools: list[Any]) -> None:
    check(Real("written", text, [], visible=text, tools=tools))
