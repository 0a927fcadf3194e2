"""An offered tool's name and its arguments object as a bracketed pair: ``[NAME, {…}]``.

    [mcp_perplexity_ask, {"messages":[{"role":"user","content":"What is 2+2?"}]}]

A tool call written as a two-item list, the name first (unquoted, as a model copies a prompt's ``[tool_name,
{json}]`` notation, or quoted as JSON would have it) and the arguments object second; personal_agent's
``parse_text_tool_calls`` keeps it as its fallback strategy. Leniencies: the name with or without double quotes;
up to two stray ``}`` between the object and the ``]`` (a model closing one brace too many, the same parser's
"trailing noise" test).

The evidence is strict: the pair opens the message or a line, the name is an offered tool's followed by a comma and
a ``{``, the object is JSON and reads as that tool's arguments (the shape rules every untagged call goes through,
`shim.parsing.readers.untagged.calls_of`), the ``]`` closes the pair and only blanks follow it on its line. Anything
else (a pair inside a sentence, a name no tool has, prose after the ``]``, an object that does not close) is text
again, unchanged.
"""

from __future__ import annotations

import json
from collections.abc import Callable

import regex

from shim.parsing.json_scan import Status
from shim.parsing.readers.base import MORE, Block, Context, Dialect, Next, keep_line_break, match_at
from shim.parsing.readers.tool_xml import tool_name_pattern
from shim.parsing.readers.untagged import JsonCandidate, calls_of
from shim.parsing.shapes import ToolIndex

__all__ = ["ROWS"]

_CLOSE = regex.compile(r"[ \t\r\n]{0,8}(?:\}[ \t]{0,4}){0,2}\][ \t]*(?=\r?\n|\Z)")
"""The pair's ``]`` (after at most two stray ``}``), the last thing on its line."""


class BracketPair:
    """The arguments object, held until the pair's ``]`` and the line's end decide it."""

    def __init__(self, ctx: Context, name: str) -> None:
        self.ctx = ctx
        self.name = name
        self.json = JsonCandidate(ctx)
        self.complete = False

    def feed(self, text: str, pos: int, final: bool) -> tuple[int, Next]:
        if not self.complete:
            new, status = self.json.scan(text, pos, final)
            if status is Status.MORE:
                return new, MORE
            if status is not Status.DONE:
                return new, None  # not JSON: already text again (`JsonCandidate` reverts)
            self.complete = True
            pos = new
        close = match_at(_CLOSE, text, pos, final)
        if close is MORE:
            return pos, MORE
        shapes = [] if close is None else calls_of(_as_call(self.name, self.json.text()), self.ctx)
        if close is None or len(shapes) != 1:
            self.ctx.revert()
            return pos, None
        self.ctx.consume(close.group())
        self.ctx.end_call(shapes[0].name, shapes[0].arguments, streamed=False)
        return close.end(), None

    def finish(self, truncated: bool) -> None:
        if self.complete and not truncated:
            self.feed("", 0, True)
        else:
            self.ctx.revert()


def _as_call(name: str, arguments: str) -> str:
    """The pair written as the call object the shape rules read."""
    return f'{{"name": {json.dumps(name)}, "arguments": {arguments}}}'


def _open(ctx: Context, block: Block, match: regex.Match[str]) -> BracketPair:
    del block
    keep_line_break(ctx)  # the line break before the pair stays text
    return BracketPair(ctx, match.group("name"))


def _opener(prefix: str) -> Callable[[ToolIndex], str | None]:
    def build(tools: ToolIndex) -> str | None:
        names = tool_name_pattern(tools)
        if names is None:
            return None
        return rf'{prefix}\[[ \t]{{0,4}}(?P<q>"?)(?P<name>{names})(?P=q)[ \t]{{0,4}},[ \t\r\n]{{0,8}}(?=\{{)'

    return build


ROWS = [
    Dialect(
        "bracket_name_json",
        r"\[",
        None,
        kind="untagged",
        start="message",
        first="[",
        reader=_open,
        open_for_tools=_opener(""),
    ),
    Dialect(
        "bracket_name_json_line",
        r"\n",
        None,
        kind="untagged",
        first="\n",
        reader=_open,
        open_for_tools=_opener(r"\n[ \t]{0,8}"),
    ),
]
"""``[NAME, {…}]`` opening the message or a line, NAME an offered tool."""
