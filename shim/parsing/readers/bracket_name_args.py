"""An offered tool's name in square brackets, then its arguments: ``[NAME]{…}`` (closed by ``</NAME>`` or not).

    [recall]{"query": "How much disk space is left?"}</recall>
    Let me check. [calculator]{"expression": "2+2"}
    [datetime]GETCURRENTDATEANDTIME()

xLAM writes a call so when a harness prompts it with the tools' names in brackets (TinkerBox's "dialect 3", the
form its voice assistant reads wherever it stands in the reply): the name in brackets, glued to the arguments as a
JSON object, then an XML-like closer of the name that the model may leave out. Its noise form puts an invented
function of no arguments (an upper-case ``NAME()``) after the brackets instead of the object: that is the named
tool called with none, for a tool that requires none. Leniencies: blanks inside the brackets, up to two before the
object; the closer with blanks inside; several calls in one message, glued or among prose.

The evidence is strict: the bracketed name is an offered tool's, standing on its own (``rows[recall]{…}`` indexes
something), the object is JSON and reads as that tool's arguments (the shape rules every untagged call goes
through, `shim.parsing.readers.untagged.calls_of`); the noise form's parentheses are empty and its tool requires no
argument. A bracketed name with no object after it (``the user mentioned [recall] earlier``), a name no tool has,
an object that is not JSON is text, unchanged; so is the form shown in prose (an inline code span, a code fence,
after words presenting an example: the core's prose rules).
"""

from __future__ import annotations

from typing import Any, cast

import regex

from shim.parsing.readers.base import Block, Context, Dialect, GivenBack, Next, Reader
from shim.parsing.readers.tool_xml import tool_name_pattern
from shim.parsing.readers.untagged import JsonCall, JsonCandidate, call_of
from shim.parsing.shapes import ToolIndex

__all__ = ["ROWS"]

_WORD_BEFORE = regex.compile(r"[\w\]\)]\Z")
"""``rows[recall]{…}``, ``f()[recall]``: the bracket indexes what stands before it, no call opens there."""


def _closer(written: str) -> regex.Pattern[str]:
    """The name's closer right after the object (``</recall>``), the name written as in the brackets."""
    name = regex.escape(written)
    return regex.compile(rf"[ \t]{{0,4}}<[ \t]{{0,2}}/[ \t]{{0,2}}{name}[ \t]{{0,2}}>")


def _requires_none(tools: ToolIndex, name: str) -> bool:
    spec = tools.specs.get(name)
    required: Any = spec.input_schema.get("required") if spec is not None else None
    return not required or not isinstance(required, list) or not cast("list[Any]", required)


class _NoArguments:
    """The noise form, read whole by the opener: the named tool, called with no arguments."""

    def __init__(self, ctx: Context, name: str) -> None:
        self.ctx = ctx
        self.name = name

    def feed(self, text: str, pos: int, final: bool) -> tuple[int, Next]:
        del text, final
        self.ctx.end_call(self.name, {}, streamed=False)
        return pos, None

    def finish(self, truncated: bool) -> None:
        del truncated
        self.ctx.end_call(self.name, {}, streamed=False)


def _open(ctx: Context, block: Block, match: regex.Match[str]) -> Reader:
    del block
    if _WORD_BEFORE.search(ctx.tail()) is not None:
        return GivenBack(ctx)
    name = ctx.tools.resolve(match.group("name"))
    if match.group("noise") is not None:
        return _NoArguments(ctx, name) if _requires_none(ctx.tools, name) else GivenBack(ctx)

    return JsonCall(ctx, JsonCandidate(ctx), [(_closer(match.group("name")), False)], as_call=call_of(name))


def _opener(tools: ToolIndex) -> str | None:
    names = tool_name_pattern(tools)
    if names is None:
        return None
    noise = r"(?P<noise>[A-Za-z_][A-Za-z0-9_]{0,63}\([ \t]{0,2}\))"
    return rf"\[[ \t]{{0,2}}(?P<name>{names})[ \t]{{0,2}}\](?:{noise}|[ \t]{{0,2}}(?=\{{))"


ROWS = [
    Dialect(
        "bracket_name_args",
        r"\[",
        None,
        kind="untagged",
        first="[",
        reader=_open,
        open_for_tools=_opener,
        example='[NAME]{"KEY": "VALUE"}</NAME>',
    )
]
"""``[NAME]{…}`` or ``[NAME]FUNC()`` anywhere in the message, NAME an offered tool. The scanner already stops at
``[`` (other bracketed forms), so the row adds no stop character to prose."""
