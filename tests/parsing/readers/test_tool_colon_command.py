"""``TOOL:NAME[:ARG]`` command lines (`shim.parsing.readers.tool_colon_command`), at every split point."""

from __future__ import annotations

from typing import Any

import pytest

from tests.parsing.readers.cases import Real, check, tool

PRTS = "adamepaolo/PRTS_Terminal:tests/test_tool_parsing.py@697b535756df9451f31bfbbf282c0035ddc69a62"
NO_ARGUMENTS: dict[str, Any] = {}
TOOLS: list[dict[str, Any]] = [
    tool("LIST_FILES"),
    tool("READ_FILE", arg="string"),
    tool("WRITE_FILE", arg="string", content="string"),
    {
        "name": "fetch_page",
        "inputSchema": {
            "type": "object",
            "properties": {"url": {"type": "string"}, "max_chars": {"type": "integer"}},
            "required": ["url"],
        },
    },
    tool("save_note", title="string", body="string"),
]


@pytest.mark.parametrize(
    ("text", "calls", "visible"),
    [
        ("TOOL:LIST_FILES", [("LIST_FILES", NO_ARGUMENTS)], ""),
        ("TOOL:READ_FILE:sui_entities.txt", [("READ_FILE", {"arg": "sui_entities.txt"})], ""),
        ("Sure Doctor, let me check.\nTOOL:LIST_FILES", [("LIST_FILES", NO_ARGUMENTS)], "Sure Doctor, let me check."),
        (
            "TOOL:WRITE_FILE:newfile.txt\nline one\nline two",
            [("WRITE_FILE", {"arg": "newfile.txt", "content": "line one\nline two"})],
            "",
        ),
        # a URL's colons belong to the argument; a second value typed by the schema
        (
            "tool:fetch_page:https://example.com:8080/a?b=c\n4000\n",
            [("fetch_page", {"url": "https://example.com:8080/a?b=c", "max_chars": 4000})],
            "",
        ),
        # the lines end at the next command line: each is a call; blank lines inside the content are the content's
        (
            "Writing both.\r\nTool:save_note:Tâches\r\n- acheter du pain\r\n\r\n- appeler Léa\r\nTOOL:READ_FILE:a.md\r\n",
            [
                ("save_note", {"title": "Tâches", "body": "- acheter du pain\n\n- appeler Léa"}),
                ("READ_FILE", {"arg": "a.md"}),
            ],
            "Writing both.",
        ),
        # a tool of one parameter takes no lines: what follows stays text
        ("TOOL:READ_FILE:笔记.txt\n好的我来读。", [("READ_FILE", {"arg": "笔记.txt"})], "好的我来读。"),
        ("TOOL:LIST_FILES  \nDone?", [("LIST_FILES", NO_ARGUMENTS)], "Done?"),
        # a command without its argument takes no lines either
        ("TOOL:WRITE_FILE\nsome words", [("WRITE_FILE", NO_ARGUMENTS)], "some words"),
    ],
)
def test_a_command_line_naming_an_offered_tool_is_a_call(
    text: str, calls: list[tuple[str, dict[str, Any]]], visible: str
) -> None:
    check(Real(PRTS, text, calls, visible=visible, tools=TOOLS))


@pytest.mark.parametrize(
    "text",
    [
        "Reply with TOOL:READ_FILE:path to read a file.",  # inside a sentence
        "Type `TOOL:LIST_FILES` to list them.",  # inline code
        "```\nTOOL:READ_FILE:a.txt\n```",  # a code fence
        "TOOL:DELETE_FILE:notes.txt",  # no such tool offered
        "TOOL:READ_FILE: reads one file",  # a description, not a command
        "TOOL:READ_FILE - reads one file",
        "TOOL:READ_FILES:a.txt",  # another word
        "TOOLS:READ_FILE:a.txt",
        "    TOOL:READ_FILE:a.txt\nindented, in a list",  # not at the message's start: an indented line
    ],
)
def test_the_form_without_that_evidence_stays_text(text: str) -> None:
    if text.startswith("    "):
        text = "The commands:\n" + text
    check(Real(PRTS, text, [], visible=text, tools=TOOLS))


def test_values_the_tool_cannot_take_are_an_error_holding_the_line() -> None:
    needs_p: dict[str, Any] = {"name": "open", "inputSchema": {"properties": {"p": {}}, "required": ["p"]}}
    tools = [tool("LIST_FILES"), needs_p]
    check(Real(PRTS, "TOOL:LIST_FILES:x\nTOOL:open", [], visible="", tools=tools, errors=2))


def test_other_notations_after_the_same_words_keep_their_readers() -> None:
    tools = [tool("write_file", path="string", content="string")]
    check(
        Real(
            "McElyea/Orket",
            "TOOL:write_file\nPATH: a.py\nCONTENT: print(1)",
            [("write_file", {"path": "a.py", "content": "print(1)"})],
            tools=tools,
        )
    )
