"""Action tags holding code, as OpenHands' CodeActAgent prompts for: a tag named by an offered tool on a line of
its own, its body the tool's one string.

    Let's start by opening the file and examining its contents.

    <execute_ipython>
    open_file('bad.txt')

CodeActAgent asks for ``<execute_ipython>``, ``<execute_bash>`` and ``<execute_browse>`` and passes the closing
tag as a stop sequence, so the model's output ends with the body: the call runs to ``</NAME>`` if written, else
to the output's end. The body is plain text (code, a command, an instruction), the value of the tool's only
parameter (or its only required one), with blank lines around it left out.

Untagged in spirit (a page may show a tag), so the evidence is strict: the tag names an offered tool taking one
string, it stands alone on its line at the message's or a line's start, and the body's first character is no
``<``, ``{`` or ``[``, and its first line no ``KEY: value`` (child tags, a JSON object, YAML-like lines:
`shim.parsing.readers.tool_xml` reads those). An empty body, or
output cut by the token limit, is text again; so is a body a fence's closing line runs through (the tag quoted
in a fence). In a code fence, or after a passage presenting an example, the tag
is text (`shim.parsing.readers.prose`). ``<finish></finish>`` (a tool of no parameters) is tool-name XML's.
"""

from __future__ import annotations

from collections.abc import Callable

import regex

from shim.parsing.readers.base import Block, Context, Dialect, WholeToEnd, keep_line_break
from shim.parsing.readers.bracket_action import takes_one_string
from shim.parsing.readers.tool_xml import tool_name_pattern
from shim.parsing.shapes import ToolIndex, one_parameter
from shim.parsing.tags import compile_marker

__all__ = ["ROWS", "TagBody"]

_BLANK_LINES = regex.compile(r"\A(?:[ \t]*\r?\n)+")
_FENCE_LINE = regex.compile(r"(?m)^[ \t]{0,3}```")


class TagBody(WholeToEnd):
    """The body up to ``</NAME>`` (or the output's end), decided whole: the tool's one string."""

    END = regex.compile(r"(?!)")  # the tag's own closer, set per call

    def __init__(self, ctx: Context, name: str) -> None:
        super().__init__(ctx)
        self.tool = ctx.tools.resolve(name)
        self.end = compile_marker(rf"<[ \t]{{0,8}}/[ \t]{{0,8}}{regex.escape(name)}[ \t]{{0,8}}>")

    def _decide(self) -> None:
        value = _BLANK_LINES.sub("", "".join(self.body)).rstrip()
        fenced = _FENCE_LINE.search(value) is not None  # the tag quoted in a fence: the fence closes in its body
        arguments = one_parameter(self.ctx.tools, self.tool, value) if value and not fenced else None
        if arguments is None:
            self.ctx.revert()
        else:
            self.ctx.end_call(self.tool, arguments, streamed=False)


def _open(ctx: Context, block: Block, match: regex.Match[str]) -> TagBody:
    del block
    keep_line_break(ctx)  # the line break before the tag stays text
    return TagBody(ctx, match.group("name"))


_BODY = (
    r"[ \t]{0,8}\r?\n(?:[ \t]{0,64}\r?\n){0,4}[ \t]{0,64}"
    r"(?=(?![A-Za-z_][\w .\-]{0,40}:[ \t])[^\s<{\[][^\r\n]*(?:\r?\n|<[ \t]{0,8}/))"
)
"""The tag's line break, then the body's first line, seen whole (to its line break or a closer, so where a chunk ends
decides nothing): no child tag, JSON value, or ``KEY: value`` line (tool-name XML's; or prose: ``The path: a.py``)."""


def _opener(prefix: str) -> Callable[[ToolIndex], str | None]:
    def build(tools: ToolIndex) -> str | None:
        names = tool_name_pattern(ToolIndex([s for n, s in tools.specs.items() if takes_one_string(tools, n)]))
        return None if names is None else rf"{prefix}<(?P<name>{names})>{_BODY}"

    return build


ROWS = [
    Dialect(
        "tool_tag_body",
        "<",
        None,
        kind="untagged",
        start="message",
        first="<",
        reader=_open,
        open_for_tools=_opener(""),
    ),
    Dialect(
        "tool_tag_body_line",
        r"\n",
        None,
        kind="untagged",
        first="\n",
        reader=_open,
        open_for_tools=_opener(r"\n[ \t]{0,8}"),
    ),
]
"""``<NAME>`` alone on its line, opening the message or a line, then the body: NAME an offered tool of one string."""
