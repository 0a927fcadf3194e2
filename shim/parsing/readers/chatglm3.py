"""ChatGLM3-6B's own call: the tool's name alone on a line, then a fence holding ``tool_call(k=v, …)``.

    get_current_weather
    ```python
    tool_call(location="beijing", unit="celsius")
    ```

ChatGLM3's template writes a call as an assistant message whose header's metadata is the tool's name
(``<|assistant|>get_current_weather``), its body a ```` ```python ```` fence around one ``tool_call(…)`` of keyword
arguments, then ``<|observation|>`` (PROMPT.md's "Tool Calling"; the repository's ``openai_api_demo`` reads the
fence's inner lines by evaluating them with ``tool_call(**kwargs)`` returning its keywords). With the role tokens
dropped (a stream's plain content), the name line opens the message, or follows the text of an earlier assistant
message on a line of its own.

Read for an offered tool's name only, and only where the fence's first line is ``tool_call(`` (the name line then
ordinary code, or ``tool_call(`` written in a sentence, is text); the fence may be bare or ```` ```python ````
(indented a little: the demo prints a space before it). The keyword values are Python literals, read by
`shim.parsing.readers.pycall` (never evaluated); the fence's closer and a turn token after it are the call's
markup.
"""

from __future__ import annotations

from collections.abc import Callable

import regex

from shim.parsing.readers.base import (
    MORE,
    NAME_START,
    Block,
    Context,
    Dialect,
    Next,
    keep_line_break,
    match_at,
    message_and_line_rows,
)
from shim.parsing.readers.block_end import AfterBody, Closed
from shim.parsing.readers.pycall import PyCall
from shim.parsing.readers.tool_xml import tool_name_pattern
from shim.parsing.shapes import ToolIndex
from shim.parsing.tags import compile_marker

__all__ = ["ROWS"]

_FENCED_CALL = r"[ \t]{0,4}\r?\n[ \t]{0,4}```[ \t]{0,2}(?:python|py)?[ \t]{0,4}\r?\n[ \t]{0,4}tool_call[ \t]{0,4}\("
"""After the name: its line's end, a fence (bare or ```` ```python ````) and ``tool_call(`` opening its first line."""

_FENCE = Dialect("chatglm3_fence", r"```", r"```", kind="untagged")
"""The block's row once opened: the fence's closer ends it (an untagged block gets no row of its own)."""


_CLOSER = regex.compile(r"```")


class _FencedCall(PyCall):
    """The call's keywords up to ``)``; then the fence's closer, and the next name line's call if one follows."""

    def _end(self, new: int) -> tuple[int, Next]:
        new, _ = super()._end(new)
        return new, _Closer(self.ctx, self.block)


class _Closer:
    """After ``tool_call(…)``: the fence's closer is markup; anything else is read as after any body."""

    def __init__(self, ctx: Context, block: Block) -> None:
        self.ctx = ctx
        self.block = block

    def feed(self, text: str, pos: int, final: bool) -> tuple[int, Next]:
        pos = self.ctx.skip_ws(text, pos)
        if pos >= len(text) and not final:
            return pos, self
        found = match_at(_CLOSER, text, pos, final)
        if found is MORE:
            return pos, MORE
        if found is None:
            return AfterBody(self.ctx, self.block).feed(text, pos, final)
        self.ctx.markup(found.group())
        return found.end(), _NextCall(self.ctx, self.block)

    def finish(self, truncated: bool) -> None:
        AfterBody(self.ctx, self.block).finish(truncated)


class _NextCall:
    """After the fence: another name line and its fenced call right below (the role token between two of the
    template's messages dropped) is the next call; anything else is read as after a closed block."""

    def __init__(self, ctx: Context, block: Block) -> None:
        self.ctx = ctx
        self.block = block
        self.pattern = compile_marker(
            _opener(r"(?P<blank>[ \t]{0,8}\r?\n(?:[ \t]{0,8}\r?\n){0,4})")(ctx.tools) or "(?!)"
        )

    def feed(self, text: str, pos: int, final: bool) -> tuple[int, Next]:
        if pos >= len(text) and not final:
            return pos, self
        found = self.pattern.match(text, pos, partial=not final)
        if found is not None and found.partial:
            return pos, MORE
        if found is None:
            return Closed(self.ctx).feed(text, pos, final)
        self.ctx.text(found.group("blank"))  # the line break between the calls stays text
        self.ctx.consume(found.group()[len(found.group("blank")) :])
        return found.end(), _FencedCall(self.ctx, self.block, self.ctx.tools.resolve(found.group("name")))

    def finish(self, truncated: bool) -> None:
        Closed(self.ctx).finish(truncated)


def _opener(prefix: str) -> Callable[[ToolIndex], str | None]:
    def build(tools: ToolIndex) -> str | None:
        names = tool_name_pattern(tools)
        return None if names is None else rf"{prefix}(?P<name>{names}){_FENCED_CALL}"

    return build


def _open(ctx: Context, block: Block, match: regex.Match[str]) -> _FencedCall:
    if match.group().startswith(("\n", "\r")):
        keep_line_break(ctx)  # the line break before the name stays text
    block.dialect = _FENCE
    block.fence = True
    return _FencedCall(ctx, block, ctx.tools.resolve(match.group("name")))


ROWS = [
    *message_and_line_rows("chatglm3_tool_call", _opener, reader=_open, open="name", first=NAME_START, indent=""),
    # The template's header kept (special tokens not skipped): `<|assistant|>NAME` anywhere, the name its metadata;
    # a call row (tried before the turn header's markup row), built for the offered names only
    Dialect(
        "chatglm3_tool_call_header",
        r"<\|",
        None,
        first="<",
        reader=_open,
        open_for_tools=_opener(r"<\|assistant\|>[ \t]{0,4}"),
    ),
]
"""The name line opening the message, after a line break (the text of an earlier message before it), or after the
assistant header whose metadata it is."""
