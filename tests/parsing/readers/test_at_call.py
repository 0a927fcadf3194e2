"""gptme's tool format ``@NAME(CALL_ID): {…}`` (`shim.parsing.readers.at_call`): read for offered tools at every
split point, with any id; mentions, decorators, unknown names and calls shown in a fence stay text."""

from __future__ import annotations

import pytest

from tests.parsing.chunking import parse_everywhere
from tests.parsing.readers.cases import Real, check

TOOLS = ["shell", "ipython", "browser.view"]


@pytest.mark.parametrize(
    ("text", "calls", "visible"),
    [
        ('@shell(call_1): {"cmd": "ls"}', [("shell", {"cmd": "ls"})], ""),
        ('@ipython(functions.ipython:0): {"code": "print(\\"}\\")"}', [("ipython", {"code": 'print("}")'})], ""),
        ('@browser.view(call-1) :  {"url": "https://a.b/c?d=1"}', [("browser.view", {"url": "https://a.b/c?d=1"})], ""),
        (
            'Listing now.\n@shell(x): {\n  "cmd": "ls\n-la"\n}\nDone.',
            [("shell", {"cmd": "ls\n-la"})],
            "Listing now. Done.",
        ),
        (
            '@shell(a): {"cmd": "ls"}\n@shell(b): {"cmd": "pwd"}\ntext\n@ipython(c): {"code": "1"}',
            [("shell", {"cmd": "ls"}), ("shell", {"cmd": "pwd"}), ("ipython", {"code": "1"})],
            "text",
        ),
        ('@shell(u): {"cmd": "ls"}glued words', [("shell", {"cmd": "ls"})], "glued words"),
        (
            'Example:\n```\n@shell(e): {"cmd": "example"}\n```\n@shell(r): {"cmd": "real"}',
            [("shell", {"cmd": "real"})],
            'Example: ``` @shell(e): {"cmd": "example"} ```',
        ),
    ],
)
def test_an_at_call_of_an_offered_tool_is_a_call(
    text: str, calls: list[tuple[str, dict[str, object]]], visible: str
) -> None:
    check(Real("written: gptme tool format variants", text, calls, visible=visible, tools=TOOLS))


@pytest.mark.parametrize(
    "text",
    [
        'Ping @unknown(x): {"cmd": "ls"} please.',
        "@shell(x) is how a decorator looks, and mail me@shell(home).",
        '@shell(x): not json {"cmd": "ls"}',
        'Ping @shell: {"cmd": "ls"} please.',  # no id: a mention in a sentence
        'mail @shell {"cmd": "ls"}',
        'For example:\n@shell {"cmd": "ls"}',  # presented
        '```\n@shell {"cmd": "ls"}\n```',  # shown in a fence
        '@unknown {"cmd": "ls"}',
        'For example: @shell(x): {"cmd": "ls"}',
        '```python\n@shell(x): {"cmd": "ls"}\n```',
        '```\n@shell(x): {"cmd": "ls"}\n```',
    ],
)
def test_an_at_mention_decorator_example_or_unknown_name_is_text(text: str) -> None:
    result = parse_everywhere(text, TOOLS, every_split=True, seeds=4)
    assert result["calls"] == [] and result["errors"] == []
    assert result["text"] == text


@pytest.mark.parametrize(
    ("text", "calls", "visible"),
    [
        ('@shell: {"cmd": "ls"}', [("shell", {"cmd": "ls"})], ""),
        ('@shell {"cmd": "ls"}', [("shell", {"cmd": "ls"})], ""),
        ('Running it.\n@ipython {"code": "1 + 1"}\nDone.', [("ipython", {"code": "1 + 1"})], "Running it.\n\nDone."),
        (
            '@browser.view:{"url": "https://a.b"}\r\n@shell {"cmd": "pwd"}',
            [("browser.view", {"url": "https://a.b"}), ("shell", {"cmd": "pwd"})],
            "\r\n",
        ),
    ],
)
def test_without_an_id_an_at_call_opening_the_message_or_a_line_is_a_call(
    text: str, calls: list[tuple[str, dict[str, object]]], visible: str
) -> None:
    check(Real("written: the at form without gptme's id", text, calls, visible=visible, tools=TOOLS))
