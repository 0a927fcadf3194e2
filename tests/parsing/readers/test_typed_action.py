"""An action tag whose ``type``/``tool``/``name`` attribute names an offered tool, its other attributes parameters and
its body the one parameter left (`shim.parsing.readers.typed_action`)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.parsing.readers.cases import Real, check, tool

BOLT = "stackblitz/bolt.new:app/lib/runtime/message-parser.spec.ts@4cfabd94"
VARIANT = "shim's own variants of the general form"
TOOLS = [
    tool("shell", content="string"),
    tool("file", filePath="string", content="string"),
    tool("submit", reason="string"),
    tool("get-weather", city="string", days="integer"),
    tool("ls", path="string"),
]
NO_ARGUMENTS: dict[str, Any] = {}


@pytest.mark.parametrize(
    ("source", "text", "calls", "visible"),
    [
        (
            BOLT,
            'Before <boltArtifact title="Some title" id="artifact_1"><boltAction type="shell">npm install</boltAction>'
            "</boltArtifact> After",
            [("shell", {"content": "npm install"})],
            "Before After",
        ),
        (
            BOLT,
            'Before <boltArtifact title="Some title" id="artifact_1"><boltAction type="shell">npm install</boltAction>'
            '<boltAction type="file" filePath="index.js">some content</boltAction></boltArtifact> After',
            [("shell", {"content": "npm install"}), ("file", {"filePath": "index.js", "content": "some content"})],
            "Before After",
        ),
        (  # laid out over lines, the file's lines kept, the wrapper's attributes in single quotes
            VARIANT,
            "Je crée le projet.\n<boltArtifact id='a1' title='Demo'>\n  <boltAction type=\"file\" filePath=\"src/a.js\">\n"
            'const x = "<b>";\nconsole.log(x);\n</boltAction>\n  <boltAction type="shell">\nnpm run dev\n</boltAction>\n'
            "</boltArtifact>\nC'est prêt.",
            [
                ("file", {"filePath": "src/a.js", "content": 'const x = "<b>";\nconsole.log(x);'}),
                ("shell", {"content": "npm run dev"}),
            ],
            "Je crée le projet. C'est prêt.",
        ),
        (
            VARIANT,
            '<tool_action tool="get_weather" days="3">Lima</tool_action>',
            [("get-weather", {"days": 3, "city": "Lima"})],
            "",
        ),
        (  # under type=, a body of markup is the content (a file's HTML)
            VARIANT,
            '<boltAction type="file" filePath="index.html">\n<html><body>Hi</body></html>\n</boltAction>',
            [("file", {"filePath": "index.html", "content": "<html><body>Hi</body></html>"})],
            "",
        ),
        (VARIANT, '<action name="ls" path="skills/_policy"></action>', [("ls", {"path": "skills/_policy"})], ""),
        (
            VARIANT,
            'Run it: <runCommand id="c1" type="shell">ls -la &amp;&amp; pwd</runCommand> ok',
            [("shell", {"content": "ls -la && pwd"})],
            "Run it: ok",
        ),
    ],
)
def test_an_action_tag_typed_by_an_offered_tool_is_its_call(
    source: str, text: str, calls: list[tuple[str, dict[str, Any]]], visible: str
) -> None:
    check(Real(source, text, calls, visible=visible, tools=TOOLS))


@pytest.mark.parametrize(
    "text",
    [
        'Before <boltArtifact title="Some title" id="artifact_1">foo bar</boltArtifact> After',  # no action inside
        '<form><button type="submit">Send</button></form>',  # an HTML element: its name holds no call word
        '<boltAction type="deploy">now</boltAction>',  # no offered tool of that type
        '<boltAction type="shell">npm install',  # no closer
        '<boltAction type="shell">npm install</boltArtifact>',  # another tag's closer
        '<boltAction type="get_weather">Lima and Oslo and more</boltAction>',  # two parameters, no one left for the body
        '<boltAction type="shell" type="file">x</boltAction>',  # an attribute twice
        '<run_tool name="shell">\n<cmd>ls</cmd>\n</run_tool>',  # elements under a tool's name: structure, no value
        'Write `<boltAction type="shell">ls</boltAction>` to run a command.',  # inline code
        "```javascript\nconst a = '<boltAction type=\"shell\">ls</boltAction>';\n```",  # a code fence of a language
        'For example: <boltAction type="shell">ls</boltAction>',  # presented as an example
        "The boltAction tag with type shell runs a command.",  # named in a sentence
    ],
)
def test_an_action_tag_of_no_tool_or_in_prose_stays_text(text: str) -> None:
    check(Real(VARIANT, text, [], visible=text, tools=TOOLS))


def test_without_tools_an_action_tag_stays_text() -> None:
    text = '<boltAction type="shell">npm install</boltAction>'
    check(Real(VARIANT, text, [], visible=text, tools=None))


def test_a_wrapper_with_attributes_around_a_tagged_call_is_its_markup() -> None:
    text = (
        '<response id="r1" lang=\'en\'>\n<tool_call>{"name": "ls", "arguments": {"path": "."}}</tool_call>\n</response>'
    )
    check(Real(VARIANT, text, [("ls", {"path": "."})], visible="", tools=TOOLS))


def test_a_wrapper_with_attributes_around_a_call_and_words_is_text() -> None:
    text = '<note id="n1"><boltAction type="shell">ls</boltAction> and more words</note>'
    check(
        Real(VARIANT, text, [("shell", {"content": "ls"})], visible='<note id="n1"> and more words</note>', tools=TOOLS)
    )
