"""A call as one bracket of attributes (``[Calling tool="NAME" k="v"]``) naming an offered tool is a call; the same
bracket of a tool not offered, cut off, or holding anything but pairs stays text."""

from __future__ import annotations

from typing import Any

import pytest

from tests.parsing.readers.cases import Real, check, tool

_EXEC = tool("exec", command="string", timeout="integer")
_SEARCH = tool("web_search", query="string", days="integer")
_TOOLS = [_EXEC, _SEARCH]


@pytest.mark.parametrize(
    ("text", "calls", "visible"),
    [
        ('[Calling tool="web_search" query="weather palo alto"]', [("web_search", {"query": "weather palo alto"})], ""),
        ("[calling tool='web_search' query='x' days=3]", [("web_search", {"query": "x", "days": 3})], ""),
        (
            '[Call function="exec", command="ls -la", timeout="5000"]',
            [("exec", {"command": "ls -la", "timeout": 5000})],
            "",
        ),
        ('[Calling tool name="exec" command="date"]', [("exec", {"command": "date"})], ""),
        ('[Calling tool=exec command="a ] b"]', [("exec", {"command": "a ] b"})], ""),  # `]` inside quotes
        (
            '[Calling tool="exec" command="curl -s \\"https://x.org\\""]',
            [("exec", {"command": 'curl -s "https://x.org"'})],
            "",
        ),
        ("[Calling tool=\"exec\" command='it\\'s'\n]", [("exec", {"command": "it's"})], ""),
        ('[Calling tool="exec" command="dir C:\\Users"]', [("exec", {"command": "dir C:\\Users"})], ""),
        ('[Calling tool="web_search" query="你好 🚀"]', [("web_search", {"query": "你好 🚀"})], ""),
        ('[Calling tool="exec"]', [("exec", {})], ""),
        (
            'Let me check. [Calling tool="web_search" query="w"] I will get the results.',
            [("web_search", {"query": "w"})],
            "Let me check. I will get the results.",
        ),
        (
            '[Calling tool="web_search" query="w"]\n[Calling tool="exec" command="date"]',
            [("web_search", {"query": "w"}), ("exec", {"command": "date"})],
            "",
        ),
        (
            '[Calling tool="exec" command="cat a"]\n[Calling tool: web_search({"query": "b"})]',
            [("exec", {"command": "cat a"}), ("web_search", {"query": "b"})],
            "",
        ),
    ],
)
def test_a_bracket_of_a_tool_name_and_pairs_is_a_call(
    text: str, calls: list[tuple[str, dict[str, Any]]], visible: str
) -> None:
    check(Real("written: qMLX's [Calling tool=…] history line", text, calls, visible=visible, tools=_TOOLS))


@pytest.mark.parametrize(
    "text",
    [
        '[Calling tool="delete_all" path="/"]',  # not an offered tool
        '[Calling tool="exec" command="ls"',  # cut off: no `]`
        '[Calling tool="exec" command="ls" and then it answered]',  # words that are no pair
        '[Calling tool="exec" command="a" command="b"]',  # a key twice
        "[Calling tool=] is what the history shows.",
        "A note [calling tool = off] about it.",
    ],
)
def test_a_bracket_without_a_call_of_an_offered_tool_stays_text(text: str) -> None:
    result = check(Real("written", text, [], visible=text, tools=_TOOLS))
    assert result["text"] == text


CLAWROUTER = "BlockRunAI/ClawRouter#190 (Gemini 3.5 Flash)"
CALLED_TOOLS = [tool("terminal", command="string"), tool("write", path="string", lines="array")]


