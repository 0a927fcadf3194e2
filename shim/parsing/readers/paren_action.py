"""A ReAct action with its argument written raw in parentheses: ``Action: bash(ls -la)``.

klauscode's ReAct prompt shows each tool as ``NAME(argument)`` and the harness passes the text between the
parentheses to the tool as it stands, so models write it raw: a shell command, a heredoc over several lines, an
expression (``calculate(2 + 3)``: the text ``2 + 3``, never its value), a quoted string, ``command: "ls -R"`` (the
signature's parameter name copied), or a JSON object, also in a ```` ```json ```` fence inside the parentheses.

The evidence is strict: ``Action:`` (or ``Action 3:``) opens the message or a line, the name is an offered tool
that takes one string (its only parameter, or its only required one), glued to its ``(``; any offered tool when a
fence follows the parenthesis. The argument runs to the matching ``)``, over lines if need be (parentheses inside
double-quoted strings are the value's), and only blanks, or the closing fence of a fence around the action, may
follow that ``)`` on its line: else the line is prose (``Action: bash(ls) is how you list files``). The argument
is read as the call's arguments when it is a JSON object, Python-style keyword arguments of declared parameters or
one literal string; any other text is the value of the tool's one string parameter, as written. The output ending
inside the parentheses is a call cut off. Python-style calls of other tools (``Action: click(x=1)``) are
`pythonic_calls`'; ``Action: NAME`` then ``Action Input:`` is `react`'s.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import regex

from shim.parsing import lenient_json
from shim.parsing.readers.base import MORE, Block, Context, Next, keep_line_break, message_and_line_rows
from shim.parsing.readers.bracket_action import takes_one_string
from shim.parsing.readers.json_body import CUT_OFF
from shim.parsing.readers.pycall import parse_arguments
from shim.parsing.readers.tool_xml import tool_name_pattern
from shim.parsing.shapes import ToolIndex, one_parameter

__all__ = ["ROWS"]

_LABEL = r"Action(?:[ \t]{1,4}\d{1,3})?[ \t]{0,8}:[ \t]{0,8}"
_FENCED = r"(?=[ \t]{0,4}(?:\r?\n[ \t]{0,4})?```)"
_FENCE = regex.compile(
    r"\A[ \t\r\n]*```[\w.+\-]{0,16}[ \t]*\r?\n(?P<inner>.*?)\r?\n?[ \t]*```[ \t\r\n]*\Z", regex.DOTALL
)
_LINE_REST = regex.compile(r"[ \t]{0,8}(?=\r?\n|\Z)")
"""What may follow the closing parenthesis on its line: blanks."""
_FENCE_LINE = regex.compile(r"\r?\n[ \t]{0,3}```[ \t]{0,8}(?=\r?\n|\Z)")
"""The closing line of a fence around the action."""
_MAX_BODY = 1 << 20


class ParenArgument:
    """The argument up to the matching ``)``, then the rest of its line; decided whole."""

    def __init__(self, ctx: Context, block: Block, name: str) -> None:
        self.ctx = ctx
        self.block = block
        self.name = ctx.tools.resolve(name)
        self.body: list[str] = []
        self.size = 0
        self.depth = 0
        self.quoted = False
        self.escaped = False
        self.closed = False

    def feed(self, text: str, pos: int, final: bool) -> tuple[int, Next]:
        if self.closed:
            return self._after(text, pos, final)
        for index in range(pos, len(text)):
            char = text[index]
            if self.quoted:
                if self.escaped:
                    self.escaped = False
                elif char == "\\":
                    self.escaped = True
                elif char == '"':
                    self.quoted = False
            elif char == '"':
                self.quoted = True
            elif char == "(":
                self.depth += 1
            elif char == ")":
                if self.depth == 0:
                    self.ctx.consume(text[pos : index + 1])
                    self.body.append(text[pos:index])
                    self.closed = True
                    return self._after(text, index + 1, final)
                self.depth -= 1
        self.ctx.consume(text[pos:])
        self.body.append(text[pos:])
        self.size += len(text) - pos
        if self.size > _MAX_BODY:
            self.ctx.revert()
            return len(text), None
        if final:
            self.ctx.fail_call(CUT_OFF)
            return len(text), None
        return len(text), self

    def _after(self, text: str, pos: int, final: bool) -> tuple[int, Next]:
        end = _LINE_REST.match(text, pos, partial=not final)
        if end is not None and (end.partial or (end.end() >= len(text) and not final)):
            return pos, MORE  # the line may go on in the next chunk
        stop = None if end is None else end.end()
        if stop is not None and self.block.fence:  # the closing line of the fence around the action is its markup
            fence = _FENCE_LINE.match(text, stop, partial=not final)
            if fence is not None and (fence.partial or (fence.end() >= len(text) and not final)):
                return pos, MORE
            stop = stop if fence is None else fence.end()
        arguments = None if stop is None else self._arguments("".join(self.body))
        if stop is None or arguments is None:
            self.ctx.revert()  # more on the line, or no argument the tool takes: prose
            return pos, None
        self.ctx.consume(text[pos:stop])
        self.ctx.end_call(self.name, arguments, streamed=False)
        return stop, None

    def finish(self, truncated: bool) -> None:
        if self.closed:
            self.feed("", 0, True)
        else:
            self.ctx.fail_call(CUT_OFF)

    def _arguments(self, body: str) -> dict[str, Any] | None:
        tools = self.ctx.tools
        fenced = _FENCE.match(body)
        raw = (fenced.group("inner") if fenced is not None else body).strip()
        if raw.startswith("{") and raw.endswith("}"):
            value = lenient_json.loads_object(raw)
            if value is not None:
                return value
        if fenced is not None or not takes_one_string(tools, self.name):
            return None
        try:
            parsed: dict[str, Any] | None = parse_arguments(raw, tools.properties(self.name) or {})
        except ValueError:
            parsed = None
        if parsed is not None and len(parsed) == 1 and all(isinstance(v, str) for v in parsed.values()):
            return parsed  # `"ls -R"`, `command: "ls -R"`: a literal string, or the parameter named
        return one_parameter(tools, self.name, raw)  # `2 + 3`, `ls -la`, a heredoc: the text as written


def _open(ctx: Context, block: Block, match: regex.Match[str]) -> ParenArgument:
    keep_line_break(ctx)  # the line break before the label stays text
    return ParenArgument(ctx, block, match.group("name"))


def _opener(prefix: str) -> Callable[[ToolIndex], str | None]:
    def build(tools: ToolIndex) -> str | None:
        one = tool_name_pattern(ToolIndex([s for n, s in tools.specs.items() if takes_one_string(tools, n)]))
        every = tool_name_pattern(tools)
        if every is None:
            return None
        names = rf"(?P<name>{one})\(|" if one is not None else ""
        return rf"{prefix}{_LABEL}(?:{names}(?P<name>{every})\({_FENCED})"

    return build


ROWS = message_and_line_rows(
    "paren_action",
    _opener,
    reader=_open,
    open="Action",  # no `first`: the scanner stops at the leading word, not at every `a` of prose
    example="Action: NAME(ARGUMENT)",
)
"""``Action: NAME(ARGUMENT)`` opening the message or a line."""
