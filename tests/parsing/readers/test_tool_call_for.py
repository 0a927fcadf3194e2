"""Gemini CLI's call notation (``[tool_call: NAME for KEY 'VALUE']``) naming an offered tool and its declared keys
is a call, on its own line, bracketed or not; the same line named in a sentence, presented as an example, of a tool
not offered, with a key the tool does not declare, or with a placeholder value stays text."""

from __future__ import annotations

from typing import Any

import pytest

from tests.parsing.readers.cases import Real, check, tool


def _required(entry: dict[str, Any], *names: str) -> dict[str, Any]:
    entry["inputSchema"]["required"] = list(names)
    return entry


_GLOB = _required(tool("glob", pattern="string", path="string"), "pattern")
_GREP = _required(tool("grep", pattern="string", include="string", path="string"), "pattern")
_READ = _required(tool("read_file", file_path="string", offset="integer", limit="integer"), "file_path")
_SHELL = _required(tool("run_shell_command", command="string", description="string"), "command")
_SEARCH = tool("search", query="string", limit="integer")
_TOOLS = [_GLOB, _GREP, _READ, _SHELL, _SEARCH]

_EASY = "https://github.com/ConardLi/easy-llm-cli/issues/57 (a local model in a Gemini CLI fork)"
_FOOD = "a model driven by a Gemini CLI fork, quoted in a project's notes (FoodExpiryAPP)"


@pytest.mark.parametrize(
    ("text", "calls", "visible"),
    [
        (
            "Let me start by checking the dependencies.\n\n[tool_call: read_file for file_path 'requirements.txt']\n\n"
            "Now the main files.",
            [("read_file", {"file_path": "requirements.txt"})],
            "Let me start by checking the dependencies. Now the main files.",
        ),
        (  # two lines, double quotes, a `|` and braces inside values
            "I will look.\n\n[tool_call: glob for pattern '**/*.{kt,java}']\n"
            '[tool_call: grep for pattern "Camera|Detector|Scanner"]\n\nOnce located, I will read them.',
            [("glob", {"pattern": "**/*.{kt,java}"}), ("grep", {"pattern": "Camera|Detector|Scanner"})],
            "I will look. Once located, I will read them.",
        ),
        (  # `with … and …` between pairs; bare numbers typed by the schema
            "[tool_call: read_file for file_path '/path/to/tests/test_auth.py' with offset 0 and limit 10]",
            [("read_file", {"file_path": "/path/to/tests/test_auth.py", "offset": 0, "limit": 10})],
            "",
        ),
        (  # `in path`, and one value for the tool's only required parameter
            '[tool_call: glob for pattern "**/*.md" in path "/home/a/docs"]\n[TOOL_CALL: run_shell_command for '
            "'npm run test']",
            [
                ("glob", {"pattern": "**/*.md", "path": "/home/a/docs"}),
                ("run_shell_command", {"command": "npm run test"}),
            ],
            "",
        ),
        (  # no bracket, where a line begins after a client's symbol (LLxprt Code's test)
            'Before\n✨ tool_call: search for query "weather today" limit 3\nAfter',
            [("search", {"query": "weather today", "limit": 3})],
            "Before After",
        ),
        (  # no bracket, opening the message; an escaped quote and non-ASCII inside the value
            "tool_call: search for query 'l\\'été à Paris 🌞'",
            [("search", {"query": "l'été à Paris 🌞"})],
            "",
        ),
    ],
)
def test_a_tool_call_line_of_an_offered_tool_and_its_keys_is_a_call(
    text: str, calls: list[tuple[str, dict[str, Any]]], visible: str
) -> None:
    check(Real(_EASY if "requirements" in text else _FOOD, text, calls, visible=visible, tools=_TOOLS))


@pytest.mark.parametrize(
    "text",
    [
        "[tool_call: delete_everything for path '/']",  # not an offered tool
        "[tool_call: glob for colour 'red']",  # a key the tool does not declare
        "[tool_call: glob for pattern '**/x'",  # cut off: no `]`
        "[tool_call: glob for pattern 'x'\nand more]",  # a bracket never spans lines
        "2.  [tool_call: glob for pattern '**/package.json'] to check for an existing setup.",  # named in a sentence
        "The bot leaked lines like:\n *    [tool_call: glob for pattern '...']\n",  # a placeholder value
        "[tool_call: read_file for '<path>']",  # a placeholder value for the one parameter
        "For example: [tool_call: glob for pattern '**/app.config']",  # presented as an example
        "Use `[tool_call: read_file for 'path/to/file']` to understand existing code.",  # in inline code
        "tool_call: search for what the user wants, then answer.",  # prose after the label
    ],
)
def test_a_tool_call_line_that_is_not_a_call_of_an_offered_tool_stays_text(text: str) -> None:
    result = check(Real("written: Gemini CLI's prompt notation in prose", text, [], visible=text, tools=_TOOLS))
    assert result["text"] == text


def test_gemini_cli_s_own_prompt_example_stays_text() -> None:
    # The system prompt's example block (google-gemini/gemini-cli, packages/core/src/core/prompts.ts): a model's
    # turn shown inside <example>, which a model reading it must not take for a call.
    text = (
        "<example>\nuser: Where are all the 'app.config' files in this project? I need to check their settings.\n"
        "model:\n[tool_call: glob for pattern '**/app.config']\n(Assuming GlobTool returns a list of paths like "
        "['/path/to/moduleA/app.config'])\nI found the following 'app.config' files.\n</example>"
    )
    result = check(
        Real("google-gemini/gemini-cli:packages/core/src/core/prompts.ts", text, [], visible=text, tools=_TOOLS)
    )
    assert result["text"] == text
