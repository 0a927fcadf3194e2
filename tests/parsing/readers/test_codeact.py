"""Action tags holding code, ``<execute_ipython>\\nCODE`` (`shim.parsing.readers.codeact`)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.parsing.readers.cases import Real, check, tool

OPENHANDS = "All-Hands-AI/OpenHands:tests/integration/mock/CodeActAgent"
CODEACT = [
    tool("execute_ipython", code="string"),
    tool("execute_bash", command="string"),
    tool("execute_browse", instruction="string"),
    tool("finish"),
]


@pytest.mark.parametrize(
    ("text", "calls", "visible"),
    [
        (
            "Let's open the file.\n\n<execute_ipython>\nopen_file('bad.txt')\n",
            [("execute_ipython", {"code": "open_file('bad.txt')"})],
            "Let's open the file.",
        ),
        ("<execute_bash>\ncat hello.sh\n</execute_bash>", [("execute_bash", {"command": "cat hello.sh"})], ""),
        (
            "Now:\n<execute_ipython>\nimport os\n\nfor f in os.listdir('.'):\n    print(f)\n</execute_ipython>\nDone?",
            [("execute_ipython", {"code": "import os\n\nfor f in os.listdir('.'):\n    print(f)"})],
            "Now:\nDone?",
        ),
        (
            "Run it:\r\n  <execute_bash>  \r\n\r\n  bash hello.sh\r\n",
            [("execute_bash", {"command": "bash hello.sh"})],
            "Run it:",
        ),
        (
            '<execute_browse>\nGet the content on "http://localhost:8000"\n',
            [("execute_browse", {"instruction": 'Get the content on "http://localhost:8000"'})],
            "",
        ),
        ("All done.\n\n<finish></finish>\n", [("finish", {})], "All done."),
    ],
)
def test_a_tag_naming_an_offered_tool_alone_on_its_line_holds_its_one_string(
    text: str, calls: list[tuple[str, dict[str, Any]]], visible: str
) -> None:
    check(Real(OPENHANDS, text, calls, visible=visible, tools=CODEACT))


@pytest.mark.parametrize(
    "text",
    [
        "Use the <execute_bash> tag to run commands.",  # named mid-line
        "Wrap the command:\n<execute_bash> ls",  # the body on the tag's line: no tag alone on its line
        "```python\n<execute_bash>\nls\n```",  # shown in a code fence
        "For example:\n<execute_bash>\nls\n</execute_bash>",  # presented as an example
        "Run:\n<execute_bash>\n  \n",  # nothing to run
        "<execute_shell>\nls\n",  # no such tool
    ],
)
def test_action_tags_in_prose_stay_text(text: str) -> None:
    check(Real(OPENHANDS, text, [], visible=text, tools=CODEACT))


def test_without_a_tool_taking_one_string_the_tag_and_its_body_stay_text() -> None:
    text = "<execute_bash>\nls\n"
    check(Real(OPENHANDS, text, [], visible=text, tools=[tool("execute_bash", command="string", cwd="string")]))


def test_child_tags_under_the_tag_are_tool_name_xml() -> None:
    text = "<execute_bash>\n<command>ls</command>\n</execute_bash>"
    check(Real(OPENHANDS, text, [("execute_bash", {"command": "ls"})], tools=CODEACT))


def test_a_body_on_one_line_ends_at_the_tags_closer() -> None:
    text = "Listing:\n<execute_bash>\nls -la</execute_bash>"
    check(Real(OPENHANDS, text, [("execute_bash", {"command": "ls -la"})], visible="Listing:", tools=CODEACT))


@pytest.mark.parametrize(
    "code", ["try:\n    import numpy\nexcept ImportError:\n    pass", "for f in files:\n    print(f)"]
)
def test_code_whose_first_line_ends_with_a_colon_is_the_body(code: str) -> None:
    text = f"<execute_ipython>\n{code}\n"
    check(Real(OPENHANDS, text, [("execute_ipython", {"code": code})], tools=CODEACT))
