"""A call envelope as YAML in a ```yaml fence (`shim.parsing.readers.yaml_fence`), at every split point."""

from __future__ import annotations

import pytest

from tests.parsing.readers.cases import Real, check, tool

TOOLS = [tool("search", query="string", limit="integer", tags="array"), tool("write", path="string", body="string")]


@pytest.mark.parametrize(
    ("text", "call", "visible"),
    [
        # CAMEL's MCPAgent envelope: server_idx routes, tool_args are the arguments.
        (
            "Here is the call:\n```yaml\nserver_idx: 2\ntool_name: search\ntool_args:\n  query: cats\n  limit: 5\n```",
            ("search", {"query": "cats", "limit": 5}),
            "Here is the call:\n",
        ),
        (
            '```yml\nname: search\narguments:\n  query: \'123\'\n  tags: ["a", "b"]\n```\nDone.',
            ("search", {"query": "123", "tags": ["a", "b"]}),
            "\nDone.",
        ),
        (
            '```yaml\nname: search\narguments:\n  query: 42\n  tags:\n  - x\n  - "y z"\n```',
            ("search", {"query": "42", "tags": ["x", "y z"]}),
            "",
        ),
        (
            "```yaml\nname: write\narguments:\n  path: a.py\n  body: |\n    x = 1\n    print(x)\n```",
            ("write", {"path": "a.py", "body": "x = 1\nprint(x)\n"}),
            "",
        ),
    ],
)
def test_a_yaml_fence_holding_one_call_of_an_offered_tool_is_the_call(
    text: str, call: tuple[str, dict[str, object]], visible: str
) -> None:
    check(Real("written", text, [call], visible=visible, tools=TOOLS))


@pytest.mark.parametrize(
    "text",
    [
        "```yaml\nname: lookup\narguments:\n  query: cats\n```",  # no offered tool
        "```yaml\nversion: 3\nservices:\n  web:\n    image: nginx\n```",  # a config file
        "```yaml\n- name: search\n  arguments: {query: cats}\n```",  # a list item of a mapping: not read here
        "```yaml\nname: search\narguments:\n  query: cats\n",  # never closed
        "For example:\n```yaml\nname: search\narguments:\n  query: cats\n```",  # presented
        "```yaml\nq: &q\n  query: cats\nname: search\narguments: *q\n```",  # an alias: refused (may expand unbounded)
        "```yaml\n```",  # empty
    ],
)
def test_a_yaml_fence_that_is_no_call_of_an_offered_tool_stays_text(text: str) -> None:
    check(Real("written", text, [], visible=text, tools=TOOLS))


def test_without_offered_tools_a_yaml_fence_is_text_whatever_it_holds() -> None:
    text = '```yaml\nname: search\n# <tool_call>{"name": "search", "arguments": {}}</tool_call>\n```'
    check(Real("written", text, [], visible=text, tools=[]))
