"""An offered tool's call inside prose, ``NAME({…})`` or Gemma 4's stripped ``NAME{…}``, its labels and wrappers
(`shim.parsing.readers.prose_call`), at every split point; and the prose around such forms that stays text."""

from __future__ import annotations

from typing import Any

import pytest

from tests.parsing.readers.cases import Real, check, tool

APIT = "AdarshJ173/apitester:tests/test_tool_parser.py"
SUPERL8 = "jajmangold/superl8-serve:tests/test_tool_calls.py"
DR = "Acharnite/deepresearch:tests/test_tool_parser.py"
KIT = "1Utkarsh1/local-llm-kit:tests/test_function_calling.py"
TOOLS = [
    tool("create_file", path="string", content="string"),
    tool("read_file", path="string"),
    tool("set_reaction", reaction="string", strength="number"),
    tool("web-search", query="string", max_results="integer"),
    tool("calculate", expression="string"),
]
Calls = list[tuple[str, dict[str, Any]]]


@pytest.mark.parametrize(
    ("text", "calls", "visible"),
    [
        (
            'Hello create_file({"path": "test.txt", "content": "hi"}) World',
            [("create_file", {"path": "test.txt", "content": "hi"})],
            "Hello World",
        ),
        (  # two in one paragraph, each after a sentence's colon, the second line indented
            'First create a file: create_file({"path": "a.txt", "content": "A"})\n'
            '                  Then read it: read_file({"path": "a.txt"})',
            [("create_file", {"path": "a.txt", "content": "A"}), ("read_file", {"path": "a.txt"})],
            "First create a file: Then read it:",
        ),
        (  # one a line, the second indented
            'create_file({"path": "a.txt", "content": "A"})\n    read_file({"path": "a.txt"})',
            [("create_file", {"path": "a.txt", "content": "A"}), ("read_file", {"path": "a.txt"})],
            "",
        ),
        (  # another language; blanks inside the parentheses; a full stop after the call
            'Je lis le fichier read_file( { "path": "é.md" } ). Voilà.',
            [("read_file", {"path": "é.md"})],
            "Je lis le fichier . Voilà.",
        ),
        (  # the name spelled with `_` for an offered `-`; the object over several lines
            'Searching now, web_search({\n  "query": "AI",\n  "max_results": 5\n}), then I answer.',
            [("web-search", {"query": "AI", "max_results": 5})],
            "Searching now, , then I answer.",
        ),
        (  # Gemma 4's stripped call in the spoken reply: bare keys, single quotes
            "Sure thing. set_reaction{reaction: 'amusement', strength: 0.7} Here's a joke for you.",
            [("set_reaction", {"reaction": "amusement", "strength": 0.7})],
            "Sure thing. Here's a joke for you.",
        ),
        (
            "set_reaction{reaction: 'interest', strength: 0.4} First. set_reaction{reaction: 'joy', strength: 0.6} Second.",
            [
                ("set_reaction", {"reaction": "interest", "strength": 0.4}),
                ("set_reaction", {"reaction": "joy", "strength": 0.6}),
            ],
            "First. Second.",
        ),
        (  # a quoted key, after a question
            'Ready? set_reaction{"reaction": "calm"}\nYes.',
            [("set_reaction", {"reaction": "calm"})],
            "Ready? Yes.",
        ),
    ],
)
def test_an_offered_tools_call_in_prose_is_read(text: str, calls: Calls, visible: str) -> None:
    check(Real(APIT, text, calls, visible=visible, tools=TOOLS))