@pytest.mark.parametrize(
    ("text", "calls", "visible"),
    [
        ('[Called function "terminal" with args: {"command":"whoami"}]', [("terminal", {"command": "whoami"})], ""),
        (  # variant: text around it, a bare name, `arguments`, brackets inside the object and its strings
            'Writing it.\n[Calling tool write with arguments: {"path": "a]b.txt", "lines": ["x", "[y]"]}]\nDone.',
            [("write", {"path": "a]b.txt", "lines": ["x", "[y]"]})],
            "Writing it. Done.",
        ),
        (  # variant: single-quoted name, lenient JSON (single quotes, a trailing comma)
            "[called tool 'terminal' with input: {'command': 'ls -la',}]",
            [("terminal", {"command": "ls -la"})],
            "",
        ),
    ],
)
def test_a_called_function_bracket_with_json_args_is_a_call(
    text: str, calls: list[tuple[str, dict[str, Any]]], visible: str
) -> None:
    check(Real(CLAWROUTER, text, calls, visible=visible, tools=CALLED_TOOLS))


@pytest.mark.parametrize(
    "text",
    [
        '[Called function "shell" with args: {"command": "ls"}]',  # no offered tool of that name
        '[Called function "terminal" with args: {"command": "ls"',  # cut off
        '[Called function "terminal" with args: {not json at all}]',
        'For example: [Called function "terminal" with args: {"command": "ls"}]',  # presented as an example
    ],
)
def test_a_called_function_bracket_without_a_call_of_an_offered_tool_stays_text(text: str) -> None:
    check(Real("written", text, [], visible=text, tools=CALLED_TOOLS))


HERMES = "EKKOLearnAI/hermes-studio#942 (MiniMax-M2.7 in Hermes Agent)"


@pytest.mark.parametrize(
    ("text", "calls", "visible"),
    [
        (  # Hermes Agent's history line, a colon after `tool`, the object in typographic quotes as the UI shows it
            "[Calling tool: terminal with arguments: {\u201ccommand\u201d: \u201cfree -h || echo \u2018no gpu\u2019\u201d}]",
            [("terminal", {"command": "free -h || echo \u2018no gpu\u2019"})],
            "",
        ),
        (  # variant: straight quotes, `function`, prose around it
            'On it.\n[Calling function: write with arguments: {"path": "a.txt", "lines": ["x"]}]\nDone.',
            [("write", {"path": "a.txt", "lines": ["x"]})],
            "On it. Done.",
        ),
        (  # variant: typographic quotes around a `]`, a straight quote inside, single typographic quotes, a list
            '[call tool:  write with args: {\u201cpath\u201d: \u201ca]"b\u201d, \u2018lines\u2019: [\u2018it\u2019s\u2019]}]',
            [("write", {"path": 'a]"b', "lines": ["it\u2019s"]})],
            "",
        ),
        (  # variant: closing quotes on both sides (a UI that turns every quote one way), non-ASCII
            "[Calling tool: terminal with arguments: {\u201dcommand\u201d: \u201decho \u65e5\u672c\u201d}]",
            [("terminal", {"command": "echo \u65e5\u672c"})],
            "",
        ),
    ],
)
def test_a_calling_tool_header_with_typographic_json_is_a_call(
    text: str, calls: list[tuple[str, dict[str, Any]]], visible: str
) -> None:
    check(Real(HERMES, text, calls, visible=visible, tools=CALLED_TOOLS))


@pytest.mark.parametrize(
    "text",
    [
        "[Calling tool: shell with arguments: {\u201ccommand\u201d: \u201cls\u201d}]",  # no offered tool of that name
        "[Calling tool: terminal with arguments: {\u201ccommand\u201d: \u201cls}]",  # a string never closed
        "[Calling tool: terminal with arguments: {\u201ccommand\u201d: \u201cls\u201d}",  # cut off
        "He typed {\u201ccommand\u201d: \u201cls\u201d} for terminal.",  # typographic JSON in prose: no header
        "```\n[Calling tool: terminal with arguments: {\u201ccommand\u201d: \u201cls\u201d}]\n```",  # a fenced example
    ],
)
def test_a_calling_tool_header_without_a_call_stays_text(text: str) -> None:
    check(Real("written", text, [], visible=text, tools=CALLED_TOOLS))
