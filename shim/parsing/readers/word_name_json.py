"""The word ``tool_call`` on a line of its own, an offered tool's name on the next, its arguments object on the next.

    tool_call
    ping
    {"x": 1}

duma-benchmark's "legacy" text format (its ``_parse_text_tool_calls``, for DeepSeek-V3.2's replies): a call written
as three lines, the keyword, the name, the JSON arguments. Leniencies: ``function_call`` for the word, in any case
(``TOOL_CALL``); blanks around each line; the object over several lines.

The evidence is strict: the word stands alone on the line that opens the message or a line (``the tool_call`` is
words of a sentence), the name alone on the next line is an offered tool's, a ``{`` opens the line after it, the
object is JSON and reads as that tool's arguments (the shape rules every untagged call goes through,
`shim.parsing.readers.untagged.calls_of`), and only blanks follow it on its line. Anything else (a name no tool has,
prose after the object, an object that does not close, the lines inside a code fence or after words presenting an
example: the core's prose rules) is text again, unchanged.
"""

from __future__ import annotations

from collections.abc import Callable

import regex

from shim.parsing.readers.base import Block, Context, keep_line_break, message_and_line_rows
from shim.parsing.readers.tool_xml import tool_name_pattern
from shim.parsing.readers.untagged import JsonCall, JsonCandidate, call_of
from shim.parsing.shapes import ToolIndex

__all__ = ["ROWS"]

_LINE_END = regex.compile(r"[ \t]*(?=\r?\n|\Z)")
"""Only blanks after the object on its line."""
_WORD = r"(?i:tool_call|function_call)"


def _open(ctx: Context, block: Block, match: regex.Match[str]) -> JsonCall:
    """The arguments object, held until it closes and its line ends."""
    del block
    keep_line_break(ctx)  # the line break before the word stays text
    name = match.group("name")
    return JsonCall(ctx, JsonCandidate(ctx), [(_LINE_END, True)], as_call=call_of(name))


def _opener(prefix: str) -> Callable[[ToolIndex], str | None]:
    def build(tools: ToolIndex) -> str | None:
        names = tool_name_pattern(tools)
        if names is None:
            return None
        line = r"[ \t]{0,4}\r?\n[ \t]{0,8}"
        return rf"{prefix}{_WORD}{line}(?P<name>{names}){line}(?=\{{)"

    return build


ROWS = message_and_line_rows(
    "word_name_json", _opener, reader=_open, open=r"[TtFf]", first="TtFf", indent=r"[ \t]{0,8}"
)
"""``tool_call`` / NAME / ``{…}`` lines opening the message or a line, NAME an offered tool."""