@pytest.mark.parametrize(
    ("text", "calls", "visible"),
    [
        ('[TOOL_CALL] web-search({"query": "AI"})', [("web-search", {"query": "AI"})], ""),
        (
            'Let me look.\n[TOOL_CALL] web-search({\n  "query": "AI",\n  "max_results": 5\n})\nDone.',
            [("web-search", {"query": "AI", "max_results": 5})],
            "Let me look. Done.",
        ),
        ('[tool call]create_file({"path": "x"})', [("create_file", {"path": "x"})], ""),
        (
            'To answer, I need to execute the following function:\n\ncall read_file({\n  "path": "/users"\n})',
            [("read_file", {"path": "/users"})],
            "To answer, I need to execute the following function:",
        ),
        (
            'I need to call a function.\nfunction_call({"name": "calculate", "arguments": {"expression": "5+7"}})\n'
            "to get the result.",
            [("calculate", {"expression": "5+7"})],
            "I need to call a function. to get the result.",
        ),
        ('tool_call({"name": "read_file", "arguments": {"path": "b"}}).', [("read_file", {"path": "b"})], "."),
        ('name: "calculate", arguments: {"expression": "2*3"}', [("calculate", {"expression": "2*3"})], ""),
        (
            'I\'ll compute it.\n  name: \'read_file\', args: {"path": "a.py"}\nThen answer.',
            [("read_file", {"path": "a.py"})],
            "I'll compute it. Then answer.",
        ),
    ],
)
def test_a_label_or_wrapper_around_a_call_in_prose_is_markup(text: str, calls: Calls, visible: str) -> None:
    check(Real(DR, text, calls, visible=visible, tools=TOOLS))


@pytest.mark.parametrize(
    "text",
    [
        'Call api.create_file({"path": "a", "content": "b"}) from your code.',  # a method of another object
        'my_create_file({"path": "a", "content": "b"}) is a helper.',  # another name ending with the tool's
        'x = read_file({"path": "a"}).json()',  # code goes on after the call
        'read_file({"path": "a"})[0] is the first line.',
        'Use read_file({"path": "a", "mode": "rb"}) to read bytes.',  # a key the tool does not declare
        'delete_file({"path": "a"}) removes it.',  # no offered tool
        'Use `read_file({"path": "a"})` to read it.',  # inline code
        'For example: read_file({"path": "a"})',  # an example presented
        'Example:\n```\nset_reaction{reaction: "joy"}\n```',  # a fenced example
        "The set_reaction{} handler is empty.",  # no arguments: no evidence
        'The docs write Tool: set_reaction {"reaction": "calm"} for it.',  # a blank before the brace: a word of prose
        "Then set_reaction {the user's mood} is tracked.",  # braces of prose
        'function_call({"name": "delete_all", "arguments": {}})',  # a wrapper around no offered tool's call
        'name: "unknown_tool", arguments: {"x": 1}',
        'The name: "read_file", arguments: {"path": "a"} pair is documented.',  # a pair mid-sentence
    ],
)
def test_the_same_forms_without_the_evidence_stay_text(text: str) -> None:
    check(Real(APIT, text, [], visible=text, tools=TOOLS))


def test_a_call_of_a_tool_declaring_required_keys_needs_them() -> None:
    tools = [
        {
            "name": "read_file",
            "inputSchema": {"properties": {"path": {"type": "string"}, "limit": {}}, "required": ["path"]},
        }
    ]
    check(Real(APIT, 'Now read_file({"limit": 3}) goes.', [], visible='Now read_file({"limit": 3}) goes.', tools=tools))
    check(
        Real(
            APIT,
            'Now read_file({"path": "a", "limit": 3}) goes.',
            [("read_file", {"path": "a", "limit": 3})],
            visible="Now goes.",
            tools=tools,
        )
    )


def test_a_tool_that_declares_no_parameters_takes_no_call_in_prose() -> None:
    text = 'Hello ping({"host": "a"}) World'
    check(Real(APIT, text, [], visible=text, tools=["ping"]))


@pytest.mark.parametrize(
    "text",
    [
        # benchmarks/real/damaged/b5_issue_ollama_8517_r1_32b_json_with_call_expressions: calls as JSON values
        '{\n "name": "date_difference",\n "parameters": {\n  "last": read_file ({path: "Oliver"})\n }\n}',
        'x = read_file({"path": "a"})',
        'print(read_file({"path": "a"}))',
    ],
)
def test_a_call_as_a_value_of_code_or_json_stays_text(text: str) -> None:
    check(Real("ollama/ollama#8517", text, [], visible=text, tools=TOOLS))


def test_a_call_glued_to_its_object_after_a_sentences_colon_is_a_call_in_prose() -> None:
    # `name_first_after_prose` takes only the colon glued to the name; with a blank after the colon the name is a word
    # of the sentence, and its call is read as any call in prose (offered name, declared keys).
    check(
        Real(
            "written",
            'Done: search{"q": "x"}',
            [("search", {"q": "x"})],
            visible="Done:",
            tools=[tool("search", q="string")],
        )
    )
