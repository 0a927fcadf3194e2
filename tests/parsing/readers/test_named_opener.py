"""An opener that names the tool (a marker word, a separator, an offered tool's name inside a bracket pair or a
fence's info string), then the arguments' JSON object (`shim.parsing.readers.named_opener`)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.parsing.readers.cases import Real, check, tool

ESFO = "Esfo/agent-exploration:tests/test_tool_parser.py@0ca3de1"
POOP = "Aver005/PoopRusteek:src/agent/tool_parser.rs@0857c9b"
CODERAI = "CodeinScrubs/coderAI:tests/test_tool_parser.py@f1ec910"
VARIANT = "shim's own variants of the general form"
TOOLS = [
    tool("finish", status="string", summary="string"),
    tool("report_progress", message="string"),
    tool("bash", command="string"),
    tool("file.read", path="string"),
    tool("mcp__github__create_issue", title="string", body="string"),
    tool("get-weather", city="string", days="integer"),
]
NO_ARGUMENTS: dict[str, Any] = {}


@pytest.mark.parametrize(
    ("source", "text", "calls", "visible"),
    [
        (
            ESFO,
            '<<tool:finish>>\n{"status": "complete", "summary": "done"}\n<</tool>>',
            [("finish", {"status": "complete", "summary": "done"})],
            "",
        ),
        (
            ESFO,
            '<<tool:report_progress>>\n```json\n{"message": "hi"}\n```\n<</tool>>',
            [("report_progress", {"message": "hi"})],
            "",
        ),
        (
            ESFO,
            'Here you go: <<tool:finish>> some text {"status":"complete"} trailing <</tool>>',
            [("finish", {"status": "complete"})],
            "Here you go:",
        ),
        (
            ESFO,
            '<<tool:report_progress>>{"message":"a"}<</tool>><<tool:finish>>{"status":"complete"}<</tool>>',
            [("report_progress", {"message": "a"}), ("finish", {"status": "complete"})],
            "",
        ),
        (
            ESFO,
            '<<tool:finish>>{"status": "complete", "summary": "x",}<</tool>>',
            [("finish", {"status": "complete", "summary": "x"})],
            "",
        ),
        (
            ESFO,
            'thinking...\n<<tool:finish>>\n{"status": "complete"}',
            [("finish", {"status": "complete"})],
            "thinking...",
        ),
        (
            POOP,
            'Here is the result: [TOOL:bash] {"command": "ls -la"}',
            [("bash", {"command": "ls -la"})],
            "Here is the result:",
        ),
        (
            POOP,
            '[TOOL:bash] {"command": "pwd"}\nThen [TOOL:file.read] {"path": "test.txt"}',
            [("bash", {"command": "pwd"}), ("file.read", {"path": "test.txt"})],
            "Then",
        ),
        (
            POOP,
            '[TOOL:mcp__github__create_issue] {"title": "Bug report", "body": "Found a bug"}',
            [("mcp__github__create_issue", {"title": "Bug report", "body": "Found a bug"})],
            "",
        ),
        (
            CODERAI,
            'I will now create the file:\n```tool_call:report_progress\n{\n  "message": "Hello World"\n}\n```\nDone!',
            [("report_progress", {"message": "Hello World"})],
            "I will now create the file: Done!",
        ),
        # Other marker words, separators, brackets and spacing.
        (
            VARIANT,
            '<tool_call: get_weather>{"city": "Lima", "days": 2}</tool_call>',
            [("get-weather", {"city": "Lima", "days": 2})],
            "",
        ),
        (
            VARIANT,
            'Voy a mirar. <function: "bash">\n{"command": "ls"}\n</function> Listo.',
            [("bash", {"command": "ls"})],
            "Voy a mirar. Listo.",
        ),
        (VARIANT, '[call bash]{"command": "echo [x]"}[/call] done', [("bash", {"command": "echo [x]"})], "done"),
        (VARIANT, "[Tool_Use=finish]\n{}", [("finish", NO_ARGUMENTS)], ""),
        (
            VARIANT,
            '<<TOOL : finish>>\n\n  {"status": "ok"}  \n\n<< / TOOL >>\nAfter.',
            [("finish", {"status": "ok"})],
            "After.",
        ),
        (VARIANT, '```function:bash\n{"command": "pwd"}\n```', [("bash", {"command": "pwd"})], ""),
        (
            VARIANT,
            '  ```tool_call = get-weather\n{"city": "Oslo"}\n  ```\nok',
            [("get-weather", {"city": "Oslo"})],
            "ok",
        ),
        (VARIANT, '[TOOL:bash]\n```\n{"command": "pwd"}\n```\n[/TOOL]', [("bash", {"command": "pwd"})], ""),
        (VARIANT, '<action:get_weather>{"city": "日本"}', [("get-weather", {"city": "日本"})], ""),
    ],
)
def test_an_opener_naming_an_offered_tool_then_its_arguments_is_its_call(
    source: str, text: str, calls: list[tuple[str, dict[str, Any]]], visible: str
) -> None:
    check(Real(source, text, calls, visible=visible, tools=TOOLS))


@pytest.mark.parametrize(
    "text",
    [
        'Use [TOOL:lookup] {"query": "x"} for lookups.',  # no offered tool of that name
        '<<tool:deploy>>{"env": "prod"}<</tool>>',  # no offered tool of that name
        "Run commands with [TOOL:bash] and read with [TOOL:file.read].",  # the marker named, no object
        "The <<tool:finish>> block ends the task.",  # the marker in a sentence
        'Write `[TOOL:bash] {"command": "ls"}` to run a command.',  # inline code
        'For example: [TOOL:bash] {"command": "ls"}',  # presented as an example
        '```python\nprint(\'[TOOL:bash] {"command": "ls"}\')\n```',  # in a code fence of a language
        '```rust\nlet s = "<<tool:finish>>{\\"status\\": \\"x\\"}<</tool>>";\n```',  # in a code fence of a language
        '[TOOL:bash] {"command": "ls"',  # the object does not close
        '[TOOL:bash] {"command": ls -la}',  # not JSON
        '<tool:bash] {"command": "ls"}',  # the bracket does not close as it opened
        "<<tool:finish>> nothing to report here <</tool>>",  # a closed block holding no object
        '<<tool:finish>> some text {"status": "complete"} and no closer',  # words in a block never closed
        'Inline ```tool_call:bash\n{"command": "ls"}\n```',  # a fence that does not open its line
        '```tool_call:bash\n{"command": "ls"}\nmore words',  # the fence never closes after the object
    ],
)
def test_a_marker_in_prose_of_no_tool_or_without_its_object_stays_text(text: str) -> None:
    check(Real(VARIANT, text, [], visible=text, tools=TOOLS))


def test_without_tools_a_named_opener_stays_text() -> None:
    text = '<<tool:finish>>{"status": "complete"}<</tool>>'
    check(Real(VARIANT, text, [], visible=text, tools=None))
