"""The tail of a JSON call object whose head the prompt wrote: ``"Calculator",\\n"input": "sqrt(512) * 7"\\n}``.

A harness that steers a model by prefilling its answer ends the prompt inside the call object (Pinecone's Mixtral
agent: ```` ```json\\n{\\n"tool_name": ````), so the output is the rest of it: the name's string value, a comma,
the other members, the object's ``}`` and the fence's closing line. Read whole, the text is a fragment; read as the
rest of ``{"name": …`` it is a call.

The evidence is strict: the tail opens the message, its first value is an offered tool's name as a JSON string
followed by a comma and another member's key, and the rest with the head put back must be one JSON object that
closes and reads as a call of that tool (`untagged.calls_of`, the shape rules every untagged call goes through);
anything else (``"Search", she said.``, members that do not close) is text again. A closing fence on the line after
the object is the call's markup: its opening fence is the prompt's.
"""

from __future__ import annotations

import regex

from shim.parsing.readers.base import Block, Context, Dialect
from shim.parsing.readers.tool_xml import tool_name_pattern
from shim.parsing.readers.untagged import JsonCall, JsonCandidate
from shim.parsing.shapes import ToolIndex

__all__ = ["ROWS"]

_HEAD = '{"name": '
"""The head the prompt wrote, put back before the tail (any name key reads the same: the shape rules' first)."""
_FENCE_CLOSE = regex.compile(r"[ \t]{0,8}\r?\n[ \t]{0,3}```[ \t]{0,8}(?=\r?\n|\Z)")


def _open(ctx: Context, block: Block, match: regex.Match[str]) -> JsonCall:
    """The members after the name, up to the object's ``}``; then the fence's closing line, if it follows."""
    del block
    return JsonCall(ctx, JsonCandidate(ctx, _HEAD + match.group()), [(_FENCE_CLOSE, False)])


def _opener(tools: ToolIndex) -> str | None:
    names = tool_name_pattern(tools)
    return None if names is None else rf'"(?:{names})"[ \t]{{0,4}},(?=[ \t\r\n]{{0,8}}")'


ROWS = [
    Dialect(
        "json_tail",
        '"',
        None,
        kind="untagged",
        start="message",
        first='"',
        reader=_open,
        open_for_tools=_opener,
    )
]
"""``"NAME", "KEY": …}`` opening the message: the rest of a call object the prompt opened."""
