"""gptme's tool format: ``@NAME(CALL_ID): {json arguments}``, one call per line.

    @shell(call_1): {"cmd": "ls"}
    @ipython(functions.ipython:0): {"code": "2 + 2"}

The name must be an offered tool (an ``@`` before a word is a mention, a decorator or an address in prose), the id
anything but parentheses and line breaks up to 80 characters (gptme's own ``uid``, Kimi K2's ``functions.NAME:0``),
and the arguments a JSON object right after the colon: the id and the colon make it a call wherever it stands.
Without the id (``@get_weather {"city": "Paris"}``, ``@search: {…}``) it is a call only where it opens the message
or a line, as a name opening a line is (`shim.parsing.readers.name_first`): in a sentence it is a mention.
Leniencies: the lenient JSON of every body (a raw newline in a string), spaces around the colon, and words glued
after the closing brace (text again). Inside a Markdown fence such a call is shown, not made (`FENCE_ROWS`).
"""

from __future__ import annotations

from collections.abc import Callable

import regex

from shim.parsing.readers.base import Block, Context, Dialect, Next, keep_line_break, message_and_line_rows
from shim.parsing.readers.code_fence import open_code_fence
from shim.parsing.readers.json_body import JsonBody
from shim.parsing.readers.tool_xml import tool_name_pattern
from shim.parsing.shapes import ToolIndex

__all__ = ["FENCE_ROWS", "ROWS", "LineEnd", "open_named_json"]


def _opener(tools: ToolIndex) -> str | None:
    names = tool_name_pattern(tools)
    if names is None:
        return None
    return rf"@(?P<name>{names})\([^()\r\n]{{1,80}}\)[ \t]{{0,4}}:[ \t]{{0,4}}(?=\{{)"


def _bare(prefix: str) -> Callable[[ToolIndex], str | None]:
    def build(tools: ToolIndex) -> str | None:
        names = tool_name_pattern(tools)
        return None if names is None else rf"{prefix}@(?P<name>{names})[ \t]{{0,4}}:?[ \t]{{0,4}}(?=\{{)"

    return build


class LineEnd:
    """After the arguments: text again at once, so a line break before the next call is seen as its start (a call
    written on one line whose opener named the tool: ``@NAME(ID): {…}``, ``[Tool Call] name=NAME args={…}``)."""

    def feed(self, text: str, pos: int, final: bool) -> tuple[int, Next]:
        return pos, None

    def finish(self, truncated: bool) -> None:
        pass


def open_named_json(ctx: Context, block: Block, match: regex.Match[str]) -> JsonBody:
    """The reader of a row whose opener named the tool (group ``name``) and ends where its JSON arguments begin."""
    block.name = match.group("name")
    return JsonBody(ctx, block, then=LineEnd)


def _open_bare(ctx: Context, block: Block, match: regex.Match[str]) -> JsonBody:
    keep_line_break(ctx, "\r\n \t")  # the line break (and indent) before the call stays text
    return open_named_json(ctx, block, match)


def _fenced(tools: ToolIndex) -> str | None:
    names = tool_name_pattern(tools)
    return None if names is None else rf"```[ \t]*\r?\n(?=[ \t]{{0,4}}@(?:{names})(?:\(|[ \t]{{0,4}}:?[ \t]{{0,4}}\{{))"


ROWS = [
    Dialect("at_call", "@", None, kind="untagged", first="@", reader=open_named_json, open_for_tools=_opener),
    *message_and_line_rows("at_call_bare", _bare, reader=_open_bare, open="@", first="@"),
]

FENCE_ROWS = [
    # A Markdown fence around such a call shows it (an example in a prompt, a doc): text to the closing fence.
    # Listed before the ```json fence row, which would take the fence's opener.
    Dialect("at_call_fence", "```", None, kind="prose", first="`", reader=open_code_fence, open_for_tools=_fenced)
]
