"""Calls whose markup lost a piece. A JSON call whose opener was left out but whose closer was written, mid-message:
``Sure. {"name": "get_weather", "arguments": {…}}</tool_call>`` (at the start of a message, bare JSON is
`untagged.BARE`'s, and ``<function=…>…</function></tool_call>`` is `qwen_xml`'s).

Untagged, so it needs the evidence: ``{"name": "<offered tool>"`` opens it (the opener is built from the
offered names), the object has a call's shape, and a call closer follows it at once; otherwise it is text,
with no error.

A call tag's opener that lost its ``<`` where the message begins, or has backticks in its place (LM-Studio's notes on
Gemma: ````` ``tool_call>read_file(path="…")</tool_call> `````): the opener of the family whose tag it names, read
by that family's reader with the same evidence (a body that is no call is text again).

A call tag's closer opening the message, no block open, right before a call or a tag (``</tool_call> {"name": …}``;
``</\n\n<tool_calls>[…]``, a closer cut to its ``</`` on a line before a call tag): the previous turn's markup left
over, markup too; the message begins after it. Before a word it is a tag named in prose, text.
"""

from __future__ import annotations

from typing import Any

import regex

from shim.parsing.json_scan import Status
from shim.parsing.readers.base import MORE, Block, Context, Dialect, Next
from shim.parsing.readers.block_end import Closed, Revert, open_markup
from shim.parsing.readers.tool_xml import tool_name_pattern
from shim.parsing.readers.untagged import JsonCandidate, calls_of
from shim.parsing.shapes import ToolIndex
from shim.parsing.tags import PARTIAL, MarkerMatch

__all__ = ["ROWS", "OrphanClosed"]

_CALL_TAGS = r"tool_calls?|function_calls?|functioncall|toolcall|tool[-_]use"
"""The generic call tags (`tagged_json`'s, `minimax`'s): a message's first word is held back only while it
may be one."""


class OrphanClosed:
    """``{"name": …}`` in text: a call only if a call closer follows the object at once."""

    def __init__(self, ctx: Context, block: Block, opener: str) -> None:
        self.ctx = ctx
        self.json = JsonCandidate(ctx, opener)
        self.done = False

    def feed(self, text: str, pos: int, final: bool) -> tuple[int, Next]:
        ctx = self.ctx
        if not self.done:
            new, status = self.json.scan(text, pos, final)
            if status is not Status.DONE:
                return new, (MORE if status is Status.MORE else None)
            self.done, pos = True, new
        at = pos
        while at < len(text) and text[at] in " \t\r\n":
            at += 1
        closer = ctx.markers.match(text, at, final, opens=False, closes=True) if at < len(text) else None
        if closer is PARTIAL or (at >= len(text) and not final):
            return pos, MORE
        shapes = calls_of(self.json.text(), ctx) if isinstance(closer, MarkerMatch) else []
        if not shapes or not isinstance(closer, MarkerMatch):
            ctx.revert()
            return pos, None
        ctx.consume(text[pos:at])
        for shape in shapes:
            ctx.end_call(shape.name, shape.arguments, streamed=False)
        ctx.markup(closer.match.group())
        return closer.match.end(), Closed(ctx)

    def finish(self, truncated: bool) -> None:
        self.ctx.revert()


def _open_orphan(ctx: Context, block: Block, match: regex.Match[str]) -> OrphanClosed:
    return OrphanClosed(ctx, block, match.group())


def _orphan_opener(tools: ToolIndex) -> str | None:
    names = tool_name_pattern(tools)
    return None if names is None else rf'\{{[ \t\r\n]{{0,16}}"name"[ \t]{{0,8}}:[ \t]{{0,8}}"(?:{names})"'


def _open_lost_bracket(ctx: Context, block: Block, match: regex.Match[str]) -> Any:
    """The family whose opener ``<TAG>`` is: its reader reads on, as after the opener written whole."""
    found = ctx.markers.match(f"<{match.group('tag')}>", 0, True)
    row = found.dialect if isinstance(found, MarkerMatch) else None
    if not isinstance(found, MarkerMatch) or row is None or row.kind != "call" or row.reader is None:
        return Revert(ctx)
    return row.reader(ctx, Block(row), found.match)


ROWS = [
    # Sure. {"name": "get_weather", "arguments": {…}}</tool_call>: the opener left out, the closer written.
    Dialect(
        "orphan_closer_json",
        r"\{",
        None,
        kind="untagged",
        first="{",
        reader=_open_orphan,
        open_for_tools=_orphan_opener,
    ),
    # ``tool_call>NAME(…)</tool_call>`` opening the message: the tag's `<` lost, or written as backticks.
    Dialect(
        "lost_bracket_opener",
        rf"(?:`{{1,3}}|(?!`))(?P<tag>{_CALL_TAGS})>",
        None,
        kind="untagged",
        start="message",
        first="`tfTF",
        reader=_open_lost_bracket,
    ),
    # ``</tool_call> {"name": …}`` opening the message: a closer with no opener, before a call or a tag, is markup.
    Dialect(
        "stray_closer_first",
        rf"</[ \t]{{0,4}}(?:{_CALL_TAGS})[ \t]{{0,4}}>(?=[ \t\r\n]{{0,16}}[{{\[<])"
        rf"|</(?=[ \t]{{0,4}}\r?\n[ \t\r\n]{{0,16}}<(?:{_CALL_TAGS}|\|))",
        None,
        kind="markup",
        start="message",
        first="<",
        reader=open_markup,
    ),
]
