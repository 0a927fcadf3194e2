"""A shell's code fence opening the message or a line with one JSON call of an offered tool as all it holds: the
model's answer (`shim.parsing.readers.answer_fence`); otherwise a language's fence shows code."""

from __future__ import annotations

from typing import Any

import pytest

from tests.parsing.readers.cases import Real, check, tool

OAH = "tsushanth/open-agent-harness:tests/test_tool_parser.py (Qwen2.5-Coder-7B on vLLM, observed)"
MINI_CODEX = "jcarvalhogo/mini-codex:src/tools/parser.rs (deepseek-r1:14b profile)"
TOOLS = [tool("cat", file="string"), tool("run_shell", command="string", timeout="integer")]


@pytest.mark.parametrize(
    ("text", "calls", "visible"),
    [
        ('```bash\n{"name": "cat", "arguments": {"file": "buggy.py"}}\n```', [("cat", {"file": "buggy.py"})], ""),
        (  # another language, another tool, blanks and indentation, prose after the fence
            '``` Zsh \n  {"name": "run-shell", "arguments": {"command": "ls -la", "timeout": 5}}\n  ```\nRunning it.',
            [("run_shell", {"command": "ls -la", "timeout": 5})],
            "Running it.",
        ),
        (  # the object over several lines, CRLF, the Hermes key order
            '```powershell\r\n{\r\n  "arguments": {"file": "ä.txt"},\r\n  "name": "cat"\r\n}\r\n```',
            [("cat", {"file": "ä.txt"})],
            "",
        ),
    ],
)
def test_a_shell_fence_opening_the_message_with_one_json_call_is_the_call(
    text: str, calls: list[tuple[str, dict[str, Any]]], visible: str
) -> None:
    check(Real(OAH, text, calls, visible=visible, tools=TOOLS))


@pytest.mark.parametrize(
    ("text", "calls", "visible"),
    [
        (  # mini-codex's test: a sentence, then its flat call object in a ```bash fence
            'Here is the tool call:\n```bash\n{"tool":"cat","file":"page.html"}\n```\n',
            [("cat", {"file": "page.html"})],
            "Here is the tool call:",
        ),
        (  # the Hermes shape, another shell, an indented fence, prose after it
            'Listing it now.\n  ```Shell\n  {"name": "run_shell", "arguments": {"command": "ls", "timeout": 9}}\n  ```\nOK',
            [("run_shell", {"command": "ls", "timeout": 9})],
            "Listing it now. OK",
        ),
        (  # CRLF, a blank line between the prose and the fence, the object over lines
            'Reading the file.\r\n\r\n```pwsh\r\n{\r\n  "name": "cat",\r\n  "arguments": {"file": "ä"}\r\n}\r\n```',
            [("cat", {"file": "ä"})],
            "Reading the file.",
        ),
    ],
)
def test_a_shell_fence_opening_a_line_after_prose_with_one_json_call_is_the_call(
    text: str, calls: list[tuple[str, dict[str, Any]]], visible: str
) -> None:
    check(Real(MINI_CODEX, text, calls, visible=visible, tools=TOOLS))


@pytest.mark.parametrize(
    "text",
    [
        'Here is how: ```bash\n{"name": "cat", "arguments": {"file": "a.py"}}\n```',  # mid-line: no fence
        'For example:\n```bash\n{"name": "cat", "arguments": {"file": "a.py"}}\n```',  # an example presented
        'Here:\n```bash\n{"name": "rm", "arguments": {"file": "a.py"}}\n```',  # after prose, no offered tool
        'Run:\n```sh\n{"name": "cat", "arguments": {"file": "a"}}\ncat a\n```',  # after prose, a command after it
        'Then:\n```python\n{"name": "cat", "arguments": {"file": "a.py"}}\n```',  # after prose, not a shell
        '```bash\n{"name": "rm", "arguments": {"file": "a.py"}}\n```',  # no offered tool
        '```bash\n{"name": "cat", "arguments": {"file": "a.py"}}\necho done\n```',  # code after the object
        '```sh\n{"name": "cat", "arguments": {"file": "a"}}\n{"name": "cat", "arguments": {"file": "b"}}\n```',
        '```js\n{"name": "cat", "arguments": {"file": "a.py"}}',  # the fence left open
        '```sh\nconst call = {"name": "cat", "arguments": {"file": "a.py"}};\n```',  # code holding the object
        '```bash\n{"name": "cat", "arguments": {"file": "a.py"}}\ncat([1])\n```',  # code follows
        # another language's fence: the object is code or data as written there
        '```python\n{"name": "cat", "arguments": {"file": "a.py"}}\n```',
        '```jsonl\n{"name": "cat", "arguments": {"file": "a.py"}}\n```',
        '```console\n{"name": "cat", "arguments": {"file": "a.py"}}\n```',
        '```bash\n{"file": "a.py"}\n```',  # arguments only, no call
    ],
)
def test_a_fence_of_another_language_after_prose_holding_more_or_naming_no_tool_shows_code(text: str) -> None:
    check(Real(OAH, text, [], visible=text, tools=TOOLS))


