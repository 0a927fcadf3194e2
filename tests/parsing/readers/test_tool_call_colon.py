"""``TOOL_CALL: {…}`` anywhere in the message: an upper-case prefix, then a JSON call object
(`shim.parsing.readers.tool_call_colon`)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.parsing.readers.cases import Real, check, tool

HOLMIUM = "nOS-Coding/Holmium:tests/test_tool_parser.py@96df75c1 (ToolParser)"
NO_ARGUMENTS: dict[str, Any] = {}
TOOLS = [
    tool("last"),
    tool("shell_run", command="string"),
    tool("file_write", path="string", content="string"),
    tool("read-file", path="string", limit="integer"),
]


@pytest.mark.parametrize(
    ("text", "calls", "visible"),
    [
        (
            'Some text at the end TOOL_CALL: {"tool": "last", "params": {}}',
            [("last", NO_ARGUMENTS)],
            "Some text at the end",
        ),
        (  # two glued, then prose
            'TOOL_CALL: {"tool": "last", "params": {}}TOOL_CALL: {"tool": "shell_run", "params": {"command": "ls"}} ok',
            [("last", NO_ARGUMENTS), ("shell_run", {"command": "ls"})],
            "ok",
        ),
        (  # other spellings of the prefix and the call object; an integer; another language; a name with `_` for `-`
            'Je lis le fichier TOOLCALL : {"name": "read_file", "arguments": {"path": "a.py", "limit": 3}} puis.',
            [("read-file", {"path": "a.py", "limit": 3})],
            "Je lis le fichier puis.",
        ),
        (  # the object on the next line, spread over several; a value holding the prefix
            'Writing it now. TOOL CALLS:\n  {"tool": "file_write",\n   "params": {"path": "n.txt", '
            '"content": "TOOL_CALL: {x}"}}\nDone.',
            [("file_write", {"path": "n.txt", "content": "TOOL_CALL: {x}"})],
            "Writing it now. Done.",
        ),
        (  # a commented call in a code fence stays text; the one after it is read
            'Here:\n```python\n# TOOL_CALL: {"tool": "last", "params": {}}\n```\nAnd then TOOL_CALL: '
            '{"tool": "shell_run", "params": {"command": "pwd"}}',
            [("shell_run", {"command": "pwd"})],
            'Here:\n```python\n# TOOL_CALL: {"tool": "last", "params": {}}\n```\nAnd then',
        ),
        (  # the colon left out (spettro's parser tests): on a line of its own between prose, and glued twice
            'Here is a result.\nTOOL_CALL {"tool":"read-file","args":{"path":"go.mod"}}\nSome conclusion.',
            [("read-file", {"path": "go.mod"})],
            "Here is a result.\nSome conclusion.",
        ),
        (
            'TOOLCALL\n{"tool": "last", "args": {}}TOOL_CALLS {"name": "shell_run", "arguments": {"command": "ls"}}',
            [("last", NO_ARGUMENTS), ("shell_run", {"command": "ls"})],
            "",
        ),
    ],
)
def test_a_prefixed_call_object_of_an_offered_tool_is_its_call(
    text: str, calls: list[tuple[str, dict[str, Any]]], visible: str
) -> None:
    check(Real(HOLMIUM, text, calls, visible=visible, tools=TOOLS))


@pytest.mark.parametrize(
    "text",
    [
        'Then TOOL_CALL: {"tool": "deploy", "params": {}} runs it.',  # no offered tool of that name
        'Write `TOOL_CALL: {"tool": "last", "params": {}}` to call it.',  # inline code
        'For example: TOOL_CALL: {"tool": "last", "params": {}}',  # presented as an example
        'Look:\n```text\nsee TOOL_CALL: {"tool": "last", "params": {}}\n```\nok',  # in a code fence
        "The TOOL_CALL: prefix marks each call the agent makes.",  # the word in a sentence, no object
        'Then TOOL_CALL: {"tool": "last", "params": {}',  # the object left open
        "Then TOOL_CALL: {tool: last params}",  # not JSON
        'Then TOOL_CALL {"tool": "deploy", "params": {}} runs it.',  # without the colon: no offered tool
        'For example: TOOL_CALL {"tool": "last", "params": {}}',  # presented as an example
        "Each TOOL_CALL {…} line is one call.",  # the form named in a sentence
        'Write `TOOL_CALL {"tool": "last"}` to call it.',  # inline code
    ],
)
def test_a_prefix_in_prose_or_of_no_tool_stays_text(text: str) -> None:
    check(Real(HOLMIUM, text, [], visible=text, tools=TOOLS))


def test_the_word_inside_a_longer_one_is_no_prefix() -> None:
    # `MY_TOOL_CALL:` is another word: it stays text (the object after it is the untagged rules' to read, as after
    # any other word).
    text = 'MY_TOOL_CALL: {"tool": "last", "params": {}}'
    check(Real(HOLMIUM, text, [("last", NO_ARGUMENTS)], visible="MY_TOOL_CALL:", tools=TOOLS))


def test_without_tools_the_prefix_stays_text() -> None:
    text = 'Then TOOL_CALL: {"tool": "last", "params": {}}'
    check(Real(HOLMIUM, text, [], visible=text, tools=None))


@pytest.mark.parametrize(
    ("text", "calls", "visible"),
    [
        (  # mini-agent's weak-model test: the words present the call, the object after them is read as untagged JSON
            'Sure! Here is the tool call: {"name": "shell_run", "arguments": {"command": "ls"}}',
            ("shell_run", {"command": "ls"}),
            "Sure! Here is the tool call:",
        ),
        (
            'I will make this Tool Call: {"tool": "file_write", "params": {"path": "a", "content": "b"}}',
            ("file_write", {"path": "a", "content": "b"}),
            "I will make this Tool Call:",
        ),
        (
            'Voici l\'appel tool_call : {"name": "last", "arguments": {}}',
            ("last", NO_ARGUMENTS),
            "Voici l'appel tool_call :",
        ),
    ],
)
def test_the_words_in_lower_or_mixed_case_are_a_sentences_words_and_stay_text(
    text: str, calls: tuple[str, dict[str, Any]], visible: str
) -> None:
    check(Real(HOLMIUM, text, [calls], visible=visible, tools=TOOLS))


def test_a_sentences_words_before_an_object_of_no_tool_stay_text_with_it() -> None:
    text = 'Here is the tool call: {"name": "deploy", "arguments": {}}'
    check(Real(HOLMIUM, text, [], visible=text, tools=TOOLS))


HOLLINGSBOT = "Hollings/hollingsbot3:tests/test_tools_parser.py@c566dd5f (parse_tool_calls)"
PY_TOOLS = [
    tool("roll", sides="string"),
    tool("say", content="string"),
    tool("web_search", query="string", limit="integer"),
    tool("read-file", path="string"),
]


@pytest.mark.parametrize(
    ("text", "calls", "visible"),
    [
        ("TOOL_CALL: roll(sides=6)", [("roll", {"sides": "6"})], ""),  # a number for a string: its text
        ("TOOL_CALL: Roll(sides=20)", [("roll", {"sides": "20"})], ""),  # the name capitalised
        (  # two calls on a line, joined by a word; an integer where one is declared
            'TOOL_CALL: roll(sides=6) then TOOL_CALL: web_search(query="dice", limit=3)',
            [("roll", {"sides": "6"}), ("web_search", {"query": "dice", "limit": 3})],
            "then",
        ),
        (  # mid-sentence, another language, parentheses inside quotes, prose after the call
            'Je vais dire TOOL_CALL: say(content="bonjour (salut)") puis attendre.',
            [("say", {"content": "bonjour (salut)"})],
            "Je vais dire puis attendre.",
        ),
        (  # glued twice, the colon left out, a name with `_` for `-`
            'TOOL_CALL say(content="a")TOOLCALL: read_file(path="b.txt")\nDone.',
            [("say", {"content": "a"}), ("read-file", {"path": "b.txt"})],
            "Done.",
        ),
    ],
)
def test_a_prefixed_python_style_call_of_an_offered_tool_is_its_call(
    text: str, calls: list[tuple[str, dict[str, Any]]], visible: str
) -> None:
    check(Real(HOLLINGSBOT, text, calls, visible=visible, tools=PY_TOOLS))


@pytest.mark.parametrize(
    "text",
    [
        "Then TOOL_CALL: deploy(env=1) runs it.",  # no offered tool of that name
        "TOOL_CALL: deploy(env=1) then more",
        "Write `TOOL_CALL: roll(sides=6)` to roll.",  # inline code
        "For example: TOOL_CALL: roll(sides=6)",  # presented as an example
        "Look:\n```python\nTOOL_CALL: roll(sides=6)\n```\nok",  # in a code fence
        "MY_TOOL_CALL: roll(sides=6) is another word.",  # the prefix inside a longer word
        "The TOOL_CALL: prefix then roll (a die) is all.",  # a blank between the name and its parenthesis
    ],
)
def test_a_prefixed_python_style_call_in_prose_or_of_no_tool_stays_text(text: str) -> None:
    check(Real(HOLLINGSBOT, text, [], visible=text, tools=PY_TOOLS))


def test_the_lower_case_words_opening_the_message_are_the_labels_and_read_alone_on_their_line() -> None:
    # `tool_call: roll(…)` opening the message is `labelled`'s label line; in lower case it is no constant: with
    # prose after the call on its line it stays text, as a sentence's words would
    check(Real(HOLLINGSBOT, "tool_call: roll(sides=6)", [("roll", {"sides": "6"})], tools=PY_TOOLS))
    text = "tool_call: roll(sides=6) then it rolls"
    check(Real(HOLLINGSBOT, text, [], visible=text, tools=PY_TOOLS))


PRICER_VISION = "rkolpakov-sudo/Pricer_Vision:tests/test_tool_parser.py@31b6f2a93c5df42f283f26966a16463c35701a98"


@pytest.mark.parametrize(
    ("text", "calls", "visible"),
    [
        (  # Pricer_Vision: the word alone as the label, the object on its line
            'TOOL: {"name": "file_write", "arguments": {"path": "x.ru", "content": "c"}}',
            [("file_write", {"path": "x.ru", "content": "c"})],
            "",
        ),
        (  # variant: after a sentence, the object on the next line, text after it
            'Saving it.\nTOOL:\n{"tool": "file_write", "params": {"path": "a", "content": "b"}}\nSaved.',
            [("file_write", {"path": "a", "content": "b"})],
            "Saving it.\n\nSaved.",
        ),
        (  # variant: a blank before the colon, no arguments
            'TOOL : {"name": "last", "arguments": {}}',
            [("last", NO_ARGUMENTS)],
            "",
        ),
    ],
)
def test_the_word_tool_alone_is_the_prefix_too(
    text: str, calls: list[tuple[str, dict[str, Any]]], visible: str
) -> None:
    check(Real(PRICER_VISION, text, calls, visible=visible, tools=TOOLS))


@pytest.mark.parametrize(
    "text",
    [
        'TOOL: {"name": "deploy", "arguments": {}}',  # a tool that was not offered
        "TOOL: file_write is the tool that saves a file.",  # the label before words
        'Use `TOOL: {"name": "last", "arguments": {}}` to end.',  # a quoted example in a code span
    ],
)
def test_the_word_tool_before_no_call_stays_text(text: str) -> None:
    check(Real(PRICER_VISION, text, [], visible=text, tools=TOOLS))
