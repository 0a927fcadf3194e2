"""A ReAct action line with its input raw after the name's colon: ``Action: calculate: 37 + 20``, then ``PAUSE``.

Simon Willison's ReAct loop (copied by DeepLearning.AI's "AI Agents in LangGraph" and many tutorials) asks for
``Thought:``, then ``Action: NAME: INPUT`` and ``PAUSE``, and its harness runs the first line that reads
``^Action: (\\w+): (.*)$``, passing the input as written: an expression (``(a: b) + 37``, never its value), a
breed's name, a query. The input is one line; ``PAUSE`` alone on the next line is the prompt's word for "now run
it": markup of the call.

Plain words, so the evidence is strict: ``Action:`` (or ``Action 3:``) opens the message or a line, the name is an
offered tool glued to its colon, and the line is the call only when ``PAUSE`` follows alone on its line or nothing
but blanks (or the model's end-of-turn token) follows it to the end of the output; any other text after it keeps
the line text (a document describing the loop: ``Action: search: find it`` then prose). The input is read as
`react`'s string inputs are: a JSON object is the arguments, keyword pairs of declared parameters are those, any
other text (without a pair of quotes around it) is the value of the tool's one parameter (its only one, or its only
required one); a tool of several parameters given raw text keeps the line text. ``Action: NAME(…)`` is
`paren_action`'s, ``Action: NAME`` then ``Action Input:`` `react`'s.
"""

from __future__ import annotations

from collections.abc import Callable

import regex

from shim.parsing.readers.base import (
    MORE,
    Block,
    Context,
    Next,
    keep_line_break,
    match_at,
    message_and_line_rows,
)
from shim.parsing.readers.block_end import TURN_END
from shim.parsing.readers.react import input_arguments, unquoted
from shim.parsing.readers.tool_xml import tool_name_pattern
from shim.parsing.shapes import ToolIndex

__all__ = ["ROWS"]

_LABEL = r"Action(?:[ \t]{1,4}\d{1,3})?[ \t]{0,8}:[ \t]{0,8}"
_LINE_END = regex.compile(rf"\r?\n|{TURN_END.pattern}", regex.IGNORECASE)
"""Where the input ends: its line's end, or the model's end-of-turn token glued to it (``…: 37 + 20<|eot_id|>``)."""
_PAUSE = regex.compile(r"[ \t]{0,8}\r?\n[ \t\r\n]{0,16}PAUSE[ \t]{0,8}(?=\r?\n|\Z)")
"""The prompt's stop word alone on a line below the action (blank lines between allowed): the call's markup."""
_REST = regex.compile(r"[ \t\r\n]*")
_MAX_LINE = 1 << 16


class ColonInput:
    """The input to the end of its line, then what follows it: decided once ``PAUSE`` or the output's end is seen."""

    def __init__(self, ctx: Context, name: str) -> None:
        self.ctx = ctx
        self.name = ctx.tools.resolve(name)
        self.body: list[str] = []
        self.size = 0
        self.ended = False

    def feed(self, text: str, pos: int, final: bool) -> tuple[int, Next]:
        if not self.ended:
            end = _LINE_END.search(text, pos, partial=not final)
            stop = len(text) if end is None else end.start()
            self.ctx.consume(text[pos:stop])
            self.body.append(text[pos:stop])
            self.size += stop - pos
            if self.size > _MAX_LINE:
                self.ctx.revert()
                return stop, None
            if end is None and not final:
                return stop, self
            if end is not None and end.partial:
                return stop, MORE  # `\r` or a token's start (`<|eo`) at the chunk's end
            self.ended = True
            pos = stop
        pause = match_at(_PAUSE, text, pos, final)
        if pause is MORE:
            return pos, MORE
        if pause is not None:
            return self._decide(pause.group(), pause.end())
        rest = _REST.match(text, pos)
        assert rest is not None
        if rest.end() >= len(text):
            if not final:
                return pos, MORE  # the output may end here, or go on
            return self._decide("", pos)
        turn = match_at(TURN_END, text, rest.end(), final)
        if turn is MORE:
            return pos, MORE
        if turn is not None:  # `…: 37 + 20<|eot_id|>`: the token is the core's to read as markup
            return self._decide("", pos)
        self.ctx.revert()  # more text after the line: a line of prose that reads like the form
        return pos, None

    def _decide(self, markup: str, end: int) -> tuple[int, Next]:
        arguments = input_arguments(self.ctx.tools, self.name, unquoted("".join(self.body)))
        if arguments is None:
            self.ctx.revert()
            return end - len(markup), None
        self.ctx.consume(markup)
        self.ctx.end_call(self.name, arguments, streamed=False)
        return end, None

    def finish(self, truncated: bool) -> None:
        if truncated:
            self.ctx.revert()
        else:
            self.feed("", 0, True)


def _open(ctx: Context, block: Block, match: regex.Match[str]) -> ColonInput:
    del block
    keep_line_break(ctx)  # the line break before the label stays text
    return ColonInput(ctx, match.group("name"))


def _opener(prefix: str) -> Callable[[ToolIndex], str | None]:
    def build(tools: ToolIndex) -> str | None:
        names = tool_name_pattern(tools)
        return None if names is None else rf"{prefix}{_LABEL}(?P<name>{names}):(?![:/])[ \t]{{0,8}}"

    return build


ROWS = message_and_line_rows(
    "colon_action",
    _opener,
    reader=_open,
    open="Action",  # no `first`: the scanner stops at the leading word, not at every `a` of prose
    example="Action: NAME: INPUT\nPAUSE",
)
"""``Action: NAME: INPUT`` opening the message or a line, then ``PAUSE`` or the output's end."""