def test_without_tools_the_fence_shows_code() -> None:
    text = '```bash\n{"name": "cat", "arguments": {"file": "a.py"}}\n```'
    check(Real(OAH, text, [], visible=text, tools=None))


DEEPSEEK = "BFCL result files, deepseek-coder 6.7B (javascript category, prompt: calls wrapped in python code)"
PY_TOOLS = [tool("validate_input", field="string", complete="boolean"), tool("get_weather", city="string")]


@pytest.mark.parametrize(
    ("text", "calls", "visible"),
    [
        (  # BFCL: the prompt's indentation before the list and the closing fence, prose after it
            '```python\n        [{"name": "validate_input", "params": {"field": "f1", "complete": "True"}}]\n'
            "        ```\n\n    This is the call.",
            [("validate_input", {"field": "f1", "complete": True})],
            "This is the call.",
        ),
        (  # each call keyed by its tool's name, Python's quotes, another tool, a second fence after it stays text
            "```py\n[{'get_weather': {'city': 'Lima'}}]\n```\n```\n### Instruction:",
            [("get_weather", {"city": "Lima"})],
            "``` ### Instruction:",
        ),
        (  # two calls over several lines, a blank line first, CRLF, Python's literals
            '```Python3\r\n\r\n[\r\n  {"name": "get_weather", "arguments": {"city": "Oslo"}},\r\n'
            '  {"name": "validate_input", "arguments": {"field": "ä", "complete": True}}\r\n]\r\n```',
            [("get_weather", {"city": "Oslo"}), ("validate_input", {"field": "ä", "complete": True})],
            "",
        ),
    ],
)
def test_a_python_fence_opening_the_message_with_a_list_of_json_calls_is_the_answer(
    text: str, calls: list[tuple[str, dict[str, Any]]], visible: str
) -> None:
    check(Real(DEEPSEEK, text, calls, visible=visible, tools=PY_TOOLS))


@pytest.mark.parametrize(
    "text",
    [
        'Here:\n```python\n[{"name": "get_weather", "arguments": {"city": "Lima"}}]\n```',  # after prose
        '```python\n[{"name": "get_weather", "arguments": {"city": "Lima"}}]\nprint(1)\n```',  # code after the list
        '```python\ncalls = [{"name": "get_weather", "arguments": {"city": "Lima"}}]\n```',  # code holding it
        '```python\n[{"name": "search", "arguments": {"q": "Lima"}}]\n```',  # no offered tool
        '```python\n[{"name": "get_weather", "arguments": {"city": "a"}}, {"name": "rm", "arguments": {}}]\n```',
        '```python\n[{"city": "Lima"}, {"city": "Oslo"}]\n```',  # data, no call
        '```python\n[{"name": "get_weather", "arguments": {"city": "Lima"}}]',  # the fence left open
        '```javascript\n[{"name": "get_weather", "arguments": {"city": "Lima"}}]\n```',  # another language
        '```python\n[{"name": "get_weather", "arguments": {"city": "Lima"}}][0]\n```',  # an expression
    ],
)
def test_a_python_fence_after_prose_holding_more_or_no_offered_call_shows_code(text: str) -> None:
    check(Real(DEEPSEEK, text, [], visible=text, tools=PY_TOOLS))


@pytest.mark.parametrize(
    "text",
    [
        "```python\n[{'name': 'get_weather', 'args': {'city': 'Paris'}]\n```",  # a brace left out: no Python
        '```python\n[{"name": "get_weather", "arguments": {"city": "Lima"}} // the call\n]\n```',  # a comment
        '```python\n[{"name": "get_weather", "arguments": {city: "Lima"}}]\n```',  # a bare key: no literal
    ],
)
def test_a_python_fence_whose_list_is_no_literal_as_written_shows_code(text: str) -> None:
    check(Real(DEEPSEEK, text, [], visible=text, tools=PY_TOOLS))
