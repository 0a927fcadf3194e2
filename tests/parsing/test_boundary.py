"""Leaked boundary tokens (`shim.parsing.boundary`): out of the text and the values, back in the raw, at every split."""

from __future__ import annotations

from typing import Any

import pytest

from tests.parsing.chunking import parse_everywhere

T = "]<]minimax[>["
READ = {
    "name": "read_file",
    "inputSchema": {
        "type": "object",
        "properties": {"path": {"type": "string"}, "start_line": {"type": "integer"}},
    },
}


@pytest.mark.parametrize(
    ("text", "calls", "visible"),
    [
        (  # MiniMax-M3 (MiniMax-M3#31): the token before every tag of an invoke with child elements
            f'Let me read it.{T}<tool_call>\n{T}<invoke name="read_file">{T}<path>C:\\src\\main.rs{T}</path>'
            f"{T}<start_line>130{T}</start_line>{T}</invoke>\n{T}</tool_call>",
            [("read_file", {"path": "C:\\src\\main.rs", "start_line": 130})],
            "Let me read it.",
        ),
        (
            f'{T}<tool_call>{{"name": "read_file", "arguments": {{"path": "a.py"}}}}{T}</tool_call>{T}',
            [("read_file", {"path": "a.py"})],
            "",
        ),
        ("Done.]<]eos[>[ All good.", [], "Done. All good."),  # another word, in text only
    ],
)
def test_boundary_tokens_are_markup_wherever_they_leak(
    text: str, calls: list[tuple[str, dict[str, Any]]], visible: str
) -> None:
    result = parse_everywhere(text, [READ], seeds=5)
    assert [(c["name"], c["arguments"]) for c in result["calls"]] == calls
    assert result["text"] == visible and result["errors"] == []


@pytest.mark.parametrize(
    "text",
    ["a ]<] b", "x]<]minimax[> y", "a[0]<]1[>[", "ends with ]<]minimax[>", "[>[ ]<]"],
)
def test_text_that_only_resembles_a_boundary_token_stays_text(text: str) -> None:
    result = parse_everywhere(text, [READ], seeds=5)
    assert result["calls"] == [] and result["text"] == text


@pytest.mark.parametrize(
    ("text", "visible"),
    [
        # vLLM's MiniMax-M3 parser test (tests/tool_parsers/test_minimax_m3_tool_parser.py@06726266): the output ends
        # inside the token-prefixed opener, no call: the token belongs to the tag it precedes, text with it
        (f"plain {T}<tool_ca", f"plain {T}<tool_ca"),
        (f"{T}<tool_call>never closed", f"{T}<tool_call>never closed"),
        (f"Use {T}<b>bold</b> here.", f"Use {T}<b>bold</b> here."),  # a tag of no call
        # a token elsewhere in text is still markup
        (f"Done.{T} All good.{T}", "Done. All good."),
    ],
)
def test_a_boundary_token_before_a_tag_read_as_text_is_text_with_it(text: str, visible: str) -> None:
    result = parse_everywhere(text, [READ], seeds=5)
    assert result["calls"] == [] and result["text"] == visible
