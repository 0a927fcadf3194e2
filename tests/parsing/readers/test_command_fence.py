"""A command in a bare fence ending the message, for the one offered shell runner (`shim.parsing.readers.command_fence`)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.parsing.readers.cases import Real, check, tool

SWE_AGENT = "SWE-agent/SWE-agent:tests/test_data/trajectories@3ea751c087f32b16e039a2233dd6eefecef325d5"
BASH = [tool("bash", command="string")]


@pytest.mark.parametrize(
    ("text", "command", "visible"),
    [
        ("Let's run it.\n\n```\npython reproduce_bug.py\n```", "python reproduce_bug.py", "Let's run it."),
        ("```\nsubmit\n```", "submit", ""),
        ("```\nsubmit\n```\n", "submit", ""),
        (
            "Fix it.\r\n```\r\nedit 4:4\r\ndef f():\r\nend_of_edit\r\n```\r\n",
            "edit 4:4\r\ndef f():\r\nend_of_edit",
            "Fix it.",
        ),
        (
            "Now the edit.\n\n```\nedit 287:295\n    x = [\n        'a', 'b'\n    ]\nend_of_edit\n```  \n\n",
            "edit 287:295\n    x = [\n        'a', 'b'\n    ]\nend_of_edit",
            "Now the edit.",
        ),
        ('First:\n```\nfind_file "missing_colon.py"\n```', 'find_file "missing_colon.py"', "First:"),
        ("Look:\n```   \n\n  ls -la | wc -l\n```", "  ls -la | wc -l", "Look:"),
        (
            "A first look:\n```\nls\n```\nThen the action.\n```\ncat a.py\n```",
            "cat a.py",
            "A first look:\n```\nls\n```\nThen the action.",
        ),
    ],
)
def test_a_bare_fence_ending_the_message_is_the_shell_runners_command(text: str, command: str, visible: str) -> None:
    check(Real(SWE_AGENT, text, [("bash", {"command": command})], visible=visible, tools=BASH))


@pytest.mark.parametrize(
    "tools",
    [
        [tool("developer__shell", command="string")],
        [tool("run_command", command="string"), tool("read_file", path="string")],
        [tool("shell", cmd="string"), tool("search", query="string")],
        [tool("execute_bash", command="string")],
    ],
)
def test_any_one_shell_runner_takes_the_fence(tools: list[dict[str, Any]]) -> None:
    name = tools[0]["name"]
    key = next(iter(tools[0]["inputSchema"]["properties"]))
    check(Real(SWE_AGENT, "Listing.\n```\nls -la\n```\n", [(name, {key: "ls -la"})], visible="Listing.", tools=tools))


@pytest.mark.parametrize(
    "tools",
    [
        None,  # no tools
        [tool("search", query="string")],  # no shell runner
        [tool("bash", command="string"), tool("developer__shell", command="string")],  # two: which one?
        [tool("bash", command="integer")],  # not a string to run
        [tool("run_python", code="string")],  # runs code, not a shell
    ],
)
def test_without_one_shell_runner_a_bare_fence_stays_text(tools: list[dict[str, Any]] | None) -> None:
    text = "Let me check:\n```\nls -la\n```\n"
    check(Real(SWE_AGENT, text, [], visible=text, tools=tools))


@pytest.mark.parametrize(
    "text",
    [
        "You can run:\n```bash\nls -la\n```\n",  # a fence of a language shows code
        "Running it.\n```sh\npython /tmp/calculator.py\n```",
        "```\nls -a\n```\nYou should only include a single command.",  # text after it: an example
        "Like this:\n```\nls\n```\n\nthen wait for the output.",
        "Cut:\n```\nls -la",  # the output ends inside the fence
        "Empty:\n```\n\n```",  # nothing to run
        "Inline ```\nls``` here.",  # not on its own line
        "Text\n```\n```",  # the closing fence right away
        "Check:\n```\n$ ls -la\n```",  # a prompt line in a fence: a session shown
        "For example:\n```\nls -la\n```",  # presented as an example (`shim.parsing.readers.prose`)
    ],
)
def test_a_fence_shown_or_followed_by_text_stays_text(text: str) -> None:
    check(Real(SWE_AGENT, text, [], visible=text, tools=BASH))


@pytest.mark.parametrize(
    ("text", "calls", "tools"),
    [
        # Other rows' bodies in a bare fence keep their readers.
        ('```\n{"name": "bash", "arguments": {"command": "ls"}}\n```', [("bash", {"command": "ls"})], BASH),
        ("```\nxml\n<bash>\n<command>ls -l</command>\n</bash>\n```", [("bash", {"command": "ls -l"})], BASH),
    ],
)
def test_a_bare_fence_holding_another_form_is_that_forms(
    text: str, calls: list[tuple[str, dict[str, Any]]], tools: list[dict[str, Any]]
) -> None:
    check(Real(SWE_AGENT, text, calls, visible=text.split("```")[0], tools=tools), visible=False)


def test_a_long_body_is_read_whole_at_any_split() -> None:
    body = "\n".join(f"    line {i} = {i} * 2" for i in range(60))
    text = f"The edit.\n```\nedit 1:60\n{body}\nend_of_edit\n```\n"
    check(
        Real(
            SWE_AGENT, text, [("bash", {"command": f"edit 1:60\n{body}\nend_of_edit"})], visible="The edit.", tools=BASH
        ),
        every_split=False,
    )


OPENDEVIN = "All-Hands-AI/OpenHands:tests/integration/mock/SWEAgent@dcb5d1ce0afedf252d1f400f9a3dad8a6d5713bd"


@pytest.mark.parametrize(
    ("text", "command", "visible"),
    [
        (
            "Thoughts:\nI will list the files.\n\nAction:\n```\nls -la\n```",
            "ls -la",
            "Thoughts:\nI will list the files.",
        ),
        ("Thoughts:\nRun it.\r\n\r\nAction:\r\n```\r\nbash hello.sh\r\n```\r\n", "bash hello.sh", "Thoughts:\nRun it."),
        ("Action:\n```\nexit\n```", "exit", ""),
        ("Plan.\n  action:  \n\n```\ngoto 12\n```\n", "goto 12", "Plan."),
        ("Plan.\n**Action:**\n```\nscroll_down\n```", "scroll_down", "Plan."),
        ("Plan.\n### Action\n```\ncat a.py\n```", "cat a.py", "Plan."),
        ("Plan.\nTool call:\n```\npytest -q\n```", "pytest -q", "Plan."),
        (
            "Je vais lire.\n\nAction :\n```\nwrite hello.sh \"echo 'hello'\"\n```",
            "write hello.sh \"echo 'hello'\"",
            "Je vais lire.",
        ),
    ],
)
def test_a_label_line_before_the_command_fence_is_its_markup(text: str, command: str, visible: str) -> None:
    check(Real(OPENDEVIN, text, [("bash", {"command": command})], visible=visible, tools=BASH))


def test_the_label_goes_with_any_one_shell_runner() -> None:
    tools = [tool("run_command", command="string"), tool("read_file", path="string")]
    text = "Next.\nAction:\n```\nmake test\n```\n"
    check(Real(OPENDEVIN, text, [("run_command", {"command": "make test"})], visible="Next.", tools=tools))


@pytest.mark.parametrize(
    ("text", "tools"),
    [
        ("Thoughts:\nList.\n\nAction:\n```\nls\n```\nThen I will wait.", BASH),  # text after the fence
        ("Action:\n```bash\nls -la\n```", BASH),  # a fence of a language
        ("Action:\n```\nls -la", BASH),  # cut open
        ("Thoughts:\nList.\nAction:\n```\nls\n```", [tool("search", query="string")]),  # no shell runner
        ("Thoughts:\nList.\nAction:\n```\nls\n```", None),  # no tools
        ("The next action:\n```\nls\n```", BASH),  # not a label line: the fence alone is the call
        ("Take this action: run\n```\nls\n```\nlater.", BASH),
    ],
)
def test_a_label_before_a_fence_that_is_no_call_stays_text(text: str, tools: list[dict[str, Any]] | None) -> None:
    if text.startswith("The next action:"):
        check(Real(OPENDEVIN, text, [("bash", {"command": "ls"})], visible="The next action:", tools=tools))
        return
    check(Real(OPENDEVIN, text, [], visible=text, tools=tools))
