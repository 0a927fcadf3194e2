"""A ``$ command`` line for the offered tool that runs shell commands (`shim.parsing.readers.shell_prompt`)."""

from __future__ import annotations

from typing import Any

import pytest

from shim.parsing.readers.shell_prompt import shell_runner
from shim.parsing.shapes import ToolIndex
from tests.parsing.readers.cases import Real, check, tool

GOOSE = "block/goose:crates/goose/src/providers/local_inference/inference_emulated_tools.rs"
SHELL = [tool("developer__shell", command="string")]


def _required(name: str, key: str, **others: str) -> dict[str, Any]:
    entry = tool(name, **{key: "string"}, **others)
    entry["inputSchema"]["required"] = [key]
    return entry


@pytest.mark.parametrize(
    ("text", "calls", "visible"),
    [
        ("$ whoami\n", [("developer__shell", {"command": "whoami"})], ""),
        ("$ whoami", [("developer__shell", {"command": "whoami"})], ""),
        ("Let me check:\n$ ls -la\n", [("developer__shell", {"command": "ls -la"})], "Let me check:"),
        (
            "Here:\n$ cd /tmp\nDone.\n$ ls\n",
            [("developer__shell", {"command": "cd /tmp"}), ("developer__shell", {"command": "ls"})],
            "Here:\nDone.",
        ),
        (
            "$ cd /tmp\n$ ls -1 | wc -l\r\n",
            [("developer__shell", {"command": "cd /tmp"}), ("developer__shell", {"command": "ls -1 | wc -l"})],
            "",
        ),
        (
            "I'll look.\n$  ./build.sh --fast  \nThen report.",
            [("developer__shell", {"command": "./build.sh --fast"})],
            "I'll look.\nThen report.",
        ),
        ('$ grep -n "$HOME" ~/.bashrc', [("developer__shell", {"command": 'grep -n "$HOME" ~/.bashrc'})], ""),
    ],
)
def test_a_dollar_line_is_a_call_of_the_one_offered_shell_runner(
    text: str, calls: list[tuple[str, dict[str, Any]]], visible: str
) -> None:
    check(Real(GOOSE, text, calls, visible=visible, tools=SHELL))


@pytest.mark.parametrize(
    "tools",
    [
        [tool("bash", command="string")],
        [tool("shell", cmd="string")],
        [tool("run_shell_command", command="string")],
        [tool("execute_bash", command="string")],
        [tool("runCommand", command="string")],
        [_required("execute_command", "command", requires_approval="boolean"), tool("read_file", path="string")],
        [tool("terminal", input="string"), tool("search", query="string")],
    ],
)
def test_tools_whose_name_says_they_run_a_shell_take_the_dollar_line(tools: list[dict[str, Any]]) -> None:
    name = tools[0]["name"]
    key = next(iter(tools[0]["inputSchema"]["properties"]))
    check(Real(GOOSE, "Listing.\n$ ls -la\n", [(name, {key: "ls -la"})], visible="Listing.", tools=tools))


@pytest.mark.parametrize(
    "tools",
    [
        None,  # no tools
        [tool("search", query="string")],  # no shell runner
        [tool("bash", command="string"), tool("developer__shell", command="string")],  # two: which one?
        [tool("shell", command="string", timeout="integer")],  # two parameters, none required
        [tool("bash", command="integer")],  # not a string to run
        [tool("shell_history", query="string", limit="integer")],  # a shell word, no single string to run
        [tool("command_palette", command="string")],  # a command, not run
        [tool("bashful_search", query="string")],  # not the word
    ],
)
def test_without_one_shell_runner_a_dollar_line_stays_text(tools: list[dict[str, Any]] | None) -> None:
    text = "Let me check:\n$ ls -la\n"
    check(Real(GOOSE, text, [], visible=text, tools=tools))


@pytest.mark.parametrize(
    "text",
    [
        "It costs\n$ 5 a month.",  # a price, not a command
        "Run this:\n```bash\n$ ls -la\n```",  # a command in a code fence is shown
        "For example:\n$ ls -la",  # presented as an example
        "Type `$ ls` to list files.",  # inline, mid-line
        "Then $ ls -la lists them.",  # a dollar mid-line
        "Here:\n    $ ls -la",  # indented: a line of code
        "$\n",  # no command
    ],
)
def test_a_dollar_in_prose_stays_text_even_with_a_shell_runner(text: str) -> None:
    check(Real(GOOSE, text, [], visible=text, tools=SHELL))


def test_the_shell_runner_is_found_only_when_unambiguous() -> None:
    assert shell_runner(ToolIndex(SHELL)) == "developer__shell"
    assert shell_runner(ToolIndex([tool("ls_files", path="string")])) is None
    assert shell_runner(ToolIndex([])) is None
