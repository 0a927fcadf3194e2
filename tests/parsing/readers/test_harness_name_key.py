"""A flat JSON call named under a name key with a harness's prefix (LevelCode's ``{"cb_tool_name": NAME, …}`` inside
``<levelcode_tool_call>``), its other keys the arguments and the keys with the same prefix the harness's flags
(`shim.parsing.shapes`)."""

from __future__ import annotations

from typing import Any

import pytest

from shim.parsing.shapes import ToolIndex, to_call
from tests.parsing.readers.cases import Real, check, tool

TOOLS = [
    tool("read_files", paths="array"),
    tool("write_file", path="string", content="string", cb_mode="string"),
    tool("list_dir"),
]


@pytest.mark.parametrize(
    ("text", "visible", "calls"),
    [
        # LevelCode's prompt: its own call tag, the name under `cb_tool_name`, the arguments flat, `cb_easp` a flag.
        (
            '<levelcode_tool_call>\n{\n  "cb_tool_name": "read_files",\n  "paths": ["a.ts"],\n  "cb_easp": true\n}\n'
            "</levelcode_tool_call>",
            "",
            [("read_files", {"paths": ["a.ts"]})],
        ),
        # Another harness's prefix on both the tag and the keys; the name key spelled `function_name`.
        (
            'Writing it.\n<acme_tool_call>{"ag_function_name": "write_file", "path": "a", "content": "x", "ag_flag": 1}'
            "</acme_tool_call>\nDone.",
            "Writing it. Done.",
            [("write_file", {"path": "a", "content": "x"})],
        ),
        # Hermes' tag; a prefixed key the tool declares stays an argument, an undeclared one is the harness's flag.
        (
            '<tool_call>\r\n{"cb_tool_name": "write_file", "path": "b", "cb_mode": "w", "cb_easp": false}\r\n</tool_call>',
            "",
            [("write_file", {"path": "b", "cb_mode": "w"})],
        ),
        # `x_name`, a tool of no parameters, in a JSON fence.
        ('```json\n{"x_name": "list_dir"}\n```', "", [("list_dir", {})]),
        # Two calls with text between.
        (
            'First.\n<levelcode_tool_call>{"cb_tool_name": "list_dir"}</levelcode_tool_call>\nThen.\n'
            '<levelcode_tool_call>{"cb_tool_name": "read_files", "paths": []}</levelcode_tool_call>',
            "First. Then.",
            [("list_dir", {}), ("read_files", {"paths": []})],
        ),
    ],
)
def test_a_prefixed_name_key_naming_an_offered_tool_names_a_flat_call(
    text: str, visible: str, calls: list[tuple[str, dict[str, Any]]]
) -> None:
    check(Real("written: LevelCode-style prefixed name keys", text, calls, visible=visible, tools=TOOLS))


@pytest.mark.parametrize(
    "text",
    [
        # A prefixed name of a tool not offered, prose naming the key, a `user_name` field, a quoted example.
        'Write {"cb_tool_name": "rm", "path": "/"} to delete.',
        'The key is "cb_tool_name": "read_files" in the JSON.',
        '{"user_name": "bob", "path": "x"}',
        '> Example: `<levelcode_tool_call>{"cb_tool_name": "read_files", "paths": ["a"]}</levelcode_tool_call>`',
    ],
)
def test_a_prefixed_key_of_no_offered_tool_or_in_prose_stays_text(text: str) -> None:
    check(Real("written", text, [], visible=text, tools=TOOLS))


def test_a_prefixed_name_key_gives_way_to_a_plain_one_and_to_two_prefixed_names() -> None:
    tools = ToolIndex(TOOLS)
    shape = to_call({"name": "list_dir", "cb_tool_name": "read_files"}, tools)
    assert (shape.name, shape.arguments) == ("list_dir", {"cb_tool_name": "read_files"})
    with pytest.raises(ValueError, match="no tool name"):
        to_call({"x_name": "read_files", "y_name": "list_dir"}, tools)
